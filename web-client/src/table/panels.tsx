// The side panels: a column on a wide screen, a drawer (one tap from the top bar) on a small one: the
// host's panel, the settings, the score sheet, what happened (the history in words) and the trainer.
import { api } from "../api";
import { ScoreSheet } from "../components";
import { setFourColours, setSound } from "../store";
import { describeEvent, type LogEntry } from "./history";
import { HostPanel } from "./host";
import { useTable } from "./state";
import { Trainer } from "./trainer";

/** The drawer's backdrop and the panels. */
export function SidePanels() {
  const { drawer, setDrawer, welcome, table, me, label, invite, hostProblem, actions, four, setFour, sound, setSoundState, sideNames, setEndShown, tableId, keyOf, moves, rules } = useTable();
  if (!table) return null;
  const hostAction = actions.hostAction;
  const log = moves
    .flatMap((m) => m.events.map((e) => describeEvent(e, label, Boolean(rules.black_three_freezes))))
    .filter((e): e is LogEntry => e !== null)
    .map((e, i) => ({ ...e, id: i }))
    .reverse();
  return (
    <>
      {drawer ? <div class="drawer-backdrop" onClick={() => setDrawer(null)} /> : null}
      <aside class={`side-panels ${drawer ? "open" : ""}`} data-show={drawer ?? ""} aria-label="Score sheet, history and trainer">
        <button type="button" class="link drawer-close drawer-only" onClick={() => setDrawer(null)}>
          Close ✕
        </button>
        {welcome?.host ? (
          <HostPanel
            table={table}
            me={me}
            bots={welcome.bots}
            label={label}
            invite={invite}
            problem={hostProblem}
            open={drawer === "host"}
            onOpen={() => setDrawer("host")}
            onAction={hostAction}
          />
        ) : null}
        <section class="panel-box panel-settings drawer-only" aria-label="Settings">
          <button type="button" aria-pressed={four ? "true" : "false"} onClick={() => (setFourColours(!four), setFour(!four))}>
            {four ? "Four-colour deck: on" : "Four-colour deck: off"}
          </button>{" "}
          <button type="button" aria-pressed={sound ? "true" : "false"} onClick={() => (setSound(!sound), setSoundState(!sound))}>
            {sound ? "Sound: on" : "Sound: off"}
          </button>
        </section>
        <section class="panel-box panel-scores" aria-label="Score sheet">
          <h2 class="panel-title">Score sheet</h2>
          <ScoreSheet sides={sideNames} hands={table.hands} totals={table.totals} winner={table.winner} finished={table.finished} />
          {table.hands.length ? (
            <button type="button" class="link" onClick={() => setEndShown(table.hands.length - 1)}>
              Last hand's breakdown
            </button>
          ) : null}
          {table.finished ? (
            <p>
              <a href={`/replay/${tableId}`}>Replay the game move by move</a> ·{" "}
              <button type="button" class="link" onClick={() => void api.downloadRecord(tableId, keyOf)}>
                Download the game record
              </button>
            </p>
          ) : null}
        </section>
        <section class="panel-box panel-history" aria-label="What happened">
          <h2 class="panel-title">What happened</h2>
          <ol class="log" aria-live="off" data-testid="log" tabIndex={0} aria-label="The last moves, newest first">
            {log.map((e) => (
              <li key={e.id} class={e.notable ? "notable" : ""}>
                {e.text}
              </li>
            ))}
            {log.length === 0 ? <li class="muted">Nothing yet.</li> : null}
          </ol>
        </section>
        <Trainer />
      </aside>
    </>
  );
}
