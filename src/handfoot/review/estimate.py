"""What a decision cost, in points, judged from what the deciding seat knew.

``paired_cost`` deals ``worlds`` full hands that fit the seat's view and the public bounds on the other
hands (``sample_world``, as ISMCTS does), plays the move the seat made and the move the strong bot would
have made in a copy of the *same* world, then the heuristic for every seat (the rollouts of ISMCTS:
deterministic once the world is dealt) until the seat's own turn has come round ``rounds`` more times
(the same turns for every seat after either move, see ``play_to_horizon``), and values both ends the same
way (``value``): each side's hand score as it stands with the cards still held counted *for* the side at
their card values (most of them will be melded), or the engine's final score where the hand ended
sooner. ``rounds=0`` plays to the end of the hand. The difference of the seat's side's *lead* (its value
minus the best other side's) between the two play-outs is one paired sample: the luck of the deal is
the same on both sides of it, so it cancels out (common random numbers). The estimate is the samples'
mean with a normal 95% interval (mean ± 1.96 standard errors) and the count of worlds it rests on.

Why a horizon: played on to the end of the hand, one different card changes who goes out, and the
difference of two play-outs swings by thousands of points either way; in measurements (docs/bots.md)
a whole-hand estimate needed hundreds of worlds to tell a wild thrown away from a good discard, while
two rounds tell them apart in a few dozen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from handfoot.bots.ismcts import heuristic_step
from handfoot.engine.apply import apply_checked
from handfoot.engine.judge import check
from handfoot.engine.legal import move_of_id
from handfoot.engine.moves import Move, move_id
from handfoot.engine.scoring import score_tally
from handfoot.engine.state import HandState, Phase
from handfoot.engine.tally import hand_tallies
from handfoot.engine.views import View, sample_world
from handfoot.sim.stats import Z95

ROLLOUT_MOVES = 400  # a play-out stops after this many moves (a hand is over long before, as a rule)


@dataclass(frozen=True)
class Estimate:
    """A mean over paired worlds, its 95% interval and the number of worlds: ``mean`` points, between
    ``low`` and ``high``. With fewer than two worlds the interval is the mean itself."""

    mean: float
    low: float
    high: float
    worlds: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Estimate:
        """The estimate of ``samples`` (empty: zero from no worlds)."""
        n = len(samples)
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0)
        mean = sum(samples) / n
        if n < 2:
            return cls(mean, mean, mean, n)
        var = sum((x - mean) ** 2 for x in samples) / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def zero(cls) -> Estimate:
        """No difference: the seat played the bot's move (nothing to estimate)."""
        return cls(0.0, 0.0, 0.0, 0)


def lead(scores: Sequence[int], side: int) -> int:
    """``side``'s hand score minus the best score of the other sides."""
    others = max((s for i, s in enumerate(scores) if i != side), default=0)
    return scores[side] - others


def value(state: HandState) -> list[int]:
    """Each side's value of ``state``: its final score once the hand is over, else its score as it
    stands with the cards it still holds (hands and unplayed Feet) counted for it at their values."""
    rules = state.rules
    over = state.phase is Phase.OVER
    return [score_tally(rules, t) + (0 if over else 2 * t.held_points) for t in hand_tallies(state)]


def play_to_horizon(world: HandState, seat: int, rounds: int, turn: int) -> list[int]:
    """Play the heuristic for every seat in ``world``, where ``seat`` has just decided in ``turn``'s turn,
    until ``seat``'s turn has come round ``rounds`` more times (0: to the end of the hand, or
    ``ROLLOUT_MOVES`` moves); the seats whose turns began after ``turn``'s, in order.

    The horizon is counted in the deciding seat's own turns, not in turns from its move: a move that
    ends the seat's turn (a discard) and one that does not (a meld, a staging step, a draw) then leave
    every seat the same turns to play (counted from the move, the discard's side would get one more
    turn of its own, and ``value`` counts the cards it draws for it)."""
    began: list[int] = []
    for _ in range(ROLLOUT_MOVES):
        if world.turn_seat != turn:
            turn = world.turn_seat
            began.append(turn)
            if rounds and turn == seat and began.count(seat) == rounds:
                break
        if not heuristic_step(world):
            break
    return began


def play_line(world: HandState, line: Sequence[Move], side: int, rounds: int = 0) -> int | None:
    """Play ``line``, one seat's moves in one turn (a whole decision: a draw, or what it laid down and
    discarded), in ``world`` (a copy the caller gives away) for the seat to move, then the heuristic for
    every seat until that seat's turn has come round ``rounds`` more times (``play_to_horizon``; 0: to
    the end of the hand); ``side``'s lead in ``value`` at the end, or None if a move of ``line`` is not
    legal in this world."""
    seat, turn = world.to_move, world.turn_seat
    for move in line:
        if world.phase is Phase.OVER:
            break
        mid = move_id(move)
        in_world = move_of_id(world, mid) if mid >= 0 else move
        if check(world, in_world) is not None:
            return None
        apply_checked(world, in_world)
    play_to_horizon(world, seat, rounds, turn)
    return lead(value(world), side)


def play_on(world: HandState, move: Move, side: int, rounds: int = 0) -> int | None:
    """``play_line`` of the single move ``move``."""
    return play_line(world, (move,), side, rounds)


def paired_cost(
    view: View,
    caps: Sequence[Sequence[int]] | None,
    played: Move | Sequence[Move],
    better: Move | Sequence[Move],
    side: int,
    worlds: int,
    rng: random.Random,
    rounds: int = 0,
    most: int = 0,
) -> Estimate:
    """What playing ``played`` instead of ``better`` (a move, or a line of the seat's moves in this
    turn: ``play_line``) cost ``side`` in points (positive: ``played`` was worse), over ``worlds`` worlds
    sampled from ``view`` within ``caps`` (see the module docstring). A world where either line is not
    legal is left out of the count. While the estimate is positive but its interval still reaches
    zero, ``worlds`` more are sampled, up to ``most`` in all (0: ``worlds`` only): the worlds go where
    the answer is in doubt."""
    ours_line = (played,) if isinstance(played, Move) else tuple(played)
    better_line = (better,) if isinstance(better, Move) else tuple(better)
    samples: list[float] = []
    sampled = 0
    while True:
        for _ in range(worlds):
            world = sample_world(view, rng, caps)
            ours = play_line(world.copy(), ours_line, side, rounds)
            theirs = play_line(world, better_line, side, rounds)
            if ours is None or theirs is None:
                continue
            samples.append(float(theirs - ours))
        sampled += worlds
        estimate = Estimate.of(samples)
        if sampled + worlds > most or not estimate.low <= 0 < estimate.mean:
            return estimate


__all__ = [
    "ROLLOUT_MOVES",
    "Z95",
    "Estimate",
    "lead",
    "paired_cost",
    "play_line",
    "play_on",
    "play_to_horizon",
    "value",
]
