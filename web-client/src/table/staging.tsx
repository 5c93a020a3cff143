// The staging area above the hand: what the selection or the staged groups count toward an opening (the
// engine's count), the melds the selection may go onto, and the groups staged so far.
import { Card } from "../components";
import { canAddTo, openingWords } from "./offers";
import { plural } from "./names";
import { useTable } from "./state";
import { cardsWords, listWords, meldWords } from "./words";

/** The count of the staged groups or the selection, and the staged groups with their cards. */
export function Staging() {
  const { offers, staged, selectedCards, pileCards, setPileCards, planCount, view, myOwner } = useTable();
  const opening = offers?.opening ?? null;
  const openingText = opening ? openingWords(opening) : null;
  const stagingShown = staged.length > 0 || selectedCards.length > 0 || pileCards.length > 0 || planCount > 0;
  // The melds on the table the whole selection may go onto (each card offered there).
  const targets = offers && view && selectedCards.length ? [...new Set(view.melds.filter((m) => m.owner === myOwner).map((m) => m.rank))].filter((r) => canAddTo(offers, selectedCards, r)) : [];
  return (
    <>
      {stagingShown && (openingText || selectedCards.length) ? (
        <div class="points" data-testid="meld-points">
          {openingText ? (
            <>
              {staged.length ? (
                <>
                  {plural(staged.length, "group")} staged{opening?.with_top ? " with the pile's top card" : ""}: <strong>{openingText.points}</strong>
                </>
              ) : (
                <>Selected: {cardsWords(selectedCards)}</>
              )}
              {" · "}
              <span class={openingText.enough ? "enough" : "still"} data-testid="points-needed">
                {openingText.need}
              </span>
            </>
          ) : (
            <>
              Selected: {cardsWords(selectedCards)}
              {targets.length ? ` · onto your ${listWords(targets.map(meldWords))}` : ""}
            </>
          )}
        </div>
      ) : null}
      {staged.length || pileCards.length ? (
        <div class="groups" aria-label="Groups staged together">
          {pileCards.length ? (
            <span class="group-chip with-pile" data-testid="staged-group">
              <span class="group-name">with the pile's top card</span>
              {pileCards.map((code, ix) => (
                <Card key={ix} code={code} small />
              ))}
              <button type="button" class="link" aria-label="Put the cards for the pile back" onClick={() => setPileCards([])}>
                ×
              </button>
            </span>
          ) : null}
          {staged.map((g, i) => (
            <span class={`group-chip ${g.with_pile ? "with-pile" : ""}`} key={i} data-testid="staged-group">
              <span class="group-name">
                G{i + 1} · {meldWords(g.rank)}
                {g.with_pile ? " · with the pile's top card" : ""}
              </span>
              {g.cards.map((code, ix) => (
                <Card key={ix} code={code} small />
              ))}
            </span>
          ))}
        </div>
      ) : null}
    </>
  );
}
