// The player's hand: the line above it (Hand or Foot, the Foot waiting, what going out needs) and the
// cards, grouped by rank, each a button that selects it (a staged card shows its group instead).
import { groupByRank } from "../cards";
import { Card } from "../components";
import { plural } from "./names";
import { useTable } from "./state";
import { cardsWords } from "./words";

/** The line above the hand: its name and size, the Foot, what going out needs, a stand-in bot. */
export function MyHead() {
  const { me, view, outlook, hand, table } = useTable();
  if (me === null || !view || !outlook || !table) return null;
  return (
    <div class="me-head">
      <h2>
        Your {view.seats[me]?.in_foot ? "Foot" : "Hand"} <span class="muted">({plural(hand.length, "card")})</span>
      </h2>
      <span class={`foot ${view.seats[me]?.in_foot ? "in" : ""}`} data-testid="my-foot">
        {view.seats[me]?.in_foot ? "You are in your Foot" : `Foot: ${view.seats[me]?.foot_count ?? 0} waiting`}
      </span>
      {view.foot && view.foot.length ? (
        <span class="muted" data-testid="seen-foot">
          (seen: {cardsWords(view.foot)})
        </span>
      ) : null}
      <span class={`needs ${outlook.may_go_out ? "ready" : ""}`} data-testid="needs">
        {outlook.going_out}
      </span>
      {table.seats[me]?.stand_in ? <span class="badge off">a {table.seats[me]?.stand_in} bot plays your seat until the host hands it back</span> : null}
    </div>
  );
}

/** The hand's cards, grouped by rank; a tap selects a card or puts it back. */
export function HandCards() {
  const { hand, selected, stagedTag, fresh, actions } = useTable();
  const freshLeft = [...fresh];
  const isFresh = (code: string) => {
    const i = freshLeft.indexOf(code);
    if (i < 0) return false;
    freshLeft.splice(i, 1);
    return true;
  };
  return (
    <div class="hand" role="group" aria-label="Your hand: select cards" data-testid="hand">
      {groupByRank(hand).map((g) => (
        <div class="rank-group" key={g.rank + g.cards[0]?.index}>
          {g.cards.map(({ code, index }) => (
            <Card key={index} code={code} selected={selected.includes(index)} staged={stagedTag.get(index)} fresh={isFresh(code)} onClick={stagedTag.has(index) ? undefined : () => actions.toggle(index)} />
          ))}
        </div>
      ))}
      {hand.length === 0 ? <p class="muted">No cards.</p> : null}
    </div>
  );
}
