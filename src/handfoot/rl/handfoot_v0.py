"""Version 0 of the environments under a versioned module name, as PettingZoo's own environments are
published (``from handfoot.rl import handfoot_v0; env = handfoot_v0.env(players=4)``): the observation,
action and reward definitions of docs/rl.md as of this version. A change that alters what an agent sees
or earns gets a new module (``handfoot_v1``) and Gymnasium ids (``handfoot/KitchenTable-v1``).
"""

from __future__ import annotations

from handfoot.rl import SingleSeatEnv, env, parallel_env, raw_env

__all__ = ["SingleSeatEnv", "env", "parallel_env", "raw_env"]
