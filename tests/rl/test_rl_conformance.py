"""The RL environments against the toolkits' own checkers, with the default settings: PettingZoo's
api_test, parallel_api_test, seed_test, parallel_seed_test, max_cycles_test, performance_benchmark and
state tests, and Gymnasium's check_env on the single-seat wrapper (default, and made by its id)."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import gymnasium
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
    # the toolkit sends unmasked random actions: the first illegal one ends both games alike
    parallel_seed_test(rl.parallel_env, num_cycles=300)
    parallel_seed_test(functools.partial(rl.parallel_env, illegal="random"), num_cycles=100)


def test_state_test() -> None:
    state_space_test(rl.raw_env())
    state_test(rl.raw_env(), num_cycles=50)
    state_test(rl.raw_env(rules="family", players=3, illegal="random"), num_cycles=50)


def test_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    # measures only (benchmarks/bench_rl.py times the environment); here: it runs and reports
    performance_benchmark(rl.env())
    assert "turns per second" in capsys.readouterr().out


def test_max_cycles_test() -> None:
    # max_cycles_test sends unmasked random actions and expects the episode to last max_cycles ticks,
    # which ending the game on an illegal action (the default, PettingZoo's classic games' way) rules
    # out: PettingZoo runs it only on environments without illegal actions. Here illegal actions are
    # replaced by legal ones; test_max_cycles_with_the_defaults checks the defaults with masked actions.
    parallel = functools.partial(rl.parallel_env, rules="kitchen-table", illegal="random")
    module = types.SimpleNamespace(
        parallel_env=parallel, env=lambda **kwargs: parallel_to_aec(parallel(**kwargs))
    )
    max_cycles_test(module)


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
