"""Taking the discard pile: which cards come with it, whether a pickup is allowed, the legal pickups."""

from __future__ import annotations

from handfoot import cards as C
from handfoot.engine.errors import Refusal
from handfoot.engine.melding import (
    ADD,
    hold_refusal,
    meld_shape_refusal,
    opening_refusal,
    plan_groups,
    plural,
    resolve,
    specs_of,
)
from handfoot.engine.moves import (
    MAX_PICKUP_NATURALS,
    PICKUP_BASE,
    Group,
    Move,
    move_for,
)
from handfoot.engine.state import HandState
from handfoot.rules.options import (
    PickupBeforeDown,
    PickupRestFrom,
    RedThrees,
)

KIND_OF = C.KIND_OF
RED_THREE = C.RED_THREE
BLACK_THREE = C.BLACK_THREE


def pile_taken(s: HandState) -> list[int]:
    """The cards that would join the hand beside the top card if the pile were taken now.

    From the pile: the cards under the top (all, or the next ``pickup_count - 1``), bottom first.
    From the stock (``pickup_rest_from = "stock"``): its next cards, or what is left, top first.
    """
    rules = s.rules
    count = rules.pickup_count
    if rules.pickup_rest_from is PickupRestFrom.STOCK:
        return s.stock[-(count - 1) :][::-1] if count > 1 else []
    if count == 0:
        return s.pile[:-1]
    return s.pile[-count:-1]


def top_refusal(s: HandState, seat: int) -> Refusal | None:
    rules = s.rules
    if not rules.pickup_allowed:
        return Refusal(
            "pickup_allowed", "The discard pile is never taken at this table: draw from the stock."
        )
    if not s.pile:
        return Refusal("pickup_allowed", "The discard pile is empty.")
    top = KIND_OF[s.pile[-1]]
    if C.is_wild(top):
        return Refusal("pickup_allowed", "A wild on top cannot be taken: it has no rank to meld.")
    if top == BLACK_THREE:
        if rules.black_three_freezes:
            return Refusal("black_three_freezes", "A black 3 on top freezes the pile for you: draw instead.")
        return Refusal("black_three_melds", "A 3 on top cannot be taken: 3s cannot be melded from the pile.")
    if top == RED_THREE:
        return Refusal("red_threes", "A red 3 on top cannot be taken.")
    owner = s.seating.owner_of[seat]
    if not s.down[owner] and rules.pickup_before_down is PickupBeforeDown.NEVER:
        who = "you have" if s.seating.num_owners == s.players else "your side has"
        return Refusal("pickup_before_down", f"The pile can only be taken once {who} opened this hand.")
    return None


def pickup_needed(s: HandState, seat: int) -> int:
    """Naturals of the top card's rank the player must add to take the pile now."""
    rules = s.rules
    owner = s.seating.owner_of[seat]
    index = s.meld_of[owner][KIND_OF[s.pile[-1]]]
    if index >= 0:
        meld = s.melds[index]
        if resolve(rules, True, len(meld.cards), False) == ADD:
            return rules.pickup_naturals_on_meld
    return rules.pickup_naturals


def pickup_refusal(s: HandState, move: Move) -> Refusal | None:
    seat = s.to_move
    why = top_refusal(s, seat)
    if why is not None:
        return why
    rules = s.rules
    top_card = s.pile[-1]
    top = KIND_OF[top_card]
    first = move.groups[0] if move.groups else Group(-1, ())
    if first.rank not in (-1, top):
        return Refusal("pickup_naturals", f"The first group goes with the top card, a {C.KIND_WORDS[top]}.")
    if any(KIND_OF[c] != top for c in first.cards):
        return Refusal("pickup_naturals", f"Take the pile with natural {C.KIND_PLURALS[top]} only, no wilds.")
    needed = pickup_needed(s, seat)
    if len(first.cards) < needed:
        return Refusal(
            "pickup_naturals",
            f"To take the pile you need {plural(needed, 'natural ' + C.KIND_WORDS[top])} from your hand "
            "to meld with the top card.",
        )
    taken = pile_taken(s)
    rest = move.groups[1:]
    hand_taken = [
        c for c in taken if not (KIND_OF[c] == RED_THREE and rules.red_threes is RedThrees.LAY_DOWN)
    ]
    cards_first = list(first.cards)
    why = hold_refusal(s, seat, cards_first)
    if why is not None:
        return why
    rest_cards = [c for g in rest for c in g.cards]
    in_hand_rule = rules.pickup_before_down in IN_HAND_RULES
    owner = s.seating.owner_of[seat]
    opening = not s.down[owner]
    if rest_cards:
        why = hold_refusal(
            s, seat, cards_first + rest_cards, None if (in_hand_rule and opening) else hand_taken
        )
        if why is not None:
            if in_hand_rule and opening:
                return Refusal(
                    "pickup_before_down",
                    "Your opening must already be in your hand before you take the pile.",
                )
            return why
    specs = specs_of(rules, [Group(top, (top_card, *first.cards)), *rest])
    points = in_hand_points(s, top, first, rest) if in_hand_rule else sum(sp.points for sp in specs)
    left = s.hand_size(seat) + len(hand_taken) - len(cards_first) - len(rest_cards)
    why = opening_refusal(s, seat, points, specs, left)
    if why is not None:
        if in_hand_rule:
            counted = (
                "melds of three or more cards"
                if rules.pickup_before_down is PickupBeforeDown.OPENING_IN_HAND
                else "melds"
            )
            return Refusal(
                "pickup_before_down",
                f"Before opening you may take the pile only with your opening ({s.minimums[owner]} points) "
                f"already in hand as {counted}, without the top card; yours counts {points}.",
            )
        return why
    result = plan_groups(s, seat, specs, left)
    return result if isinstance(result, Refusal) else None


IN_HAND_RULES = (PickupBeforeDown.OPENING_IN_HAND, PickupBeforeDown.OPENING_IN_HAND_WITH_PAIR)


def in_hand_points(s: HandState, top: int, first: Group, rest: tuple[Group, ...]) -> int:
    """The opening a pickup shows in hand, without the top card (``pickup_before_down`` in-hand rules).

    Every group of another rank is a meld from the hand and counts. The cards going onto the top card's
    meld (the first group and any group of its rank) count under ``opening_in_hand`` only when they are
    a meld by themselves (three cards or more, within the wild limits): a pair is no meld before the pile
    is taken. Under ``opening_in_hand_with_pair`` they always count.
    """
    rules = s.rules
    values = rules.card_values
    points = 0
    with_top = [first, *(g for g in rest if g.rank == top)]
    for group in rest:
        if group.rank != top:
            points += sum(values[KIND_OF[c]] for c in group.cards)
    cards = [c for g in with_top for c in g.cards]
    wilds = sum(1 for c in cards if C.is_wild(KIND_OF[c]))
    if (
        rules.pickup_before_down is PickupBeforeDown.OPENING_IN_HAND_WITH_PAIR
        or meld_shape_refusal(rules, top, len(cards) - wilds, wilds, True) is None
    ):
        points += sum(values[KIND_OF[c]] for c in cards)
    return points


def pickup_ids(s: HandState, seat: int) -> list[int]:
    """Ids of the legal atomic pickups for ``seat`` (draw phase)."""
    out: list[int] = []
    if top_refusal(s, seat) is None:
        top = KIND_OF[s.pile[-1]]
        have = s.hands[seat][top]
        for naturals in range(pickup_needed(s, seat), min(have, MAX_PICKUP_NATURALS) + 1):
            if pickup_refusal(s, pickup_move(s, seat, naturals)) is None:
                out.append(PICKUP_BASE + naturals)
    return out


def pickup_move(s: HandState, seat: int, naturals: int) -> Move:
    return move_for(s.hand_cards[seat], s.pile[-1], PICKUP_BASE + naturals)
