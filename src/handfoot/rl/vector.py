"""N tables stepped together for self-play: one batched ``step`` over arrays written in place.

``BatchEnv(num_envs, rules, players)`` keeps ``num_envs`` games. At each table the agent is the seat the
engine says must act, played by the caller's policy (every seat is the learner, as in self-play). ``reset``
and ``step`` return arrays the environment owns and overwrites on the next call (copy what you keep):

* ``observations``: ``(num_envs, SIZE)`` float32, each row the acting seat's observation vector, the same
  vector the AEC environment gives that seat (``Encoder.encode_into``, written in place);
* ``action_masks``: ``(num_envs, NUM_ACTIONS)`` int8, 1 for the engine's legal ids of that seat;
* ``seats``: ``(num_envs,)`` int64, the acting seat at each table;
* ``rewards`` from ``step``: ``(num_envs, players)`` float32, what each seat of each table earned by
  the move (non-zero when a hand, or with ``reward_at="game"`` the game, ends), as in the AEC
  environment (``reward``, ``reward_at``, ``reward_scale``);
* ``terminated`` / ``truncated``: ``(num_envs,)`` bool, the game at that table ended (or was cut at
  ``max_cycles`` or ``max_hands``) with this move.

A table whose game ended is dealt a new game in the same ``step`` (its row of ``observations`` is the new
game's first decision); ``infos[i]`` then holds the ended game's final ``totals``, ``winner`` and
``hands``, as the AEC environment's final ``info`` does (``infos[i]`` is empty otherwise). An action the
mask does not allow ends that table's game with ``illegal_penalty`` for the seat that chose it and
``infos[i]["illegal_action"]`` (``illegal="penalty"``, the default), or plays a random legal action
(``"random"``), or raises ``IllegalAction`` before any table moves (``"raise"``).

Seeding: ``reset(seed=...)`` fixes every deal that follows, table by table, whatever the actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from handfoot.engine import Game
from handfoot.engine.views import seat_info
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.aec import (
    DEFAULT_ILLEGAL,
    DEFAULT_REWARD,
    ILLEGAL_PENALTY,
    MAX_CYCLES,
    MAX_HANDS,
    IllegalAction,
    checked_max_hands,
    checked_players,
    cut_short,
    final_info,
    resolve_rules,
    scale_of,
    side_rewards,
)
from handfoot.rl.encode import Encoder
from handfoot.rl.fill import move_flags
from handfoot.rl.layout import HIGH, LOW, SIZE
from handfoot.rules.options import RuleSet


class BatchEnv:
    """``num_envs`` self-play tables stepped together (module docstring)."""

    def __init__(
        self,
        num_envs: int,
        rules: str | Path | Mapping[str, Any] | RuleSet = "kitchen-table",
        players: int | None = None,
        reward: str = DEFAULT_REWARD,
        reward_at: str = "hand",
        reward_scale: float | str = 1.0,
        max_cycles: int | None = MAX_CYCLES,
        illegal: str = DEFAULT_ILLEGAL,
        illegal_penalty: float = ILLEGAL_PENALTY,
        max_hands: int | None = MAX_HANDS,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs={num_envs}: use 1 or more tables")
        self.rules = resolve_rules(rules)
        count = checked_players(self.rules, players, reward, reward_at, illegal, max_cycles)
        self.num_envs = num_envs
        self.players = count
        self.reward_kind = reward
        self.reward_at = reward_at
        self.reward_scale = scale_of(reward_scale)
        self.max_hands = checked_max_hands(max_hands)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_moves = max_cycles * count if max_cycles is not None else None
        self.encoder = Encoder(self.rules, count)
        self.single_observation_space = spaces.Box(LOW, HIGH, (SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(LOW, HIGH, (num_envs, SIZE), np.float32)
        self.action_space = spaces.MultiDiscrete([NUM_ACTIONS] * num_envs)
        self.observations = np.zeros((num_envs, SIZE), dtype=np.float32)
        self.action_masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, count), dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=bool)
        self.truncated = np.zeros(num_envs, dtype=bool)
        self.games: list[Game] = []
        self.moves = [0] * num_envs
        self._legal: list[list[int]] = [[] for _ in range(num_envs)]
        self._rngs = [random.Random() for _ in range(num_envs)]
        self._masks = [memoryview(row) for row in self.action_masks]  # type: ignore[arg-type]
        self._side_of = list(range(count))

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], list[dict[str, Any]]]:
        """A new game at every table; a seed fixes them and every game after them. Returns the
        observations (each table's acting seat) and one empty ``info`` per table."""
        if seed is not None:
            master = random.Random(seed)
            self._rngs = [random.Random(master.getrandbits(64)) for _ in range(self.num_envs)]
        self.games = [self._new_game(i) for i in range(self.num_envs)]
        self._side_of = list(self.games[0].state.seating.side_of)
        for i in range(self.num_envs):
            self._show(i)
        return self.observations, [{} for _ in range(self.num_envs)]

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        """Play ``actions[i]`` for the acting seat of table ``i``, for every table; returns
        ``(observations, rewards, terminated, truncated, infos)`` (module docstring). Raises ValueError
        for a number of actions other than ``num_envs``, and RuntimeError before ``reset``."""
        if not self.games:
            raise RuntimeError("reset() first")
        chosen = [int(a) for a in actions]
        if len(chosen) != self.num_envs:
            raise ValueError(f"{len(chosen)} actions for {self.num_envs} tables: give one per table")
        if self.illegal == "raise":
            for i, action in enumerate(chosen):
                if not (0 <= action < NUM_ACTIONS and self._masks[i][action]):
                    raise IllegalAction(
                        f"action {action} is not legal at table {i} now; legal actions: {self._legal[i]}"
                    )
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, action in enumerate(chosen):
            game = self.games[i]
            if not (0 <= action < NUM_ACTIONS and self._masks[i][action]):
                if self.illegal == "penalty":
                    self.rewards[i, game.state.to_move] = self.illegal_penalty
                    self.terminated[i] = True
                    infos[i] = final_info(game)
                    infos[i]["illegal_action"] = action
                    self._restart(i)
                    continue
                infos[i]["illegal_action"] = action
                legal = self._legal[i]
                action = legal[self._rngs[i].randrange(len(legal))]
            hands_before = len(game.results)
            game.apply_id(action)
            self.moves[i] += 1
            if self.reward_at == "hand":
                for result in game.results[hands_before:]:
                    self._give(i, result.scores)
            truncated = cut_short(game, self.moves[i], self.max_moves, self.max_hands)
            if game.finished or truncated:
                if self.reward_at == "game":
                    self._give(i, game.totals)
                self.terminated[i] = game.finished
                self.truncated[i] = truncated
                infos[i] = {**final_info(game), **infos[i]}
                self._restart(i)
            else:
                self._show(i)
        return self.observations, self.rewards, self.terminated, self.truncated, infos

    def legal_actions(self, index: int) -> list[int]:
        """The legal ids of table ``index``'s acting seat, sorted (the engine's ``legal_ids``)."""
        return list(self._legal[index])

    def close(self) -> None:
        """Nothing to release."""

    # --- one table
    def _new_game(self, i: int) -> Game:
        rng = self._rngs[i]
        self.moves[i] = 0
        return Game(self.rules, self.players, rng.getrandbits(63), rng.randrange(self.players))

    def _restart(self, i: int) -> None:
        self.games[i] = self._new_game(i)
        self._show(i)

    def _show(self, i: int) -> None:
        """Write table ``i``'s acting seat, observation and mask (only the mask entries that change)."""
        game = self.games[i]
        seat = game.state.to_move
        self.seats[i] = seat
        info = seat_info(game.state, seat)
        self.encoder.encode_into(self.observations[i], info, game.totals, i)
        legal = game.legal_ids()
        move_flags(self._masks[i], self._legal[i], legal)
        self._legal[i] = legal

    def _give(self, i: int, side_scores: Sequence[int]) -> None:
        scores = side_rewards(self.reward_kind, side_scores)
        row = self.rewards[i]
        for seat, side in enumerate(self._side_of):
            row[seat] += scores[side] * self.reward_scale
