"""Seat specs: who plays a seat of ``handfoot simulate --seats`` (and of other runners), by kind.

* a registered name (``heuristic``, ``ismcts:0.5s``, ``hard``...): that built-in bot (``bots.registry``);
* ``cmd:COMMAND``: a program speaking the bot protocol (docs/bot-protocol.md), one process per game;
* ``policy:PATH.zip``: a saved Stable-Baselines3 / sb3-contrib model, through the policy adapter
  (``rl.policy_bot``);
* ``python:MODULE:FACTORY``: ``FACTORY()`` from a module importable from the path or the current
  folder: a ``Bot``, or an ``(observation, mask) -> action`` callable, adapted like a policy.

``split_seats`` reads the comma-separated list (a comma inside quotes belongs to a command),
``check_seat`` refuses a spec that cannot be used, with what is allowed, before anything is played, and
``make_seat`` builds the player: a ``Bot`` (chooses from a seat's view) or an ``ExternalSeat`` (a
program the runner starts, feeds and stops).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import zipfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from handfoot.bots.base import Bot
from handfoot.bots.registry import make_bot
from handfoot.protocol.external import ExternalSeat
from handfoot.protocol.process import command_argv
from handfoot.wording import show

KINDS = ("cmd", "policy", "python")
DEFAULT_MOVE_TIME = 5.0  # seconds a program has for one decision (--move-time)

SeatPlayer = Bot | ExternalSeat
# What a policy: seat imports, as (the name to install, the module).
POLICY_NEEDS = (("numpy", "numpy"), ("torch", "torch"), ("stable-baselines3", "stable_baselines3"),
                ("sb3-contrib", "sb3_contrib"))  # fmt: skip


def split_seats(text: str) -> list[str]:
    """The specs of a ``--seats`` list: split at commas outside single or double quotes, each stripped;
    empty entries dropped."""
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def parse_seats(text: str, players: int) -> tuple[str, ...]:
    """Specs per seat from ``a,b,c,d`` (one spec repeats for every seat; two alternate around the
    table). Raises ValueError for an empty list."""
    names = tuple(split_seats(text))
    if not names:
        raise ValueError("--seats needs at least one bot name")
    if len(names) in (1, 2) and players % len(names) == 0:
        return tuple(names[seat % len(names)] for seat in range(players))
    return names


def seat_kind(spec: str) -> str:
    """``cmd``, ``policy``, ``python`` or ``bot`` (a registered name)."""
    head, sep, _ = spec.strip().partition(":")
    return head.lower() if sep and head.lower() in KINDS else "bot"


def check_seat(spec: str) -> None:
    """Raise ValueError (saying what is allowed) for a spec that cannot seat a player."""
    kind = seat_kind(spec)
    body = spec.strip().partition(":")[2]
    if kind == "bot":
        make_bot(spec)
    elif kind == "cmd":
        command_argv(body)
    elif kind == "policy":
        path = Path(body)
        if not path.is_file():
            raise ValueError(f"policy:{body}: no such file; allowed: policy:PATH to a saved model (.zip)")
        if not zipfile.is_zipfile(path):
            raise ValueError(f"policy:{body}: not a saved model; allowed: a .zip written by model.save")
        missing = [name for name, module in POLICY_NEEDS if importlib.util.find_spec(module) is None]
        if missing:
            raise ValueError(
                f"policy:{body}: policy seats need {', '.join(missing)}: pip install 'handfoot[train]'"
            )
    else:
        load_factory(body)


def make_seat(spec: str, move_time: float = DEFAULT_MOVE_TIME, quiet: bool = False) -> SeatPlayer:
    """A new player for ``spec`` (raises ValueError as ``check_seat`` does); ``quiet`` throws a
    program's standard error away."""
    kind = seat_kind(spec)
    body = spec.strip().partition(":")[2]
    if kind == "bot":
        return make_bot(spec)
    if kind == "cmd":
        return ExternalSeat(spec, command_argv(body), move_time, quiet=quiet)
    from handfoot.rl.policy_bot import PolicyBot  # needs handfoot[rl]

    if kind == "policy":
        return PolicyBot(_loaded_policy(*_model_key(body)), name=spec)
    made = load_factory(body)()
    if isinstance(made, Bot):
        return made
    if callable(made):
        return PolicyBot(made, name=spec)
    made_kind = type(made).__name__
    raise ValueError(
        f"python:{body} made {made_kind}; allowed: a Bot or an (observation, mask) -> action callable"
    )


def _model_key(body: str) -> tuple[str, int, int]:
    """A saved model as the cache of loaded policies knows it: its resolved path, modification time and
    size (a model saved again under the same name is loaded again)."""
    path = Path(body).resolve()
    status = path.stat()
    return str(path), status.st_mtime_ns, status.st_size


@lru_cache(maxsize=8)
def _loaded_policy(path: str, mtime_ns: int, size: int) -> Callable[..., object]:
    """The policy of the model at ``path``, loaded once per process (torch and the model are loaded by
    the first game that seats it, not by every game)."""
    from handfoot.rl.policy_bot import load_policy

    return load_policy(path)


def importable_here() -> None:
    """Let modules of the current folder be imported, as ``python`` itself does for a script or
    ``python -m``: the folder goes at the end of ``sys.path`` when it is not on it (so it never hides an
    installed package of the same name). Worker processes start in the same folder and do the same."""
    here = os.getcwd()
    if not any(os.path.abspath(entry or os.curdir) == here for entry in sys.path):
        sys.path.append(here)


def load_factory(body: str) -> Callable[[], object]:
    """The factory ``MODULE:FACTORY`` names (imported, not called), ``MODULE`` looked for on the path and
    in the current folder (``importable_here``). Raises ValueError."""
    module_name, sep, attribute = body.rpartition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"python:{body}: allowed: python:MODULE:FACTORY, such as python:mybots.greedy:make")
    importable_here()
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"python:{body}: cannot import {show(module_name)}: {err}") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"python:{body}: {show(module_name)} has no callable {show(attribute)}")
    made: Callable[[], object] = factory
    return made
