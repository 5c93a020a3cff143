// The dock at the bottom of the table: whose turn it is, the notices (one at a time, in one place), and
// for a player their hand, the staged groups and the move buttons.
import { winsText } from "./dialogs";
import { MoveButtons } from "./move_buttons";
import { HandCards, MyHead } from "./hand";
import { Notices } from "./notices";
import { WaitingNotice } from "./pacing";
import { Staging } from "./staging";
import { useTable } from "./state";

/** The dock: the turn, the notices, and (for a player) the hand and its moves. */
export function Dock() {
  const { myTurn, me, table, label, welcome, actions } = useTable();
  if (!table) return null;
  return (
    <section class={`dock ${myTurn ? "my-turn" : ""}`} aria-label={me === null ? "Turn" : "Your cards and moves"} data-testid="dock">
      <TurnLine />
      <WaitingNotice table={table} label={label} host={Boolean(welcome?.host)} onStart={() => actions.hostAction("start")} />
      <LastTurn />
      <Notices />
      {me !== null ? (
        <>
          <MyHead />
          <Staging />
          <HandCards />
          <MoveButtons />
        </>
      ) : null}
    </section>
  );
}

/** Whose turn it is and what they are doing, who plays next; the end of the game when it is over. */
function TurnLine() {
  const { table, view, seating, sideNames, me, myTurn, label, welcome } = useTable();
  if (!table || !view || !seating) return null;
  const ended = table.ended === "host";
  const nextSeat = (view.to_move + 1) % seating.owner_of.length;
  const phaseText =
    view.phase === "draw" ? "draw two, or take the pile" : view.phase === "answer" ? "your partner asks “May I go out?”" : view.phase === "pick_foot" ? "keep this Hand or swap it for the other pile" : "meld, then discard";
  return (
    <div class="turn" aria-live="polite" data-testid="turn">
      {table.finished ? (
        <strong>
          {ended ? "The host ended the game" : "Game over"}:{" "}
          {table.winner === null ? (ended && !table.hands.length ? "no hand was finished" : "a tie") : winsText(sideNames[table.winner] ?? "?", seating.sides[table.winner]?.length ?? 1)}.
        </strong>
      ) : table.waiting_for.length ? (
        <span>
          Not begun yet: {view.to_move === me ? "you play" : `${label(view.to_move)} plays`} first
        </span>
      ) : myTurn ? (
        <strong class="your-turn">Your turn: {phaseText}</strong>
      ) : (
        <span>
          {label(view.to_move)} is {view.phase === "draw" ? "to draw" : view.phase === "answer" ? "answering “May I go out?”" : "playing"}…
          {me !== null && table.seats[view.to_move]?.away ? ` (${table.seats[view.to_move]?.name ?? "they"} ${welcome?.host ? "is away: you can hand the seat to a bot" : "is away"})` : ""}
        </span>
      )}
      {!table.finished ? <span class="next-up"> · next: {label(nextSeat)}</span> : null}
    </div>
  );
}

/** Once someone went out: whose last turn is still to come. */
function LastTurn() {
  const { view, outlook, me, myTurn, label } = useTable();
  if (!view || !outlook) return null;
  const outName = view.out_seat !== null ? label(view.out_seat) : null;
  if (view.last_round_left <= 0 || view.phase === "over") return null;
  const who = outName ? `${outName} went out` : "The last card was played";
  const lastTurnText = outlook.last_turn
    ? `${who}: this is your last turn${myTurn ? "" : " (still to come)"}.`
    : me === null || view.out_seat === me
      ? `${who}: everyone else plays one last turn.`
      : `${who}: you have played your last turn.`;
  return (
    <div class="last-turn" role="status" data-testid="last-turn">
      {lastTurnText}
    </div>
  );
}
