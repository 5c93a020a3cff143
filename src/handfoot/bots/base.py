"""The bot interface, the legal-move list a runner hands to a bot, and the registry of bots by name.

A bot sees one seat's ``View`` and the list of legal moves, never a ``HandState``: whatever it knows it
knows from the view, so it cannot cheat. The *runner* (a tournament, the server, the hint command)
builds that list with ``legal_for``: the engine's atomic legal moves plus the compound openings of
``opening_moves`` (several melds at once). A bot must return one of the moves it was given.

Bots are named for the command line: ``random``, ``heuristic``, ``ismcts`` (with an optional budget,
``ismcts:200`` for 200 iterations, ``ismcts:0.5s`` for half a second), and the levels ``easy``,
``medium`` and ``hard``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from handfoot.engine import hand as H
from handfoot.engine.moves import Action, Move
from handfoot.engine.openings import opening_moves
from handfoot.engine.state import HandState, Phase
from handfoot.engine.views import View

YES = Move(Action.YES)
NO = Move(Action.NO)


class Bot(ABC):
    """A player: picks a move from a seat's view and the legal moves; answers "May I go out?".

    Contract: ``choose`` returns an element of ``legal`` (which is never empty) and reads nothing but its
    arguments; randomness comes only from ``rng``, so a bot is reproducible for a seeded ``rng``.
    """

    name: str = "bot"

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The move to play: one of ``legal``, for the seat ``view.seat`` (which is ``view.to_move``)."""

    def answer(self, view: View, rng: random.Random) -> bool:
        """The partner's answer to "May I go out?" (``view.phase`` is ``Phase.ANSWER``): True for yes."""
        return True

    def answer_move(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """``answer`` as a move from ``legal`` (yes or no)."""
        wanted = YES if self.answer(view, rng) else NO
        return wanted if wanted in legal else legal[0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def legal_for(state: HandState) -> list[Move]:
    """What a runner passes a bot as ``legal``: every legal atomic move (id order), then the compound
    openings proposed by ``opening_moves``. Computed from the full state by the runner, never the bot.

    Openings made on taking the pile are kept only when they use cards the player holds: the engine
    also proposes openings that meld cards still hidden in the pile (or the stock), and passing those
    would tell the bot what the pile hides.
    """
    if state.phase is Phase.OVER:
        return []
    moves = [H.move_of_id(state, mid) for mid in H.legal_ids(state)]
    seat = state.to_move
    for move in opening_moves(state):
        if move.action is Action.PICKUP and not _all_held(state, seat, move):
            continue
        moves.append(move)
    return moves


def _all_held(state: HandState, seat: int, move: Move) -> bool:
    """True when every card the move names is in the seat's hand (as a multiset)."""
    need: dict[int, int] = {}
    for group in move.groups:
        for card in group.cards:
            need[card] = need.get(card, 0) + 1
    held = state.hand_cards[seat]
    return all(held[card] >= count for card, count in need.items())


def is_answer(view: View) -> bool:
    """True when the seat is answering its partner's "May I go out?"."""
    return view.phase is Phase.ANSWER


BotFactory = Callable[[str], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory(options)`` available as ``make_bot(name)`` / ``make_bot(name + ":" + options)``."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """Every registered name (bots and levels), sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def make_bot(spec: str) -> Bot:
    """A new bot from a name such as ``heuristic``, ``hard`` or ``ismcts:300`` (options after the colon).

    Raises ValueError naming the known bots for an unknown name or bad options.
    """
    _load_builtins()
    name, _, options = spec.strip().partition(":")
    factory = _REGISTRY.get(name.lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: use one of {', '.join(sorted(_REGISTRY))}")
    return factory(options)


def _load_builtins() -> None:
    if _REGISTRY:
        return
    from handfoot.bots import heuristic, ismcts, levels, random_bot

    random_bot.register()
    heuristic.register()
    ismcts.register()
    levels.register()
