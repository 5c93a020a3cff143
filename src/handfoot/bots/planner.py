"""The planner: a search over whole turns, played as the engine's steps.

ISMCTS (``bots.ismcts``) weighs one atomic step at a time. The planner weighs *turn plans*: the rest of
its turn as a sequence of the engine's legal ids, from the decision to the point where the turn's next
card is unknown or the turn ends.

* In the **draw phase** a plan is the draw, or a pickup (with the groups it opens with: ``bots.plan``'s
  pickup openings, as their stage/commit steps). It ends there: what the draw brings is not known yet.
* In the **play phase** a plan is the lay-downs (openings as their steps, melds, red 3s laid), then the
  end of the turn: a discard, going out, or asking "May I go out?". It ends early where the seat would
  pick up its Foot (the Foot's cards are not known yet).
* Elsewhere (answering, keeping or swapping a seen Foot) a plan is one move.

Plans are made in a world sampled to fit what the seat saw (``sample_world``, with the runner's public
bounds on the other hands as ISMCTS has them), where the seat's own cards and the table are the real
ones; every step is chosen from ``legal_ids`` of the position the plan has reached, so no rule is
written here. The plans (``turn_plans``): the heuristic's own turn; each of the heuristic's best first
moves (``width``) followed by the heuristic; the heuristic's lay-downs ended by each of its best other
discards (``discards``); holding everything back and discarding at once; the heuristic's turn without
spending a wild.

Each iteration samples a world and plays **every** plan in a copy of it, then the heuristic for every
seat to the end of the hand, scored by the engine's hand scoring (``ismcts.reward``). As in ISMCTS the
comparison is paired against the heuristic's own plan (the first), and another plan is chosen only when
its mean paired gain is more than ``confidence`` standard errors above zero.

The chosen plan's first step is played; its next steps are kept (``TurnMemo``) and played at the seat's
next decisions while each is due at exactly the position expected and is legal there; anywhere else the
bot plans afresh. So a turn costs one search per card the seat learns (the draw, a Foot), not one per step.

Budget: ``ismcts.Budget`` per searched decision. With an iterations budget the bot is reproducible for a
seeded generator; with seconds, the worlds come in the same order but how many are searched depends on
the clock.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from handfoot import cards as C
from handfoot.bots.base import DECODED, Bot
from handfoot.bots.heuristic import (
    Reading,
    _ids_of,
    _score_move_list,
    answer_permission,
    best_index,
    plan_choice,
    score_ids,
)
from handfoot.bots.ismcts import NEVER, Budget, hand_scores, heuristic_step, legal_side, reward
from handfoot.bots.pause import pause_point
from handfoot.bots.plan import STEP_IDS, offers_staging, opening_plans, plan_steps
from handfoot.bots.registry import register_bot
from handfoot.engine.apply import apply_checked
from handfoot.engine.judge import check
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import NO_ID, YES_ID, Action, Move, move_id
from handfoot.engine.state import HandState, Phase
from handfoot.engine.views import SeatInfo, View, sample_world

Plan = tuple[int, ...]
# The longest plan made (a turn's steps); a guard only: turns are far shorter.
MAX_PLAN_STEPS = 80
DEFAULT_BUDGET = Budget(iterations=400, seconds=1.0)


def _wilds(move: Move) -> int:
    """The wild cards ``move`` lays (its id's count when atomic)."""
    mid = move_id(move)
    if mid >= 0:
        decoded = DECODED[mid]
        return 0 if decoded is None else decoded.jokers + decoded.deuces
    return sum(1 for g in move.groups for c in g.cards if C.KIND_OF[c] <= C.DEUCE)


def scored_options(world: HandState, keep_wilds: bool = False) -> tuple[list[Move], list[float]]:
    """The moves the heuristic weighs for the player to move in ``world`` (the legal atomic ids that
    are not staging steps, then the whole openings it plans) and its score of each; with
    ``keep_wilds``, a move that lays a wild scores below every move the heuristic plays."""
    ids = legal_ids(world)
    r = Reading.of_world(world, world.to_move)
    compound = opening_plans(world) if offers_staging(ids) else []
    scores = score_ids(r, ids)
    scores.extend(_score_move_list(r, compound))
    moves: list[Move] = []
    out: list[float] = []
    for index, score in enumerate(scores):
        if index < len(ids):
            if ids[index] in STEP_IDS:
                continue
            move = move_of_id(world, ids[index])
        else:
            move = compound[index - len(ids)]
        if keep_wilds and move.action in (Action.MELD, Action.STAGE, Action.PICKUP) and _wilds(move):
            score = NEVER - 1.0
        moves.append(move)
        out.append(score)
    return moves, out


def _play(world: HandState, move: Move, plan: list[int]) -> bool:
    """Play ``move`` in ``world`` as its atomic steps (a whole opening as its stage/commit steps),
    adding their ids to ``plan``; False (``world`` possibly part played) if a step is not legal."""
    mid = move_id(move)
    steps = [move] if mid >= 0 else plan_steps(world, move)
    if not steps:
        return False
    for step in steps:
        sid = move_id(step)
        if sid < 0:
            return False
        in_world = move_of_id(world, sid)
        if check(world, in_world) is not None:
            return False
        apply_checked(world, in_world)
        plan.append(sid)
    return True


def play_turn(world: HandState, first: Move | None = None, keep_wilds: bool = False) -> Plan:
    """The plan of the player to move in ``world``: ``first`` (the heuristic's choice when None), then
    the heuristic's moves (never laying a wild with ``keep_wilds``, unless nothing else is legal) while
    the plan may go on (see the module docstring). ``world`` is played to where the plan ends; empty if
    ``first`` is not legal there."""
    seat = world.to_move
    start_phase = world.phase
    foot = world.in_foot[seat]
    plan: list[int] = []
    move = first
    while len(plan) < MAX_PLAN_STEPS:
        if move is None:
            moves, scores = scored_options(world, keep_wilds)
            if not moves:
                break
            move = moves[best_index(scores)]
        if not _play(world, move, plan):
            return tuple(plan) if move is not first else ()
        move = None
        if start_phase is not Phase.PLAY or world.phase is not Phase.PLAY or world.to_move != seat:
            break
        if world.in_foot[seat] != foot:
            break
    return tuple(plan)


def _action_of(mid: int) -> Action | None:
    """The action of atomic id ``mid``."""
    decoded = DECODED[mid]
    return None if decoded is None else decoded.action


def _end_position(world: HandState, plan: Plan) -> HandState | None:
    """A copy of ``world`` with every step of ``plan`` but the last played (None if one is not legal)."""
    s = world.copy()
    for mid in plan[:-1]:
        move = move_of_id(s, mid)
        if check(s, move) is not None:
            return None
        apply_checked(s, move)
    return s


def turn_plans(world: HandState, width: int = 6, discards: int = 3) -> list[Plan]:
    """The plans weighed for the player to move in ``world`` (see the module docstring), the
    heuristic's own first, without repeats; every plan's first step is legal in ``world``."""
    phase = world.phase
    if phase is Phase.ANSWER:
        heuristic_yes = answer_permission(Reading.of_world(world, world.to_move))
        return [(YES_ID,), (NO_ID,)] if heuristic_yes else [(NO_ID,), (YES_ID,)]
    moves, scores = scored_options(world)
    order = [i for i in sorted(range(len(moves)), key=lambda i: -scores[i]) if scores[i] > NEVER]
    if phase is not Phase.PLAY and phase is not Phase.DRAW:
        return [p for i in order[:width] if (p := play_turn(world.copy(), moves[i]))]
    plans: list[Plan] = [play_turn(world.copy())]
    for index in order[:width]:
        plans.append(play_turn(world.copy(), moves[index]))
    if phase is Phase.PLAY:
        discard_ids = [i for i in order if moves[i].action is Action.DISCARD]
        if discard_ids:  # hold every card back: discard at once
            plans.append(play_turn(world.copy(), moves[discard_ids[0]]))
        base = plans[0]
        ends_in_discard = bool(base) and _action_of(base[-1]) is Action.DISCARD
        end = _end_position(world, base) if ends_in_discard else None
        if end is not None and end.phase is Phase.PLAY and end.to_move == world.to_move:
            end_moves, end_scores = scored_options(end)
            ranked = sorted(range(len(end_moves)), key=lambda i: -end_scores[i])
            other = [i for i in ranked if end_moves[i].action is Action.DISCARD and end_scores[i] > NEVER]
            for index in other[:discards]:
                mid = move_id(end_moves[index])
                plans.append((*base[:-1], mid))
        plans.append(play_turn(world.copy(), keep_wilds=True))
    out: list[Plan] = []
    for plan in plans:
        if plan and plan not in out:
            out.append(plan)
    return out


Position = tuple[int, tuple[int, ...]]  # a seat's move count and its cards by card id


def position_of(move_count: int, hand: Sequence[int]) -> Position:
    """What the memo compares: the move count and the seat's cards (staged ones included) by card id."""
    held = [0] * C.NUM_CARD_IDS
    for card in hand:
        held[card] += 1
    return move_count, tuple(held)


def plan_positions(world: HandState, plan: Plan) -> list[Position]:
    """The seat's position before each step of ``plan`` played in a copy of ``world``."""
    s = world.copy()
    seat = s.to_move
    out = []
    for mid in plan:
        out.append((s.move_count, tuple(s.hand_cards[seat])))
        move = move_of_id(s, mid)
        if check(s, move) is not None:
            break
        apply_checked(s, move)
    return out


class TurnMemo:
    """The steps left of the plan being played, each with the position it is due at (the seat's move
    count and cards): a step is played only at exactly that position, in the same hand, where it is
    legal; anywhere else the memo is dropped."""

    __slots__ = ("hand", "seat", "steps")

    def __init__(self) -> None:
        self.hand = -1
        self.seat = -1
        self.steps: list[tuple[Position, int]] = []

    def remember(self, view: View, steps: Sequence[tuple[Position, int]]) -> None:
        """``steps`` (each with the position it is due at) follow the move about to be played at ``view``."""
        self.hand, self.seat = view.hand_index, view.seat
        self.steps = list(steps)

    def recall(self, view: View, ids: Sequence[int]) -> int:
        """The next step's id at ``view`` if it is due here and legal, else -1 (the memo is dropped)."""
        steps = self.steps
        if not steps:
            return -1
        due, mid = steps[0]
        if (
            (self.hand, self.seat) != (view.hand_index, view.seat)
            or mid not in ids
            or due != position_of(view.move_count, view.hand)
        ):
            self.steps = []
            return -1
        del steps[0]
        return mid


class PlannerBot(Bot):
    """Chooses among whole turn plans by paired rollouts over sampled worlds (see the module docstring)."""

    name = "planner"

    def __init__(
        self,
        budget: Budget | None = None,
        width: int = 6,
        discards: int = 3,
        rollout_moves: int = 400,
        confidence: float = 1.0,
        scale: float = 600.0,
    ) -> None:
        self.budget = budget or DEFAULT_BUDGET
        self.width = width
        self.discards = discards
        self.rollout_moves = rollout_moves
        self.confidence = confidence
        self.scale = scale
        self.memo = TurnMemo()
        self.last_iterations = 0  # worlds searched at the last decision (0: not searched)
        self.last_plans = 0  # plans weighed at the last decision

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """The next step of the chosen plan (see the module docstring); one of ``legal``."""
        return self.decide(view, legal, rng, None)

    def choose_seat(self, info: SeatInfo, legal: Sequence[Move], rng: random.Random) -> Move:
        """``choose``, with worlds sampled also to fit the public bounds on the other hands
        (``info.caps``)."""
        return self.decide(info.freeze(), legal, rng, info.caps)

    def answer(self, view: View, rng: random.Random) -> bool:
        """Searched like any decision: yes if the plan chosen says yes."""
        return self.choose(view, [Move(Action.YES), Move(Action.NO)], rng).action is Action.YES

    def decide(
        self, view: View, legal: Sequence[Move], rng: random.Random, caps: Sequence[Sequence[int]] | None
    ) -> Move:
        """``choose`` with the worlds' bounds ``caps`` (None: the view alone)."""
        self.last_iterations = 0
        self.last_plans = 0
        ids = _ids_of(legal)
        step = self.memo.recall(view, ids)
        if step >= 0:
            return legal[ids.index(step)]
        if len(legal) == 1:
            return legal[0]
        if view.staged:  # staging the bot did not plan (a position it was handed): the heuristic's way
            return legal[ids.index(plan_choice(Reading(view), view, ids))]
        first_world = sample_world(view, rng, caps)
        plans = [p for p in turn_plans(first_world, self.width, self.discards) if p[0] in ids]
        self.last_plans = len(plans)
        if not plans:  # the worlds' positions offer what the seat's does: a guard only
            return legal[0]
        chosen = plans[0]
        if len(plans) > 1:
            chosen = plans[self.search(view, plans, rng, caps, first_world)]
        due = plan_positions(first_world, chosen)
        self.memo.remember(view, list(zip(due[1:], chosen[1 : len(due)], strict=True)))
        return legal[ids.index(chosen[0])]

    def search(
        self,
        view: View,
        plans: Sequence[Plan],
        rng: random.Random,
        caps: Sequence[Sequence[int]] | None,
        first_world: HandState,
    ) -> int:
        """The index of the plan played: judged against ``plans[0]`` on worlds sampled from ``view``
        (the first is ``first_world``), by paired rollouts within the budget."""
        budget = self.budget
        clock: Callable[[], float] = time.process_time if budget.cpu else time.perf_counter
        deadline = None if budget.seconds is None else clock() + budget.seconds
        limit = budget.iterations
        side = legal_side(view)
        count = len(plans)
        diff_sum = [0.0] * count
        diff_sq = [0.0] * count
        pairs = [0] * count
        iterations = 0
        world: HandState | None = first_world
        while limit is None or iterations < limit:
            if deadline is not None and iterations and clock() >= deadline:
                break
            iterations += 1
            if world is None:
                world = sample_world(view, rng, caps)
            values: list[float | None] = []
            for plan in plans:
                if iterations > 1:
                    pause_point()
                    if deadline is not None and clock() >= deadline:
                        break  # out of time inside a world: drop it (the first is always finished)
                values.append(self.play_out(world.copy(), plan, side))
            world = None
            if len(values) < count:
                iterations -= 1
                break
            base = values[0]
            if base is None:
                continue
            for k in range(1, count):
                value = values[k]
                if value is not None:
                    d = value - base
                    diff_sum[k] += d
                    diff_sq[k] += d * d
                    pairs[k] += 1
        self.last_iterations = iterations
        return paired_best(diff_sum, diff_sq, pairs, self.confidence)

    def play_out(self, world: HandState, plan: Plan, side: int) -> float | None:
        """Play ``plan`` in ``world``, then the heuristic for every seat to the end of the hand (or the
        move cap); the reward for ``side``, or None if a step of the plan is not legal in this world."""
        for mid in plan:
            move = move_of_id(world, mid)
            if check(world, move) is not None:
                return None
            apply_checked(world, move)
        for _ in range(self.rollout_moves):
            if not heuristic_step(world):
                break
        return reward(hand_scores(world), side, self.scale)


def paired_best(
    diff_sum: Sequence[float], diff_sq: Sequence[float], pairs: Sequence[int], confidence: float
) -> int:
    """The index whose mean paired gain over index 0 is the largest and more than ``confidence``
    standard errors above zero (0 when none is): from the sums, sums of squares and counts of the
    differences."""
    best, best_gain = 0, 0.0
    for k in range(1, len(pairs)):
        n = pairs[k]
        if n < 2:
            continue
        mean = diff_sum[k] / n
        var = max(diff_sq[k] / n - mean * mean, 0.0) * n / (n - 1)
        if mean > best_gain and mean > confidence * math.sqrt(var / n):
            best, best_gain = k, mean
    return best


def register() -> None:
    """Add ``planner`` (options: a budget such as ``300``, ``0.5s`` or ``300,0.5s``) to the registry."""

    def factory(options: str) -> Bot:
        return PlannerBot(Budget.parse(options)) if options else PlannerBot()

    register_bot("planner", factory)


register()

__all__ = ["PlannerBot", "TurnMemo", "paired_best", "play_turn", "turn_plans"]
