"""The PettingZoo Parallel API over the same game: every live agent sends an action each tick, and the
action of the seat to move is played (the others' are ignored: their mask is all zero).

A *cycle* here is one tick, so ``max_cycles`` truncates the game after that many moves. The AEC form of
this tick-by-tick game is ``pettingzoo.utils.parallel_to_aec(parallel_env(...))``; the turn-based AEC
environment (``handfoot.rl.env``) selects only the seat to move and is the one to learn with.

An action the mover's mask forbids is replaced by a random legal one by default (``illegal="random"``,
named in the mover's ``info["illegal_action"]``), where the turn-based environments end the game with
a penalty: under the Parallel API every live agent sends an action each tick, and PettingZoo's own
checks (``parallel_seed_test``, ``max_cycles_test``) send them unmasked, so ending the game on the first
one would end every such run at its first tick. ``illegal="penalty"`` gives the turn-based behaviour.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv

from handfoot.rl.aec import (
    DEFAULT_REWARD,
    ILLEGAL_PENALTY,
    MAX_CYCLES,
    MAX_HANDS,
    HandFootEnv,
    Observation,
)
from handfoot.rules.options import RuleSet

MAX_TICKS = MAX_CYCLES * 8
# What the Parallel form does with an action the mask forbids (module docstring).
PARALLEL_ILLEGAL = "random"


class HandFootParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Hand and Foot for PettingZoo (Parallel): the options of ``HandFootEnv``; ``max_cycles`` counts
    ticks (moves; default ``MAX_TICKS``, the AEC form's default truncation at eight seats), and
    ``illegal`` is ``"random"`` by default (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "handfoot_parallel_v0", "render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str | Path | Mapping[str, Any] | RuleSet = "kitchen-table",
        players: int | None = None,
        reward: str = DEFAULT_REWARD,
        reward_at: str = "hand",
        reward_scale: float | str = 1.0,
        max_cycles: int | None = MAX_TICKS,
        illegal: str = PARALLEL_ILLEGAL,
        render_mode: str | None = None,
        illegal_penalty: float = ILLEGAL_PENALTY,
        max_hands: int | None = MAX_HANDS,
    ) -> None:
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles={max_cycles}: use a positive number, or None for whole games")
        self.aec = HandFootEnv(
            rules,
            players,
            reward=reward,
            reward_at=reward_at,
            reward_scale=reward_scale,
            illegal=illegal,
            render_mode=render_mode,
            max_moves=max_cycles,
            illegal_penalty=illegal_penalty,
            max_hands=max_hands,
        )
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = render_mode
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """A new game; every agent's observation and info."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """One tick: the seat to move plays its action from ``actions``."""
        aec = self.aec
        mover = aec.agent_selection
        if mover not in actions:
            raise ValueError(f"{mover} is to move: actions must include it")
        aec.step(actions[mover])
        agents = self.agents
        rewards = {a: float(aec.rewards[a]) for a in agents}
        terminations = {a: aec.terminations[a] for a in agents}
        truncations = {a: aec.truncations[a] for a in agents}
        infos = {a: dict(aec.infos[a]) for a in agents}
        observations = {a: aec.observe(a) for a in agents}
        self.agents = [a for a in agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def state(self) -> npt.NDArray[np.float32]:
        """The global state (``HandFootEnv.state``)."""
        return self.aec.state()

    def clone(self) -> HandFootParallelEnv:
        """An independent copy in the same position (``HandFootEnv.clone``)."""
        return copy.deepcopy(self)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        result: str | None = self.aec.render()
        return result

    def close(self) -> None:
        """Nothing to release."""
