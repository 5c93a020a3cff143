"""ISMCTS: information-set Monte Carlo search over worlds sampled from the view.

Every iteration deals a world consistent with the bot's view (``sample_world``: the unseen cards dealt
at random to the other hands, the Feet, the hidden pile and the stock) and plays **each** candidate
move in a copy of that same world, then the heuristic for every seat to the end of the hand (or
``rollout_moves`` moves), and scores the hand with the engine's own scoring (``hand_tallies`` +
``score_tally``). The candidates are the heuristic's best few moves (``width``); the root is the only
node kept (the information set of the bot's own decision), so this is single-observer ISMCTS with a
one-level tree and heuristic rollouts, in which every candidate is judged on the same worlds.

Judging every candidate on the same world and the same rollout policy (which is deterministic: the
stock order is part of the world) makes the comparison *paired*: the luck of the deal, which dwarfs
the effect of one decision, cancels out of the difference between two candidates. The bot leaves the
heuristic's choice only when another candidate's mean paired gain is positive by more than
``confidence`` standard errors, so a search too short to tell the moves apart plays the heuristic.

The reward of a finished world for the bot's side is half the sign of its lead over the best other
side (the hand won or lost) and half ``tanh(lead / scale)`` (by how much).

It searches the decisions where hands are won or lost: drawing or taking the pile, the discard,
asking and answering, and melds that spend wilds (against laying naturals instead, or discarding);
a meld of naturals, which the heuristic always lays and whose order within a turn does not matter,
is played without search (see ``candidates``). Rollouts read each seat's own cards and the public
table from the sampled world (``Reading.of_world``), exactly what that seat's view would show.

Worlds fit what the seat has seen: its view (its own cards, the table, the cards a seat was seen to take
from a visible pile, which stay with that seat) and, from a runner that passes them (``choose_seat``
with ``Game.seat_info``), the public bounds on the other hands: a seat that drew instead of taking a pile
it could have taken with two naturals holds fewer than two of that rank (``engine.facts``).

Budget: ``iterations`` (worlds) per decision, ``seconds`` per decision, or both (whichever ends first).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from handfoot import cards as C
from handfoot.bots.base import DECODED, Bot, LegalMoves, legal_for
from handfoot.bots.heuristic import (
    Reading,
    _ids_of,
    _score_move_list,
    answer_permission,
    best_id_index,
    best_index,
    plan_choice,
    score_ids,
    score_reading,
)
from handfoot.bots.pause import pause_point
from handfoot.bots.plan import next_step, offers_staging, opening_plans, seat_state
from handfoot.bots.registry import register_bot
from handfoot.engine.apply import apply_checked
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import NO_ID, YES_ID, Action, Move, move_id, move_text
from handfoot.engine.scoring import score_tally
from handfoot.engine.state import HandState, Phase, seating_for
from handfoot.engine.tally import hand_tallies
from handfoot.engine.views import SeatInfo, View, sample_world
from handfoot.wording import show

NEVER = -1e5  # heuristic scores at or below this are moves the heuristic never plays: not candidates


@dataclass(frozen=True)
class Budget:
    """A search budget per decision: iterations, seconds, or both (the first reached ends the search).
    Seconds are wall-clock time, or with ``cpu`` the process's CPU time (the same search on a busy
    machine as on a quiet one: for measurements)."""

    iterations: int | None = 200
    seconds: float | None = None
    cpu: bool = False

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds, or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a budget needs at least 1 iteration")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a budget in seconds must be positive")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"300"`` (iterations), ``"0.5s"`` (seconds), ``"0.5cpu"`` (seconds of CPU time) or
        ``"300,0.5s"`` / ``"300+0.5s"`` (both; the ``+`` form fits in a comma-separated ``--seats``
        list)."""
        iterations: int | None = None
        seconds: float | None = None
        cpu = False
        for part in text.replace("+", ",").split(","):
            part = part.strip().lower()
            try:
                if part.endswith("cpu"):
                    seconds, cpu = float(part[:-3]), True
                elif part.endswith("s"):
                    seconds = float(part[:-1])
                elif part:
                    iterations = int(part)
            except ValueError:
                raise ValueError(
                    f"bad budget {show(text)}: write 300 (iterations), 0.5s (seconds), 0.5cpu (seconds of "
                    "CPU time) or 300,0.5s"
                ) from None
        return cls(iterations, seconds, cpu)


def move_key(move: Move) -> int | str:
    """A key for a move that is the same in every sampled world: its id, or its text if compound."""
    mid = move_id(move)
    return mid if mid >= 0 else move_text(move)


def hand_scores(state: HandState) -> list[int]:
    """Each side's score for the hand as it stands (the engine's tally and scoring; final once over)."""
    rules = state.rules
    return [score_tally(rules, tally) for tally in hand_tallies(state)]


def reward(scores: Sequence[float], side: int, scale: float) -> float:
    """In [-1, 1]: half the sign of ``side``'s lead over the best other side, half ``tanh(lead/scale)``."""
    others = max((s for i, s in enumerate(scores) if i != side), default=0.0)
    lead = scores[side] - others
    sign = 1.0 if lead > 0 else -1.0 if lead < 0 else 0.0
    return 0.5 * sign + 0.5 * math.tanh(lead / scale)


def heuristic_step(world: HandState) -> bool:
    """Play the heuristic's move for whoever is to move in ``world`` (a search's own world). Returns
    False when there is nothing to play (the hand is over, or the engine offers no move)."""
    if world.phase is Phase.OVER:
        return False
    seat = world.to_move
    ids = legal_ids(world)
    r = Reading.of_world(world, seat)
    if world.phase is Phase.ANSWER:
        apply_checked(world, move_of_id(world, YES_ID if answer_permission(r) else NO_ID))
        return True
    compound: list[Move] = opening_plans(world) if offers_staging(ids) else []
    if not ids and not compound:
        return False
    if compound:
        scores = score_ids(r, ids)
        scores.extend(_score_move_list(r, compound))
        best = best_index(scores)
    else:
        best = best_id_index(r, ids) if len(ids) > 1 else 0
    move = move_of_id(world, ids[best]) if best < len(ids) else compound[best - len(ids)]
    apply_checked(world, move)
    return True


class IsmctsBot(Bot):
    """Searches the heuristic's best few moves over sampled worlds (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        budget: Budget | None = None,
        width: int = 4,
        rollout_moves: int = 400,
        confidence: float = 1.0,
        scale: float = 600.0,
    ) -> None:
        self.budget = budget or Budget(iterations=200, seconds=1.0)
        self.width = width
        self.rollout_moves = rollout_moves
        self.confidence = confidence
        self.scale = scale
        self.last_iterations = 0

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The candidate with the best paired gain over the heuristic's move after the budget's search
        (the heuristic's move when none is clearly better); no search for a single legal move or a
        decision the heuristic settles (see the module docstring)."""
        return self.decide(view, legal, rng, None)

    def choose_seat(self, info: SeatInfo, legal: Sequence[Move], rng: random.Random) -> Move:
        """``choose``, with worlds sampled also to fit the public bounds on the other hands the runner
        inferred (``info.caps``: a seat that drew instead of taking the pile holds too few of its rank)."""
        return self.decide(info.freeze(), legal, rng, info.caps)

    def decide(
        self,
        view: View,
        legal: Sequence[Move],
        rng: random.Random,
        caps: Sequence[Sequence[int]] | None,
    ) -> Move:
        """``choose`` with the worlds' bounds ``caps`` (None: the view alone)."""
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        r = Reading(view)
        ids = _ids_of(legal)
        if view.staged:  # mid-staging: the plan being staged goes on (bots.plan)
            return legal[ids.index(plan_choice(r, view, ids))]
        plans: list[Move] = []
        planning = seat_state(view) if offers_staging(ids) else None
        if planning is not None:
            plans = opening_plans(planning)
        options = Options(legal, plans)
        scores = score_reading(r, legal)
        if plans:
            scores = [*scores, *_score_move_list(r, plans)]
        order = sorted(range(len(options)), key=lambda i: -scores[i])
        candidates = self.candidates(view, options, scores, order)
        chosen = order[0] if len(candidates) <= 1 else self.search(view, options, candidates, rng, caps)
        if chosen < len(legal):
            return legal[chosen]
        assert planning is not None
        step = next_step(planning, plans[chosen - len(legal)], (), ids)
        return legal[ids.index(step)] if step >= 0 else legal[order[0]] if order[0] < len(legal) else legal[0]

    def candidates(
        self, view: View, legal: Sequence[Move], scores: Sequence[float], order: Sequence[int]
    ) -> list[int]:
        """The moves searched, the heuristic's best first (fewer than two: no search). Outside the play
        phase, the heuristic's best ``width``. In the play phase nothing when the best is a meld of
        naturals (the heuristic always lays those, and their order does not matter); else the best, then
        in the heuristic's order the discards, an ask, one meld of naturals and one meld with wilds,
        up to ``width`` moves."""
        best = order[0]
        if view.phase is not Phase.PLAY:
            return [i for i in order[: self.width] if scores[i] > NEVER]
        action, wilds = _action_and_wilds(legal, best)
        if action is Action.MELD and not wilds:
            return []
        out = [best]
        seen_meld = {wilds > 0} if action is Action.MELD else set()
        for index in order[1:]:
            if len(out) >= self.width or scores[index] <= NEVER:
                break
            action, wilds = _action_and_wilds(legal, index)
            if action is Action.MELD:
                if (wilds > 0) in seen_meld:
                    continue
                seen_meld.add(wilds > 0)
            out.append(index)
        return out

    def answer(self, view: View, rng: random.Random) -> bool:
        """Searched like any decision: yes if "yes" comes out of the search."""
        legal = [Move(Action.YES), Move(Action.NO)]
        return self.choose(view, legal, rng).action is Action.YES

    def search(
        self,
        root_view: View,
        legal: Sequence[Move],
        candidates: Sequence[int],
        rng: random.Random,
        caps: Sequence[Sequence[int]] | None = None,
    ) -> int:
        """Judge ``legal[i]`` for ``i`` in ``candidates`` (the heuristic's choice first) on worlds sampled
        from ``root_view`` (and fitting ``caps``); returns the index played (see the module docstring)."""
        budget = self.budget
        clock = time.process_time if budget.cpu else time.perf_counter
        deadline = None if budget.seconds is None else clock() + budget.seconds
        limit = budget.iterations
        side = legal_side(root_view)
        moves = [legal[i] for i in candidates]
        count = len(moves)
        # paired differences against the heuristic's move: sums and sums of squares, and counts
        diff_sum = [0.0] * count
        diff_sq = [0.0] * count
        pairs = [0] * count
        iterations = 0
        while True:
            if limit is not None and iterations >= limit:
                break
            if deadline is not None and iterations and clock() >= deadline:
                break
            iterations += 1
            world = sample_world(root_view, rng, caps)
            values: list[float | None] = []
            for move in moves:
                if iterations > 1:
                    pause_point()  # a server's search nobody waits for lets one someone waits for go first
                if deadline is not None and iterations > 1 and clock() >= deadline:
                    break  # out of time inside a world: drop it (the first world is always finished)
                values.append(self._play_out(world.copy(), move, side))
            if len(values) < count:
                iterations -= 1
                break
            base = values[0]
            if base is None:
                continue
            for k in range(1, count):
                value = values[k]
                if value is None:
                    continue
                d = value - base
                diff_sum[k] += d
                diff_sq[k] += d * d
                pairs[k] += 1
        self.last_iterations = iterations
        best, best_gain = 0, 0.0
        for k in range(1, count):
            n = pairs[k]
            if n < 2:
                continue
            mean = diff_sum[k] / n
            var = max(diff_sq[k] / n - mean * mean, 0.0) * n / (n - 1)
            se = math.sqrt(var / n)
            if mean > best_gain and mean > self.confidence * se:
                best, best_gain = k, mean
        return candidates[best]

    def _play_out(self, world: HandState, move: Move, side: int) -> float | None:
        """Play ``move`` (the root player's) then the heuristic to the end of the hand (or the move
        cap) in ``world``; the reward for ``side``, or None if the move is not legal in this world."""
        mid = move_id(move)
        in_world = move_of_id(world, mid) if mid >= 0 else move
        if check(world, in_world) is not None:
            return None
        apply_checked(world, in_world)
        for _ in range(self.rollout_moves):
            if not heuristic_step(world):
                break
        return reward(hand_scores(world), side, self.scale)


class Options(Sequence[Move]):
    """The moves a decision weighs: the legal moves, then whole openings the bot planned (played as
    their steps once chosen)."""

    def __init__(self, legal: Sequence[Move], plans: Sequence[Move]) -> None:
        self.legal = legal
        self.plans = plans

    def __len__(self) -> int:
        return len(self.legal) + len(self.plans)

    def __getitem__(self, index: int) -> Move:  # type: ignore[override]
        count = len(self.legal)
        return self.legal[index] if index < count else self.plans[index - count]


def legal_side(view: View) -> int:
    """The side of the seat deciding."""
    return seating_for(view.rules, view.players).side_of[view.seat]


def _action_and_wilds(legal: Sequence[Move], index: int) -> tuple[Action, int]:
    """The action of ``legal[index]`` and the wilds it lays, from its id when ``legal`` has ids."""
    if isinstance(legal, Options) and index < len(legal.legal):
        return _action_and_wilds(legal.legal, index)
    if isinstance(legal, LegalMoves) and index < len(legal.ids):
        decoded = DECODED[legal.ids[index]]
        assert decoded is not None
        return decoded.action, decoded.jokers + decoded.deuces
    move = legal[index]
    wilds = sum(1 for g in move.groups for c in g.cards if C.KIND_OF[c] <= C.DEUCE)
    return move.action, wilds


def register() -> None:
    """Add ``ismcts`` (options: a budget such as ``300``, ``0.5s`` or ``300,0.5s``) to the registry."""

    def factory(options: str) -> Bot:
        return IsmctsBot(Budget.parse(options)) if options else IsmctsBot()

    register_bot("ismcts", factory)


register()

__all__ = ["Budget", "IsmctsBot", "hand_scores", "heuristic_step", "legal_for", "move_key", "reward"]
