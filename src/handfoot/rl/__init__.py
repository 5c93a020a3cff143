"""Hand and Foot for reinforcement learning (extra ``[rl]``): PettingZoo and Gymnasium environments.

* ``env(rules=..., players=..., render_mode=...)``: the PettingZoo AEC environment in PettingZoo's
  order-enforcing wrapper; ``raw_env`` is the bare ``HandFootEnv``.
* ``parallel_env(...)``: the same game under PettingZoo's Parallel API (one tick per move).
* ``SingleSeatEnv``: a Gymnasium environment where one seat learns and handfoot bots play the others,
  also registered with Gymnasium per preset (``gymnasium.make("handfoot/KitchenTable-v0")``).
* ``BatchEnv``: N self-play tables stepped together, observations and masks written into arrays in place
  (``handfoot.rl.vector``).
* ``handfoot.rl.handfoot_v0``: the same entry points under a versioned module name.

Actions, staging of openings, the observation layout, rewards, illegal actions, the global state and
cloning: ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any

try:
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as err:  # pragma: no cover - depends on the installation
    raise ImportError(
        "handfoot.rl needs numpy, gymnasium and pettingzoo: pip install 'handfoot[rl]'"
    ) from err

from handfoot.rl.actions import CANCEL, NUM_ACTIONS, action_text
from handfoot.rl.aec import HandFootEnv, IllegalAction
from handfoot.rl.encode import Encoder
from handfoot.rl.layout import FIELDS, OFFSETS, SIZE
from handfoot.rl.parallel import HandFootParallelEnv
from handfoot.rl.registration import env_id, register_envs
from handfoot.rl.single import SingleSeatEnv
from handfoot.rl.vector import BatchEnv

register_envs()


def raw_env(**kwargs: Any) -> HandFootEnv:
    """The bare AEC environment (keyword arguments of ``HandFootEnv``)."""
    return HandFootEnv(**kwargs)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with ``last()`` asked of the environment directly (the
    inherited one reads five attributes through the wrapper's fallback lookup, a third of a step's time)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, termination, truncation and info."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result


def env(**kwargs: Any) -> Any:
    """The AEC environment in PettingZoo's order-enforcing wrapper (calls out of order, such as ``step``
    before ``reset``, are refused with a message); keyword arguments of ``HandFootEnv``. Actions out of
    bounds are the environment's own illegal actions (by default the game ends with a penalty for the
    offender), so PettingZoo's bounds-checking wrapper would only check twice."""
    return OrderEnforcing(HandFootEnv(**kwargs))


def parallel_env(**kwargs: Any) -> HandFootParallelEnv:
    """The Parallel environment (keyword arguments of ``HandFootParallelEnv``)."""
    return HandFootParallelEnv(**kwargs)


# The versioned module, loaded with the package (``handfoot.rl.handfoot_v0`` after ``import handfoot.rl``):
# it reads the entry points above, so it is imported once they exist.
from handfoot.rl import handfoot_v0  # noqa: E402

__all__ = [
    "CANCEL",
    "FIELDS",
    "NUM_ACTIONS",
    "OFFSETS",
    "SIZE",
    "BatchEnv",
    "Encoder",
    "HandFootEnv",
    "HandFootParallelEnv",
    "IllegalAction",
    "SingleSeatEnv",
    "action_text",
    "env",
    "env_id",
    "handfoot_v0",
    "parallel_env",
    "raw_env",
]
