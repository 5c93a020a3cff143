"""Events: what a move caused, for logs, the server's history and animations, and tests.

Each event says what a person needs without re-reading the move: a ``melded`` event names its cards, the
meld's ``rank`` and whether they ``detail`` "began" a meld or were "added" to one (``amount``: the meld's
size after); a ``book`` event follows the group that made a meld a book (or changed its kind), with the
book's kind in ``detail``; ``foot`` counts the Foot's cards; ``hand_over`` says why the hand ended
(``detail``: ``went_out``, ``stock_empty`` or ``last_round``; ``seat``: who went out, or -1).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple


class EventType(StrEnum):
    """Kinds of event."""

    DREW = "drew"
    TOOK_PILE = "took_pile"
    TOOK_TOP = "took_top"  # drew the pile's top card (split_draw); a ``drew`` event counts the stock cards
    MELDED = "melded"  # rank: the meld's; detail "began" or "added"; amount: the meld's size after
    BOOK = "book"  # a meld became a book (or a book changed kind): rank, detail clean/dirty/wild, amount size
    DISCARDED = "discarded"
    RED_THREE = "red_three"  # a red 3 laid down
    FOOT = "foot"  # picked up the Foot
    PICKED = "picked"  # chose which seen pile is the Foot (pick_foot_seen): detail "keep" or "swap"
    ASKED = "asked"
    ANSWERED = "answered"
    WENT_OUT = "went_out"
    LAST_ROUND = "last_round"
    TURN = "turn"  # a new turn begins
    RESHUFFLED = "reshuffled"  # the pile but its top card shuffled into the empty stock (amount: cards)
    HAND_OVER = "hand_over"
    NEW_HAND = "new_hand"
    GAME_OVER = "game_over"


class Event(NamedTuple):
    """One thing that happened. ``cards`` lists public cards only; ``amount`` is how many (drawn cards
    are counted, never named, so an event may go to every seat); ``rank`` is the meld rank kind of a
    ``melded`` or ``book`` event (``cards.WILD_RANK`` for a meld of wilds), -1 for the others."""

    type: EventType
    seat: int
    cards: tuple[int, ...] = ()
    amount: int = 0
    detail: str = ""
    rank: int = -1


MELD_BEGAN: Final = "began"  # the ``detail`` of a ``melded`` event
MELD_ADDED: Final = "added"
BOOK_KINDS: tuple[str, ...] = ("clean", "dirty", "wild")  # the ``detail`` of a ``book`` event, by status


# ``tuple.__new__`` and the Event class, looked up once: compiled with mypyc, a method of a built-in type
# is otherwise looked up by name at every call, and a class from the module's dictionary.
NEW_TUPLE: Final = tuple.__new__
EVENT: Final = Event


def event(
    type: EventType, seat: int, cards: tuple[int, ...] = (), amount: int = 0, detail: str = "", rank: int = -1
) -> Event:
    """``Event(type, seat, cards, amount, detail, rank)``, the same value, made as the tuple it is: a
    NamedTuple's own constructor runs a ``__new__`` written in Python, which code compiled with mypyc
    calls back into the interpreter for. ``apply`` makes the events of every move with this."""
    return NEW_TUPLE(EVENT, (type, seat, cards, amount, detail, rank))
