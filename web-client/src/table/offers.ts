// The seat's offers (docs/protocol.md, "state": `offers`, from the engine's engine/offers.py) read for
// the move buttons: where each selected card may go, and the offered step that plays selected cards.
// Nothing here knows a rule: every answer is a lookup in what the server sent, and every move sent is
// the text of an offered step (or, where no step plays the selection, the selection for the server to
// judge and refuse in its own words).
import type * as Server from "../generated/messages";

export type Offers = Server.OffersJson;
export type Step = Server.StepJson;
export type Place = Server.PlaceJson;
/** The kinds of place a card may go (`Place.to`). */
export type To = Place["to"];

/** The places the server offers for the card ``code`` (none when it offers the card nothing). */
export function placesOf(offers: Offers | null, code: string): Place[] {
  return offers?.cards.find((c) => c.card === code)?.places ?? [];
}

/** True if every card of ``cards`` is among ``codes``, copies counted. */
export function within(cards: readonly string[], codes: readonly string[]): boolean {
  const left = [...codes];
  for (const card of cards) {
    const i = left.indexOf(card);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** ``codes`` without one copy of each of ``cards``. */
export function without(codes: readonly string[], cards: readonly string[]): string[] {
  const left = [...codes];
  for (const card of cards) {
    const i = left.indexOf(card);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** True if the two lists hold the same cards, copies counted. */
export function sameCards(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && within(a, b);
}

/** The offered steps of ``verb`` ("stage", "meld", "pickup") to one of the places ``to`` (of ``rank``
 * when given) of the cards ``codes``, playing cards of ``codes`` only: the most cards first, then in the
 * server's order. */
export function stepsFor(offers: Offers | null, codes: readonly string[], verb: string, to: readonly To[], rank?: string): Step[] {
  const found = new Map<string, Step>();
  for (const code of new Set(codes)) {
    for (const place of placesOf(offers, code)) {
      if (!to.includes(place.to) || (rank !== undefined && place.rank !== rank)) continue;
      for (const step of place.steps) {
        if (step.move.split(" ")[0] === verb && within(step.cards, codes) && !found.has(step.move)) found.set(step.move, step);
      }
    }
  }
  return [...found.values()].sort((a, b) => b.cards.length - a.cards.length);
}

/** True if every card of ``codes`` may go onto the side's meld of ``rank`` now (each has that place). */
export function canAddTo(offers: Offers | null, codes: readonly string[], rank: string): boolean {
  return codes.length > 0 && codes.every((code) => placesOf(offers, code).some((p) => p.to === "meld" && p.rank === rank));
}

/** True if every card of ``codes`` has a place with the pile's top card (a pickup, or staged onto its rank). */
export function goWithPile(offers: Offers | null, codes: readonly string[]): boolean {
  return codes.length > 0 && codes.every((code) => placesOf(offers, code).some((p) => p.to === "pile"));
}

/** The offered pickup that takes exactly the cards ``codes`` from the hand with the pile (none selected:
 * the first pickup offered), or null. */
export function pickupFor(offers: Offers | null, codes: readonly string[]): Step | null {
  if (!offers) return null;
  if (!codes.length) return offers.pile.takes[0] ?? null;
  return offers.pile.takes.find((s) => sameCards(s.cards, codes)) ?? stepsFor(offers, codes, "pickup", ["pile"]).find((s) => sameCards(s.cards, codes)) ?? null;
}

/** The offered step that puts the card ``code`` at the place ``to`` ("discard", "lay"), or null. */
export function stepTo(offers: Offers | null, code: string, to: To): Step | null {
  return placesOf(offers, code).find((p) => p.to === to)?.steps[0] ?? null;
}

/** The opening in words, from the server's count: "30 points · to open you need 50: 20 more". */
export function openingWords(opening: Server.OpeningCountJson): { points: string; need: string; enough: boolean } {
  const enough = opening.needed === 0;
  return { points: `${opening.points} points`, need: `to open you need ${opening.minimum}${enough ? ": enough" : `: ${opening.needed} more`}`, enough };
}
