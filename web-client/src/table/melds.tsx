// The melds on the table: one row per owner (a seat, or a side when sides meld together), yours first,
// each with its status (opening minimum, down or not, red 3s); a meld the selection may go onto is a
// button that adds it there.
import { MeldRow, OwnerStatus } from "./regions";
import { useTable } from "./state";

/** Every owner's melds, yours first. */
export function MeldsArea() {
  const { view, seating, rules, myOwner, mySide, label, actions } = useTable();
  if (!view || !seating) return null;
  const { canAdd, addTo } = actions;
  const bookSize = Number(rules.book_size ?? 7);
  const owners = Array.from(new Set([...seating.owner_of, ...view.melds.map((m) => m.owner)])).sort((a, b) => a - b);
  const ownerName = (owner: number) =>
    seating.owner_of
      .map((o, s) => (o === owner ? label(s) : null))
      .filter(Boolean)
      .join(" & ");
  const ownerSide = (owner: number) => seating.side_of[seating.owner_of.indexOf(owner)] ?? owner;
  return (
    <section class="melds-area" aria-label="Melds" tabIndex={0}>
      {owners
        .slice()
        .sort((a, b) => (a === myOwner ? -1 : b === myOwner ? 1 : a - b))
        .map((owner) => (
          <MeldRow
            owner={owner}
            key={owner}
            title={owner === myOwner ? `Your ${(seating.sides[mySide ?? 0]?.length ?? 0) > 1 && rules.meld_owner === "side" ? "side's " : ""}melds` : ownerName(owner)}
            melds={view.melds.filter((m) => m.owner === owner)}
            bookSize={bookSize}
            books={view.books[owner]}
            mine={owner === myOwner}
            canAddTo={canAdd}
            onAdd={addTo}
            status={<OwnerStatus minimum={view.minimums[owner]} down={Boolean(view.down[owner])} redThrees={owners.find((o) => ownerSide(o) === ownerSide(owner)) === owner ? (view.red_threes[ownerSide(owner)] ?? []) : []} />}
          />
        ))}
    </section>
  );
}
