// The table's top bar: the drawer buttons (History, Scores, Trainer on a small screen), Rules, Host, the
// deck's colours, the sound, and whether the page is connected.
import { setFourColours, setSound } from "../store";
import { useTable } from "./state";

/** The buttons of the top bar and the connection's state (inside the page's `Header`). */
export function TableTools() {
  const { drawer, setDrawer, rulesOpen, setRulesOpen, welcome, four, setFour, sound, setSoundState, status } = useTable();
  return (
    <>
      <span class="tools">
        <button type="button" class="tool drawer-only" aria-expanded={drawer === "history"} onClick={() => setDrawer(drawer === "history" ? null : "history")}>
          History
        </button>
        <button type="button" class="tool drawer-only" aria-expanded={drawer === "scores"} onClick={() => setDrawer(drawer === "scores" ? null : "scores")}>
          Scores
        </button>
        <button type="button" class="tool drawer-only" aria-expanded={drawer === "trainer"} onClick={() => setDrawer(drawer === "trainer" ? null : "trainer")}>
          Trainer
        </button>
        <button type="button" class="tool" aria-haspopup="dialog" aria-expanded={rulesOpen} onClick={() => setRulesOpen(true)}>
          Rules
        </button>
        {welcome?.host ? (
          <button type="button" class="tool" aria-expanded={drawer === "host"} onClick={() => setDrawer(drawer === "host" ? null : "host")}>
            Host
          </button>
        ) : null}
        <button
          type="button"
          class="tool wide-only"
          aria-pressed={four ? "true" : "false"}
          title="Four colours: spades black, hearts red, diamonds blue, clubs green"
          onClick={() => {
            setFourColours(!four);
            setFour(!four);
          }}
        >
          {four ? "4 colours" : "2 colours"}
        </button>
        <button
          type="button"
          class="tool sound wide-only"
          aria-pressed={sound ? "true" : "false"}
          title="A chime when your turn comes while this tab is in the background"
          onClick={() => {
            setSound(!sound);
            setSoundState(!sound);
          }}
        >
          {sound ? "Sound: on" : "Sound: off"}
        </button>
      </span>
      <span class={`conn ${status}`} role="status">
        {status === "open" ? "connected" : status === "connecting" ? "connecting…" : status === "closed" ? "reconnecting…" : "refused"}
      </span>
    </>
  );
}
