"""The observation vector the environment hands out equals one encoded afresh from the seat's view.

``Encoder`` copies a seat's meld entries from its previous vector when the table has not changed since
(the same melds, none grown). Whole games are played with random masked actions under every preset and
several seat counts; at every step the vector of the seat to move, and now and then every seat's, must
equal the vector a new encoder (which has seen nothing before) makes from the same view.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from handfoot.rl import HandFootEnv
from handfoot.rl.encode import Encoder


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("kitchen-table", 4),
        ("kitchen-table", 2),
        ("head-and-foot", 6),
        ("family", 3),
        ("marmot", 2),
        ("in-laws", 4),
        ("family", 6),
    ],
)
def test_every_vector_is_the_one_encoded_afresh(rules: str, players: int) -> None:
    env = HandFootEnv(rules, players, max_cycles=400, illegal="raise")
    env.reset(seed=5)
    rng = random.Random(7)
    compared = reused = 0
    for step, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seats = range(players) if step % 5 == 0 else [env.game.state.to_move]
        for seat in seats:
            before = env.encoder._melds_seen[seat]
            vector = env.observation_vector(seat)
            reused += before is not None and env.encoder._melds_seen[seat] is before
            info = env.seat_info(seat)
            fresh = Encoder(env.game.rules, players).encode(info, env.game.totals, info.staged)
            assert np.array_equal(vector, fresh), f"seat {seat} at step {step}: the vector differs"
            compared += 1
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert compared > 300
    assert reused > compared // 10, "the meld entries were never copied: the comparison tested nothing new"
