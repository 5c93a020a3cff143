// Move text from what the player selected, in the protocol's notation (docs/protocol.md). Nothing here
// decides what is legal: the moves the page plays are the offered steps (table/offers.ts); the text built
// here is only the selection sent as it is, for the server to judge and, if it must, refuse in words.
import { isWild } from "../cards";

/** The cards at ``indexes`` of the sorted hand, as codes (indexes not in the hand are left out). */
export function cardsAt(hand: readonly string[], indexes: readonly number[]): string[] {
  return indexes.map((i) => hand[i]).filter((c): c is string => Boolean(c));
}

/** A group in the notation: "KS KH KD", "W: JK 2C" for wilds only (the notation names their rank). */
export function groupText(cards: readonly string[]): string {
  return cards.length > 0 && cards.every(isWild) ? `W: ${cards.join(" ")}` : cards.join(" ");
}

/** "meld KS KH KD": the selection as one group; null when nothing is selected. */
export function meldMove(hand: readonly string[], selected: readonly number[]): string | null {
  const cards = cardsAt(hand, selected);
  return cards.length ? `meld ${groupText(cards)}` : null;
}

/** Indexes into the sorted hand for the cards of each group (each copy used once); null if one is missing. */
export function indexesOf(hand: readonly string[], groups: readonly (readonly string[])[]): number[][] | null {
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

/** What a hint's "Select these cards" selects for the move buttons (which then send the hint's own
 * move): a pickup's first group (the naturals for the top card), every card of a meld, a discard's card. */
export function hintSelection(hand: readonly string[], move: string, groups: readonly string[][]): number[] | null {
  const found = indexesOf(hand, groups);
  if (!found) return null;
  if (move.startsWith("pickup")) return found[0] ?? [];
  return found.flat();
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
