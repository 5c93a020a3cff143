"""Openings: a few sensible lay-downs of a side's first melds (several groups at once).

An opening of several groups is made in steps (``engine.staging``: stage each group, then commit).
``meld_openings`` and ``pickup_openings`` find a few legal ones as whole moves (every one verified
legal): they do not list every possible opening, but find one whenever the hand holds one in all but
contrived positions. The judge leans on them where a rule asks whether a move exists at all: whether
the pile can be taken (``pile_pickup``: an empty stock cannot be drawn from then) and whether a card
can still go down (``play_example``: ``must_play_all`` refuses the discard then); each counts an
opening only where staging is open (``staging.staging_mode``). Every opening they find is legal, so its
steps are offered (``engine.completion`` finds a lay-down wherever one exists). Bots plan with them too;
what is played is the steps (``steps.steps_of``).
"""

from __future__ import annotations

from typing import Final

from handfoot import cards as C
from handfoot.engine.melding import meld_refusal
from handfoot.engine.moves import Action, Group, Move, move_for, pick_cards
from handfoot.engine.pile import pickup_ids, pickup_needed, pickup_refusal, pile_taken, top_refusal
from handfoot.engine.staging import NONE, staging_mode
from handfoot.engine.state import HandState, Phase
from handfoot.rules.options import (
    BlackThreeBooks,
    BookAdditions,
    OpeningWaiver,
    PickupBeforeDown,
    PickupRestFrom,
    PileVisible,
    WildLimit,
)

NO_WAIVER: Final = OpeningWaiver.NONE


def _wild_room(s: HandState, naturals: int, wilds: int) -> int:
    """How many more wilds a meld of ``naturals`` and ``wilds`` may take."""
    rules = s.rules
    cap = naturals if rules.wild_limit is WildLimit.AT_MOST_NATURALS else naturals - 1
    if rules.max_wilds:
        cap = min(cap, rules.max_wilds)
    return max(cap - wilds, 0)


def _build(
    s: HandState, counts: list[int], jokers_first: bool, lean: bool
) -> list[tuple[int, int, int, int]]:
    """Groups (rank, naturals, jokers, deuces) from kind ``counts``: clean groups of 3+, pairs with a wild,
    then spare wilds onto groups while the limits allow. ``lean``: stop adding once the minimum is reached."""
    rules = s.rules
    values = rules.card_values
    jokers, deuces = counts[C.JOKER], counts[C.DEUCE]
    ranks = sorted(range(C.ACE, C.FOUR + 1), key=lambda r: -counts[r] * values[r])
    # a book that takes nothing more closes at book_size cards, also within one play
    most = rules.book_size if rules.book_additions is BookAdditions.NONE else len(C.KIND_OF)
    groups: list[list[int]] = []
    for rank in ranks:
        if counts[rank] >= 3 and counts[rank] >= rules.min_naturals:
            groups.append([rank, min(counts[rank], most), 0, 0])
    for rank in ranks:
        if counts[rank] == 2 and rules.min_naturals <= 2 and jokers + deuces and _wild_room(s, 2, 0):
            if (jokers_first and jokers) or not deuces:
                groups.append([rank, 2, 1, 0])
                jokers -= 1
            else:
                groups.append([rank, 2, 0, 1])
                deuces -= 1
    if lean:
        groups.sort(key=lambda g: -(g[1] * values[g[0]] + g[2] * values[C.JOKER] + g[3] * values[C.DEUCE]))
    minimum = s.minimums[s.seating.owner_of[s.to_move]]

    def points(chosen: list[list[int]]) -> int:
        return sum(g[1] * values[g[0]] + g[2] * values[C.JOKER] + g[3] * values[C.DEUCE] for g in chosen)

    if lean:
        chosen: list[list[int]] = []
        for group in groups:
            chosen.append(group)
            if points(chosen) >= minimum:
                break
        groups = chosen
    for group in groups:
        while (
            points(groups) < minimum and (jokers or deuces) and _wild_room(s, group[1], group[2] + group[3])
        ):
            if (jokers_first and jokers) or not deuces:
                group[2] += 1
                jokers -= 1
            else:
                group[3] += 1
                deuces -= 1
    return [(g[0], g[1], g[2], g[3]) for g in groups]


def _to_groups(
    s: HandState, seat: int, specs: list[tuple[int, int, int, int]], skip: dict[int, int]
) -> list[Group]:
    taken = dict(skip)
    out = []
    for rank, naturals, jokers, deuces in specs:
        cards = pick_cards(s.hand_cards[seat], rank, naturals, taken)
        cards += pick_cards(s.hand_cards[seat], C.JOKER, jokers, taken)
        cards += pick_cards(s.hand_cards[seat], C.DEUCE, deuces, taken)
        out.append(Group(rank, tuple(cards)))
    return out


def _most_points(s: HandState, counts: list[int]) -> int:
    """An upper bound of the points any opening from kind ``counts`` can count."""
    rules = s.rules
    values = rules.card_values
    least = max(rules.min_naturals, 2)
    most = counts[C.JOKER] * values[C.JOKER] + counts[C.DEUCE] * values[C.DEUCE]
    for rank in range(C.ACE, C.FOUR + 1):
        if counts[rank] >= least:
            most += counts[rank] * values[rank]
    if rules.black_three_melds and counts[C.BLACK_THREE] >= 3:
        most += counts[C.BLACK_THREE] * values[C.BLACK_THREE]
    return most


def _may_fall_short(s: HandState) -> bool:
    """True where an opening below the minimum may still be legal (book bonuses count, or emptying
    the hand waives it), so ``_most_points`` rules nothing out."""
    rules = s.rules
    return rules.opening_counts_books or rules.opening_waived_if_emptied is not NO_WAIVER


def meld_openings(s: HandState, seat: int) -> list[Move]:
    """Up to a few legal compound openings ``seat`` may lay in the play phase (empty once down)."""
    owner = s.seating.owner_of[seat]
    if s.down[owner]:
        return []
    counts = list(s.hands[seat])
    if _most_points(s, counts) < s.minimums[owner] and not _may_fall_short(s):
        return []
    out: list[Move] = []
    tried: list[list[tuple[int, int, int, int]]] = []  # the groups built so far: each is judged once
    for jokers_first in (False, True):
        for lean in (True, False):
            specs = _build(s, counts, jokers_first, lean)
            if not specs or specs in tried:
                continue
            tried.append(specs)
            move = Move(Action.MELD, tuple(_to_groups(s, seat, specs, {})))
            if meld_refusal(s, seat, move.groups) is None:
                out.append(move)
    return out


def pickup_openings(s: HandState, seat: int) -> list[Move]:
    """Up to a few legal compound pickups that open for ``seat`` in the draw phase (where the rules let
    a side that is not down take the pile with an opening; empty once down)."""
    owner = s.seating.owner_of[seat]
    if s.down[owner]:
        return []
    if top_refusal(s, seat) is not None or s.rules.pickup_before_down is PickupBeforeDown.NEVER:
        return []
    top = C.KIND_OF[s.pile[-1]]
    needed = pickup_needed(s, seat)
    have = s.hands[seat][top]
    if have < needed:
        return []
    # Cards under the top may join the opening only where the player can see them before taking.
    rules = s.rules
    pile_seen = rules.pile_visible is PileVisible.ALL and rules.pickup_rest_from is PickupRestFrom.PILE
    use_pile = pile_seen and rules.pickup_before_down is PickupBeforeDown.WITH_OPENING
    out: list[Move] = []
    # the first group: the naturals needed, or every natural of the top card's rank held
    for with_top in sorted({needed, have}):
        first_taken: dict[int, int] = {}
        first = Group(top, tuple(pick_cards(s.hand_cards[seat], top, with_top, first_taken)))
        counts = list(s.hands[seat])
        counts[top] -= with_top
        if use_pile:
            for card in pile_taken(s):
                counts[C.KIND_OF[card]] += 1
        for jokers_first in (False, True):
            specs = [g for g in _build(s, counts, jokers_first, lean=False) if g[0] != top]
            if not specs:
                continue
            groups = (
                _to_groups_with_pile(s, seat, specs, first_taken)
                if use_pile
                else _to_groups(s, seat, specs, first_taken)
            )
            move = Move(Action.PICKUP, (first, *groups))
            if move not in out and pickup_refusal(s, move) is None:
                out.append(move)
    return out


def pile_pickup(s: HandState) -> Move | None:
    """A legal way for the player to move to take the discard pile now (draw phase): the atomic pickup
    with the fewest naturals, else a pickup that opens with several melds; None if the pile cannot be
    taken."""
    if s.phase is not Phase.DRAW:
        return None
    seat = s.to_move
    ids = pickup_ids(s, seat)
    if ids:
        return move_for(s.hand_cards[seat], s.pile[-1], ids[0])
    if staging_mode(s, seat) == NONE:
        return None
    for move in pickup_openings(s, seat):
        if all_held(s, seat, move):
            return move
    return None


def play_example(s: HandState, seat: int, meld_ids: list[int]) -> Move | None:
    """A card or cards ``seat`` may still lay in the play phase: the first legal meld id of
    ``meld_ids`` (``melding.meld_ids``), else an opening of several melds; None if nothing can go down."""
    if meld_ids:
        return move_for(s.hand_cards[seat], s.pile[-1] if s.pile else -1, meld_ids[0])
    if staging_mode(s, seat) == NONE:
        return None
    openings = meld_openings(s, seat)
    return openings[0] if openings else None


def all_held(s: HandState, seat: int, move: Move) -> bool:
    """True when every card ``move`` names is in ``seat``'s hand (as a multiset): an opening that staging
    can make, naming no card still hidden in the pile."""
    need: dict[int, int] = {}
    for group in move.groups:
        for card in group.cards:
            need[card] = need.get(card, 0) + 1
    held = s.hand_cards[seat]
    return all(held[card] >= count for card, count in need.items())


def black_three_book_moves(s: HandState) -> list[Move]:
    """The whole book of black 3s the player to move may lay now (``black_three_books``), as one whole
    move (its steps: ``steps.steps_of``): a list of one move, or empty."""
    rules = s.rules
    seat = s.to_move
    if (
        rules.black_three_books is BlackThreeBooks.NONE
        or s.phase is not Phase.PLAY
        or not s.in_foot[seat]
        or s.hands[seat][C.BLACK_THREE] < rules.book_size
        or s.meld_of[s.seating.owner_of[seat]][C.BLACK_THREE] >= 0
    ):
        return []
    cards = pick_cards(s.hand_cards[seat], C.BLACK_THREE, s.hands[seat][C.BLACK_THREE], {})
    move = Move(Action.MELD, (Group(C.BLACK_THREE, tuple(cards)),))
    return [move] if meld_refusal(s, seat, move.groups) is None else []


def _to_groups_with_pile(
    s: HandState, seat: int, specs: list[tuple[int, int, int, int]], skip: dict[int, int]
) -> list[Group]:
    """Like ``_to_groups`` but drawing on the cards that will come with the pile when the hand runs short."""
    extra: dict[int, list[int]] = {}
    for card in pile_taken(s):
        extra.setdefault(C.KIND_OF[card], []).append(card)
    taken = dict(skip)
    held = s.hand_cards[seat]
    out = []
    for rank, naturals, jokers, deuces in specs:
        cards: list[int] = []
        for kind, count in ((rank, naturals), (C.JOKER, jokers), (C.DEUCE, deuces)):
            for _ in range(count):
                card = next((c for c in C.IDS_OF_KIND[kind] if held[c] - taken.get(c, 0) > 0), -1)
                if card >= 0:
                    taken[card] = taken.get(card, 0) + 1
                elif extra.get(kind):
                    card = extra[kind].pop()
                else:
                    card = C.IDS_OF_KIND[kind][0]
                cards.append(card)
        out.append(Group(rank, tuple(cards)))
    return out
