// The table's top row: the score line and the other seats in the order they play after you (their cards,
// badges and latest action), and the stock and discard pile.
import type { Outlook, TableSummary, View } from "../api";
import { Card, CardBack } from "../components";
import { SeatCards } from "./regions";
import { cardWords } from "./words";

/** The score line and every other seat, in ``order`` (the seats after ``me``, or all for a spectator). */
export function Seats({
  table,
  view,
  sideOf,
  order,
  me,
  mySide,
  sideNames,
  label,
  recent,
  blackThreeFreezes,
  host,
}: {
  table: TableSummary;
  view: View;
  /** Each seat's side. */
  sideOf: number[];
  order: number[];
  me: number | null;
  mySide: number | null;
  sideNames: string[];
  label: (seat: number) => string;
  /** Each seat's latest action, shown for a few seconds. */
  recent: Record<number, { text: string; at: number }>;
  blackThreeFreezes: boolean;
  /** This connection is the table's host. */
  host: boolean;
}) {
  return (
    <section class="opponents" aria-label="Other players, in the order they play">
      <div class={`score-line ${sideNames.length > 2 ? "many" : ""}`} data-testid="score">
        <span>
          <strong class="rules-name">{table.rules} · </strong>hand {view.hand_index + 1}
        </span>
        {me === null ? <span class="badge">watching</span> : null}
        {host ? <span class="badge host">host</span> : null}
        {sideNames.map((n, i) => (
          <span key={i} class={`total ${i === mySide ? "mine" : ""}`}>
            {n}: <strong>{table.totals[i] ?? 0}</strong>
          </span>
        ))}
      </div>
      <div class="seat-list">
        {order.map((s, k) => {
          const sv = view.seats[s];
          const seat = table.seats[s];
          if (!sv || !seat) return null;
          const partner = mySide !== null && sideOf[s] === mySide;
          const action = recent[s];
          return (
            <div key={s} class={`opponent ${view.to_move === s ? "to-move" : ""} ${partner ? "partner" : ""} ${view.out_seat === s ? "went-out" : ""}`} data-seat={s} data-order={k}>
              <div class="who">
                <span class="name">{label(s)}</span>
                {view.to_move === s && !table.finished && !table.waiting_for.length ? <span class="badge turn-badge">{view.phase === "answer" ? "answering" : "playing"}</span> : null}
                {me !== null && s === (me + 1) % sideOf.length ? (
                  <span class="badge next" title={blackThreeFreezes ? "A black 3 you discard freezes the pile for this player" : "Plays after you"}>
                    next<span class="long"> after you</span>
                  </span>
                ) : null}
                {partner ? <span class="badge">partner</span> : null}
                {view.out_seat === s ? <span class="badge out" data-testid="went-out">went out</span> : null}
                {seat.stand_in ? <span class="badge off">{seat.stand_in} bot plays for them</span> : null}
                {seat.away ? <span class="badge off">away</span> : seat.kind === "human" && seat.joined && !seat.connected ? <span class="badge off">left</span> : null}
                {seat.kind === "human" && !seat.joined ? <span class="badge off">not here yet</span> : null}
              </div>
              <SeatCards seat={sv} />
              {action ? (
                <div class="seat-action" data-testid="seat-action" key={action.at}>
                  {action.text}
                </div>
              ) : null}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The stock and the discard pile (its top, its size, frozen for you, the stock's note). */
export function PileAndStock({ view, outlook, me }: { view: View; outlook: Outlook; me: number | null }) {
  const top = view.pile_top ?? null;
  return (
    <section class="center" aria-label="Stock and discard pile">
      <div class="stock">
        <div class="stack">
          <CardBack label={`stock: ${view.stock_size} cards`} />
        </div>
        <div class="caption">Stock {view.stock_size}</div>
      </div>
      <div class={`pile ${outlook.pile_frozen ? "frozen" : ""}`}>
        <div class="stack" key={`${top}-${view.pile_size}`}>{top ? <Card code={top} label={`discard pile top: ${cardWords(top)}`} /> : <span class="card empty">empty</span>}</div>
        <div class="caption" data-testid="pile">
          Discard pile {view.pile_size}
          {outlook.pile_frozen ? (
            <span class="badge frozen" title={outlook.pile_refusal ?? ""}>
              frozen{me !== null ? " for you" : ""}
            </span>
          ) : null}
        </div>
      </div>
      {outlook.stock ? (
        <p class="stock-note" data-testid="stock-note">
          {outlook.stock}
        </p>
      ) : null}
    </section>
  );
}
