"""The PettingZoo AEC environment: one agent per seat, one whole game per episode.

The agent selected is always the seat the engine says must act (the player whose turn it is, or the
partner answering "May I go out?"). Its observation is ``{"observation": vector, "action_mask": mask}``:
the vector encodes exactly that seat's ``View`` (``encode``), the mask marks the legal actions
(``actions``). Agents not to move get an all-zero mask.

Rewards go to every agent when a hand ends (``reward="hand"``: its side's score for that hand) or when the
episode ends (``reward="game"``: its side's game total; a truncated game gives the totals of its finished
hands). ``zero_sum=True`` gives each side its score minus the mean score of the other sides instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from handfoot.engine import Game, Move, Phase, view
from handfoot.engine.views import SeatInfo, seat_info
from handfoot.rl.actions import (
    CANCEL,
    NUM_ACTIONS,
    Opening,
    is_pickup,
    may_stage_before_pickup,
    pickup_ids,
    stage_ids,
)
from handfoot.rl.encode import Encoder
from handfoot.rl.layout import HIGH, LOW, SIZE
from handfoot.rl.render import render_text
from handfoot.rules import load_rules
from handfoot.rules.options import RuleSet

REWARDS = ("hand", "game")
ILLEGAL = ("raise", "random")
Observation = dict[str, npt.NDArray[Any]]


class IllegalAction(ValueError):
    """An action that is not legal for the agent to move (the mask says which are)."""


def resolve_rules(rules: str | Path | Mapping[str, Any] | RuleSet) -> RuleSet:
    """A ``RuleSet`` from a preset name, a rule file, a mapping of options, or a ``RuleSet``."""
    return rules if isinstance(rules, RuleSet) else load_rules(rules)


def agent_name(seat: int) -> str:
    """The agent of a seat: ``seat_0``, ``seat_1``, ..."""
    return f"seat_{seat}"


class HandFootEnv(AECEnv):  # type: ignore[misc]
    """Hand and Foot for PettingZoo (AEC). See ``docs/rl.md`` for spaces, rewards and staging.

    ``rules``: a preset name, a TOML rule file, a mapping of options or a ``RuleSet``; ``players``: 2-6
    as the rules allow (default: the rules' own); ``reward``: ``"hand"`` or ``"game"``; ``zero_sum``;
    ``reward_scale`` multiplies every reward; ``max_cycles``: truncate the game after this many cycles
    of as many moves as there are seats (None: play to the end); ``illegal``: ``"raise"`` (an
    ``IllegalAction`` and nothing changes) or ``"random"`` (a random legal action is played instead and
    ``info["illegal_action"]`` names the refused one); ``render_mode``: None or ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "handfoot_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Path | Mapping[str, Any] | RuleSet = "kitchen-table",
        players: int | None = None,
        reward: str = "hand",
        zero_sum: bool = False,
        reward_scale: float = 1.0,
        max_cycles: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
        max_moves: int | None = None,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules)
        count = self.rules.default_players if players is None else players
        if count not in self.rules.players_allowed:
            allowed = list(self.rules.players_allowed)
            raise ValueError(f"players={count}: {self.rules.name} is played by one of {allowed}")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: use 'hand' (per hand) or 'game' (at the end of the game)")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r}: use 'raise' or 'random'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles={max_cycles}: use a positive number, or None for whole games")
        self.players = count
        self.reward_mode = reward
        self.zero_sum = zero_sum
        self.reward_scale = float(reward_scale)
        self.illegal = illegal
        self.render_mode = render_mode
        self.max_moves = max_moves if max_moves is not None else (max_cycles * count if max_cycles else None)
        self.encoder = Encoder(self.rules, count)
        self.possible_agents = [agent_name(seat) for seat in range(count)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(LOW, HIGH, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._rng = random.Random()
        self.opening = Opening()
        self.moves = 0
        self._masks: dict[int, npt.NDArray[np.int8]] = {}
        self._views: dict[int, SeatInfo] = {}
        self._legal: list[int] = []
        self.game = Game(self.rules, count, 0)

    # --- the PettingZoo interface
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(NUM_ACTIONS)`` for every seat."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. A seed fixes it and every game after it (deal, dealer, random substitutions)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = Game(
            self.rules, self.players, self._rng.getrandbits(63), self._rng.randrange(self.players)
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.opening.clear()
        self.moves = 0
        self._changed()
        self.agent_selection = agent_name(self.game.state.to_move)

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its view's vector and its action mask."""
        seat = self._seat_of[agent]
        return {"observation": self.observation_vector(seat), "action_mask": self.action_mask(seat)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` for the selected agent (None for an agent whose episode is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for an agent whose episode is over")
        seat = self._seat_of[agent]
        chosen = int(action)
        mask = self.action_mask(seat)
        info: dict[str, Any] = {}
        if not (0 <= chosen < NUM_ACTIONS and mask[chosen]):
            if self.illegal == "raise":
                legal = [int(i) for i in np.flatnonzero(mask)]
                raise IllegalAction(f"action {chosen} is not legal for {agent} now; legal actions: {legal}")
            info["illegal_action"] = chosen
            legal_now = np.flatnonzero(mask)
            chosen = int(legal_now[self._rng.randrange(len(legal_now))])
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._play_action(seat, chosen)
        self.infos[agent] = info
        self._after_move()

    def render(self) -> str | None:
        """The table as text, seen by the seat to move (``render_mode="ansi"``); None otherwise."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: use render_mode='ansi'")
            return None
        seat = self.game.state.to_move
        return render_text(view(self.game.state, seat), list(self.game.totals), self.opening.groups)

    def close(self) -> None:
        """Nothing to release."""

    # --- observations and masks
    def observation_vector(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``, from its view only."""
        staged = self.opening.groups if self.opening.seat == seat else ()
        return self.encoder.encode(self.seat_info(seat), self.game.totals, staged)

    def seat_info(self, seat: int) -> SeatInfo:
        """The engine's view of ``seat`` now (``SeatInfo``: what the seat may know; once per position)."""
        seen = self._views.get(seat)
        if seen is None:
            seen = self._views[seat] = seat_info(self.game.state, seat)
        return seen

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each action legal for ``seat`` now (all zero when it is not to move)."""
        mask = self._masks.get(seat)
        if mask is None:
            flags = bytearray(NUM_ACTIONS)  # set item by item, then seen as int8 without a copy
            if self._live() and seat == self.game.state.to_move:
                for action in self.legal_actions():
                    flags[action] = 1
            mask = self._masks[seat] = np.frombuffer(flags, dtype=np.int8)
        return mask

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move, sorted."""
        game = self.game
        state = game.state
        seat = state.to_move
        ids = self._legal
        if not self._opening_pending(seat):
            return ids
        opening = self.opening
        if opening.seat != seat:
            seen = self.seat_info(seat)
            if state.phase is Phase.DRAW and not may_stage_before_pickup(seen):
                return ids
            opening.start(seat, seen.held)
        pile_top = state.pile[-1] if state.pile else -1
        rules = self.rules
        staging = stage_ids(opening, state.phase, pile_top, rules.wild_melds, rules.black_three_melds)
        if not opening.groups:
            return sorted(set(ids).union(staging))
        out = set(staging)
        out.add(CANCEL)
        if state.phase is Phase.DRAW:
            out.update(pickup_ids(opening, pile_top, game.is_legal))
        return sorted(out)

    # --- playing
    def _opening_pending(self, seat: int) -> bool:
        state = self.game.state
        owner = state.seating.owner_of[seat]
        return not state.down[owner] and state.phase in (Phase.DRAW, Phase.PLAY) and seat == state.turn_seat

    def _play_action(self, seat: int, action: int) -> None:
        game = self.game
        opening = self.opening
        if opening.seat != seat or not self._opening_pending(seat):
            opening.clear()
            game.apply_id(action)
            return
        if action == CANCEL:
            opening.clear()
        elif not opening.groups and action in self._legal:
            opening.clear()
            game.apply_id(action)
        elif is_pickup(action):
            move = opening.pickup(game.state.pile[-1], action)
            opening.clear()
            if move is None:
                raise IllegalAction(f"action {action} cannot take the pile now")
            game.apply(move)
        else:
            opening.stage(action)
            if game.state.phase is Phase.PLAY and game.is_legal(opening.meld()):
                move = opening.meld()
                opening.clear()
                game.apply(move)

    def play_move(self, move: Move) -> None:
        """Play an engine ``Move`` (atomic or compound, e.g. a bot's choice) for the seat to move, with the
        same rewards and episode ends as ``step``. Raises ``IllegalMove`` and changes nothing if illegal."""
        if not self._live():
            raise IllegalAction("the episode is over: reset() first")
        self._clear_rewards()
        self.game.apply(move)
        self.opening.clear()
        self._after_move()

    def _after_move(self) -> None:
        """Rewards, episode ends and the next agent after a move was played."""
        game = self.game
        self.moves += 1
        hands_before = self._hands_seen
        scored = game.results[hands_before:]
        if scored and self.reward_mode == "hand":
            for result in scored:
                self._give(result.scores)
        truncated = not game.finished and self.max_moves is not None and self.moves >= self.max_moves
        if game.finished or truncated:
            if self.reward_mode == "game":
                self._give(game.totals)
            for agent in self.agents:
                self.terminations[agent] = game.finished
                self.truncations[agent] = truncated
        else:
            self.agent_selection = agent_name(game.state.to_move)
        self._accumulate_rewards()
        self._changed()

    def _give(self, side_scores: Any) -> None:
        scores = [float(x) for x in side_scores]
        if self.zero_sum:
            total = sum(scores)
            others = len(scores) - 1
            scores = [score - (total - score) / others for score in scores]
        side_of = self.game.state.seating.side_of
        for agent in self.agents:
            self.rewards[agent] += scores[side_of[self._seat_of[agent]]] * self.reward_scale

    def _live(self) -> bool:
        agent = self.agent_selection
        return not (
            self.game.finished or self.terminations.get(agent, True) or self.truncations.get(agent, True)
        )

    def _changed(self) -> None:
        """Forget cached masks and views after the position changed (an opening with nothing staged yet is
        started afresh from the hand when next needed)."""
        if not self.opening.groups:
            self.opening.clear()
        self._masks = {}
        self._views = {}
        self._hands_seen = len(self.game.results)
        self._legal = self.game.legal_ids() if not self.game.finished else []
