"""Refusals: why a move is illegal, in the rule's name and a sentence a player understands."""

from __future__ import annotations

from typing import NamedTuple


class Refusal(NamedTuple):
    """Why a move cannot be made: the rule option it breaks and a sentence for the player."""

    rule: str
    message: str


class IllegalMove(Exception):
    """Raised by ``verify``/``apply`` for a move the rules forbid; the state is left unchanged."""

    def __init__(self, rule: str, message: str, move: str = "") -> None:
        self.rule = rule
        self.message = message
        self.move = move
        super().__init__(f"{move + ': ' if move else ''}{message} [{rule}]")

    def __reduce__(self) -> tuple[type[IllegalMove], tuple[str, str, str]]:
        return (IllegalMove, (self.rule, self.message, self.move))

    @classmethod
    def of(cls, refusal: Refusal, move: str = "") -> IllegalMove:
        """The exception for a refusal."""
        return cls(refusal.rule, refusal.message, move)
