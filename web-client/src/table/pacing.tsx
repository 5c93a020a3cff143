// Pacing at the table, as the server keeps it (the table summary's ``waiting_for``, ``reading`` and
// ``reading_left``): before the first hand, whom the game waits for (the host can start without them);
// after a hand, who is still reading its score and how long the table still waits for them.
import { useEffect, useState } from "preact/hooks";
import type { TableSummary } from "../api";

function names(seats: readonly number[], label: (seat: number) => string): string {
  const all = seats.map(label);
  return all.length <= 1 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

/** The line shown to everyone while the first hand waits for invited people; the host may start now. */
export function WaitingNotice({ table, label, host, onStart }: { table: TableSummary; label: (seat: number) => string; host: boolean; onStart: () => void }) {
  if (!table.waiting_for.length || table.finished) return null;
  return (
    <div class="waiting" role="status" data-testid="waiting">
      Waiting for {names(table.waiting_for, label)}: the game starts when everyone invited is here.
      {host ? (
        <>
          {" "}
          <button type="button" class="primary" onClick={onStart}>
            Start now with bots
          </button>
        </>
      ) : (
        " The host can start without them."
      )}
    </div>
  );
}

/** Seconds left of a wait the server gave as ``left`` seconds when ``stamp`` changed, ticking down. */
function useCountdown(left: number, stamp: string): number {
  const [deadline, setDeadline] = useState(() => Date.now() + left * 1000);
  const [now, setNow] = useState(Date.now());
  useEffect(() => setDeadline(Date.now() + left * 1000), [stamp]);
  useEffect(() => {
    if (deadline <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(timer);
  }, [deadline, now]);
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** In the score dialog: who else is still reading, and when the next hand goes on without them. */
export function ReadingLine({ table, me, label }: { table: TableSummary; me: number | null; label: (seat: number) => string }) {
  const others = table.reading.filter((s) => s !== me);
  const left = useCountdown(table.reading_left, `${table.reading.join()}|${table.reading_left}|${table.hand_index}`);
  if (table.finished) return null;
  if (!table.reading.length || left <= 0) {
    return (
      <p class="reading muted" data-testid="reading">
        The next hand is under way.
      </p>
    );
  }
  return (
    <p class="reading" data-testid="reading">
      {others.length ? `Waiting for ${names(others, label)} to close the score. ` : ""}
      The next hand goes on {table.reading.length > 1 || others.length ? "without whoever has not closed it" : "by itself"} in {left} s.
    </p>
  );
}
