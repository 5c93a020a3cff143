// The trainer: a hint for the seat to move (the server's bot suggests a move and says why; "Select these
// cards" selects it), the keys, and the moves the rules allow now.
import { hintSelection } from "./moves";
import { useTable } from "./state";
import { moveWords, sentenceWords } from "./words";

/** The trainer's panel (open while a hint is asked or shown). */
export function Trainer() {
  const { drawer, setDrawer, hint, me, myTurn, legal, hand, state, setSelected, setHintPlan, actions } = useTable();
  const askHint = actions.askHint;
  const shownHint = hint.kind === "shown" && hint.hint.version === state?.version ? hint.hint : null;
  return (
    <details class="panel-box panel-trainer" open={drawer === "trainer" || hint.kind !== "none"} onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && drawer !== null && setDrawer("trainer")}>
      <summary>Trainer</summary>
      <div class="hint-box" data-testid="trainer">
        {me === null ? (
          <p class="muted">Hints are for the players; spectators get none.</p>
        ) : (
          <>
            <button type="button" class="action" disabled={!myTurn || hint.kind === "asking"} onClick={askHint} aria-keyshortcuts="H">
              {hint.kind === "asking" ? "Thinking…" : "Hint"}
            </button>
            {!myTurn ? <span class="muted"> Hints are given on your turn.</span> : null}
            {shownHint ? (
              <div class="hint" data-testid="hint" aria-live="polite">
                <p>
                  Suggested: <strong>{moveWords(shownHint.move)}</strong> <code data-testid="hint-move">{shownHint.move}</code>
                </p>
                <p data-testid="hint-reason">{sentenceWords(shownHint.reason)}.</p>
                {shownHint.groups.length ? (
                  <button
                    type="button"
                    class="link"
                    onClick={() => {
                      const chosen = hintSelection(hand, shownHint.move, shownHint.groups);
                      if (!chosen) return;
                      setSelected(chosen);
                      setHintPlan({ move: shownHint.move, cards: chosen.map((i) => hand[i] ?? "") });
                      setDrawer(null);
                    }}
                  >
                    Select these cards
                  </button>
                ) : null}
              </div>
            ) : null}
            {hint.kind === "refused" ? (
              <p class="muted" data-testid="hint-refused">
                {hint.message}
              </p>
            ) : null}
          </>
        )}
      </div>
      <p class="keys muted">Keys: Tab to a card, Space to select · D draw · P take pile · G add group · M meld · X discard · H hint · Esc clear</p>
      {myTurn ? (
        <>
          <p>Moves the rules allow now ({legal.length}; melds of several groups are allowed too):</p>
          <ul class="legal" data-testid="legal">
            {legal.map((m) => (
              <li key={m}>
                {moveWords(m)} <code>{m}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </details>
  );
}
