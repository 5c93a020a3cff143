// Cards in words for people: "the king of spades", "three tens", "a joker". Notation (KS, TH) stays in
// the protocol, records and logs; whatever a person reads on the table says cards this way.
import { isJoker, rankOf, suitOf } from "../cards";

const RANK_NAME: Record<string, [string, string]> = {
  A: ["ace", "aces"], K: ["king", "kings"], Q: ["queen", "queens"], J: ["jack", "jacks"], T: ["ten", "tens"],
  "9": ["nine", "nines"], "8": ["eight", "eights"], "7": ["seven", "sevens"], "6": ["six", "sixes"],
  "5": ["five", "fives"], "4": ["four", "fours"], "3": ["three", "threes"], "2": ["two", "twos"],
};
const SUIT_NAME: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const NUMBER = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** A count in words up to twelve ("three"), digits beyond. */
export function numberWord(n: number): string {
  return NUMBER[n] ?? String(n);
}

/** One card: "the king of spades", "a joker". */
export function cardWords(code: string): string {
  if (isJoker(code)) return "a joker";
  const [name] = RANK_NAME[rankOf(code)] ?? [rankOf(code), ""];
  return `the ${name} of ${SUIT_NAME[suitOf(code)] ?? suitOf(code)}`;
}

/** A card's rank in the singular or plural ("ten", "tens"; "joker", "jokers"). */
function rankName(code: string, many: boolean): string {
  if (isJoker(code)) return many ? "jokers" : "joker";
  const names = RANK_NAME[rankOf(code)] ?? [rankOf(code), rankOf(code)];
  return many ? names[1] : names[0];
}

/** Several cards by rank, in the order first seen: "three tens", "two kings and a joker", "the ten of
 * hearts" for a single card. */
export function cardsWords(codes: readonly string[]): string {
  if (codes.length === 1 && codes[0]) return cardWords(codes[0]);
  const counts = new Map<string, { code: string; n: number }>();
  for (const code of codes) {
    const key = isJoker(code) ? "JK" : rankOf(code);
    const entry = counts.get(key);
    if (entry) entry.n += 1;
    else counts.set(key, { code, n: 1 });
  }
  const parts = [...counts.values()].map(({ code, n }) => {
    if (n > 1) return `${numberWord(n)} ${rankName(code, true)}`;
    const one = rankName(code, false);
    return `${/^[aeiou]/.test(one) ? "an" : "a"} ${one}`;
  });
  return listWords(parts);
}

/** "a, b and c". */
export function listWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** Card codes inside a sentence turned to words: "Discard KS: a single king" → "Discard the king of
 * spades: a single king"; a run of codes ("TH TC TC") becomes "three tens". Words that are not codes
 * stay as they are. */
export function sentenceWords(text: string): string {
  return text.replace(/\b(?:(?:[2-9TJQKA][SHDC]|JK)(?:\s+|\b))+/g, (run) => {
    const codes = run.trim().split(/\s+/);
    const trail = /\s$/.test(run) ? " " : "";
    return cardsWords(codes) + trail;
  });
}

/** The word for a meld's rank letter: "kings", "wilds" ("W"). */
export function meldWords(rank: string): string {
  if (rank === "W") return "wilds";
  return RANK_NAME[rank]?.[1] ?? rank;
}

/** A move of the notation as a sentence: "Take the pile with two nines, and meld three queens", "Add a
 * two to your kings", "Discard the five of hearts". */
export function moveWords(move: string): string {
  const [action = "", ...rest] = move.trim().split(/\s+/);
  const body = rest.join(" ");
  const groups = body ? body.split("|").map((part) => part.trim()) : [];
  const groupWords = (part: string) => {
    const m = /^([A-Z0-9]):\s*(.*)$/.exec(part);
    if (m && m[1] !== "W") return `${cardsWords((m[2] ?? "").split(/\s+/).filter(Boolean))} to your ${meldWords(m[1] ?? "")}`;
    return cardsWords((m ? (m[2] ?? "") : part).split(/\s+/).filter(Boolean));
  };
  switch (action) {
    case "draw":
      return "Draw from the stock";
    case "discard":
      return `Discard ${cardWords(rest[0] ?? "")}`;
    case "pickup": {
      if (!groups.length) return "Take the pile";
      const [first = "", ...others] = groups;
      return `Take the pile with ${groupWords(first)}${others.length ? `, and meld ${listWords(others.map(groupWords))}` : ""}`;
    }
    case "meld": {
      const adds = groups.filter((g) => /^[A-Z0-9]:/.test(g) && !g.startsWith("W:"));
      const news = groups.filter((g) => !adds.includes(g));
      const parts = [...(news.length ? [`meld ${listWords(news.map(groupWords))}`] : []), ...adds.map((g) => `add ${groupWords(g)}`)];
      const text = listWords(parts);
      return text.slice(0, 1).toUpperCase() + text.slice(1);
    }
    case "lay":
      return `Lay down ${cardWords(rest[0] ?? "")}`;
    case "ask":
      return "Ask your partner “May I go out?”";
    case "yes":
      return "Say yes";
    case "no":
      return "Say no";
    case "end":
      return "End your turn holding your last card";
    case "keep":
      return "Keep this Hand";
    case "swap":
      return "Swap your Hand and Foot";
    default:
      return sentenceWords(move);
  }
}
