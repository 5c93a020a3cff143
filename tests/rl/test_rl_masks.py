"""The action masks mark exactly the engine's legal ids, in the AEC environment and at every table of
``BatchEnv`` (which turns each table's last mask into its next one rather than writing it afresh), under
every preset and player count; and the mask writers (``rl.fill``, compiled with the engine) on their own.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from handfoot.rl import BatchEnv, HandFootEnv
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.aec import agent_name
from handfoot.rl.fill import flags, move_flags
from handfoot.rl.layout import MAX_SEATS
from handfoot.rules import PRESET_NAMES, preset

# every player count a preset seats that the observation has room for
CASES = [
    (name, players)
    for name in sorted(PRESET_NAMES)
    for players in preset(name).players_allowed
    if players <= MAX_SEATS
]


def marked(mask: np.ndarray) -> list[int]:
    return [int(i) for i in np.flatnonzero(mask)]


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_the_aec_mask_is_the_legal_list_and_no_one_else_has_one(rules: str, players: int) -> None:
    env = HandFootEnv(rules=rules, players=players)
    env.reset(seed=players)
    rng = random.Random(players)
    for _ in range(600):
        mover = env.game.state.to_move
        legal = env.game.legal_ids()
        assert legal, "a seat to move always has a legal action"
        for seat in range(players):
            mask = env.observe(agent_name(seat))["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            assert marked(mask) == (legal if seat == mover else [])
        env.step(legal[rng.randrange(len(legal))])
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            env.reset()


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_each_batch_mask_is_its_table_legal_list_through_restarts(rules: str, players: int) -> None:
    batch = BatchEnv(3, rules=rules, players=players, max_cycles=40)  # short games: restarts are met
    batch.reset(seed=players)
    rng = random.Random(players)
    restarts = 0
    for _ in range(300):
        for table in range(3):
            assert marked(batch.action_masks[table]) == batch.games[table].legal_ids()
        actions = [legal[rng.randrange(len(legal))] for legal in map(batch.legal_actions, range(3))]
        _, _, terminated, truncated, _ = batch.step(actions)
        restarts += int(terminated.sum() + truncated.sum())
    assert restarts, "the games were cut short so that tables restart"


def test_flags_mark_the_ids_given_and_nothing_else() -> None:
    assert flags([], 5) == bytearray(5)
    assert flags([0, 3, 4], 5) == bytearray([1, 0, 0, 1, 1])
    with pytest.raises(IndexError):
        flags([5], 5)


def test_move_flags_clears_the_old_marks_then_sets_the_new() -> None:
    mask = bytearray([1, 1, 0, 0, 1])
    move_flags(memoryview(mask), [0, 1, 4], [1, 2])
    assert mask == bytearray([0, 1, 1, 0, 0])
    rows = np.zeros((2, 4), dtype=np.int8)  # a row of a batch's masks, as BatchEnv keeps them
    move_flags(memoryview(rows[1]), [], [0, 3])  # type: ignore[arg-type]
    assert rows.tolist() == [[0, 0, 0, 0], [1, 0, 0, 1]]
