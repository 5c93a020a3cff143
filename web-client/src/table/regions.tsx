// The table's regions that the table page and the replay share: a seat's cards, each side's status and
// an owner's melds (as stacks: table/chips.tsx) under a header with its opening and red 3s.
import type { ComponentChildren } from "preact";
import type { MeldView, SeatView, View } from "../api";
import { isWild, sortCards } from "../cards";
import { Card, CardBack } from "../components";
import { MeldChips } from "./chips";

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
        <span class={seat.in_foot ? "in-foot" : ""}>
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

/** One owner's melds under a header line: whose they are, their opening minimum and whether they are down
 * (``status``), their books, and the melds as stacks (table/chips.tsx). */
export function MeldRow({
  owner,
  title,
  melds,
  bookSize,
  books,
  mine,
  canAddTo,
  onAdd,
  status,
}: {
  /** The owner (a side or a player) whose melds these are. */
  owner: number;
  title: string;
  melds: MeldView[];
  bookSize: number;
  books: { clean: number; dirty: number; wild: number } | undefined;
  mine: boolean;
  /** Whether the selected cards may go onto the meld of a rank (only your own melds are asked). */
  canAddTo: (rank: string) => boolean;
  onAdd: (rank: string) => void;
  /** What the header says after the title: the owner's opening and red 3s. */
  status?: ComponentChildren;
}) {
  const count = (books?.clean ?? 0) + (books?.dirty ?? 0) + (books?.wild ?? 0);
  const bookWords = count ? `books: ${books?.clean ?? 0} clean, ${books?.dirty ?? 0} dirty${books?.wild ? `, ${books.wild} wild` : ""}` : "no books";
  return (
    <div class={`meld-row compact ${mine ? "mine" : ""}`} data-testid="melds-of" data-owner={owner} role="group" aria-label={`${title}, ${bookWords}`}>
      <h3>
        <span class="meld-owner" title={title}>
          {title}
        </span>
        {status}
      </h3>
      <MeldChips melds={melds} bookSize={bookSize} mine={mine} canAddTo={canAddTo} onAdd={onAdd} order={meldOrder} />
    </div>
  );
}

/** An owner's opening minimum and whether it is down, and its side's laid red 3s: the meld row's header. */
export function OwnerStatus({ minimum, down, redThrees }: { minimum: number | undefined; down: boolean; redThrees: string[] }) {
  return (
    <span class="owner-status">
      {down ? (
        <span class="down yes">down</span>
      ) : (
        <span class="down no">
          opens with <strong>{minimum ?? "?"}</strong>
        </span>
      )}
      {redThrees.length ? (
        <span class="red3s" role="group" aria-label="Red threes laid down">
          {redThrees.map((c, i) => (
            <Card key={i} code={c} small />
          ))}
        </span>
      ) : null}
    </span>
  );
}
