"""The RL environments against the toolkits' own checkers, with the default settings: PettingZoo's
api_test, parallel_api_test, seed_test, parallel_seed_test, max_cycles_test, performance_benchmark and
state tests, and Gymnasium's check_env on the single-seat wrapper (default, and made by its id)."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    seed_test,
)
from pettingzoo.test.state_test import test_state as state_test
from pettingzoo.test.state_test import test_state_space as state_space_test
from pettingzoo.utils import parallel_to_aec

import handfoot.rl as rl


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # api_test suggests a Box observation; ours is the documented Dict of vector and mask
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        yield


@pytest.mark.parametrize(
    ("rules", "players", "options"),
    [
        ("kitchen-table", 4, {}),
        ("kitchen-table", 2, {"reward_at": "game"}),
        ("family", 3, {"reward": "points"}),
        ("head-and-foot", 6, {"reward": "win"}),
        ("marmot", 5, {}),
        ("in-laws", 4, {"reward_at": "game", "reward": "win"}),
        ("kitchen-table", 4, {"illegal": "random", "reward": "points"}),
    ],
)
def test_api_test(rules: str, players: int, options: dict[str, Any]) -> None:
    api_test(rl.env(rules=rules, players=players, render_mode="ansi", **options), num_cycles=200)


def test_api_test_with_the_defaults() -> None:
    api_test(rl.env(), num_cycles=300)


def test_seed_test() -> None:
    seed_test(rl.env, num_cycles=300)
    seed_test(functools.partial(rl.env, rules="family", players=3), num_cycles=200)


def test_parallel_api_test() -> None:
    parallel_api_test(rl.parallel_env(), num_cycles=300)


def test_parallel_seed_test() -> None:
    parallel_seed_test(rl.parallel_env, num_cycles=300)
    parallel_seed_test(functools.partial(rl.parallel_env, rules="family", players=3), num_cycles=100)


def test_unmasked_parallel_actions_play_on_so_the_seed_test_is_not_trivial() -> None:
    """parallel_seed_test sends unmasked random actions: with the Parallel API's default (an action the
    mask forbids is replaced by a random legal one) they play whole turns, so the two runs it compares
    are hundreds of moves of one game, not a game ended at its first tick."""
    env = rl.parallel_env()
    env.reset(seed=7)
    replaced = 0
    for agent in env.possible_agents:
        env.action_space(agent).seed(7)
    for _ in range(300):
        mover = env.aec.agent_selection
        _, _, terminations, truncations, infos = env.step(
            {a: env.action_space(a).sample() for a in env.agents}
        )
        replaced += "illegal_action" in infos[mover]
        assert not any(terminations.values()) and not any(truncations.values())
    assert env.aec.moves == 300 and replaced > 250
    penalised = rl.parallel_env(illegal="penalty")  # the turn-based environments' way, on request
    penalised.reset(seed=7)
    mover = penalised.aec.agent_selection
    illegal = int(np.flatnonzero(penalised.aec.action_mask(penalised.aec._seat_of[mover]) == 0)[0])
    _, rewards, terminations, _, _ = penalised.step({a: illegal for a in penalised.agents})
    assert all(terminations.values()) and rewards[mover] == -1.0


def test_state_test() -> None:
    state_space_test(rl.raw_env())
    state_test(rl.raw_env(), num_cycles=50)
    state_test(rl.raw_env(rules="family", players=3, illegal="random"), num_cycles=50)


def test_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    # measures only (benchmarks/bench_rl.py times the environment); here: it runs and reports
    performance_benchmark(rl.env())
    assert "turns per second" in capsys.readouterr().out


def tick_aec(make: Any) -> Any:
    """The AEC form, tick by tick, of the Parallel environments ``make`` builds."""
    return lambda **kwargs: parallel_to_aec(make(**kwargs))


def test_max_cycles_test_with_the_defaults() -> None:
    # max_cycles_test sends unmasked random actions and counts the ticks each agent is selected, so it
    # drives the Parallel form (every agent acts each tick) and its AEC form parallel_to_aec, each with
    # its defaults; the turn-based env selects only the seat to move, a different count per seat
    max_cycles_test(types.SimpleNamespace(parallel_env=rl.parallel_env, env=tick_aec(rl.parallel_env)))
    for rules, players in (("family", 3), ("head-and-foot", 6)):
        made = functools.partial(rl.parallel_env, rules=rules, players=players)
        max_cycles_test(types.SimpleNamespace(parallel_env=made, env=tick_aec(made)))


def test_max_cycles_with_the_defaults() -> None:
    env = rl.parallel_env(max_cycles=7)
    env.reset(seed=3)
    ticks = 0
    while env.agents:
        mover = env.aec.agent_selection
        mask = env.aec.action_mask(env.aec._seat_of[mover])
        actions = {a: env.action_space(a).sample(mask if a == mover else None) for a in env.agents}
        _, _, terminations, truncations, _ = env.step(actions)
        ticks += 1
        if ticks == 7:
            assert all(truncations.values()) and not any(terminations.values())
    assert ticks == 7


def test_turn_based_max_cycles_truncates_after_a_cycle_per_seat() -> None:
    env = rl.raw_env(rules="kitchen-table", players=4, max_cycles=3, illegal="random")
    env.reset(seed=5)
    moves = 0
    for _agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(0)
        moves += 1
    assert moves == 3 * 4


@pytest.mark.parametrize(
    ("rules", "players", "opponents"),
    [("kitchen-table", 4, "random"), ("family", 3, "heuristic"), ("kitchen-table", 2, "ismcts:5")],
)
def test_gymnasium_check_env(rules: str, players: int, opponents: str) -> None:
    check_env(rl.SingleSeatEnv(rules, players, seat=1, opponents=opponents, max_cycles=300))


def test_gymnasium_check_env_with_the_defaults_and_by_id() -> None:
    check_env(rl.SingleSeatEnv())
    made = gymnasium.make("handfoot/KitchenTable-v0", players=2, opponents="heuristic")
    check_env(made.unwrapped)
    assert made.spec is not None and made.spec.id == rl.env_id("kitchen-table") == "handfoot/KitchenTable-v0"
