"""The bots that take seats at a server table.

A seat bot has one method, ``choose(view, legal, rng)``: given what its seat may know (a ``View``, never
a state) and the legal moves, it returns one of those moves. ``bot_names``/``make_bot`` are the one
switch deciding where bots come from: the project's bot registry (``handfoot.bots``) when it is
installed, else the simple built-in bot below. ``legal_moves`` is what the server hands a bot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from handfoot import cards as C
from handfoot.engine import Action, HandState, Move, Phase, View, opening_moves
from handfoot.engine.legal import legal_ids, move_of_id

BUILTIN_BOT = "simple"
PREFERRED_BOT = "medium"  # the registry's default level, when the registry is there

# --- the one switch: the registry if installed, else the built-in bot ---------------------------------
try:
    from handfoot import bots as _registry
except ImportError:  # pragma: no cover - the registry ships with the package today
    _registry = None  # type: ignore[assignment]


class SeatBot(Protocol):
    """A bot playing one seat."""

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The move to make now: one of ``legal``, which is never empty."""
        ...


def legal_moves(state: HandState) -> list[Move]:
    """What a seat bot is offered: every legal atomic move, then compound openings, computed from the
    state by the server. Pickup openings that would meld cards still hidden in the pile are left out,
    so the list tells a bot nothing its view does not (the registry's ``legal_for`` when installed)."""
    if _registry is not None:
        return list(_registry.legal_for(state))
    if state.phase is Phase.OVER:
        return []
    moves = [move_of_id(state, mid) for mid in legal_ids(state)]
    held = Counter(
        card for card in range(C.NUM_CARD_IDS) for _ in range(state.hand_cards[state.to_move][card])
    )
    for move in opening_moves(state):
        named = Counter(card for group in move.groups for card in group.cards)
        if move.action is Action.PICKUP and named - held:
            continue
        moves.append(move)
    return moves


class SimpleBot:
    """A plain heuristic: take the pile when it can, open with the largest opening offered, meld what it
    can, ask to go out when nearly empty, say yes when asked, and discard its least useful card."""

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The move described in the class docstring (``legal`` must not be empty)."""
        if not legal:
            raise ValueError("choose needs at least one legal move")
        by_action: dict[Action, list[Move]] = {}
        for move in legal:
            by_action.setdefault(move.action, []).append(move)
        if view.phase is Phase.ANSWER:
            return (by_action.get(Action.YES) or list(legal))[0]
        if view.phase is Phase.DRAW:
            pickups = by_action.get(Action.PICKUP)
            if pickups:
                return max(pickups, key=_size)
            return (by_action.get(Action.DRAW) or list(legal))[0]
        melds = by_action.get(Action.MELD)
        if melds:
            openings = [m for m in melds if len(m.groups) > 1]
            return max(openings, key=_size) if openings else rng.choice(melds)
        if Action.ASK in by_action and len(view.hand) <= 2:
            return by_action[Action.ASK][0]
        discards = by_action.get(Action.DISCARD)
        if discards:
            return min(discards, key=lambda m: _discard_cost(view, m.card))
        return rng.choice(list(legal))


def _size(move: Move) -> int:
    return sum(len(g.cards) for g in move.groups)


def _discard_cost(view: View, card: int) -> tuple[int, int]:
    """How much the bot minds giving up ``card``: wilds most, then by points and copies held."""
    kind = C.KIND_OF[card]
    held = sum(1 for c in view.hand if C.KIND_OF[c] == kind)
    return (1 if C.is_wild(kind) else 0, view.rules.card_value(kind) + 10 * held)


def bot_names() -> list[str]:
    """The bot names a table may seat (the registry's, else only ``simple``)."""
    if _registry is None:
        return [BUILTIN_BOT]
    return [str(name) for name in _registry.bot_names()]


def default_bot() -> str:
    """The bot a seat gets when none is named."""
    names = bot_names()
    return PREFERRED_BOT if PREFERRED_BOT in names else names[0]


def make_bot(name: str) -> SeatBot:
    """The bot called ``name``; raises ValueError for a name that ``bot_names`` does not list."""
    if _registry is None:
        if name != BUILTIN_BOT:
            raise ValueError(f"no bot called {name!r}; allowed: {BUILTIN_BOT}")
        return SimpleBot()
    bot: SeatBot = _registry.make_bot(name)
    return bot
