"""The turn planner (bots/planner.py): only legal steps under every preset and player count, the same
game from the same seed, plans that run to the end of what the seat can plan, the plan played as its
steps, and the paired choice between plans."""

from __future__ import annotations

import random

import pytest

from handfoot.bots import Budget, HeuristicBot, legal_for, make_bot
from handfoot.bots.base import Bot
from handfoot.bots.planner import PlannerBot, paired_best, play_turn, turn_plans
from handfoot.engine import Game, HandState, Phase, move_text, sample_world, view
from handfoot.engine.apply import apply_move
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import DECODED, Action
from handfoot.engine.views import View
from handfoot.rules import PRESET_NAMES, preset

CASES = [
    (name, players)
    for name in sorted(PRESET_NAMES)
    for players in (2, 3, 4)
    if players in preset(name).players_allowed
]


def small_planner() -> PlannerBot:
    """A planner with a search small enough for a test (2 worlds, rollouts of 8 moves)."""
    return PlannerBot(Budget(iterations=2), rollout_moves=8)


def play_hand(rules_name: str, players: int, bots: list[Bot], seed: int, seat_info: bool) -> list[str]:
    """Play one hand, checking at every move that the bot chose one of the legal moves; the moves
    played. ``seat_info``: ask through ``choose_seat`` (as a tournament does), else ``choose``."""
    game = Game(preset(rules_name), players, seed)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    played: list[str] = []
    while not game.results and len(played) < 3000:
        state = game.state
        seat = state.to_move
        legal = legal_for(state, game.legal_ids())
        if seat_info:
            move = bots[seat].choose_seat(game.seat_info(seat), legal, rngs[seat])
        else:
            move = bots[seat].choose(view(state, seat), legal, rngs[seat])
        assert move in legal, f"{type(bots[seat]).__name__} chose {move_text(move)}, not a legal move"
        game.apply(move)
        played.append(move_text(move))
    assert game.results, f"{rules_name} hand did not end in 3000 moves"
    return played


@pytest.mark.parametrize(("rules_name", "players"), CASES)
def test_planner_plays_only_legal_steps_and_finishes_the_hand(rules_name: str, players: int) -> None:
    bots: list[Bot] = [small_planner() if s % 2 == 0 else HeuristicBot() for s in range(players)]
    play_hand(rules_name, players, bots, 3, seat_info=True)


@pytest.mark.parametrize("rules_name", ["kitchen-table", "head-and-foot"])
def test_planner_plays_from_a_frozen_view_too(rules_name: str) -> None:
    bots: list[Bot] = [small_planner(), HeuristicBot()] * 2
    play_hand(rules_name, 4, bots, 5, seat_info=False)


def test_planner_is_reproducible_from_a_seed() -> None:
    def moves() -> list[str]:
        bots: list[Bot] = [small_planner(), HeuristicBot(), small_planner()]
        return play_hand("family", 3, bots, 8, seat_info=True)

    first = moves()
    assert first == moves()
    heuristic_only = play_hand("family", 3, [HeuristicBot() for _ in range(3)], 8, seat_info=True)
    assert first != heuristic_only  # the search chose something of its own, reproducibly


def decision_worlds(rules_name: str, players: int, seed: int) -> list[tuple[HandState, View]]:
    """(world, seat view) at each of seat 0's draw and play decisions with nothing staged, as the
    heuristic plays a hand: the world sampled from the view, as the planner makes its plans."""
    game = Game(preset(rules_name), players, seed)
    bot, rng = HeuristicBot(), random.Random(seed)
    out: list[tuple[HandState, View]] = []
    while not game.results:
        state = game.state
        if state.to_move == 0 and state.phase in (Phase.DRAW, Phase.PLAY) and not state.staged:
            seat_view = view(state, 0)
            out.append((sample_world(seat_view, random.Random(len(out))), seat_view))
        legal = legal_for(state, game.legal_ids())
        game.apply(bot.choose_seat(game.seat_info(state.to_move), legal, rng))
    return out


@pytest.mark.parametrize(("rules_name", "players"), [("kitchen-table", 4), ("family", 3), ("marmot", 2)])
def test_plans_are_legal_steps_that_run_to_the_end_of_what_the_seat_can_plan(
    rules_name: str, players: int
) -> None:
    checked = 0
    for world, seat_view in decision_worlds(rules_name, players, 4):
        plans = turn_plans(world)
        assert plans, "no plan"
        assert plans[0] == play_turn(world.copy())
        assert len(set(plans)) == len(plans)
        for plan in plans:
            s = world.copy()
            phase = s.phase
            foot = s.in_foot[0]
            for mid in plan:
                assert s.to_move == 0 and mid in legal_ids(s), f"step {mid} of {plan} is not legal"
                apply_move(s, move_of_id(s, mid))
            assert not s.staged, f"{plan} leaves groups staged"
            if phase is Phase.DRAW:
                assert s.phase is not Phase.DRAW, f"{plan} does not end with the draw or pickup"
            else:  # the turn ended (discard, out, ask), or the seat took up its Foot
                ended = s.phase in (Phase.ANSWER, Phase.OVER) or s.to_move != 0 or s.in_foot[0] != foot
                assert ended, f"{plan} stops in the middle of the turn"
            checked += 1
        if seat_view.phase is Phase.PLAY:
            ends = {d.action for p in plans if (d := DECODED[p[-1]]) is not None}
            assert ends & {Action.DISCARD, Action.MELD, Action.ASK, Action.COMMIT, Action.LAY}
    assert checked > 20


def test_the_chosen_plan_is_played_as_its_steps_without_searching_again() -> None:
    game = Game(preset("kitchen-table"), 4, 2)
    bot, heuristic, rng = PlannerBot(Budget(iterations=3), rollout_moves=8), HeuristicBot(), random.Random(0)
    followed = 0
    while not game.results:
        state = game.state
        seat = state.to_move
        legal = legal_for(state, game.legal_ids())
        if seat != 0:
            game.apply(heuristic.choose_seat(game.seat_info(seat), legal, rng))
            continue
        planned = list(bot.memo.steps)
        move = bot.choose_seat(game.seat_info(seat), legal, rng)
        if planned and planned[0][1] == legal.id_of(move) and len(legal) > 1:
            assert bot.last_plans == 0 and bot.last_iterations == 0  # played from the memo
            followed += 1
        game.apply(move)
    assert followed > 0


def test_a_step_the_runner_did_not_play_drops_the_plan() -> None:
    heuristic, rng = HeuristicBot(), random.Random(0)
    for seed in range(20):  # find a turn where the planner has steps left and another meld is legal
        game = Game(preset("kitchen-table"), 4, seed)
        bot = small_planner()
        while not game.results:
            state = game.state
            seat = state.to_move
            legal = legal_for(state, game.legal_ids())
            if seat != 0:
                game.apply(heuristic.choose_seat(game.seat_info(seat), legal, rng))
                continue
            move = bot.choose_seat(game.seat_info(0), legal, rng)
            others = [m for m in legal if m != move and m.action is Action.MELD]
            if not (bot.memo.steps and others and state.phase is Phase.PLAY):
                game.apply(move)
                continue
            game.apply(others[0])  # the runner plays another meld: the turn goes on, the cards differ
            legal = legal_for(game.state, game.legal_ids())
            assert game.state.to_move == 0 and len(legal) > 1
            assert bot.choose_seat(game.seat_info(0), legal, rng) in legal
            assert bot.last_plans > 0  # planned afresh, not the old plan's next step
            return
    pytest.fail("no turn with a plan's steps left and another meld legal in 20 hands")


def test_paired_best_leaves_the_first_plan_only_for_a_clear_gain() -> None:
    # three plans judged on 4 worlds: plan 1 gains 0.5 each time, plan 2 +/-1 (mean 0)
    sums, squares, pairs = [0.0, 2.0, 0.0], [0.0, 1.0, 4.0], [0, 4, 4]
    assert paired_best(sums, squares, pairs, confidence=1.0) == 1
    noisy = [0.0, 0.4, 0.0], [0.0, 4.0, 0.0], [0, 4, 0]  # mean 0.1, standard error about 0.57
    assert paired_best(*noisy, confidence=1.0) == 0
    assert paired_best([0.0, 5.0], [0.0, 25.0], [0, 1], confidence=0.0) == 0  # one world is no evidence


def test_registry_makes_a_planner_with_a_budget() -> None:
    bot = make_bot("planner:50+0.2s")
    assert isinstance(bot, PlannerBot) and bot.budget == Budget(50, 0.2)
    assert isinstance(make_bot("planner"), PlannerBot)
    with pytest.raises(ValueError, match="bad budget"):
        make_bot("planner:lots")
