"""Actions: openings of several melds are reachable by staging atomic groups; illegal actions are refused;
rewards add up to the hand scores."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from handfoot import cards as C
from handfoot.engine import Action, Group, Move, Phase, opening_moves
from handfoot.engine.moves import PICKUP_BASE, group_counts, single_id, triple_id
from handfoot.rl import CANCEL, HandFootEnv, IllegalAction, action_text


def group_ids(group: Group) -> list[int]:
    """Atomic ids that stage ``group``: a three-card group, then one-card groups (naturals first)."""
    naturals, jokers, deuces = group_counts(group)
    rank = group.rank
    if rank == C.WILD_RANK:
        first = (0, min(jokers, 3), 3 - min(jokers, 3))
    elif naturals >= 3:
        first = (3, 0, 0)
    else:
        first = (2, 1, 0) if jokers else (2, 0, 1)
    ids = [triple_id(rank, *first)]
    left = (naturals - first[0], jokers - first[1], deuces - first[2])
    ids += [single_id(rank, rank)] * left[0] + [single_id(rank, C.JOKER)] * left[1]
    ids += [single_id(rank, C.DEUCE)] * left[2]
    return ids


def play_random_until(env: HandFootEnv, rng: random.Random, wanted: object, limit: int = 3000) -> Move | None:
    """Random masked play until ``wanted(env)`` returns a compound opening to try, or None."""
    for _ in range(limit):
        if env.game.finished:
            return None
        found = wanted(env)
        if isinstance(found, Move):
            return found
        mask = env.action_mask(env.game.state.to_move)
        legal = [a for a in np.flatnonzero(mask) if a != CANCEL] or [CANCEL]
        env.step(int(legal[rng.randrange(len(legal))]))
    return None


def compound_opening(phase: Phase, action: Action) -> object:
    def wanted(env: HandFootEnv) -> Move | None:
        state = env.game.state
        if state.phase is not phase or env.opening.groups:
            return None
        for move in opening_moves(state):
            extra = move.groups[1:] if action is Action.PICKUP else move.groups
            if move.action is action and len(extra) >= (1 if action is Action.PICKUP else 2):
                held = state.hand_cards[state.to_move]
                named = Counter(c for g in move.groups for c in g.cards)
                if all(held[card] >= count for card, count in named.items()):  # no card hidden in the pile
                    return move
        return None

    return wanted


@pytest.mark.parametrize(("rules", "players"), [("kitchen-table", 4), ("family", 3), ("in-laws", 4)])
def test_an_opening_of_several_melds_is_reachable_by_staging(rules: str, players: int) -> None:
    """The engine's compound openings (several groups, no id) are played through atomic actions."""
    opened = 0
    for seed in range(60):
        env = HandFootEnv(rules, players)
        env.reset(seed=seed)
        move = play_random_until(env, random.Random(seed), compound_opening(Phase.PLAY, Action.MELD))
        if move is None:
            continue
        state = env.game.state
        seat, owner = state.to_move, state.seating.owner_of[state.to_move]
        table_before = sum(len(m.cards) for m in state.melds)
        for group in move.groups:
            for action in group_ids(group):
                assert env.action_mask(seat)[action], (
                    f"{action_text(action)} not offered while staging {move}"
                )
                env.step(action)
        state = env.game.state
        assert state.down[owner], f"staging {move} did not open"
        assert sum(len(m.cards) for m in state.melds) - table_before == sum(len(g.cards) for g in move.groups)
        opened += 1
        if opened >= 3:
            return
    pytest.fail(f"only {opened} compound openings found under {rules}")


def test_taking_the_pile_with_an_opening_of_several_melds() -> None:
    """kitchen-table lets a side that has not opened take the pile with its opening: stage, then pick up."""
    for seed in range(200):
        env = HandFootEnv("kitchen-table", 4)
        env.reset(seed=seed)
        move = play_random_until(env, random.Random(seed), compound_opening(Phase.DRAW, Action.PICKUP))
        if move is None:
            continue
        state = env.game.state
        seat, owner = state.to_move, state.seating.owner_of[state.to_move]
        for group in move.groups[1:]:
            for action in group_ids(group):
                assert env.action_mask(seat)[action]
                env.step(action)
        pickup = PICKUP_BASE + len(move.groups[0].cards)
        assert env.action_mask(seat)[pickup], "the compound pickup is not offered"
        env.step(pickup)
        assert env.game.state.down[owner] and env.game.state.phase is Phase.PLAY
        return
    pytest.fail("no compound pickup opening found in 200 games")


def test_cancel_returns_the_staged_cards_and_nothing_is_played() -> None:
    env = HandFootEnv("kitchen-table", 4)
    for seed in range(50):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(500):
            state = env.game.state
            seat = state.to_move
            mask = env.action_mask(seat)
            if state.phase is Phase.PLAY and env.opening.seat == seat:
                staging = [a for a in np.flatnonzero(mask) if a >= 32 and a not in env.game.legal_ids()]
                if staging:
                    moves_before = state.move_count
                    hand_before = list(state.hands[seat])
                    env.step(int(staging[0]))
                    if env.opening.groups:
                        assert env.action_mask(seat)[CANCEL]
                        discards = [a for a in range(8, 23) if env.action_mask(seat)[a]]
                        assert not discards, "discarding is not offered while groups are staged"
                        env.step(CANCEL)
                        assert env.game.state.hands[seat] == hand_before
                        assert env.game.state.move_count == moves_before
                        assert not env.opening.groups and env.action_mask(seat)[8:23].any()
                        return
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            if env.game.finished:
                break
    pytest.fail("nothing staged in 50 games")


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = HandFootEnv("kitchen-table", 4)
    env.reset(seed=1)
    agent = env.agent_selection
    env._cumulative_rewards[agent] = 5.0  # as if a hand had just been scored
    before = env.observe(agent)["observation"].copy()
    for refused in (8 + C.ACE, -1, 10_000):  # a discard before drawing; numbers out of range
        with pytest.raises(IllegalAction, match="legal actions: \\[0"):
            env.step(refused)
    assert np.array_equal(env.observe(agent)["observation"], before) and env.agent_selection == agent
    assert env.last()[1] == 5.0 and env.game.state.move_count == 0
    with pytest.raises(ValueError, match="players=7"):
        HandFootEnv("kitchen-table", 7)
    with pytest.raises(ValueError, match="reward='score'"):
        HandFootEnv("kitchen-table", reward="score")


@pytest.mark.parametrize("zero_sum", [False, True])
def test_hand_rewards_are_the_hand_scores(zero_sum: bool) -> None:
    env = HandFootEnv("marmot", 4, zero_sum=zero_sum)
    env.reset(seed=4)
    rng = random.Random(4)
    earned = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        earned[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    totals = env.game.totals
    seating = env.game.state.seating
    for seat, agent in enumerate(env.possible_agents):
        side = seating.side_of[seat]
        expected = (
            totals[side] - (sum(totals) - totals[side]) / (len(totals) - 1) if zero_sum else totals[side]
        )
        assert earned[agent] == pytest.approx(expected)
    if zero_sum:
        assert sum(earned[env.possible_agents[s[0]]] for s in seating.side_seats) == pytest.approx(0)


def test_render_ansi_shows_the_table() -> None:
    env = HandFootEnv("kitchen-table", 4, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "seat 1 to move" in text and "stock" in text and "holds:" in text
