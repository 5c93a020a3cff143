"""Gymnasium ids for the single-seat environment, one per preset, versioned:
``gymnasium.make("handfoot/KitchenTable-v0", players=4, opponents="heuristic")`` after ``import
handfoot.rl`` (or, without the import, ``gymnasium.make("handfoot.rl:handfoot/KitchenTable-v0")``).

``v0`` names the current observation, action and reward definitions (``handfoot_v0`` for PettingZoo);
a change to any of them that alters what an agent sees or earns gets a new version.
"""

from __future__ import annotations

import gymnasium

from handfoot.rules import PRESET_NAMES

NAMESPACE = "handfoot"
VERSION = 0


def env_id(preset: str) -> str:
    """The Gymnasium id of a preset: ``kitchen-table`` -> ``handfoot/KitchenTable-v0``."""
    name = "".join(part.capitalize() for part in preset.split("-"))
    return f"{NAMESPACE}/{name}-v{VERSION}"


def register_envs() -> list[str]:
    """Register every preset's id (once; later calls change nothing) and return the ids."""
    ids = []
    for preset in PRESET_NAMES:
        ident = env_id(preset)
        if ident not in gymnasium.registry:
            entry = "handfoot.rl.single:SingleSeatEnv"
            gymnasium.register(ident, entry_point=entry, kwargs={"rules": preset})
        ids.append(ident)
    return ids
