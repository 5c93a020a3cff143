"""The bot interface and the legal-move list a runner hands to a bot (the names are in ``registry``).

A bot sees one seat's ``View`` and the list of legal moves, never a ``HandState``: whatever it knows it
knows from the view, so it cannot cheat. The *runner* (a tournament, the server, the hint command)
builds that list with ``legal_for``: the engine's legal ids (``legal_ids``), nothing added. An opening
of several groups is a sequence of those ids (stage each group, commit; ``bots.plan``). A bot must
return one of the moves it was given.

``legal_for`` returns a ``LegalMoves``: a ``Sequence[Move]`` that holds the moves as their ids
(``legal.ids``) and builds a ``Move`` only when one is read, from the mover's own cards not staged
(what ``move_of_id`` would pick: lowest suit first). A bot that scores ids reads ``legal.ids`` and
builds only the move it plays; any other bot simply indexes or iterates.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Final, overload

from mypy_extensions import mypyc_attr

from handfoot import cards as C
from handfoot.engine.legal import legal_ids
from handfoot.engine.moves import DECODED as ENGINE_DECODED
from handfoot.engine.moves import Action, DecodedId, Move, move_for, move_id
from handfoot.engine.state import HandState, Phase
from handfoot.engine.views import SeatInfo, View

YES: Final = Move(Action.YES)
NO: Final = Move(Action.NO)


@mypyc_attr(allow_interpreted_subclasses=True)
class Bot(ABC):
    """A player: picks a move from a seat's view and the legal moves; answers "May I go out?".

    Contract: ``choose`` returns an element of ``legal`` (which is never empty) and reads nothing but its
    arguments; randomness comes only from ``rng``, so a bot is reproducible for a seeded ``rng``.
    """

    name: str = "bot"

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The move to play: one of ``legal``, for the seat ``view.seat`` (which is ``view.to_move``)."""

    def choose_seat(self, info: SeatInfo, legal: Sequence[Move], rng: random.Random) -> Move:
        """``choose`` for a runner that hands the seat's ``SeatInfo`` (the same knowledge as its view,
        cheaper to read): the same contract and the same move as ``choose(info.freeze(), legal, rng)``,
        which is what this default does; a bot overrides it to read the SeatInfo directly."""
        return self.choose(info.freeze(), legal, rng)

    def answer(self, view: View, rng: random.Random) -> bool:
        """The partner's answer to "May I go out?" (``view.phase`` is ``Phase.ANSWER``): True for yes."""
        return True

    def answer_move(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """``answer`` as a move from ``legal`` (yes or no)."""
        wanted = YES if self.answer(view, rng) else NO
        return wanted if wanted in legal else legal[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


# Every id taken apart once (the engine's table): ``DECODED[mid]`` or None for a number that is no move.
DECODED: tuple[DecodedId | None, ...] = ENGINE_DECODED
# The members read for every move built, looked up once (reading an enum's member costs a lookup each time).
PICKUP: Final = Action.PICKUP
OVER: Final = Phase.OVER


def move_of_id_for(held: Sequence[int], pile_top: int, mid: int) -> Move:
    """The ``Move`` an atomic id stands for, built from the mover's cards ``held`` (counts by card id)
    and the pile's top card (-1: empty): the engine's ``move_for``, which needs nothing a seat does not
    see, so a bot can build the move it plays from its own view."""
    return move_for(held, pile_top, mid)


def held_counts(hand: Sequence[int]) -> list[int]:
    """Counts by card id of a hand given as card ids (a view's ``hand``)."""
    held = [0] * C.NUM_CARD_IDS
    for card in hand:
        held[card] += 1
    return held


@mypyc_attr(allow_interpreted_subclasses=True)
class LegalMoves(Sequence[Move]):
    """The legal moves a runner passes a bot: the engine's legal ids, sorted.

    It is a ``Sequence[Move]`` (index, iterate, ``in``, ``len``); a ``Move`` for an id is built on first
    read from the mover's own cards not staged and the pile's top, which the mover sees anyway. ``ids``
    lets a bot score moves without building them. Holds no state: only ints and ``Move`` objects.
    """

    __slots__ = ("_built", "_held", "_moves", "ids", "pile_top")

    def __init__(self, ids: Sequence[int], held: Sequence[int], pile_top: int) -> None:
        self.ids: tuple[int, ...] = tuple(ids)
        self._held: tuple[int, ...] = tuple(held)
        self.pile_top = pile_top
        self._moves: list[Move | None] = [None] * len(self.ids)
        self._built = -1  # the index of the move built last (``id_of``)

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = len(self.ids)
        if index < 0:
            index += len(self)
        if 0 <= index < count:
            move = self._moves[index]
            if move is None:
                move = move_of_id_for(self._held, self.pile_top, self.ids[index])
                self._moves[index] = move
            self._built = index
            return move
        raise IndexError("legal move index out of range")

    def __iter__(self) -> Iterator[Move]:
        for index in range(len(self)):
            yield self[index]

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Move):
            return False
        mid = move_id(item)
        if mid >= 0:
            try:
                index = self.ids.index(mid)
            except ValueError:
                index = -1
            if index >= 0 and self[index] == item:
                return True
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return self.ids == other.ids and self._held == other._held
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError("LegalMoves cannot be hashed")

    def __repr__(self) -> str:
        return f"LegalMoves({list(self)!r})"

    def index_of_id(self, mid: int) -> int:
        """The position of atomic id ``mid`` (ValueError if it is not legal)."""
        return self.ids.index(mid)

    def id_of(self, move: Move) -> int:
        """``atomic_id_in(self, move)``: the id of ``move`` when it is one of the atomic moves exactly as
        built here, else -1. The move read last (what a bot returns, as a rule) is found at once."""
        built = self._built
        if built >= 0 and self._moves[built] is move:
            return self.ids[built]  # built from that id: ``move_id`` gives it back
        mid = move_id(move)
        if mid < 0 or mid not in self.ids:
            return -1
        return mid if self[self.ids.index(mid)] == move else -1


def legal_for(state: HandState, ids: Sequence[int] | None = None) -> LegalMoves:
    """What a runner passes a bot as ``legal``: the engine's legal ids (``ids``, when the runner already
    has them), as moves naming the mover's cards not staged. Computed by the runner, never the bot;
    what it holds besides the ids is the mover's own cards and the pile's top card."""
    seat = state.to_move
    held = state.unstaged_cards(seat)
    top = state.pile[-1] if state.pile else -1
    if state.phase is OVER:
        return LegalMoves((), held, top)
    return LegalMoves(legal_ids(state) if ids is None else ids, held, top)


def atomic_id_in(legal: Sequence[Move], move: Move) -> int:
    """The id of ``move`` when it is one of ``legal``'s atomic moves exactly as built there (so the
    engine's ``move_of_id`` gives the same cards), else -1 (not a ``LegalMoves``)."""
    if not isinstance(legal, LegalMoves):
        return -1
    return legal.id_of(move)


def is_answer(view: View) -> bool:
    """True when the seat is answering its partner's "May I go out?"."""
    return view.phase is Phase.ANSWER
