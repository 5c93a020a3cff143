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

from handfoot import cards as C
from handfoot.engine.events import Event, EventType
from handfoot.engine.moves import Action, Move
from handfoot.engine.pile import pickup_needed, top_refusal
from handfoot.engine.state import HandState, Phase

UNKNOWN = 1 << 20  # a bound that says nothing
KIND_OF = C.KIND_OF


class HandFacts:
    """Upper bounds on each seat's holding of each kind, inferred from public moves (module docstring)."""

    __slots__ = ("_declined", "caps")

    def __init__(self, players: int) -> None:
        self.caps: list[list[int]] = [[UNKNOWN] * C.NUM_KINDS for _ in range(players)]
        self._declined: tuple[int, int, int] | None = None  # (seat, kind, at most) of the draw being played

    def before(self, s: HandState, move: Move) -> None:
        """Note what ``move``, about to be played in ``s``, tells (call ``after`` with its events)."""
        self._declined = None
        if move.action is not Action.DRAW or s.phase is not Phase.DRAW or not s.pile:
            return
        seat = s.to_move
        if not s.down[s.seating.owner_of[seat]] or top_refusal(s, seat) is not None:
            return
        needed = pickup_needed(s, seat)
        if needed < 1 or s.hand_size(seat) < needed + 2:
            return  # a small hand may be unable to take the pile for other reasons
        self._declined = (seat, KIND_OF[s.pile[-1]], needed - 1)

    def after(self, events: list[Event]) -> None:
        """Update the bounds with what the move just played was seen to do."""
        declined = self._declined
        self._declined = None
        if declined is not None:
            seat, kind, most = declined
            caps = self.caps[seat]
            caps[kind] = min(caps[kind], most)
        took_pile = False
        for event in events:
            what = event.type
            if what is EventType.NEW_HAND:
                return  # a new hand: the game starts new facts
            caps = self.caps[event.seat] if event.seat >= 0 else []
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

    def snapshot(self) -> tuple[tuple[int, ...], ...]:
        """The bounds now, as a value."""
        return tuple(map(tuple, self.caps))


def _raise(caps: list[int], count: int) -> None:
    if count:
        for kind, cap in enumerate(caps):
            if cap < UNKNOWN:
                caps[kind] = cap + count


def _lower(caps: list[int], kind: int) -> None:
    cap = caps[kind]
    if 0 < cap < UNKNOWN:
        caps[kind] = cap - 1
