// The table's regions that the table page and the replay share: a seat's cards, each side's status and
// a side's melds (as chips on a phone: table/chips.tsx).
import type { MeldView, SeatView, View } from "../api";
import { isWild, sortCards } from "../cards";
import { Card, CardBack } from "../components";
import { MeldChips, meldKind, useGrown } from "./chips";
import { meldWords } from "./words";

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

/** A meld's cards as laid: naturals first, then wilds (a closed book shows a natural on top). */
function meldOrder(cards: string[]): string[] {
  const sorted = sortCards(cards);
  return [...sorted.filter((c) => !isWild(c)), ...sorted.filter(isWild)];
}

/** Another player's cards as the table sees them: backs for the Hand, counts, whether in the Foot. */
export function SeatCards({ seat }: { seat: SeatView }) {
  return (
    <>
      <div class="fan" aria-hidden="true">
        {Array.from({ length: Math.min(seat.hand_count, 12) }, (_, i) => (
          <CardBack key={i} small />
        ))}
      </div>
      <div class="counts">
        <span>
          {seat.hand_count} in {seat.in_foot ? "Foot" : "Hand"}
        </span>
        <span class={seat.in_foot ? "foot in" : "foot"}>{seat.in_foot ? "in their Foot" : <>Foot<span class="long">: {seat.foot_count}</span> waiting</>}</span>
      </div>
    </>
  );
}

/** Each meld owner's opening minimum, whether it is down, and its side's laid red 3s (shown once per side). */
export function SidesStatus({
  view,
  owners,
  ownerName,
  ownerSide,
  mine,
}: {
  view: View;
  owners: number[];
  ownerName: (owner: number) => string;
  ownerSide: (owner: number) => number;
  mine?: number | null;
}) {
  return (
    <div class="sides-status">
      {owners.map((owner) => (
        <div key={owner} class={`side-status ${owner === mine ? "mine" : ""}`}>
          <div class="who">{ownerName(owner)}</div>
          <div>
            <span class="long">Opening minimum </span>
            <span class="short">Opening </span>
            <strong>{view.minimums[owner] ?? "?"}</strong>:{" "}
            {view.down[owner] ? <span class="down yes">down</span> : <span class="down no">not down yet</span>}
          </div>
          {(view.red_threes[ownerSide(owner)]?.length ?? 0) > 0 && owners.indexOf(owner) === owners.findIndex((o) => ownerSide(o) === ownerSide(owner)) ? (
            <div class="red3s" aria-label="Red threes laid down">
              {view.red_threes[ownerSide(owner)]?.map((c, i) => <Card key={i} code={c} small />)}
            </div>
          ) : null}
        </div>
      ))}
    </div>
  );
}

export function MeldRow({
  title,
  melds,
  bookSize,
  books,
  mine,
  canAddTo,
  onAdd,
  compact = false,
}: {
  title: string;
  melds: MeldView[];
  bookSize: number;
  books: { clean: number; dirty: number; wild: number } | undefined;
  mine: boolean;
  /** Whether the selected cards may go onto the meld of a rank (only your own melds are asked). */
  canAddTo: (rank: string) => boolean;
  onAdd: (rank: string) => void;
  /** Melds as rank chips that show their cards on a tap (a phone). */
  compact?: boolean;
}) {
  const grown = useGrown(melds);
  return (
    <div class={`meld-row ${mine ? "mine" : ""} ${compact ? "compact" : ""}`}>
      <h3>
        {title}{" "}
        <span class="book-count">
          books: {books?.clean ?? 0} clean, {books?.dirty ?? 0} dirty{books?.wild ? `, ${books.wild} wild` : ""}
        </span>
      </h3>
      {compact ? (
        <MeldChips melds={melds} bookSize={bookSize} mine={mine} canAddTo={canAddTo} onAdd={onAdd} order={meldOrder} />
      ) : (
        <div class="melds">
          {melds.length === 0 ? <p class="muted">No melds yet.</p> : null}
          {melds.map((m) => {
            const book = m.cards.length >= bookSize;
            const clean = m.wilds === 0;
            const kind = meldKind(m, bookSize);
            const addable = mine && canAddTo(m.rank);
            const classes = `meld ${book ? "book" : ""} ${book ? (clean ? "clean" : "dirty") : ""} ${grown.has(m.rank) ? "meld-in" : ""}`;
            const body = (
              <>
                <div class="meld-cards">
                  {(book ? meldOrder(m.cards).slice(0, 1) : meldOrder(m.cards)).map((c, j) => (
                    <Card key={j} code={c} small />
                  ))}
                </div>
                <div class="meld-label">
                  {meldWords(m.rank)} ·{" "}
                  {book ? (
                    <strong class={clean ? "clean-tag" : "dirty-tag"}>
                      {kind} ({m.cards.length})
                    </strong>
                  ) : (
                    <>
                      {m.cards.length}
                      <span class="long"> cards</span>
                    </>
                  )}
                  {!book && m.wilds ? ` · ${plural(m.wilds, "wild")}` : ""}
                </div>
              </>
            );
            // Keyed by size too: a meld that grew is drawn anew, and its animation plays once.
            const key = `${m.rank}-${m.cards.length}`;
            return addable ? (
              <button type="button" key={key} class={`${classes} addable`} data-rank={m.rank} aria-label={`Add the selected cards to your ${meldWords(m.rank)}`} onClick={() => onAdd(m.rank)}>
                {body}
                <span class="add">+ add to {meldWords(m.rank)}</span>
              </button>
            ) : (
              <div key={key} class={classes} data-rank={m.rank} aria-label={`${meldWords(m.rank)}: ${kind}`}>
                {body}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
