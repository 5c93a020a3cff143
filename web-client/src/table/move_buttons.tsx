// The move buttons under the hand: draw, take the pile, add a group, meld, discard, and the moves the
// engine offers only now (keep or swap the Foot, a red 3, ask to go out and answer, end the turn holding
// the last card). Each is enabled from the seat's offers and says in its title why not.
import { useTable } from "./state";

/** The toolbar of moves. */
export function MoveButtons() {
  const { myTurn, legal, offers, outlook, view, selected, selectedCards, staged, pileCards, planCount, plans, actions } = useTable();
  const { draw, pickup, stageGroup, meld, discard, clear, send } = actions;
  if (!view || !outlook) return null;
  // Whether the pile may be taken now is the engine's (offers.pile), as is why not.
  const canPickup = Boolean(offers?.pile.may);
  const canStage = Boolean(offers?.cards.some((c) => c.places.some((p) => p.steps.some((s) => s.move.startsWith("stage ")))));
  // split_draw: the engine lists "draw 7H" (the pile's top card and one stock card fewer) when it is legal
  const splitDraw = legal.find((m) => m.startsWith("draw ")) ?? null;
  const layRedThree = myTurn ? legal.find((m) => m.startsWith("lay ")) : undefined;
  const stagedPlans = plans.current.filter((p) => p.verb === "stage" && p.codes.length).length;
  const meldGroups = staged.length + stagedPlans + (selected.length ? 1 : 0);
  return (
    <div class="actions" role="toolbar" aria-label="Moves" data-testid="actions">
      <button type="button" class="action" disabled={!myTurn || !legal.includes("draw")} onClick={draw} aria-keyshortcuts="D" title={offers?.why_not.draw ?? "Draw from the stock"}>
        Draw
      </button>
      {splitDraw ? (
        <button type="button" class="action" disabled={!myTurn} onClick={() => send(splitDraw)} title="The pile's top card and one card fewer from the stock">
          Draw {splitDraw.slice(5)} and one
        </button>
      ) : null}
      <button type="button" class="action" disabled={!myTurn || !canPickup} onClick={pickup} aria-keyshortcuts="P" title={offers?.pile.refusal ?? outlook.pile_refusal ?? "Select the naturals that go with the top card first"} data-testid="take-pile">
        Take the pile
      </button>
      <button type="button" class="action" disabled={!myTurn || !(canStage || (canPickup && view.phase === "draw")) || !selected.length} onClick={stageGroup} aria-keyshortcuts="G" title={canStage ? "Set the selection aside toward an opening" : (offers?.why_not.meld ?? "Nothing to stage now")}>
        Add group
      </button>
      <button type="button" class="action primary" disabled={!myTurn || view.phase !== "play" || (!selected.length && !staged.length && !planCount)} onClick={meld} aria-keyshortcuts="M" title={offers?.why_not.meld ?? "Lay the selection (or the staged groups)"}>
        Meld{meldGroups > 1 ? ` ${meldGroups} groups` : ""}
      </button>
      <button type="button" class="action" disabled={!myTurn || view.phase !== "play" || selectedCards.length !== 1} onClick={discard} aria-keyshortcuts="X" title={offers?.why_not.discard ?? "Discard the selected card"}>
        Discard
      </button>
      {legal.includes("keep") ? (
        <button type="button" class="action primary" onClick={() => send("keep")}>
          Keep this Hand
        </button>
      ) : null}
      {legal.includes("swap") ? (
        <button type="button" class="action" onClick={() => send("swap")}>
          Swap: the other pile is my Hand
        </button>
      ) : null}
      {layRedThree ? (
        <button type="button" class="action" onClick={() => send(layRedThree)} title="Red 3s are laid down when you choose, and never discarded">
          Lay down a red 3
        </button>
      ) : null}
      {legal.includes("ask") ? (
        <button type="button" class="action" onClick={() => send("ask")}>
          Ask partner: May I go out?
        </button>
      ) : null}
      {legal.includes("yes") ? (
        <button type="button" class="action primary" onClick={() => send("yes")}>
          Yes, go out
        </button>
      ) : null}
      {legal.includes("no") ? (
        <button type="button" class="action" onClick={() => send("no")}>
          No, not yet
        </button>
      ) : null}
      {legal.includes("end") ? (
        <button type="button" class="action primary" onClick={() => send("end")} title={offers?.why_not.discard ?? "End your turn holding your last card"}>
          End my turn, keeping my card
        </button>
      ) : null}
      <button type="button" class="action subtle" disabled={!selected.length && !staged.length && !pileCards.length && !planCount} onClick={clear} title={offers?.cancel ? "Clear the selection and take the staged groups back" : "Clear the selection"}>
        Clear
      </button>
    </div>
  );
}
