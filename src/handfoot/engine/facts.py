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

from typing import NamedTuple

from handfoot import cards as C
from handfoot.engine.events import Event, EventType
from handfoot.engine.moves import Action, Move
from handfoot.engine.pile import pickup_needed, top_refusal
from handfoot.engine.state import HandState, Phase

UNKNOWN = 1 << 20  # a bound that says nothing
KIND_OF = C.KIND_OF


class Declined(NamedTuple):
    """A seat drew beside a pile it could take: it holds at most ``most`` of ``kind``."""

    seat: int
    kind: int
    most: int


class HandFacts:
    """Upper bounds on each seat's holding of each kind, inferred from public moves (module docstring).

    Playing a move only queues what it showed (``before`` for a draw, ``seen`` for every move's events);
    the bounds are worked out when read (``caps``, ``snapshot``), so a game nobody asks pays next to
    nothing."""

    __slots__ = ("_caps", "_pending")

    def __init__(self, players: int) -> None:
        self._caps: list[list[int]] = [[UNKNOWN] * C.NUM_KINDS for _ in range(players)]
        # what moves showed, not yet worked into the bounds: a draw's (seat, kind, at most), or events
        self._pending: list[Declined | tuple[Event, ...]] = []

    def before(self, s: HandState, move: Move) -> None:
        """Note what ``move``, about to be played in ``s``, tells before it is played (only a draw beside
        a pile the seat could take tells anything); then ``seen`` its events."""
        if move.action is not Action.DRAW or s.phase is not Phase.DRAW or not s.pile:
            return
        seat = s.to_move
        if not s.down[s.seating.owner_of[seat]] or top_refusal(s, seat) is not None:
            return
        needed = pickup_needed(s, seat)
        if needed < 1 or s.hand_size(seat) < needed + 2:
            return  # a small hand may be unable to take the pile for other reasons
        self._pending.append(Declined(seat, KIND_OF[s.pile[-1]], needed - 1))

    def seen(self, events: list[Event]) -> None:
        """Queue what the move just played was seen to do."""
        self._pending.append(tuple(events))

    @property
    def caps(self) -> list[list[int]]:
        """The bounds now: per seat, per kind (``UNKNOWN``: none)."""
        for item in self._pending:
            if isinstance(item, Declined):
                caps = self._caps[item.seat]
                caps[item.kind] = min(caps[item.kind], item.most)
            else:
                self._work_in(item)
        self._pending.clear()
        return self._caps

    def snapshot(self) -> tuple[tuple[int, ...], ...]:
        """The bounds now, as a value."""
        return tuple(map(tuple, self.caps))

    def _work_in(self, events: tuple[Event, ...]) -> None:
        took_pile = False
        for event in events:
            what = event.type
            if what is EventType.NEW_HAND:
                return  # a new hand: the game starts new facts
            caps = self._caps[event.seat] if event.seat >= 0 else []
            if what is EventType.DREW:
                _raise(caps, event.amount)
            elif what is EventType.TOOK_PILE:
                _raise(caps, max(event.amount - 1, 0))
                took_pile = True
            elif what is EventType.MELDED:
                cards = event.cards[1:] if took_pile else event.cards  # the pile's top was never held
                took_pile = False
                for card in cards:
                    _lower(caps, KIND_OF[card])
            elif what is EventType.DISCARDED:
                for card in event.cards:
                    _lower(caps, KIND_OF[card])
            elif what is EventType.FOOT:
                caps[:] = [UNKNOWN] * C.NUM_KINDS


def _raise(caps: list[int], count: int) -> None:
    if count:
        for kind, cap in enumerate(caps):
            if cap < UNKNOWN:
                caps[kind] = cap + count


def _lower(caps: list[int], kind: int) -> None:
    cap = caps[kind]
    if 0 < cap < UNKNOWN:
        caps[kind] = cap - 1
