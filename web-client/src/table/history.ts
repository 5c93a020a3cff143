// What happened, in sentences for people: each engine event of a move as a history line (cards in
// words), and each seat's latest action for its place at the table.
import type { GameEvent, LastMove } from "../api";
import { cardsWords, cardWords, meldWords } from "./words";

export interface LogEntry {
  id: number;
  text: string;
  notable: boolean;
}

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

/** One event as a line of the history, or null for events nobody reads (a turn starting). */
export function describeEvent(e: GameEvent, name: (seat: number) => string, blackThreeFreezes: boolean): LogEntry | null {
  const who = e.seat >= 0 ? name(e.seat) : "";
  const cards = cardsWords(e.cards);
  const line = (text: string, notable = false): LogEntry => ({ id: 0, text, notable });
  switch (e.type) {
    case "drew":
      return line(`${who} drew ${plural(e.amount, "card")}.`);
    case "took_top":
      return line(`${who} drew the pile's top card, ${cards}.`, true);
    case "book":
      return line(`${who} made a ${e.detail} book of ${e.rank ? meldWords(e.rank) : "a meld"}.`, true);
    case "took_pile":
      return line(`${who} took the discard pile (${plural(e.amount || e.cards.length, "card")}).`, true);
    case "melded":
      if (e.rank) {
        const what = meldWords(e.rank);
        return e.added ? line(`${who} added ${cards} to their ${what}.`) : line(`${who} melded ${what}: ${cards}.`);
      }
      return line(`${who} melded ${cards}.`);
    case "discarded": {
      const card = e.cards[0] ? cardWords(e.cards[0]) : "a card";
      const black3 = e.cards.some((c) => c === "3S" || c === "3C");
      if (black3 && blackThreeFreezes) return line(`${who} discarded a black 3 (${card}): the pile is frozen for the next player.`, true);
      return line(`${who} discarded ${card}.`);
    }
    case "red_three":
      return line(`${who} laid down a red 3 (${cards}).`, true);
    case "foot":
      return line(`${who} picked up their Foot.`, true);
    case "picked":
      return line(`${who} ${e.detail === "swap" ? "swapped their Hand and Foot" : "kept their Hand"}.`);
    case "asked":
      return line(`${who} asked: “May I go out?”`, true);
    case "answered":
      return line(`${who} answered ${e.detail || (e.amount ? "yes" : "no")}.`, true);
    case "went_out":
      return line(`${who} went out!`, true);
    case "last_round":
      return line(`${who} played their last card: everyone else plays one more turn.`, true);
    case "hand_over":
      return line("The hand is over.", true);
    case "new_hand":
      return line(`Hand ${e.amount + 1} is dealt.`);
    case "game_over":
      return line("The game is over.", true);
    case "turn":
      return null;
    default:
      return line(`${who} ${e.type.replace(/_/g, " ")} ${cards}`.trim());
  }
}

/** A seat's action in a few words for its place at the table ("drew 2", "melded three tens"). */
export function shortAction(move: LastMove): string {
  const parts: string[] = [];
  for (const e of move.events) {
    if (e.seat !== move.seat) continue;
    if (e.type === "drew") parts.push(`drew ${e.amount}`);
    else if (e.type === "took_pile") parts.push("took the pile");
    else if (e.type === "took_top" && e.cards[0]) parts.push(`drew ${cardWords(e.cards[0])} from the pile`);
    else if (e.type === "melded") parts.push(e.added && e.rank ? `added to ${meldWords(e.rank)}` : `melded ${cardsWords(e.cards)}`);
    else if (e.type === "discarded" && e.cards[0]) parts.push(`discarded ${cardWords(e.cards[0])}`);
    else if (e.type === "foot") parts.push("picked up their Foot");
    else if (e.type === "went_out") parts.push("went out");
    else if (e.type === "asked") parts.push("asked to go out");
    else if (e.type === "answered") parts.push(`said ${e.detail || (e.amount ? "yes" : "no")}`);
  }
  return parts.join(", ");
}
