"""The bots that take seats at a server table.

A seat bot has one method, ``choose_seat(info, legal, rng)``: given what its seat may know (its
``SeatInfo`` with the public bounds, ``seat_reading``; never a state) and the legal moves, it returns one
of those moves. ``bot_names``/``make_bot`` take them from the project's bot registry
(``handfoot.bots``) and from the trained policies the operator lists (``use_policies``, from
``Settings.policies``), seated by name like a bot level through the policy adapter
(``rl.policy_bot.PolicyBot``). A visitor only ever names a bot; no path comes from the network. The
server hands a bot the engine's own list, ``Game.legal_moves``, nothing added.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from handfoot import bots as registry
from handfoot.engine import Game, Move
from handfoot.engine.views import SeatInfo

PREFERRED_BOT = "medium"  # the registry's default level

log = logging.getLogger("handfoot.server")

# The operator's trained policies, by name: what ``use_policies`` loaded last (one list per process).
_policies: dict[str, Callable[..., Any]] = {}
_policy_files: tuple[tuple[str, Path], ...] = ()


class SeatBot(Protocol):
    """A bot playing one seat: ``choose_seat``, the one entry point every runner calls (tournaments, the
    RL opponents, hints and the server's seats)."""

    def choose_seat(self, info: SeatInfo, legal: Sequence[Move], rng: random.Random) -> Move:
        """The move to make now: one of ``legal``, which is never empty."""
        ...


def seat_reading(game: Game, seat: int) -> SeatInfo:
    """What a bot of ``seat`` reads: the seat's ``SeatInfo`` with the public bounds on every hand
    (``Game.seat_info``), its table copied so that a bot thinking in another thread reads a table no
    later move changes."""
    info = game.seat_info(seat)
    info.table = tuple(meld.copy() for meld in info.table)
    return info


def _builtin_names() -> list[str]:
    return [str(name) for name in registry.bot_names()]


def bot_names() -> list[str]:
    """The bot names a table may seat: the registry's (``handfoot.bots``), then the operator's policies
    (``use_policies``) in the order they were listed."""
    return _builtin_names() + list(_policies)


def use_policies(files: Sequence[tuple[str, Path]]) -> None:
    """Load the operator's trained policies (``(name, saved model)`` pairs, ``Settings.policies``) and
    make each seatable by its name, replacing the previous list (an empty list: none). The same list as
    the one loaded last is not loaded again.

    Raises ValueError, naming the policy and what is allowed, for a name a built-in bot has, or a file
    that is not a saved Stable-Baselines3 / sb3-contrib model (or those libraries are not installed:
    ``handfoot[train]``); the previous list is kept then.
    """
    global _policies, _policy_files
    files = tuple(files)
    if files == _policy_files:
        return
    loaded: dict[str, Callable[..., Any]] = {}
    if files:
        from handfoot.rl.policy_bot import load_policy  # needs handfoot[rl]; [train] for the models

        builtin = set(_builtin_names())
        for name, path in files:
            if name in builtin:
                raise ValueError(
                    f"policy {name}={path}: {name!r} is a built-in bot's name; allowed: another name"
                )
            try:
                loaded[name] = load_policy(path)
            except ValueError as exc:
                why = str(exc).removeprefix(f"policy:{path}: ")
                raise ValueError(f"policy {name}={path}: {why}") from None
            log.info("tables may seat the trained policy %s (%s)", name, path)
    _policies, _policy_files = loaded, files


def default_bot() -> str:
    """The bot a seat gets when none is named."""
    names = bot_names()
    return PREFERRED_BOT if PREFERRED_BOT in names else names[0]


def make_bot(name: str) -> SeatBot:
    """The bot called ``name``; raises ValueError for a name that ``bot_names`` does not list."""
    policy = _policies.get(name)
    if policy is not None:
        from handfoot.rl.policy_bot import PolicyBot

        return PolicyBot(policy, name=name)
    bot: SeatBot = registry.make_bot(name)
    return bot


def seat_bot(name: str) -> SeatBot:
    """The bot for a seat stored as played by ``name``: ``make_bot(name)``, or, for a name this server no
    longer seats (a policy the operator has since taken off the list), the default bot, with a warning
    in the log, so that the table plays on."""
    try:
        return make_bot(name)
    except ValueError:
        log.warning(
            "no bot called %r on this server now: the default bot %s plays its seat", name, default_bot()
        )
        return make_bot(default_bot())
