// The card table page: one connection to the server (table/connection.ts), the seat's own view and its
// moves. Every move is built from the seat's offers (table/offers.ts: where each card may go, the opening
// count, the pile's state, why an action is not offered), played as the offered steps, and checked by the
// server; a refused move is shown with the server's sentence, and nothing changes here but the message. The
// page fills the window and never scrolls: the other seats across the top, the stock and the pile, the
// melds (your side's first), and your hand with the move buttons at the bottom; the score sheet, history
// and trainer are a column on a wide screen and a drawer (one tap from the top bar) on a small one.
// This file puts the parts together; the state is the table's one store (table/state.ts), the actions
// are table/actions.ts, and each part of the page is a component of its own under table/.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type TableSummary } from "./api";
import { Header } from "./components";
import { RulesPanel } from "./rules_panel";
import { tableRules } from "./rule_lessons";
import { secretsOf } from "./store";
import { tableActions, useKeys } from "./table/actions";
import { BadLink, HandEndDialog, JoinForm } from "./table/dialogs";
import { Dock } from "./table/dock";
import { MeldsArea } from "./table/melds";
import { capital } from "./table/names";
import { SidePanels } from "./table/panels";
import { PileAndStock, Seats } from "./table/seats";
import { TableProvider, useTableStore, type TableKeys } from "./table/state";
import { TableTools } from "./table/topbar";

export { describeEvent } from "./table/history";
export { MeldRow, SeatCards, SidesStatus } from "./table/regions";
export { winsText } from "./table/dialogs";
export { seatLabel } from "./table/names";

/** The secrets a link carries after "#": a seat token, the watch key, the host key. */
export interface LinkSecrets {
  token: string | null;
  key: string | null;
  host: string | null;
}

/** The page of table ``tableId``: the link checked, the table opened, then the table (or why not). */
export function TablePage({ tableId, link, play }: { tableId: string; link: LinkSecrets; play: boolean }) {
  const known = secretsOf(tableId);
  // A /play link without its secret (typed, or cut short) falls back to the seat this browser remembers.
  const token = link.token ?? (play ? (known.token ?? null) : null);
  const host = link.host ?? known.host ?? null;
  const key = link.key ?? known.key ?? null;
  const [summary, setSummary] = useState<TableSummary | null>(null);
  const [loadError, setLoadError] = useState<ApiError | Error | null>(null);

  useEffect(() => {
    api.table(tableId, token ?? key ?? host).then(setSummary, (e: Error) => setLoadError(e));
  }, [tableId]);

  if (loadError) {
    const code = loadError instanceof ApiError ? loadError.code : "";
    const title = code === "private" ? "This link does not open this table" : code === "no_table" ? "There is no such table" : "The table cannot be opened";
    return <BadLink title={title} message={capital(loadError.message)} />;
  }
  if (play && !token) {
    return <BadLink title="This invitation link is cut short" message="An invitation link ends with #seat= and its secret; this one has none, and this browser holds no seat at this table." />;
  }
  if (!summary) {
    return (
      <div class="page">
        <Header />
        <main class="panel">
          <p role="status">Opening the table…</p>
        </main>
      </div>
    );
  }
  return <Table tableId={tableId} token={token} watchKey={key} hostKey={host} />;
}

/** The table itself, once the server knows it: the store, its actions, and the parts of the page. */
function Table(keys: TableKeys) {
  const held = useTableStore(keys);
  const actions = tableActions(held);
  held.runPlans.current = actions.runPlans;
  useKeys(held, actions);
  const store = { ...held, actions };
  const { revoked, status, error, view, seating, table, outlook, welcome, me, myTurn, four, rulesOpen, setRulesOpen, tableId, token, keyOf, joinProblem, endShown, sideNames, label } = store;
  const { join, closeEnd } = actions;

  if (revoked) {
    return <BadLink title="The host replaced this link" message={`${capital(revoked)}.`} />;
  }
  if (status === "refused" && !store.state) {
    return <BadLink title="This link does not open a seat here" message={error ? capital(error) : "The server refused this connection."} />;
  }
  if (!view || !seating || !table || !outlook) {
    return (
      <div class="page">
        <Header />
        <main class="panel">
          <p role="status">Connecting to the table…</p>
        </main>
      </div>
    );
  }
  const myName = me !== null ? (table.seats[me]?.name ?? null) : null;
  const players = seating.owner_of.length;
  // The other seats in the order they play after you (from seat 1 for a spectator).
  const order = me === null ? seating.owner_of.map((_, s) => s) : Array.from({ length: players - 1 }, (_, k) => (me + k + 1) % players);
  const lastHand = endShown !== null ? table.hands[endShown] : undefined;

  return (
    <TableProvider value={store}>
      <div class={`page table-page ${four ? "four-colour" : ""}`}>
        <Header>
          <TableTools />
        </Header>
        <main class="felt" aria-label="Card table" data-version={store.state?.version} data-phase={view.phase} data-my-turn={myTurn ? "yes" : "no"} data-hands={table.hands.length} data-finished={table.finished ? "yes" : "no"}>
          <Dock />
          <Seats
            table={table}
            view={view}
            sideOf={seating.side_of}
            order={order}
            me={me}
            mySide={store.mySide}
            sideNames={sideNames}
            label={label}
            recent={store.recent}
            blackThreeFreezes={Boolean(store.rules.black_three_freezes)}
            host={Boolean(welcome?.host)}
          />
          <PileAndStock view={view} outlook={outlook} me={me} />
          <MeldsArea />
          <SidePanels />

          {rulesOpen ? <RulesPanel load={() => tableRules(tableId, keyOf)} lessonSwitch={me !== null} onClose={() => setRulesOpen(false)} /> : null}

          {me !== null && token && !myName && !table.seats[me]?.name ? <JoinForm summary={table} onJoin={(n) => void join(n)} problem={joinProblem} /> : null}

          {endShown !== null && (lastHand || table.finished) ? (
            <HandEndDialog
              tableId={tableId}
              table={table}
              hand={endShown}
              lastHand={lastHand}
              sideNames={sideNames}
              sideSizes={seating.sides.map((seats) => seats.length)}
              label={label}
              me={me}
              reviewable={token !== null}
              onClose={closeEnd}
            />
          ) : null}
        </main>
      </div>
    </TableProvider>
  );
}
