"""Taking the discard pile: which cards come with it, whether a pickup is allowed, the legal pickups."""

from __future__ import annotations

from typing import Final

from handfoot import cards as C
from handfoot.engine.errors import Refusal
from handfoot.engine.melding import (
    ADD,
    CLOSED,
    SPARE_CARDS,
    GroupSpec,
    hold_refusal,
    lone_group_place,
    meld_shape_refusal,
    opening_refusal,
    plan_groups,
    resolve,
    specs_of,
)
from handfoot.engine.moves import (
    MAX_PICKUP_NATURALS,
    PICKUP_BASE,
    PICKUP_DEUCE_ID,
    PICKUP_JOKER_ID,
    Action,
    Group,
    Move,
    lowest_cards,
    merge_groups,
    move_for,
)
from handfoot.engine.state import HandState
from handfoot.rules.options import (
    PickupBeforeDown,
    PickupRestFrom,
    PileVisible,
    RedThrees,
    RuleSet,
)
from handfoot.wording import plural

KIND_OF: Final = C.KIND_OF
RED_THREE: Final = C.RED_THREE
BLACK_THREE: Final = C.BLACK_THREE
# bound once: cheaper than the enum's attribute on Python 3.11
NEVER_BEFORE_DOWN: Final = PickupBeforeDown.NEVER


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


# ``frozen_refusal``'s answers, made once (a Refusal is an immutable value): it is asked at every draw.
_NEVER_TAKEN: Final = Refusal(
    "pickup_allowed", "The discard pile is never taken at this table: draw from the stock."
)
_EMPTY_PILE: Final = Refusal("pickup_allowed", "The discard pile is empty.")
_WILD_TOP: Final = Refusal("pickup_allowed", "A wild on top cannot be taken: it has no rank to meld.")
_FROZEN_BY_THREE: Final = Refusal(
    "black_three_freezes", "A black 3 on top freezes the pile for you: draw instead."
)
_THREE_TOP: Final = Refusal(
    "black_three_melds", "A 3 on top cannot be taken: 3s cannot be melded from the pile."
)
_RED_THREE_TOP: Final = Refusal("red_threes", "A red 3 on top cannot be taken.")


def frozen_refusal(s: HandState) -> Refusal | None:
    """Why nobody may take the discard pile now, whoever is to move: it is never taken at this table,
    it is empty, or its top card cannot be taken (a wild, a 3; a black 3 freezing it). None otherwise."""
    rules = s.rules
    if not rules.pickup_allowed:
        return _NEVER_TAKEN
    if not s.pile:
        return _EMPTY_PILE
    top = KIND_OF[s.pile[-1]]
    if C.is_wild(top):
        return _WILD_TOP
    if top == BLACK_THREE:
        if rules.black_three_freezes:
            return _FROZEN_BY_THREE
        return _THREE_TOP
    if top == RED_THREE:
        return _RED_THREE_TOP
    return None


def split_draw_refusal(s: HandState, card: int) -> Refusal | None:
    """Why the player to move may not draw ``card``, the pile's top card, with one card fewer from the
    stock (``split_draw``), or None. The top card must be a natural (A to 4: never a wild or a 3), and
    the stock must still hold a card where ``draw_count`` asks for more than the top card."""
    rules = s.rules
    if not rules.split_draw:
        return Refusal(
            "split_draw", "The pile's top card is not drawn on its own at this table: draw from the stock."
        )
    if not s.pile:
        return Refusal("split_draw", "The discard pile is empty: draw from the stock.")
    top = s.pile[-1]
    if card != top:
        return Refusal(
            "split_draw", f"The pile's top card is {C.CODE_OF[top]}: name it to draw it with the stock."
        )
    if KIND_OF[top] not in C.NATURAL_KINDS:
        return Refusal(
            "split_draw",
            "Only a natural card (A to 4) on top of the pile is drawn this way: draw from the stock.",
        )
    if rules.draw_count > 1 and not s.stock:
        return Refusal("split_draw", "The stock is empty: the pile's top card comes with a stock card only.")
    return None


def top_refusal(s: HandState, seat: int) -> Refusal | None:
    """Why ``seat`` may not take the discard pile whatever it melds with it (``frozen_refusal``, or a
    side not yet down where the rules never let one take it). None otherwise."""
    why = frozen_refusal(s)
    if why is not None:
        return why
    rules = s.rules
    owner = s.seating.owner_of[seat]
    if not s.down[owner] and rules.pickup_before_down is NEVER_BEFORE_DOWN:
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


def seen_taken(s: HandState) -> bool:
    """True if the player to take the pile can see the cards that would come with it (the pile is shown
    whole and they come from it); else they stay hidden until taken (the pile's hidden part, the stock)."""
    rules = s.rules
    return rules.pile_visible is PileVisible.ALL and rules.pickup_rest_from is PickupRestFrom.PILE


def pickup_refusal(s: HandState, move: Move) -> Refusal | None:
    """Why ``move`` (a pickup) is not allowed now, or None. Worded from the seat's own view only: a
    pickup whose groups name cards the player neither holds nor can see (they would have to come with
    the pile, still hidden) is judged on what the player holds first, and any refusal is then the same
    sentence whatever the hidden cards are, so that refusals never tell what the pile or stock holds."""
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
    wilds = 0
    if any(KIND_OF[c] != top for c in first.cards):  # only a wild beside one natural may (pickup_with_wild)
        wilds = sum(1 for c in first.cards if KIND_OF[c] <= C.DEUCE)
        naturals = sum(1 for c in first.cards if KIND_OF[c] == top)
        if naturals + wilds < len(first.cards) or not _with_wild_allowed(s, seat, naturals, wilds):
            return _first_group_refusal(rules, top)
    needed = pickup_needed(s, seat)
    if len(first.cards) < needed and not wilds:
        return Refusal(
            "pickup_naturals",
            f"To take the pile you need {plural(needed, 'natural ' + C.KIND_WORDS[top])} from your hand "
            "to meld with the top card.",
        )
    cards_first = list(first.cards)
    why = hold_refusal(s, seat, cards_first)
    if why is not None:
        return why
    taken = pile_taken(s)
    hand_taken = _joining_hand(rules, taken)
    rest = move.groups[1:]
    rest_cards = [c for g in rest for c in g.cards]
    in_hand_rule = rules.pickup_before_down is PickupBeforeDown.OPENING_IN_HAND
    owner = s.seating.owner_of[seat]
    opening = not s.down[owner]
    if rest_cards:
        if in_hand_rule and opening:
            if hold_refusal(s, seat, cards_first + rest_cards) is not None:
                return Refusal(
                    "pickup_before_down",
                    "Your opening must already be in your hand before you take the pile.",
                )
        else:
            own = hold_refusal(s, seat, cards_first + rest_cards, hand_taken if seen_taken(s) else None)
            if own is not None:
                if seen_taken(s) or not taken:
                    return own
                # Only the hidden cards could make this pickup legal: it plays if they do, and any
                # refusal is this one sentence, whatever they are.
                if _pickup_plan_refusal(s, seat, move, hand_taken) is None:
                    return None
                return Refusal(
                    "hand",
                    f"{own.message} The cards that come with the pile are not known before it is taken: "
                    "meld with cards you hold, then take the pile and meld the rest.",
                )
    return _pickup_plan_refusal(s, seat, move, hand_taken)


def _joining_hand(rules: RuleSet, taken: list[int]) -> list[int]:
    """The cards of ``taken`` (``pile_taken``) that join the hand: all but red 3s, which are laid down
    at once where ``red_threes = "lay_down"`` (``taken`` itself where none is; read it, never change it)."""
    if rules.red_threes is RedThrees.LAY_DOWN:
        return [c for c in taken if KIND_OF[c] != RED_THREE]
    return taken


def _first_group_refusal(rules: RuleSet, top: int) -> Refusal:
    """The refusal of a pile pickup whose first group holds other cards than the top card's rank (or a
    wild beside one natural, where ``pickup_with_wild`` allows it)."""
    if rules.pickup_with_wild:
        return Refusal(
            "pickup_with_wild",
            f"Take the pile with natural {C.KIND_PLURALS[top]}, or once your side is down with one "
            f"natural {C.KIND_WORDS[top]} and one wild.",
        )
    return Refusal("pickup_naturals", f"Take the pile with natural {C.KIND_PLURALS[top]} only, no wilds.")


def _with_wild_allowed(s: HandState, seat: int, naturals: int, wilds: int) -> bool:
    """True if the pile may be taken with this mix (``pickup_with_wild``: one natural and one wild, once
    the side is down)."""
    return s.rules.pickup_with_wild and naturals == 1 and wilds == 1 and s.down[s.seating.owner_of[seat]]


def _pickup_plan_refusal(s: HandState, seat: int, move: Move, hand_taken: list[int]) -> Refusal | None:
    """The checks of a pickup after the cards it names are known to be there: every card held (with
    ``hand_taken``, the cards that join the hand), the opening minimum, and where each group goes."""
    rules = s.rules
    top_card = s.pile[-1]
    top = KIND_OF[top_card]
    first, rest = move.groups[0], move.groups[1:]
    cards_first = list(first.cards)
    rest_cards = [c for g in rest for c in g.cards]
    in_hand_rule = rules.pickup_before_down in IN_HAND_RULES
    owner = s.seating.owner_of[seat]
    opening = not s.down[owner]
    if rest_cards:
        why = hold_refusal(
            s, seat, cards_first + rest_cards, None if (in_hand_rule and opening) else hand_taken
        )
        if why is not None:
            return why
    specs = specs_of(rules, [Group(top, (top_card, *first.cards)), *rest])
    points = in_hand_points(s, top, first, rest) if in_hand_rule else sum(sp.points for sp in specs)
    left = s.hand_size(seat) + len(hand_taken) - len(cards_first) - len(rest_cards)
    return _pickup_laid_refusal(s, seat, specs, points, left)


def _pickup_laid_refusal(
    s: HandState, seat: int, specs: list[GroupSpec], points: int, left: int
) -> Refusal | None:
    """The last checks of a pickup whose groups are ``specs`` (the top card's first), counting ``points``
    toward an opening and leaving ``left`` cards in hand: the opening minimum, and where each group goes.
    One group of naturals of a rank other than black 3s that leaves the seat cards to spare is placed by
    the shape rules alone (``lone_group_place``), which is all ``plan_groups`` judges of it; the plan is
    made only to word a refusal."""
    rules = s.rules
    why = opening_refusal(s, seat, points, specs, left)
    if why is not None:
        if rules.pickup_before_down in IN_HAND_RULES:
            owner = s.seating.owner_of[seat]
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
    if len(specs) == 1 and _placed_by_shape(s, seat, specs[0], left):
        return None
    result = plan_groups(s, seat, specs, left)
    return result if isinstance(result, Refusal) else None


def _placed_by_shape(s: HandState, seat: int, spec: GroupSpec, left: int) -> bool:
    """True where ``spec``, a pickup's only group, is of naturals of a rank other than black 3s, leaves
    the seat cards to spare (``left``) and the shape rules place it (``lone_group_place``): all
    ``plan_groups`` judges of such a group. False says only that ``plan_groups`` must judge it."""
    rank = spec.rank
    if spec.jokers or spec.deuces or rank not in _PLACED_BY_SHAPE:
        return False
    if s.in_foot[seat] and left < SPARE_CARDS:
        return False
    index = s.meld_of[s.seating.owner_of[seat]][rank]
    if index < 0:
        return lone_group_place(s.rules, rank, False, 0, 0, spec.naturals, 0) != CLOSED
    meld = s.melds[index]
    return lone_group_place(s.rules, rank, True, meld.naturals, meld.wilds, spec.naturals, 0) != CLOSED


# The ranks whose lone group of naturals ``_placed_by_shape`` places by the shape rules.
_PLACED_BY_SHAPE: Final = frozenset(C.NATURAL_KINDS)
IN_HAND_RULES: Final = (PickupBeforeDown.OPENING_IN_HAND, PickupBeforeDown.OPENING_IN_HAND_WITH_PAIR)


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
        top_card = s.pile[-1]
        top = KIND_OF[top_card]
        kinds = s.hands[seat]
        have = kinds[top]
        first = pickup_needed(s, seat)
        last = min(have, MAX_PICKUP_NATURALS)
        if first <= last:
            # A pickup of naturals alone, of the seat's own cards and as many as the rules ask, passes
            # every check of ``pickup_refusal`` before its last ones (``_pickup_laid_refusal``): only
            # those are asked, of its one group (the top card and the naturals, as ``specs_of`` counts
            # it), with the cards that would join the hand counted once for all of them.
            rules = s.rules
            value = rules.card_values[top]
            in_hand_rule = rules.pickup_before_down in IN_HAND_RULES
            held_after = s.hand_size(seat) + len(_joining_hand(rules, pile_taken(s)))
            for naturals in range(first, last + 1):
                spec = GroupSpec(top, naturals + 1, 0, 0, (naturals + 1) * value)
                if in_hand_rule:
                    own = Group(top, tuple(lowest_cards(s.hand_cards[seat], top, naturals)))
                    points = in_hand_points(s, top, own, ())
                else:
                    points = spec.points
                if _pickup_laid_refusal(s, seat, [spec], points, held_after - naturals) is None:
                    out.append(PICKUP_BASE + naturals)
        if have and s.rules.pickup_with_wild and s.down[s.seating.owner_of[seat]]:
            for mid, kind in ((PICKUP_JOKER_ID, C.JOKER), (PICKUP_DEUCE_ID, C.DEUCE)):
                if kinds[kind] and pickup_refusal(s, move_for(s.hand_cards[seat], top_card, mid)) is None:
                    out.append(mid)
    return out


def staged_pickup(s: HandState, move: Move) -> Move:
    """The pickup a pickup ``move`` (its first group: naturals not staged) makes with the staged groups:
    the naturals of the top card's rank staged join its first group (they count toward the naturals the
    pile asks for), every other staged group (and wilds staged onto the top card's rank) follows."""
    top = KIND_OF[s.pile[-1]] if s.pile else -1
    first = move.groups[0] if move.groups else Group(top, ())
    naturals: list[int] = []
    rest: list[Group] = []
    for group in merge_groups(s.staged):
        if group.rank == top:
            naturals = [c for c in group.cards if not C.is_wild(KIND_OF[c])]
            wilds = tuple(c for c in group.cards if C.is_wild(KIND_OF[c]))
            if wilds:
                rest.append(Group(top, wilds))
        else:
            rest.append(group)
    return Move(Action.PICKUP, (Group(top, (*naturals, *first.cards)), *rest))


def pickup_move_staged(s: HandState, seat: int) -> list[int]:
    """Ids of the pickups that take the pile with the staged groups, judged whole (draw phase): the id
    counts the naturals of the top card's rank from the cards not staged; those staged count too."""
    out: list[int] = []
    if top_refusal(s, seat) is not None:
        return out
    pool = s.unstaged_cards(seat)
    top_card = s.pile[-1]
    top = KIND_OF[top_card]
    have = sum(pool[c] for c in C.IDS_OF_KIND[top])
    staged_top = sum(1 for g in s.staged if g.rank == top for c in g.cards if KIND_OF[c] == top)
    # groups are staged in the draw phase only by a side not down (``staging_mode``), so the pickups
    # with a wild, which need the side down, never take staged groups along
    least = max(pickup_needed(s, seat) - staged_top, 0)
    for mid in range(PICKUP_BASE + least, PICKUP_BASE + min(have, MAX_PICKUP_NATURALS) + 1):
        if pickup_refusal(s, staged_pickup(s, move_for(pool, top_card, mid))) is None:
            out.append(mid)
    return out
