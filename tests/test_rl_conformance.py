"""The RL environments against the toolkits' own checkers: PettingZoo's api_test, parallel_api_test,
seed_test and max_cycles_test, and Gymnasium's check_env on the single-seat wrapper."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
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
        ("kitchen-table", 2, {"reward": "game"}),
        ("family", 3, {"zero_sum": True}),
        ("head-and-foot", 6, {}),
        ("marmot", 5, {}),
        ("in-laws", 4, {"reward": "game", "zero_sum": True}),
    ],
)
def test_api_test(rules: str, players: int, options: dict[str, Any]) -> None:
    api_test(rl.env(rules=rules, players=players, render_mode="ansi", **options), num_cycles=200)


def test_seed_test() -> None:
    seed_test(functools.partial(rl.env, rules="kitchen-table", players=4), num_cycles=200)
    seed_test(functools.partial(rl.env, rules="family", players=3), num_cycles=200)


def test_parallel_api_test() -> None:
    parallel_api_test(rl.parallel_env(rules="kitchen-table", players=4), num_cycles=200)


def test_max_cycles_test() -> None:
    # the toolkit sends unmasked random actions: illegal ones are replaced by a random legal one
    parallel = functools.partial(rl.parallel_env, rules="kitchen-table", illegal="random")
    module = types.SimpleNamespace(
        parallel_env=parallel, env=lambda **kwargs: parallel_to_aec(parallel(**kwargs))
    )
    max_cycles_test(module)


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
