"""A Gymnasium environment for one learning seat; the other seats are handfoot bots.

``SingleSeatEnv(rules, players, seat=0, opponents="random")``: the learner plays ``seat`` through the same
actions, masks, observations and rewards as the AEC environment; every other seat is a bot by seat spec
(``random``, ``heuristic``, ``ismcts[:BUDGET]``, ``easy``/``medium``/``hard``, ``policy:MODEL.zip``,
``python:MODULE:FACTORY``; see ``handfoot.sim.seats``) or a ``Bot`` object (a ``PolicyBot`` around a
frozen copy of the learner's policy, for self-play); one for all, or one per seat with the learner's
entry ignored. Bots choose from the engine's legal moves (compound openings
included) as in a tournament, each with its own generator seeded from ``reset(seed=...)``.

Rewards, their timing and illegal actions as in the AEC environment, with the same defaults
(``reward="zero_sum"`` per hand; an action the mask does not allow ends the episode with
``illegal_penalty`` and ``info["illegal_action"]`` names it; ``illegal="raise"`` or ``"random"``). The
last step's ``info`` has the final ``totals``, ``side``, ``winner`` and ``hands``. The observation is
the vector alone (``Box``); the mask is ``info["action_mask"]`` and ``action_masks()`` (what
sb3-contrib's ``MaskablePPO`` reads). The reward of a step is what the learner's seat earned from its
move up to its next decision (bots' moves included); an episode is one game. ``clone()`` copies it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from handfoot.bots import Bot, legal_for
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.aec import (
    DEFAULT_ILLEGAL,
    DEFAULT_REWARD,
    ILLEGAL_PENALTY,
    MAX_CYCLES,
    MAX_HANDS,
    HandFootEnv,
    agent_name,
)
from handfoot.rl.layout import HIGH, LOW, SIZE
from handfoot.rules.options import RuleSet


class SingleSeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """Hand and Foot as a Gymnasium environment: one learning seat against bots (module docstring)."""

    # render_fps: Gymnasium's checker asks every environment for one (text frames: any rate will do)
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (declared by gymnasium.Env)

    def __init__(
        self,
        rules: str | Path | Mapping[str, Any] | RuleSet = "kitchen-table",
        players: int | None = None,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        reward: str = DEFAULT_REWARD,
        reward_at: str = "hand",
        reward_scale: float | str = 1.0,
        max_cycles: int | None = MAX_CYCLES,
        illegal: str = DEFAULT_ILLEGAL,
        render_mode: str | None = None,
        illegal_penalty: float = ILLEGAL_PENALTY,
        max_hands: int | None = MAX_HANDS,
    ) -> None:
        self.env = HandFootEnv(
            rules,
            players,
            reward=reward,
            reward_at=reward_at,
            reward_scale=reward_scale,
            max_cycles=max_cycles,
            illegal=illegal,
            render_mode=render_mode,
            illegal_penalty=illegal_penalty,
            max_hands=max_hands,
        )
        count = self.env.players
        if not 0 <= seat < count:
            raise ValueError(f"seat={seat}: seats are 0 to {count - 1}")
        names = [opponents] * count if isinstance(opponents, (str, Bot)) else list(opponents)
        if len(names) != count:
            raise ValueError(
                f"opponents names {len(names)} bots for {count} seats: give one, or one per seat"
            )
        self.seat = seat
        self.agent = agent_name(seat)
        self.bots: dict[int, Bot] = {s: opponent_bot(names[s]) for s in range(count) if s != seat}
        self.bot_names = {s: names[s] if isinstance(names[s], str) else self.bots[s].name for s in self.bots}
        self.render_mode = render_mode
        self.observation_space = spaces.Box(LOW, HIGH, (SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._bot_rngs: dict[int, random.Random] = {}
        self._reward = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game, played by the bots up to the learner's first decision."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.env.reset(seed=game_seed)
        self._bot_rngs = {s: random.Random(f"{game_seed}/{s}") for s in self.bots}
        self._reward = 0.0
        self._run_bots()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' moves until the learner must act or the game ends."""
        env = self.env
        if self._over():
            raise RuntimeError("the episode is over: call reset()")
        env.step(int(action))
        refused = env.infos[self.agent].get("illegal_action")
        self._reward += env.rewards[self.agent]
        self._run_bots()
        reward, self._reward = self._reward, 0.0
        terminated = env.terminations[self.agent]
        truncated = env.truncations[self.agent]
        info = self._info()
        if terminated or truncated:
            info.update(env.infos[self.agent])
        if refused is not None:
            info["illegal_action"] = refused
        return self._obs(), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now (all False once the episode is over)."""
        return self.env.action_mask(self.seat).astype(bool)

    def clone(self) -> SingleSeatEnv:
        """An independent copy in the same position, bots and generators included (``pickle`` saves and
        restores it the same way)."""
        return copy.deepcopy(self)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        result: str | None = self.env.render()
        return result

    # --- helpers
    def _over(self) -> bool:
        env = self.env
        return env.terminations[self.agent] or env.truncations[self.agent]

    def _run_bots(self) -> None:
        env = self.env
        game = env.game
        while not self._over() and game.state.to_move != self.seat:
            seat = game.state.to_move
            state = game.state
            legal = legal_for(state, game.legal_ids())
            move = self.bots[seat].choose_seat(game.seat_info(seat), legal, self._bot_rngs[seat])
            env.play_move(move)
            self._reward += env.rewards[self.agent]

    def _obs(self) -> npt.NDArray[np.float32]:
        return self.env.observation_vector(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.env.action_mask(self.seat).copy(), "totals": list(self.env.game.totals)}


def opponent_bot(opponent: str | Bot) -> Bot:
    """The bot of an opponent seat: a ``Bot`` as it is, or one made from a seat spec (a program,
    ``cmd:``, cannot play inside an environment). Raises ValueError for a spec that seats no bot."""
    if isinstance(opponent, Bot):
        return opponent
    from handfoot.sim.seats import make_seat

    made = make_seat(opponent)
    if not isinstance(made, Bot):
        made.close()
        raise ValueError(
            f"opponents: {opponent!r} is a program; allowed: a bot name, policy:, python: or a Bot"
        )
    return made
