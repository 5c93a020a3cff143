"""Actions: openings of several melds are reachable by staging atomic groups; illegal actions are refused;
rewards add up to the hand scores."""

from __future__ import annotations

import random

import numpy as np
import pytest

from handfoot import cards as C
from handfoot.bots.plan import whole_openings
from handfoot.engine import Action, Move, Phase, move_id, steps_of
from handfoot.engine.moves import COMMIT_ID, STAGE_NEW_BASE
from handfoot.rl import CANCEL, NUM_ACTIONS, OFFSETS, HandFootEnv, IllegalAction, action_text
from handfoot.sim.trajectories import TrajectoryRecorder


def test_the_action_space_is_the_engines_ids() -> None:
    """The RL actions are the engine's move ids, cancel included: no action of the env's own."""
    from handfoot.engine.moves import CANCEL_ID, NUM_MOVE_IDS

    assert NUM_ACTIONS == NUM_MOVE_IDS and CANCEL == CANCEL_ID
    assert action_text(CANCEL) == "cancel" and action_text(COMMIT_ID) == "commit"


def play_random_until(env: HandFootEnv, rng: random.Random, wanted: object, limit: int = 3000) -> Move | None:
    """Random masked play (never a staging step) until ``wanted(env)`` returns an opening to stage."""
    for _ in range(limit):
        if env.game.finished:
            return None
        found = wanted(env)  # type: ignore[operator]
        if isinstance(found, Move):
            return found
        mask = env.action_mask(env.game.state.to_move)
        legal = [a for a in np.flatnonzero(mask) if a < STAGE_NEW_BASE] or list(np.flatnonzero(mask))
        env.step(int(legal[rng.randrange(len(legal))]))
    return None


def several_groups(phase: Phase, action: Action) -> object:
    def wanted(env: HandFootEnv) -> Move | None:
        state = env.game.state
        if state.phase is not phase or state.staged:
            return None
        for move in whole_openings(state):
            extra = move.groups[1:] if action is Action.PICKUP else move.groups
            if move.action is action and len(extra) >= (1 if action is Action.PICKUP else 2):
                return move
        return None

    return wanted


@pytest.mark.parametrize(("rules", "players"), [("kitchen-table", 4), ("family", 3), ("in-laws", 4)])
def test_an_opening_of_several_melds_is_reachable_by_staging(rules: str, players: int) -> None:
    """An opening of several groups is played through the engine's atomic steps: each offered in the
    mask when it comes (stage each group, then commit)."""
    opened = 0
    for seed in range(60):
        env = HandFootEnv(rules, players, illegal="raise")
        env.reset(seed=seed)
        move = play_random_until(env, random.Random(seed), several_groups(Phase.PLAY, Action.MELD))
        if move is None:
            continue
        state = env.game.state
        seat, owner = state.to_move, state.seating.owner_of[state.to_move]
        table_before = sum(len(m.cards) for m in state.melds)
        steps = steps_of(state, move)
        assert steps and move_id(steps[-1]) == COMMIT_ID
        for step in steps:
            action = move_id(step)
            assert env.action_mask(seat)[action], f"{action_text(action)} not offered while staging {move}"
            env.step(action)
        state = env.game.state
        assert state.down[owner], f"staging {move} did not open"
        assert sum(len(m.cards) for m in state.melds) - table_before == sum(len(g.cards) for g in move.groups)
        opened += 1
        if opened >= 3:
            return
    pytest.fail(f"only {opened} openings of several groups found under {rules}")


def test_taking_the_pile_with_an_opening_of_several_melds() -> None:
    """kitchen-table lets a side that has not opened take the pile with its opening: stage, then pick up."""
    for seed in range(200):
        env = HandFootEnv("kitchen-table", 4, illegal="raise")
        env.reset(seed=seed)
        move = play_random_until(env, random.Random(seed), several_groups(Phase.DRAW, Action.PICKUP))
        if move is None:
            continue
        state = env.game.state
        seat, owner = state.to_move, state.seating.owner_of[state.to_move]
        steps = steps_of(state, move)
        assert steps and steps[-1].action is Action.PICKUP
        for step in steps:
            assert env.action_mask(seat)[move_id(step)], f"{step} is not offered"
            env.step(move_id(step))
        assert env.game.state.down[owner] and env.game.state.phase is Phase.PLAY
        return
    pytest.fail("no pickup opening of several groups found in 200 games")


def test_cancel_returns_the_staged_cards_and_nothing_is_played() -> None:
    """A staged group taken back: the hand and the table as they were, discarding and the same staging
    offered again, and the next staging of the phase without a cancel (the turn cannot cycle)."""
    env = HandFootEnv("kitchen-table", 4, illegal="raise")
    for seed in range(50):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(500):
            state = env.game.state
            seat = state.to_move
            mask = env.action_mask(seat)
            staging = [a for a in np.flatnonzero(mask) if a >= STAGE_NEW_BASE]
            if state.phase is Phase.PLAY and staging:
                hand_before = list(state.hands[seat])
                melds_before = [list(m.cards) for m in state.melds]
                env.step(int(staging[0]))
                assert env.game.state.staged
                assert env.action_mask(seat)[CANCEL]
                discards = [a for a in range(8, 23) if env.action_mask(seat)[a]]
                assert not discards, "discarding is not offered while groups are staged"
                env.step(CANCEL)
                after = env.game.state
                assert (
                    after.hands[seat] == hand_before and [list(m.cards) for m in after.melds] == melds_before
                )
                assert not after.staged and after.cancelled
                assert env.action_mask(seat)[8:23].any()
                assert env.action_mask(seat)[int(staging[0])], "a cancel took away the staging offered"
                env.step(int(staging[0]))
                assert not env.action_mask(seat)[CANCEL], "a second staging of the phase offered a cancel"
                return
            legal = [a for a in np.flatnonzero(mask) if a < STAGE_NEW_BASE] or list(np.flatnonzero(mask))
            env.step(int(legal[rng.randrange(len(legal))]))
            if env.game.finished:
                break
    pytest.fail("nothing staged in 50 games")


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = HandFootEnv("kitchen-table", 4, illegal="raise")
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
    # family (002) and marmot (003) seat up to ten, but the observation has six seat slots (docs/rl.md)
    for name, players in (("family", 7), ("marmot", 10)):
        with pytest.raises(ValueError, match=f"players={players}: the observation has room for 6 seats"):
            HandFootEnv(name, players)
    with pytest.raises(ValueError, match="reward='score'"):
        HandFootEnv("kitchen-table", reward="score")


@pytest.mark.parametrize("zero_sum", [False, True])
def test_hand_rewards_are_the_hand_scores(zero_sum: bool) -> None:
    env = HandFootEnv("marmot", 4, reward="zero_sum" if zero_sum else "points", illegal="raise")
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


def test_recorded_trajectories_show_the_staged_groups_as_the_environment_does() -> None:
    """A decision recorded for training (``sim.trajectories``) has the observation the environment gives
    the seat, the groups it has staged included (the encoder reads them from the seat's view)."""
    env = HandFootEnv("kitchen-table", 4, illegal="raise")
    for seed in range(50):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(500):
            state = env.game.state
            seat = state.to_move
            staging = [a for a in np.flatnonzero(env.action_mask(seat)) if a >= STAGE_NEW_BASE]
            if state.phase is Phase.PLAY and staging and not env.game.finished:
                env.step(int(staging[0]))
                assert env.game.state.staged
                recorder = TrajectoryRecorder(env.game.rules, 4, [seat])
                recorder.decision(env.game, seat, env.game.seat_info(seat), env.legal_actions())
                shown = env.observe(env.agent_selection)["observation"]
                assert shown[OFFSETS["staged"]].sum() > 0
                assert np.array_equal(recorder.trajectory.observation[0], shown)
                return
            legal = [a for a in np.flatnonzero(env.action_mask(seat)) if a < STAGE_NEW_BASE]
            if env.game.finished or not legal:
                break
            env.step(int(legal[rng.randrange(len(legal))]))
    pytest.fail("no position with staging found")
