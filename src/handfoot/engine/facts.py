"""Public facts about the hidden hands: what everyone at the table may infer from what each seat did.

``HandFacts`` keeps, per seat and card kind, an upper bound on how many cards of that kind the seat
holds (``caps``; ``UNKNOWN`` when nothing is inferred), from the moves of the hand as everyone saw them:

* a seat that **drew instead of taking the pile**, when the pile could be taken with naturals of the top
  card's rank from the hand (the top card takeable, the seat's side down, its hand big enough), is taken
  to hold fewer naturals of that rank than taking the pile needs (``pickup_needed``, two at most tables);
* every card a seat is then seen to receive (a draw, the pile) raises its bounds by one, since nobody sees
  which kind it was, and every card it is seen to play (a meld, a discard) lowers the bound of its kind;
* picking up the Foot makes the hand unknown again.

Cards a seat was seen to take from a visible pile are known exactly (``HandState.known``, in every view);
these bounds add what drawing says. They are beliefs about sensible play: a player may decline a pile they
could take, which the bound then misjudges. ``Game`` keeps one per hand and hands the bounds to bots with
``Game.seat_info``; nothing here reads a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from handfoot import cards as C
from handfoot.engine.events import Event, EventType
from handfoot.engine.moves import Action, Move
from handfoot.engine.pile import pickup_needed, top_refusal
from handfoot.engine.state import HandState, Phase

UNKNOWN: Final = 1 << 20  # a bound that says nothing
KIND_OF: Final = C.KIND_OF
_NO_BOUNDS: Final[tuple[int, ...]] = (UNKNOWN,) * C.NUM_KINDS
# The members read for every move, looked up once (reading an enum's member costs a lookup each time).
DRAW: Final = Action.DRAW
DRAW_PHASE: Final = Phase.DRAW
NEW_HAND: Final = EventType.NEW_HAND
DREW: Final = EventType.DREW
TOOK_PILE: Final = EventType.TOOK_PILE
TOOK_TOP: Final = EventType.TOOK_TOP
MELDED: Final = EventType.MELDED
DISCARDED: Final = EventType.DISCARDED
FOOT: Final = EventType.FOOT


class HandFacts:
    """Upper bounds on each seat's holding of each kind, inferred from public moves (module docstring).

    A move's events change only the bounds of a seat that has one (``UNKNOWN`` everywhere stays so until
    a draw beside a takeable pile bounds the seat), so a move by an unbounded seat costs next to nothing.
    What ``bound`` and ``seen`` are told is kept in order and worked into the bounds when they are read
    (``caps``, ``snapshot``, ``copy``), so a game nobody asks for its bounds (random play, training) does
    not pay for them move by move. ``snapshot`` keeps its value until a move changes a bound, and rebuilds
    only the rows of the seats that changed."""

    __slots__ = ("_bounded", "_caps", "_pending", "_rows", "_snapshot")

    def __init__(self, players: int) -> None:
        self._caps: list[list[int]] = [[UNKNOWN] * C.NUM_KINDS for _ in range(players)]
        self._bounded: list[bool] = [False] * players  # True: some bound of the seat's is below UNKNOWN
        self._rows: list[tuple[int, ...] | None] = [_NO_BOUNDS] * players  # None: rebuild from _caps
        self._snapshot: tuple[tuple[int, ...], ...] | None = None  # None: rebuild from _rows
        # told and not yet worked in, in order: a move's events (seat -1), or a bound (seat, kind, most)
        self._pending: list[tuple[tuple[Event, ...], int, int, int]] = []

    def before(self, s: HandState, move: Move) -> None:
        """Note what ``move``, about to be played in ``s``, tells before it is played (only a draw beside
        a pile the seat could take tells anything); then ``seen`` its events."""
        if move.action is not DRAW or s.phase is not DRAW_PHASE or not s.pile:
            return
        seat = s.to_move
        if not s.down[s.seating.owner_of[seat]]:
            return
        needed = pickup_needed(s, seat)
        if needed < 1 or s.hand_size(seat) < needed + 2:
            return  # a small hand may be unable to take the pile for other reasons
        if top_refusal(s, seat) is not None:
            return
        self.bound(seat, KIND_OF[s.pile[-1]], needed - 1)

    def bound(self, seat: int, kind: int, most: int) -> None:
        """Note that ``seat`` holds at most ``most`` cards of ``kind`` (a looser bound changes nothing)."""
        self._pending.append(((), seat, kind, most))

    def seen(self, events: list[Event]) -> None:
        """Note what the move just played was seen to do (only seats with a bound can change)."""
        if self._pending or True in self._bounded:
            self._pending.append((tuple(events), -1, 0, 0))
        # else no bound anywhere and none to come before these events: they change none

    def _work_in(self) -> None:
        """Work what was told (``bound``, ``seen``) into the bounds, in the order it was told."""
        pending = self._pending
        if not pending:
            return
        self._pending = []
        for events, seat, kind, most in pending:
            if seat >= 0:
                self._bound_now(seat, kind, most)
            else:
                self._seen_now(events)

    def _bound_now(self, seat: int, kind: int, most: int) -> None:
        caps = self._caps[seat]
        if most < caps[kind]:
            caps[kind] = most
            self._bounded[seat] = True
            self._changed(seat)

    def _seen_now(self, events: tuple[Event, ...]) -> None:
        bounded = self._bounded
        if True not in bounded:
            return  # no bound anywhere: no event changes any
        all_caps = self._caps
        took_pile = False
        for event in events:
            what = event.type
            if what is NEW_HAND:
                return  # a new hand: the game starts new facts
            seat = event.seat
            if seat < 0 or not bounded[seat]:
                if what is TOOK_PILE:
                    took_pile = True
                elif what is MELDED:
                    took_pile = False
                continue
            caps = all_caps[seat]
            if what is DREW:
                if not _raise(caps, event.amount):
                    continue
            elif what is TOOK_PILE:
                took_pile = True
                if not _raise(caps, max(event.amount - 1, 0)):
                    continue
            elif what is TOOK_TOP:  # the pile's top card, seen: only its kind's bound rises
                kind = KIND_OF[event.cards[0]]
                if caps[kind] >= UNKNOWN:
                    continue
                caps[kind] += 1
            elif what is MELDED:
                cards = event.cards[1:] if took_pile else event.cards  # the pile's top was never held
                took_pile = False
                if not _lower(caps, cards):
                    continue
            elif what is DISCARDED:
                if not _lower(caps, event.cards):
                    continue
            elif what is FOOT:
                caps[:] = _NO_BOUNDS
                bounded[seat] = False
            else:
                continue
            self._changed(seat)

    def copy(self) -> HandFacts:
        """An independent copy (the bounds as they are now)."""
        self._work_in()
        other = HandFacts(len(self._caps))
        other._caps = [list(row) for row in self._caps]
        other._bounded = list(self._bounded)
        other._rows = list(self._rows)
        other._snapshot = self._snapshot
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> HandFacts:
        """``copy``."""
        other = self.copy()
        memo[id(self)] = other
        return other

    def __reduce__(self) -> tuple[Callable[..., HandFacts], tuple[object, ...]]:
        """Pickled as its bounds (worked in first), rebuilt through the constructor (``restored_facts``)."""
        self._work_in()
        return (restored_facts, ([list(row) for row in self._caps],))

    @property
    def caps(self) -> list[list[int]]:
        """A copy of the bounds now: per seat, per kind (``UNKNOWN``: none)."""
        self._work_in()
        return [list(row) for row in self._caps]

    def snapshot(self) -> tuple[tuple[int, ...], ...]:
        """The bounds now, as a value (the same value until a move changes a bound)."""
        self._work_in()
        snap = self._snapshot
        if snap is None:
            rows = self._rows
            built: list[tuple[int, ...]] = []
            for seat, row in enumerate(rows):
                if row is None:
                    row = rows[seat] = tuple(self._caps[seat])
                built.append(row)
            snap = self._snapshot = tuple(built)
        return snap

    def _changed(self, seat: int) -> None:
        self._rows[seat] = None
        self._snapshot = None


def _raise(caps: list[int], count: int) -> bool:
    """Raise every bound of ``caps`` by ``count``; True if one changed."""
    if not count:
        return False
    changed = False
    for kind, cap in enumerate(caps):
        if cap < UNKNOWN:
            caps[kind] = cap + count
            changed = True
    return changed


def _lower(caps: list[int], cards: tuple[int, ...]) -> bool:
    """Lower the bound of each card's kind (a bound of 0 or ``UNKNOWN`` stays); True if one changed."""
    changed = False
    for card in cards:
        kind = KIND_OF[card]
        cap = caps[kind]
        if 0 < cap < UNKNOWN:
            caps[kind] = cap - 1
            changed = True
    return changed


def restored_facts(caps: list[list[int]]) -> HandFacts:
    """The HandFacts whose bounds are ``caps`` (per seat, per kind; ``UNKNOWN``: none): how a pickled one
    comes back."""
    facts = HandFacts(len(caps))
    for seat, row in enumerate(caps):
        for kind, most in enumerate(row):
            if most < UNKNOWN:
                facts.bound(seat, kind, most)
    return facts
