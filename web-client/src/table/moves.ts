// Move building: the text of a play from what the player selected and staged, in the protocol's
// notation (docs/protocol.md). Nothing here decides what is legal: the server judges every move, and the
// only rule-like question asked here ("may these cards go onto that meld?") is answered from the
// server's own legal list. Today a play of several groups is sent as one compound move ("meld A | B",
// "pickup A | B"); a client that sends the engine's atomic steps instead changes only this module.
import { isWild, rankOf } from "../cards";

/** A group of cards the player built: indexes into the sorted hand, and the meld's rank when the group
 * was made by tapping a meld on the table (written "K: ..."). */
export interface Group {
  indexes: number[];
  rank?: string;
}

/** The cards of a group, as codes (indexes that are not in the hand are left out). */
export function cardsOf(hand: readonly string[], group: Group): string[] {
  return group.indexes.map((i) => hand[i]).filter((c): c is string => Boolean(c));
}

/** A group in the notation: "KS KH KD", "K: 2C" onto a meld, "W: JK 2C 2D" for wilds only. */
export function groupText(hand: readonly string[], group: Group): string {
  const cards = cardsOf(hand, group);
  if (group.rank) return `${group.rank}: ${cards.join(" ")}`;
  return cards.length > 0 && cards.every(isWild) ? `W: ${cards.join(" ")}` : cards.join(" ");
}

/** The staged groups, then the selection as the last group (when anything is selected). */
export function allGroups(staged: readonly Group[], selected: readonly number[], selectedRank?: string): Group[] {
  const out = [...staged];
  if (selected.length) out.push({ indexes: [...selected], ...(selectedRank ? { rank: selectedRank } : {}) });
  return out;
}

/** "meld G1 | G2": every staged group and the selection; null when there is nothing to meld. */
export function meldMove(hand: readonly string[], staged: readonly Group[], selected: readonly number[]): string | null {
  const parts = allGroups(staged, selected).map((g) => groupText(hand, g));
  return parts.length ? `meld ${parts.join(" | ")}` : null;
}

/** The selection added onto the meld of ``rank`` ("meld K: KS 2C"), with any staged groups before it. */
export function addToMove(hand: readonly string[], staged: readonly Group[], selected: readonly number[], rank: string): string | null {
  if (!selected.length) return null;
  return `meld ${allGroups(staged, selected, rank)
    .map((g) => groupText(hand, g))
    .join(" | ")}`;
}

/** Which of the groups goes with the pile's top card: the first (staged or selected) holding a natural
 * of the top card's rank; else the selection, else the first group. -1 when there are none. */
export function pileGroupIndex(hand: readonly string[], groups: readonly Group[], top: string | null): number {
  if (!groups.length) return -1;
  if (top) {
    const rank = rankOf(top);
    const found = groups.findIndex((g) => cardsOf(hand, g).some((c) => !isWild(c) && rankOf(c) === rank));
    if (found >= 0) return found;
  }
  return groups.length - 1;
}

/** "pickup G1 | G2 ...": the group for the top card first (whatever order the player built them in),
 * then the others in the order built. "pickup" alone when nothing is selected or staged. */
export function pickupMove(hand: readonly string[], staged: readonly Group[], selected: readonly number[], top: string | null): string {
  const groups = allGroups(staged, selected);
  const first = pileGroupIndex(hand, groups, top);
  const ordered = first < 0 ? [] : [groups[first] as Group, ...groups.filter((_, i) => i !== first)];
  return `pickup ${ordered.map((g) => groupText(hand, g)).join(" | ")}`.trim();
}

/** "discard 5H" for exactly one selected card, else null. */
export function discardMove(hand: readonly string[], selected: readonly number[]): string | null {
  const cards = selected.map((i) => hand[i]).filter((c): c is string => Boolean(c));
  return cards.length === 1 ? `discard ${cards[0]}` : null;
}

/** True if every one of ``cards`` may go onto the side's meld of ``rank``: each is a legal single-card
 * addition there in the server's ``legal`` list (a wild "meld K: 2C", a natural "meld KS"). */
export function canAddTo(cards: readonly string[], rank: string, legal: readonly string[]): boolean {
  if (!cards.length) return false;
  return cards.every((c) => (isWild(c) ? legal.includes(`meld ${rank}: ${c}`) : rankOf(c) === rank && legal.includes(`meld ${c}`)));
}

/** The groups of a move's text ("meld KS KH | K: 2C"): each group's rank when written "R: ...". */
export function groupRanks(move: string): (string | undefined)[] {
  const body = move.replace(/^\S+\s*/, "");
  return body.split("|").map((part) => /^\s*([A-Z0-9]):/.exec(part)?.[1]);
}

/** Indexes into the sorted hand for the cards of each group (each copy used once); null if one is missing. */
export function indexesOf(hand: readonly string[], groups: readonly string[][]): number[][] | null {
  const used = new Set<number>();
  const out: number[][] = [];
  for (const group of groups) {
    const indexes: number[] = [];
    for (const code of group) {
      const i = hand.findIndex((c, j) => c === code && !used.has(j));
      if (i < 0) return null;
      used.add(i);
      indexes.push(i);
    }
    out.push(indexes);
  }
  return out;
}

/** What a hint's "Select these cards" sets up for the move buttons: a pickup's first group selected and
 * its other groups staged; a meld's groups staged (with their ranks); a discard's card selected. */
export function hintSelection(hand: readonly string[], move: string, groups: readonly string[][]): { selected: number[]; staged: Group[] } | null {
  const found = indexesOf(hand, groups);
  if (!found) return null;
  const ranks = groupRanks(move);
  const action = move.split(" ")[0];
  if (action === "pickup") return { selected: found[0] ?? [], staged: found.slice(1).map((indexes) => ({ indexes })) };
  if (action === "meld") return { selected: [], staged: found.map((indexes, i) => ({ indexes, ...(ranks[i] ? { rank: ranks[i] } : {}) })) };
  return { selected: found[0] ?? [], staged: [] };
}

/** The card kind a card counts as in the rules' card values: "JK", "2", "A" ... "4", "3B", "3R". */
export function kindOf(code: string): string {
  if (code === "JK") return "JK";
  const rank = rankOf(code);
  if (rank === "3") return code.endsWith("H") || code.endsWith("D") ? "3R" : "3B";
  return rank;
}

/** The points cards count, by the hand's card values the server sent (outlook.card_values). */
export function pointsOf(cards: readonly string[], values: Readonly<Record<string, number>>): number {
  return cards.reduce((sum, c) => sum + (values[kindOf(c)] ?? 0), 0);
}

/** Cards that are in ``now`` and were not in ``before`` (copies counted): the cards just received. */
export function received(before: readonly string[], now: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const c of before) left.set(c, (left.get(c) ?? 0) + 1);
  const out: string[] = [];
  for (const c of now) {
    const n = left.get(c) ?? 0;
    if (n > 0) left.set(c, n - 1);
    else out.push(c);
  }
  return out;
}
