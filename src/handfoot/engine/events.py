"""Events: what a move caused, for logs, the server's animations and tests."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class EventType(StrEnum):
    """Kinds of event."""

    DREW = "drew"
    TOOK_PILE = "took_pile"
    MELDED = "melded"
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
    are counted, never named, so an event may go to every seat)."""

    type: EventType
    seat: int
    cards: tuple[int, ...] = ()
    amount: int = 0
    detail: str = ""
