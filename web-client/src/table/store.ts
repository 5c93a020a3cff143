// The table's state between server messages, kept as pure functions so they can be tested alone: the
// history of moves (kept across reconnects, never twice), the cards just received, and each seat's
// latest action for a few seconds.
import type { LastMove } from "../api";
import { received } from "./moves";

export const HISTORY_KEPT = 100;

/** The history with ``last`` appended, unless a move of that version (or later) is already there. */
export function withMove(history: readonly LastMove[], last: LastMove | null): LastMove[] {
  if (!last || history.some((m) => m.version >= last.version)) return history as LastMove[];
  return [...history, last].slice(-HISTORY_KEPT);
}

/** True when ``last`` is new to ``history`` (its notices have not been shown). */
export function isNew(history: readonly LastMove[], last: LastMove | null): last is LastMove {
  return Boolean(last) && !history.some((m) => m.version >= (last as LastMove).version);
}

/** The cards newly in the seat's hand after its own move ``last`` (a draw, the pile, the Foot); the
 * previous marks otherwise (they stay until the seat's next action), none in a new hand. */
export function freshCards(before: readonly string[], now: readonly string[], last: LastMove | null, me: number | null, marked: readonly string[], newHand: boolean): string[] {
  if (newHand) return [];
  if (!last || me === null || last.seat !== me) return marked as string[];
  const gains = last.events.some((e) => e.seat === me && (e.type === "drew" || e.type === "took_pile" || e.type === "foot"));
  return gains ? received(before, now) : [];
}
