"""``BatchEnv``: N self-play tables stepped together, checked against the AEC environment.

- A table of the batch plays the same game as the AEC environment seeded the same way: the same acting
  seat, observation vector, mask, rewards and end, step by step, across a whole game and the next deal.
- Random legal play at 8 tables under every preset: games end and are dealt again, each end has its final
  totals, zero-sum rewards sum to zero per table, and a seed fixes everything.
- Illegal actions: the penalty ends only that table's game; ``"raise"`` moves no table.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from handfoot.rl import BatchEnv, HandFootEnv, IllegalAction
from handfoot.rl.aec import agent_name
from handfoot.rules import PRESET_NAMES


def random_actions(env: BatchEnv, rng: random.Random) -> list[int]:
    """A uniformly random legal action per table, read from the mask."""
    out = []
    for row in env.action_masks:
        legal = np.flatnonzero(row)
        out.append(int(legal[rng.randrange(len(legal))]))
    return out


@pytest.mark.parametrize(("rules", "players"), [("kitchen-table", 4), ("kitchen-table", 2), ("family", 3)])
def test_a_table_plays_what_the_aec_environment_plays(rules: str, players: int) -> None:
    batch = BatchEnv(1, rules=rules, players=players, reward="points")
    batch.reset(seed=11)
    aec = HandFootEnv(rules=rules, players=players, reward="points")
    aec.reset(seed=random.Random(11).getrandbits(64))  # the batch's first table is seeded so
    rng = random.Random(2)
    games = 0
    for _ in range(4000):
        seat = int(batch.seats[0])
        agent = agent_name(seat)
        assert aec.agent_selection == agent
        seen = aec.observe(agent)
        assert np.array_equal(batch.observations[0], seen["observation"])
        assert np.array_equal(batch.action_masks[0], seen["action_mask"])
        assert batch.legal_actions(0) == aec.legal_actions()
        action = random_actions(batch, rng)[0]
        _, rewards, terminated, truncated, infos = batch.step([action])
        aec.step(action)
        for other in range(players):
            assert rewards[0, other] == pytest.approx(aec.rewards[agent_name(other)])
        ended = aec.terminations[agent] or aec.truncations[agent]
        assert bool(terminated[0] or truncated[0]) == ended
        if ended:
            final = aec.infos[agent]
            assert infos[0]["totals"] == final["totals"] and infos[0]["hands"] == final["hands"]
            games += 1
            if games == 2:
                break
            aec.reset()
    assert games == 2


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_random_play_ends_and_deals_again_under_every_preset(rules: str) -> None:
    env = BatchEnv(8, rules=rules, max_cycles=60)
    observations, infos = env.reset(seed=3)
    assert observations.shape == (8, env.observations.shape[1]) and infos == [{}] * 8
    rng = random.Random(5)
    ended = 0
    first: list[np.ndarray] = []
    for step in range(1500):
        observations, rewards, terminated, truncated, infos = env.step(random_actions(env, rng))
        assert np.allclose(rewards.sum(axis=1), 0.0, atol=1e-3)  # zero-sum, every seat of a table
        for i in np.flatnonzero(terminated | truncated):
            assert set(infos[i]) >= {"totals", "winner", "hands"}
            ended += 1
        assert all(row.any() for row in env.action_masks)  # every table has a decision
        if step < 5:
            first.append(observations.copy())
    assert ended >= 8
    again = BatchEnv(8, rules=rules, max_cycles=60)
    again.reset(seed=3)
    rng = random.Random(5)
    for step in range(5):
        assert np.array_equal(again.step(random_actions(again, rng))[0], first[step])


def test_an_illegal_action_ends_only_that_table() -> None:
    env = BatchEnv(3, rules="kitchen-table")
    env.reset(seed=1)
    rng = random.Random(0)
    actions = random_actions(env, rng)
    illegal = int(np.flatnonzero(env.action_masks[1] == 0)[0])
    seat = int(env.seats[1])
    actions[1] = illegal
    _, rewards, terminated, _, infos = env.step(actions)
    assert terminated.tolist() == [False, True, False]
    assert rewards[1, seat] == -1.0 and infos[1]["illegal_action"] == illegal
    strict = BatchEnv(2, rules="kitchen-table", illegal="raise")
    strict.reset(seed=1)
    before = strict.observations.copy()
    with pytest.raises(IllegalAction, match="not legal at table 0"):
        strict.step([int(np.flatnonzero(strict.action_masks[0] == 0)[0]), 0])
    assert np.array_equal(strict.observations, before)
    with pytest.raises(ValueError, match="one per table"):
        strict.step([0])
