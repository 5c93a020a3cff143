"""Hand and Foot for reinforcement learning (extra ``[rl]``): PettingZoo and Gymnasium environments.

* ``env(rules=..., players=..., render_mode=...)``: the PettingZoo AEC environment, wrapped in PettingZoo's
  order-enforcing and bounds-checking wrappers; ``raw_env`` is the bare ``HandFootEnv``.
* ``parallel_env(...)``: the same game under PettingZoo's Parallel API (one tick per move).
* ``SingleSeatEnv``: a Gymnasium environment where one seat learns and handfoot bots play the others.

Actions, staging of openings, the observation layout and rewards: ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any

try:
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(
        "handfoot.rl needs numpy, gymnasium and pettingzoo: pip install 'handfoot[rl]'"
    ) from err

from handfoot.rl.actions import CANCEL, NUM_ACTIONS, action_text
from handfoot.rl.aec import HandFootEnv, IllegalAction
from handfoot.rl.encode import Encoder
from handfoot.rl.layout import FIELDS, OFFSETS, SIZE
from handfoot.rl.parallel import HandFootParallelEnv
from handfoot.rl.single import SingleSeatEnv


def raw_env(**kwargs: Any) -> HandFootEnv:
    """The bare AEC environment (keyword arguments of ``HandFootEnv``)."""
    return HandFootEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The AEC environment in PettingZoo's usual wrappers (out-of-bounds actions and calls out of order
    are refused with a message); keyword arguments of ``HandFootEnv``."""
    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(HandFootEnv(**kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(**kwargs: Any) -> HandFootParallelEnv:
    """The Parallel environment (keyword arguments of ``HandFootParallelEnv``)."""
    return HandFootParallelEnv(**kwargs)


__all__ = [
    "CANCEL",
    "FIELDS",
    "NUM_ACTIONS",
    "OFFSETS",
    "SIZE",
    "Encoder",
    "HandFootEnv",
    "HandFootParallelEnv",
    "IllegalAction",
    "SingleSeatEnv",
    "action_text",
    "env",
    "parallel_env",
    "raw_env",
]
