"""The PettingZoo AEC environment: one agent per seat, one whole game per episode.

The agent selected is always the seat the engine says must act (the player whose turn it is, or the
partner answering "May I go out?"). Its observation is ``{"observation": vector, "action_mask": mask}``:
the vector encodes exactly that seat's ``View`` (``encode``), the mask marks the legal actions
(``actions``). Agents not to move get an all-zero mask.

Rewards go to every agent when a hand ends (``reward_at="hand"``) or when the episode ends
(``reward_at="game"``; a truncated game counts the totals of its finished hands). What they are is
``reward``: ``"zero_sum"`` (the default, in every environment here) its side's score minus the mean
score of the other sides; ``"points"`` its side's score; ``"win"`` +1 to a side with the sole best
score, -1 to the others, 0 to sides tied for the best. When the episode ends every agent's ``info``
holds the final ``totals`` (per side), its ``side``, the ``winner`` (a side, or None on a tie) and the
``hands`` played.

An action the mask does not allow ends the game by default, the PettingZoo way (``illegal="penalty"``):
the offender's reward is ``illegal_penalty`` (-1; not scaled), everyone else's 0, every agent is
terminated and the offender's ``info["illegal_action"]`` names the action. ``illegal="raise"`` raises
``IllegalAction`` instead, changing nothing (for debugging); ``illegal="random"`` plays a random legal
action in its place.

``state()`` is the global state (every seat's observation and the hidden cards, ``state_space``);
``clone()`` an independent copy to search from; the environment pickles (docs/rl.md).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from handfoot import cards as C
from handfoot.engine import Game, Move, view
from handfoot.engine.views import SeatInfo
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.encode import Encoder
from handfoot.rl.fill import flags
from handfoot.rl.layout import HIGH, KINDS, LOW, MAX_SEATS, SIZE
from handfoot.rl.render import render_text
from handfoot.rules import load_rules
from handfoot.rules.options import RuleSet

REWARDS = ("zero_sum", "points", "win")
REWARD_AT = ("hand", "game")
ILLEGAL = ("penalty", "raise", "random")
DEFAULT_REWARD = "zero_sum"
DEFAULT_ILLEGAL = "penalty"
ILLEGAL_PENALTY = -1.0
# The global state: every seat's observation (seat order, absent seats zero), then per seat its unplayed
# Foot per kind, then the stock and the whole discard pile per kind.
STATE_SIZE = MAX_SEATS * SIZE + MAX_SEATS * KINDS + 2 * KINDS
# The default truncation, in cycles of as many moves as there are seats: a whole game played to its result
# takes a few hundred cycles at most (about 2,000 moves for four hands at four seats); a turn cannot cycle
# (``engine.staging``), so only a game no side ever wins (a target score nobody reaches) would reach it,
# and ``MAX_HANDS`` ends such a game long before.
MAX_CYCLES = 10_000
# The default cap on hands per episode. Games played to their result take a handful of hands (3 to 6 for
# random legal play at kitchen-table, 2 and 4 seats; about 4 for the heuristic bot), but a policy that
# never lays down its cards loses points every hand and never reaches a target score: after this many
# hands its game is truncated, so every episode ends by the rules or here.
MAX_HANDS = 50
# ``reward_scale="normal"``: points are counted in thousands, so a hand's zero-sum reward is a few units
# at most, on the scale of the illegal action's penalty (-1) and of ``reward="win"``.
NORMAL_SCALE = 0.001
Observation = dict[str, npt.NDArray[Any]]
INT8 = np.dtype(np.int8)  # the action mask's (a dtype made once: cheaper than converting ``np.int8``)


class IllegalAction(ValueError):
    """An action that is not legal for the agent to move (the mask says which are)."""


def resolve_rules(rules: str | Path | Mapping[str, Any] | RuleSet) -> RuleSet:
    """A ``RuleSet`` from a preset name, a rule file, a mapping of options, or a ``RuleSet``."""
    return rules if isinstance(rules, RuleSet) else load_rules(rules)


def checked_players(
    rules: RuleSet,
    players: int | None,
    reward: str,
    reward_at: str,
    illegal: str,
    max_cycles: int | None,
) -> int:
    """The player count an environment of ``rules`` plays (``players``, or the rules' default), once the
    settings every environment shares are checked: ValueError naming the setting, its value and what is
    allowed for a count the rules do not seat or the observation has no room for (more than
    ``MAX_SEATS``), an unknown ``reward``, ``reward_at`` or ``illegal``, or a ``max_cycles`` below 1."""
    count = rules.default_players if players is None else players
    if count not in rules.players_allowed:
        allowed = list(rules.players_allowed)
        raise ValueError(f"players={count}: {rules.name} is played by one of {allowed}")
    if count > MAX_SEATS:
        seated = [p for p in rules.players_allowed if p <= MAX_SEATS]
        raise ValueError(
            f"players={count}: the observation has room for {MAX_SEATS} seats at most; "
            f"{rules.name} plays here with one of {seated}"
        )
    if reward not in REWARDS:
        raise ValueError(f"reward={reward!r}: use 'zero_sum', 'points' or 'win'")
    if reward_at not in REWARD_AT:
        raise ValueError(
            f"reward_at={reward_at!r}: use 'hand' (when each hand ends) or 'game' (when the game ends)"
        )
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal={illegal!r}: use 'penalty', 'raise' or 'random'")
    if max_cycles is not None and max_cycles < 1:
        raise ValueError(f"max_cycles={max_cycles}: use a positive number, or None for whole games")
    return count


def checked_max_hands(max_hands: int | None) -> int | None:
    """``max_hands`` once checked: ValueError for a number below 1 (None: no cap on hands)."""
    if max_hands is not None and max_hands < 1:
        raise ValueError(f"max_hands={max_hands}: use a positive number, or None for no cap on hands")
    return max_hands


def scale_of(reward_scale: float | str) -> float:
    """The factor ``reward_scale`` names: a number itself, or ``"normal"`` (``NORMAL_SCALE``: rewards in
    thousands of points). ValueError for any other text."""
    if isinstance(reward_scale, str):
        if reward_scale != "normal":
            raise ValueError(f"reward_scale={reward_scale!r}: use a number, or 'normal' (points / 1000)")
        return NORMAL_SCALE
    return float(reward_scale)


def cut_short(game: Game, moves: int, max_moves: int | None, max_hands: int | None) -> bool:
    """Whether an episode of ``game`` after ``moves`` moves is truncated: not finished by the rules, and
    at the move cap ``max_moves`` or with ``max_hands`` hands played (None: no such cap)."""
    if game.finished:
        return False
    return (max_moves is not None and moves >= max_moves) or (
        max_hands is not None and len(game.results) >= max_hands
    )


def agent_name(seat: int) -> str:
    """The agent of a seat: ``seat_0``, ``seat_1``, ..."""
    return f"seat_{seat}"


class HandFootEnv(AECEnv):  # type: ignore[misc]
    """Hand and Foot for PettingZoo (AEC). See ``docs/rl.md`` for spaces, rewards and staging.

    ``rules``: a preset name, a TOML rule file, a mapping of options or a ``RuleSet``; ``players``: 2-6
    as the rules allow (default: the rules' own); ``reward``: ``"zero_sum"``, ``"points"`` or ``"win"``;
    ``reward_at``: ``"hand"`` or ``"game"``; ``reward_scale`` multiplies every reward (not the illegal
    action's penalty; ``"normal"``: ``NORMAL_SCALE``, points in thousands); ``max_cycles``: truncate the
    game after this many cycles of as many moves as there are seats (default ``MAX_CYCLES``, far beyond
    any game played to its result; None: no cap on moves); ``max_hands``: truncate the game once this
    many hands are played without the rules ending it (default ``MAX_HANDS``; None: no cap on hands,
    and a policy that never scores may never end its game); ``illegal``: ``"penalty"`` (the game ends,
    the offender gets ``illegal_penalty``), ``"raise"`` (an ``IllegalAction`` and nothing changes) or
    ``"random"`` (a random legal action is played instead); ``render_mode``: None or ``"ansi"`` (module
    docstring).
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
        reward: str = DEFAULT_REWARD,
        reward_at: str = "hand",
        reward_scale: float | str = 1.0,
        max_cycles: int | None = MAX_CYCLES,
        illegal: str = DEFAULT_ILLEGAL,
        render_mode: str | None = None,
        max_moves: int | None = None,
        illegal_penalty: float = ILLEGAL_PENALTY,
        max_hands: int | None = MAX_HANDS,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules)
        count = checked_players(self.rules, players, reward, reward_at, illegal, max_cycles)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        self.players = count
        self.reward_kind = reward
        self.reward_at = reward_at
        self.reward_scale = scale_of(reward_scale)
        self.max_hands = checked_max_hands(max_hands)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
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
        self.state_space = spaces.Box(LOW, HIGH, (STATE_SIZE,), np.float32)
        self._rng = random.Random()
        self.moves = 0
        self._paid = False  # whether ``rewards`` holds anything but 0 (``_give``, ``_clear_paid``)
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
        self._paid = False
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
        chosen = int(action)
        info: dict[str, Any] = {}
        # the selected agent, its episode not over, is the seat to move: its mask marks the engine's list
        if chosen not in self._legal:
            mask = self.action_mask(self._seat_of[agent])
            if self.illegal == "raise":
                legal = [int(i) for i in np.flatnonzero(mask)]
                raise IllegalAction(f"action {chosen} is not legal for {agent} now; legal actions: {legal}")
            if self.illegal == "penalty":
                self._end_for_illegal(agent, chosen)
                return
            info["illegal_action"] = chosen
            legal_now = np.flatnonzero(mask)
            chosen = int(legal_now[self._rng.randrange(len(legal_now))])
        self._cumulative_rewards[agent] = 0.0
        self._clear_paid()
        self.game.apply_id(chosen)
        self.infos[agent] = info
        self._after_move()

    def render(self) -> str | None:
        """The table as text, seen by the seat to move (``render_mode="ansi"``); None otherwise."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: use render_mode='ansi'")
            return None
        seat = self.game.state.to_move
        seen = view(self.game.state, seat)
        return render_text(seen, list(self.game.totals))

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> npt.NDArray[np.float32]:
        """The global state (``state_space``, ``STATE_SIZE`` floats): every seat's observation vector in
        seat order (absent seats zero), then per seat the cards of its unplayed Foot per kind, then the
        stock's and the whole discard pile's cards per kind (hidden cards included: for centralised
        critics and analysis, never for a seat's policy)."""
        out = np.zeros(STATE_SIZE, dtype=np.float32)
        for seat in range(self.players):
            out[seat * SIZE : (seat + 1) * SIZE] = self.observation_vector(seat)
        state = self.game.state
        base = MAX_SEATS * SIZE
        for seat in range(self.players):
            out[base + seat * KINDS : base + (seat + 1) * KINDS] = _kind_counts(state.feet[seat])
        base += MAX_SEATS * KINDS
        out[base : base + KINDS] = _kind_counts(state.stock)
        out[base + KINDS : base + 2 * KINDS] = _kind_counts(state.pile)
        return out

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (and deep-copied by ``clone``) without the seat views kept for this position: made
        again when next asked for (compiled with mypyc, a view cannot be copied field by field)."""
        state = dict(self.__dict__)
        state["_views"] = {}
        return state

    def clone(self) -> HandFootEnv:
        """An independent copy in the same position, staged opening, rewards and random generator: what
        is played in the copy (a search's rollouts) leaves this one as it was. ``pickle`` saves and
        restores the environment the same way."""
        return copy.deepcopy(self)

    # --- observations and masks
    def observation_vector(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``, from its view only."""
        info = self.seat_info(seat)
        return self.encoder.encode(info, self.game.totals)

    def seat_info(self, seat: int) -> SeatInfo:
        """The engine's view of ``seat`` now (``SeatInfo``: what the seat may know; once per position)."""
        seen = self._views.get(seat)
        if seen is None:
            seen = self._views[seat] = SeatInfo(self.game.state, seat)
        return seen

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each action legal for ``seat`` now (all zero when it is not to move)."""
        mask = self._masks.get(seat)
        if mask is None:
            legal = self._legal if self._live() and seat == self.game.state.to_move else []
            mask = self._masks[seat] = np.frombuffer(flags(legal, NUM_ACTIONS), INT8)
        return mask

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move, sorted: the engine's ``legal_ids``."""
        return self._legal

    # --- playing
    def play_move(self, move: Move) -> None:
        """Play an engine ``Move`` (atomic or compound, e.g. a bot's choice) for the seat to move, with the
        same rewards and episode ends as ``step``. Raises ``IllegalMove`` and changes nothing if illegal."""
        if not self._live():
            raise IllegalAction("the episode is over: reset() first")
        self._clear_paid()
        self.game.apply(move)
        self._after_move()

    def _after_move(self) -> None:
        """Rewards, episode ends and the next agent after a move was played."""
        game = self.game
        self.moves += 1
        hands_before = self._hands_seen
        if len(game.results) > hands_before and self.reward_at == "hand":
            for result in game.results[hands_before:]:
                self._give(result.scores)
        truncated = cut_short(game, self.moves, self.max_moves, self.max_hands)
        if game.finished or truncated:
            if self.reward_at == "game":
                self._give(game.totals)
            for agent in self.agents:
                self.terminations[agent] = game.finished
                self.truncations[agent] = truncated
            self._final_infos()
        else:
            self.agent_selection = self.possible_agents[game.state.to_move]
        if self._paid:
            self._accumulate_rewards()
        self._changed()

    def _end_for_illegal(self, agent: str, action: int) -> None:
        """End the episode after ``agent`` chose the illegal ``action`` (``illegal="penalty"``)."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_paid()
        self.rewards[agent] = self.illegal_penalty
        self._paid = True
        for other in self.agents:
            self.terminations[other] = True
        self._final_infos()
        self.infos[agent]["illegal_action"] = action
        self._accumulate_rewards()
        self._masks = {}
        self._legal = []

    def _final_infos(self) -> None:
        """Every agent's ``info`` at the episode's end: the totals, its side, the winner, the hands played."""
        game = self.game
        side_of = game.state.seating.side_of
        for agent in self.agents:
            self.infos[agent] = {**final_info(game), "side": side_of[self._seat_of[agent]]}

    def _give(self, side_scores: Sequence[int]) -> None:
        scores = side_rewards(self.reward_kind, side_scores)
        side_of = self.game.state.seating.side_of
        for agent in self.agents:
            self.rewards[agent] += scores[side_of[self._seat_of[agent]]] * self.reward_scale
        self._paid = True

    def _clear_paid(self) -> None:
        """Set the last step's rewards back to 0 before a move, if any were paid (most moves pay none:
        then ``rewards`` is already all 0, and adding it to the cumulative rewards changes nothing)."""
        if self._paid:
            self._clear_rewards()
            self._paid = False

    def _live(self) -> bool:
        agent = self.agent_selection
        return not (
            self.game.finished or self.terminations.get(agent, True) or self.truncations.get(agent, True)
        )

    def _changed(self) -> None:
        """Forget cached masks and views after the position changed."""
        self._masks = {}
        self._views = {}
        self._hands_seen = len(self.game.results)
        self._legal = self.game.legal_ids() if not self.game.finished else []


def final_info(game: Game) -> dict[str, Any]:
    """What an episode's last ``info`` says of ``game``: the ``totals`` per side, the ``winner`` (the side
    with the sole best total, None on a tie) and the ``hands`` played."""
    totals = list(game.totals)
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return {"totals": totals, "winner": leaders[0] if len(leaders) == 1 else None, "hands": len(game.results)}


def side_rewards(kind: str, side_scores: Sequence[int]) -> list[float]:
    """Each side's reward for ``side_scores`` (a hand's scores or the game totals, per side) under the
    reward ``kind``: ``"points"`` the score; ``"zero_sum"`` the score minus the mean of the other sides'
    (two sides: ``a - b`` and ``b - a``); ``"win"`` +1 for the sole best score, 0 for a share of the
    best, -1 for the others."""
    scores = [float(x) for x in side_scores]
    if kind == "points":
        return scores
    if kind == "zero_sum":
        total = sum(scores)
        others = len(scores) - 1
        return [score - (total - score) / others for score in scores]
    best = max(scores)
    leaders = sum(1 for score in scores if score == best)
    return [(1.0 if leaders == 1 else 0.0) if score == best else -1.0 for score in scores]


def _kind_counts(cards: Sequence[int]) -> list[int]:
    """Cards per kind."""
    counts = [0] * KINDS
    for card in cards:
        counts[C.KIND_OF[card]] += 1
    return counts
