"""The bots by name, for the command line and the server: ``register_bot``, ``bot_names``, ``make_bot``.

This module sits below the bots and imports none of them: each bot module registers its names when it
is imported, and the ``handfoot.bots`` package imports every built-in bot module, so importing this
module (which imports its package first) is enough to find them all.

Names: ``random``, ``heuristic``, ``ismcts`` and ``planner`` (each search with an optional budget,
``ismcts:200`` for 200 iterations, ``planner:0.5s`` for half a second), and the levels ``easy``,
``medium`` and ``hard``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from handfoot.wording import show

if TYPE_CHECKING:
    from handfoot.bots.base import Bot

BotFactory = Callable[[str], "Bot"]
_REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory(options)`` available as ``make_bot(name)`` / ``make_bot(name + ":" + options)``."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """Every registered name (bots and levels), sorted."""
    return sorted(_REGISTRY)


def make_bot(spec: str) -> Bot:
    """A new bot from a name such as ``heuristic``, ``hard`` or ``ismcts:300`` (options after the colon).

    Raises ValueError naming the known bots for an unknown name or bad options.
    """
    name, _, options = spec.strip().partition(":")
    factory = _REGISTRY.get(name.lower())
    if factory is None:
        raise ValueError(f"unknown bot {show(name)}: use one of {', '.join(sorted(_REGISTRY))}")
    return factory(options)
