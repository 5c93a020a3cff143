// Card codes (rank then suit: "KS", "TD", "3H"; "JK" a joker) and how they are shown and sorted.

export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"] as const;
const ORDER = "JK2AKQJT9876543";
const SUIT_ORDER = "SHDC";
export const SUIT_SYMBOL: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAME: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME: Record<string, string> = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", "9": "nine", "8": "eight", "7": "seven",
  "6": "six", "5": "five", "4": "four", "3": "three", "2": "two",
};

export function isJoker(code: string): boolean {
  return code === "JK";
}

/** The rank letter of a card ("W" for a joker). */
export function rankOf(code: string): string {
  return isJoker(code) ? "W" : code.slice(0, 1);
}

export function suitOf(code: string): string {
  return isJoker(code) ? "" : code.slice(1, 2);
}

export function isWild(code: string): boolean {
  return isJoker(code) || code.startsWith("2");
}

export function isRed(code: string): boolean {
  const suit = suitOf(code);
  return suit === "H" || suit === "D";
}

export function isRedThree(code: string): boolean {
  return code.startsWith("3") && isRed(code);
}

/** The rank as printed on a card face. */
export function rankLabel(code: string): string {
  if (isJoker(code)) return "★";
  const rank = rankOf(code);
  return rank === "T" ? "10" : rank;
}

/** Words a screen reader says for a card: "king of spades", "joker". */
export function cardName(code: string): string {
  if (isJoker(code)) return "joker";
  return `${RANK_NAME[rankOf(code)] ?? rankOf(code)} of ${SUIT_NAME[suitOf(code)] ?? suitOf(code)}`;
}

/** The word for a rank letter, for labels ("kings"). */
export function rankWord(rank: string): string {
  if (rank === "W") return "wilds";
  const word = RANK_NAME[rank] ?? rank;
  return word === "six" ? "sixes" : `${word}s`;
}

function sortKey(code: string): number {
  const rank = isJoker(code) ? 0 : ORDER.indexOf(rankOf(code), 2) - 1;
  return rank * 10 + SUIT_ORDER.indexOf(suitOf(code));
}

/** Cards sorted: jokers, 2s, then A down to 3, suits in S H D C order within a rank. */
export function sortCards(cards: readonly string[]): string[] {
  return [...cards].sort((a, b) => sortKey(a) - sortKey(b));
}

/** The hand grouped by rank (wilds together first), each group sorted; indexes into the sorted hand. */
export function groupByRank(sorted: readonly string[]): { rank: string; cards: { code: string; index: number }[] }[] {
  const groups: { rank: string; cards: { code: string; index: number }[] }[] = [];
  sorted.forEach((code, index) => {
    const rank = isWild(code) ? "W" : isRedThree(code) ? "3R" : rankOf(code);
    const last = groups[groups.length - 1];
    if (last && last.rank === rank) last.cards.push({ code, index });
    else groups.push({ rank, cards: [{ code, index }] });
  });
  return groups;
}
