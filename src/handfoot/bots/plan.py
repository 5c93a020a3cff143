"""A bot's own planning of lay-downs of several groups, played as the engine's steps.

The engine offers an opening of several groups as steps (``stage`` each group, then ``commit``, or a
pickup in the draw phase). A bot plans whole openings from what its seat knows (``opening_plans``: a
few found by ``engine.openings`` on a hand state built from the seat's reading alone, ``seat_state``),
scores them as whole moves, and plays the plan's next step (``next_step``): a plan is a pure function of
the seat's cards and the table, so a bot asked again mid-staging finds the same plan and goes on with it
(``continue_plan``), and cancels where none fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from handfoot import cards as C
from handfoot.engine.moves import (
    CANCEL_ID,
    DECODED,
    STAGE_NEW_BASE,
    Action,
    Group,
    Move,
    move_id,
)
from handfoot.engine.openings import all_held, black_three_book_moves, meld_openings, pickup_openings
from handfoot.engine.state import HandState, Meld, Phase
from handfoot.engine.steps import steps_of
from handfoot.engine.views import SeatInfo, View

STAGE: Final = Action.STAGE
# The ids that are steps of a staging (stage, commit, cancel): a bot plays them only through a plan.
STEP_IDS: Final = frozenset(
    mid
    for mid, d in enumerate(DECODED)
    if d is not None and d.action in (Action.STAGE, Action.COMMIT, Action.CANCEL)
)


def offers_staging(ids: Sequence[int]) -> bool:
    """True if the legal ``ids`` (sorted, as ``legal_ids`` gives them) hold a staging step: the steps have
    the highest ids."""
    return bool(ids) and ids[-1] >= STAGE_NEW_BASE


def seat_state(info: SeatInfo | View) -> HandState:
    """A hand state holding what the seat knows and nothing else: its own cards (staged ones
    included, with nothing staged), the table, the pile's top (the whole pile where the rules show
    it; else the top's copies stand in for the hidden cards), counts for the stock. Other hands and
    the Feet are empty. Enough to plan the seat's own openings, for reading only (from a ``SeatInfo`` it
    holds the table's own melds); never a world to search."""
    rules = info.rules
    s = HandState(rules, info.players, info.hand_index, info.dealer, list(info.minimums))
    seat = info.seat
    if isinstance(info, SeatInfo):
        s.hands[seat] = list(info.kinds)
        s.hand_cards[seat] = list(info.held)
        s.hand_sizes[seat] = info.hand_counts[seat]
        s.in_foot = list(info.in_foot)
        # read only: planning never changes the state, so the table's own melds serve
        melds: Sequence[Meld] = info.table
    else:
        held = _held(info.hand)
        for card in range(C.NUM_CARD_IDS):
            if held[card]:
                s.hand_cards[seat][card] = held[card]
                s.hands[seat][C.KIND_OF[card]] += held[card]
        s.hand_sizes[seat] = len(info.hand)
        s.in_foot = [sv.in_foot for sv in info.seats]
        melds = [Meld(m.owner, m.rank, list(m.cards), m.wilds) for m in info.melds]
    books = info.books
    for meld in melds:
        s.meld_of[meld.owner][meld.rank] = len(s.melds)
        s.melds.append(meld)
    s.books = list(books)
    s.down = list(info.down)
    if info.pile:
        s.pile = list(info.pile)
    elif info.pile_top >= 0:
        s.pile = [info.pile_top] * info.pile_size
    filler = info.pile_top if info.pile_top >= 0 else 0
    s.stock = [filler] * info.stock_size
    s.turn_seat = info.turn_seat
    s.to_move = info.to_move
    s.phase = info.phase
    s.permission = info.permission
    s.last_round_left = info.last_round_left
    s.out_seat = info.out_seat
    s.turn_wilds = dict(info.turn_wilds)
    s.cancelled = info.cancelled
    return s


def _held(hand: Sequence[int]) -> list[int]:
    held = [0] * C.NUM_CARD_IDS
    for card in hand:
        held[card] += 1
    return held


def opening_plans(s: HandState) -> list[Move]:
    """A few whole lay-downs of several groups the player to move in ``s`` (a ``seat_state``, or a
    search's own world) may make now: openings, pickups that open (with cards held only), a whole book
    of black 3s. Each is legal as a whole; its steps are ``steps_of``."""
    return whole_openings(s)


def whole_openings(s: HandState) -> list[Move]:
    """The whole lay-downs of ``opening_plans`` whether or not the seat has closed staging this turn:
    in the play phase the openings (none once the side is down) and a whole book of black 3s, in the
    draw phase the pickups that open with cards held only."""
    seat = s.to_move
    if s.phase is Phase.PLAY:
        out = [] if s.down[s.seating.owner_of[seat]] else meld_openings(s, seat)
        return out + black_three_book_moves(s)
    if s.phase is Phase.DRAW:
        return [m for m in pickup_openings(s, seat) if all_held(s, seat, m)]
    return []


def plan_steps(s: HandState, plan: Move) -> list[Move]:
    """The steps of ``plan`` from a position with nothing staged (empty if none express it)."""
    return steps_of(s, plan) or []


def next_step(s: HandState, plan: Move, staged: Sequence[Group], legal: Sequence[int]) -> int:
    """The id of ``plan``'s next step once ``staged`` (the seat's staged groups, in order) are set
    aside, where it is one of ``legal``; -1 if the plan does not continue what is staged."""
    steps = plan_steps(s, plan)
    if not _continues(steps, staged):
        return -1
    mid = move_id(steps[len(staged)])
    return mid if mid in legal else -1


def _continues(steps: Sequence[Move], staged: Sequence[Group]) -> bool:
    """True if ``steps`` has a step after ``staged`` and begins by staging those groups (by rank and
    kinds: the cards a step by id picks may differ in suit from the plan's)."""
    return len(steps) > len(staged) and all(
        step.action is STAGE and _kinds(step.groups[0]) == _kinds(group)
        for step, group in zip(steps, staged, strict=False)
    )


def _kinds(group: Group) -> tuple[int, list[int]]:
    """A group by rank and its cards' kinds, sorted."""
    return group.rank, sorted(C.KIND_OF[c] for c in group.cards)


def continue_plan(s: HandState, plans: Sequence[Move], staged: Sequence[Group], legal: Sequence[int]) -> int:
    """The next step of the first of ``plans`` that continues ``staged``, else ``cancel`` (or the first
    legal id where cancel is not legal)."""
    for plan in plans:
        mid = next_step(s, plan, staged, legal)
        if mid >= 0:
            return mid
    return CANCEL_ID if CANCEL_ID in legal else legal[0]


class PlanMemo:
    """The steps a bot still has to play of the opening it began, kept between its decisions: a memo
    of what ``continue_plan`` would find again (the same plan from the same cards), looked up only at the
    very position where the next step is due (same hand, seat and move count, the staged groups the
    plan's first steps); anywhere else the bot plans afresh."""

    __slots__ = ("key", "steps")

    def __init__(self) -> None:
        self.key: tuple[int, int, int] = (-1, -1, -1)
        self.steps: list[Move] = []

    def remember(self, info: SeatInfo | View, steps: Sequence[Move]) -> None:
        """``steps`` (a plan's, the first about to be played at ``info``) are the plan being staged."""
        self.key = (info.hand_index, info.seat, info.move_count + 1)
        self.steps = list(steps)

    def recall(self, info: SeatInfo | View, legal: Sequence[int]) -> int:
        """The next step's id at ``info`` if it is the position the memo waits for, else -1."""
        if self.key != (info.hand_index, info.seat, info.move_count):
            return -1
        steps = self.steps
        if not _continues(steps, info.staged):
            return -1
        mid = move_id(steps[len(info.staged)])
        if mid not in legal:
            return -1
        self.key = (info.hand_index, info.seat, info.move_count + 1)
        return mid
