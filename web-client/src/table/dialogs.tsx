// The table page's dialogs and whole-page notices: a link that opens nothing, the join form, and the end
// of a hand (its breakdown, the score sheet, the review link, who still reads it, the winner).
import { useState } from "preact/hooks";
import type { HandSummary, TableSummary } from "../api";
import { HandBreakdown, Header, ScoreSheet } from "../components";
import { saveName, savedName } from "../store";
import { ReadingLine } from "./pacing";

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

/** "Ann wins", "Ann & Bob win". */
export function winsText(name: string, seats: number): string {
  return `${name} ${seats > 1 ? "win" : "wins"}`;
}

/** A page in place of the table: the link opens nothing (``title``, and ``message`` saying why). */
export function BadLink({ title, message }: { title: string; message: string }) {
  return (
    <div class="page">
      <Header />
      <main class="panel bad-link" data-testid="bad-link">
        <h1>{title}</h1>
        <p role="alert">{message}</p>
        <p>
          Ask whoever sent you the link for a new one, or open a table of your own.{" "}
          <a href="/">Go to the lobby</a>
        </p>
      </main>
    </div>
  );
}

/** The dialog a person with an invitation answers first: the name to sit down with. */
export function JoinForm({ summary, onJoin, problem }: { summary: TableSummary; onJoin: (name: string) => void; problem: string | null }) {
  const [value, setValue] = useState(savedName());
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="join-title">
      <div class="dialog join">
        <h2 id="join-title">Join the table</h2>
        <p>
          {summary.rules} · {plural(summary.players, "player")} · {summary.seats.filter((s) => s.kind === "human" && s.joined).length} joined so far
        </p>
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            const clean = value.trim();
            if (!clean) return;
            saveName(clean);
            onJoin(clean);
          }}
        >
          <label for="join-name">Your name at this table</label>
          <input id="join-name" value={value} maxLength={32} required autoFocus onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
          <button type="submit" class="primary">
            Sit down
          </button>
        </form>
        {problem ? <p class="field-error">{problem}</p> : null}
        <p class="muted">No account needed: your link holds your seat's secret, and this browser remembers it. Keep the link to come back from another device.</p>
      </div>
    </div>
  );
}

/** The end of a hand (or of the game): the hand's breakdown, the score sheet, a link to review the hand,
 * who is still reading, the winner; ``onClose`` tells the server this person is ready to go on. */
export function HandEndDialog({
  tableId,
  table,
  hand,
  lastHand,
  sideNames,
  sideSizes,
  label,
  me,
  reviewable,
  onClose,
}: {
  tableId: string;
  table: TableSummary;
  hand: number;
  lastHand: HandSummary | undefined;
  sideNames: string[];
  sideSizes: number[];
  label: (seat: number) => string;
  me: number | null;
  /** The seat's own link is open here (a spectator reviews no hand). */
  reviewable: boolean;
  onClose: () => void;
}) {
  const ended = table.ended === "host";
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="hand-end-title">
      <div class="dialog">
        <h2 id="hand-end-title">
          {lastHand ? (
            <>
              Hand {hand + 1} is over
              {lastHand.went_out !== null ? ` — ${label(lastHand.went_out)} went out` : lastHand.reason === "stock_out" || lastHand.reason === "stock_empty" ? " — the stock ran out" : ""}
            </>
          ) : (
            "The host ended the game"
          )}
        </h2>
        {lastHand ? <HandBreakdown sides={sideNames} hand={lastHand} /> : null}
        {ended && lastHand ? <p>The host ended the game after this hand.</p> : null}
        {lastHand && me !== null && reviewable ? (
          <p class="review-link">
            <a href={`/review/${tableId}?hand=${hand}`} target="_blank" rel="noopener" data-testid="review-link">
              Review this hand: how did I play?
            </a>
          </p>
        ) : null}
        <ReadingLine table={table} me={me} label={label} />
        <h3>Score sheet</h3>
        <ScoreSheet sides={sideNames} hands={table.hands} totals={table.totals} winner={table.winner} finished={table.finished} />
        {table.finished ? (
          <>
            <p class="winner-line" data-testid="winner">
              {table.winner === null ? (ended && !table.hands.length ? "No hand was finished." : "The game ends in a tie.") : `${winsText(sideNames[table.winner] ?? "?", sideSizes[table.winner] ?? 1)} the game!`}
            </p>
            <p>
              <a href={`/replay/${tableId}`}>Replay the game move by move</a>
            </p>
          </>
        ) : null}
        <div class="dialog-end">
          <button type="button" class="primary" autoFocus onClick={onClose}>
            {table.finished ? "Close" : "Next hand"}
          </button>
        </div>
      </div>
    </div>
  );
}
