"""No leak: a seat's observation is exactly what its view shows, and nothing hidden.

Whole games are played with random masked actions under every preset. At many positions, for every
seat: the observation's fields are checked against the true position (own hand, every seat's counts,
the table, the pile's top and size, the stock's size); then the hidden cards are dealt again at random
(``sample_world``: other hands, every Foot, the stock, the hidden part of the pile) and every seat's
observation and mask must come out identical. The resampled world really differs (checked), so a
leak of any hidden card would show.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from handfoot import cards as C
from handfoot.engine import HandState, Phase, sample_world, view
from handfoot.engine.moves import STAGE_NEW_BASE
from handfoot.rl import OFFSETS, HandFootEnv
from handfoot.rl.layout import KINDS, MAX_SEATS


def kind_counts(cards: list[int] | tuple[int, ...]) -> list[int]:
    counts = [0] * KINDS
    for card in cards:
        counts[C.KIND_OF[card]] += 1
    return counts


def hidden(state: HandState, seat: int) -> tuple[object, ...]:
    """What ``seat`` must not know: the other hands, every Foot, the stock, the pile under its top."""
    others = tuple(tuple(state.hand_cards[s]) for s in range(state.players) if s != seat)
    return others, tuple(tuple(f) for f in state.feet), tuple(state.stock), tuple(state.pile[:-1])


def check_against_truth(obs: np.ndarray, state: HandState, seat: int) -> None:
    players = state.players
    assert list(obs[OFFSETS["hand"]]) == state.hands[seat]
    slots = [(seat + k) % players for k in range(players)]
    assert list(obs[OFFSETS["seat_hand_count"]][:players]) == [state.hand_size(s) for s in slots]
    assert list(obs[OFFSETS["seat_foot_count"]][:players]) == [len(state.feet[s]) for s in slots]
    assert not obs[OFFSETS["seat_present"]][players:].any()
    top = obs[OFFSETS["pile_top"]]
    assert top.argmax() == (C.KIND_OF[state.pile[-1]] if state.pile else KINDS) and top.sum() == 1
    assert obs[OFFSETS["pile_size"]][0] == len(state.pile)
    assert obs[OFFSETS["stock_size"]][0] == len(state.stock)
    if state.rules.pile_visible.value != "all":
        assert not obs[OFFSETS["pile_seen"]].any()
    if not state.rules.pick_foot_seen:
        assert not obs[OFFSETS["foot"]].any()
    else:
        assert list(obs[OFFSETS["foot"]]) == kind_counts(state.feet[seat])
    on_table = obs[OFFSETS["meld_open"]].sum() + obs[OFFSETS["meld_earlier"]].reshape(-1, 2)[:, 1].sum()
    assert on_table == sum(len(m.cards) for m in state.melds)
    assert obs[OFFSETS["seat_to_move"]].argmax() == slots.index(state.to_move)
    assert players <= MAX_SEATS


def observations(env: HandFootEnv) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        (env.observe(agent)["observation"].copy(), env.observe(agent)["action_mask"].copy())
        for agent in env.possible_agents
    ]


@pytest.mark.parametrize(
    ("rules", "players"),
    [("kitchen-table", 4), ("family", 3), ("head-and-foot", 6), ("marmot", 2), ("in-laws", 4)],
)
def test_observation_is_the_view_and_nothing_hidden(rules: str, players: int) -> None:
    env = HandFootEnv(rules, players, max_cycles=150, illegal="raise")
    env.reset(seed=11)
    rng = random.Random(3)
    checked = resampled_differs = 0
    for step, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.game.state
        if step % 7 == 0 and state.phase is not Phase.OVER:
            before = observations(env)
            for seat, (vector, _) in enumerate(before):
                check_against_truth(vector, state, seat)
            for seat in range(players):
                world = sample_world(view(state, seat), rng)
                assert view(world, seat) == view(state, seat)
                resampled_differs += hidden(world, seat) != hidden(state, seat)
                true_state = env.game.state
                env.game.state = world
                env._changed()
                try:
                    seen = env.observe(env.possible_agents[seat])
                    vector, mask = seen["observation"].copy(), seen["action_mask"].copy()
                finally:
                    env.game.state = true_state
                    env._changed()
                assert np.array_equal(vector, before[seat][0]), f"seat {seat} sees a hidden card change"
                if seat == state.to_move:
                    assert np.array_equal(mask, before[seat][1]), (
                        f"seat {seat}'s mask depends on hidden cards"
                    )
                checked += 1
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert checked > 20 and resampled_differs > checked // 2


def test_staged_cards_show_only_to_their_owner() -> None:
    env = HandFootEnv("kitchen-table", 4, illegal="raise")
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            state = env.game.state
            seat = state.to_move
            mask = env.action_mask(seat)
            staging = [
                int(a) for a in np.flatnonzero(mask) if a >= STAGE_NEW_BASE and state.phase is Phase.PLAY
            ]
            if staging and not state.staged:
                others_before = [env.observation_vector(s).copy() for s in range(4) if s != seat]
                own_before = env.observation_vector(seat).copy()
                env.step(staging[0])
                if env.game.state.staged:  # staged, not laid
                    others_after = [env.observation_vector(s) for s in range(4) if s != seat]
                    assert all(np.array_equal(a, b) for a, b in zip(others_before, others_after, strict=True))
                    own_after = env.observation_vector(seat)
                    assert own_after[OFFSETS["staged"]].sum() == 3
                    assert not np.array_equal(own_before, own_after)
                    return
                continue
            legal = [a for a in np.flatnonzero(mask) if a < STAGE_NEW_BASE] or list(np.flatnonzero(mask))
            env.step(int(legal[rng.randrange(len(legal))]))
            if env.game.finished:
                break
    pytest.fail("no position to stage a group in 40 games")
