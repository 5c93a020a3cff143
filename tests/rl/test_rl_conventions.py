"""The RL conventions: reward kinds with one default in every environment, final totals in ``info``,
illegal actions ending the game with a penalty (PettingZoo's classic games' way), the global state,
cloning and pickling, Gymnasium ids, the versioned module, and render counting hands from 0."""

from __future__ import annotations

import inspect
import pickle
import random
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import handfoot.rl as rl
from handfoot import cards as C
from handfoot.rl import BatchEnv, HandFootEnv, HandFootParallelEnv, SingleSeatEnv, handfoot_v0
from handfoot.rl.aec import MAX_HANDS, NORMAL_SCALE, STATE_SIZE, side_rewards
from handfoot.rl.layout import KINDS, MAX_SEATS, SIZE
from handfoot.rules import PRESET_NAMES


def play_masked(
    env: HandFootEnv, rng: random.Random
) -> tuple[dict[str, float], dict[str, dict[str, object]]]:
    """Play the episode with random masked actions: each agent's summed rewards, and its last ``info``."""
    earned = dict.fromkeys(env.possible_agents, 0.0)
    final: dict[str, dict[str, object]] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        earned[agent] += reward
        if terminated or truncated:
            final[agent] = info
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return earned, final


def test_reward_kinds() -> None:
    assert side_rewards("points", [300, -50]) == [300.0, -50.0]
    assert side_rewards("zero_sum", [300, -50]) == [350.0, -350.0]
    assert side_rewards("zero_sum", [300, 0, 0]) == [300.0, -150.0, -150.0]
    assert side_rewards("win", [300, -50, 10]) == [1.0, -1.0, -1.0]
    assert side_rewards("win", [300, 300, 10]) == [0.0, 0.0, -1.0]  # a shared first place wins nothing


def test_every_environment_has_the_same_defaults() -> None:
    defaults = []
    names = ("reward", "reward_at", "reward_scale", "illegal", "illegal_penalty", "max_hands")
    for cls in (HandFootEnv, HandFootParallelEnv, SingleSeatEnv, BatchEnv):
        params = inspect.signature(cls.__init__).parameters
        defaults.append({name: params[name].default for name in names})
    expected = {
        "reward": "zero_sum",
        "reward_at": "hand",
        "reward_scale": 1.0,
        "illegal": "penalty",
        "illegal_penalty": -1.0,
        "max_hands": MAX_HANDS,
    }
    # the Parallel API alone replaces a forbidden action by a random legal one (docs/rl.md)
    assert defaults[1] == {**expected, "illegal": "random"}
    assert defaults[0] == defaults[2] == defaults[3] == expected
    for bad, message in (({"reward": "hand"}, "reward='hand'"), ({"reward_at": "turn"}, "reward_at='turn'")):
        with pytest.raises(ValueError, match=message):
            HandFootEnv(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("reward", "reward_at"), [("win", "game"), ("win", "hand"), ("points", "game")])
def test_rewards_and_the_final_totals_in_info(reward: str, reward_at: str) -> None:
    env = HandFootEnv("marmot", 4, reward=reward, reward_at=reward_at, illegal="raise")
    env.reset(seed=11)
    earned, final = play_masked(env, random.Random(11))
    game = env.game
    assert game.finished
    side_of = game.state.seating.side_of
    per_hand = [r.scores for r in game.results] if reward_at == "hand" else [game.totals]
    for seat, agent in enumerate(env.possible_agents):
        expected = sum(side_rewards(reward, scores)[side_of[seat]] for scores in per_hand)
        assert earned[agent] == pytest.approx(expected)
        info = final[agent]
        assert info["totals"] == list(game.totals) and info["side"] == side_of[seat]
        assert info["winner"] == game.winner and info["hands"] == len(game.results)


def test_an_illegal_action_ends_the_game_with_a_penalty_for_the_offender() -> None:
    env = HandFootEnv("kitchen-table", 4)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(8 + C.ACE)  # a discard before drawing
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards[offender] == -1.0 and env._cumulative_rewards[offender] == -1.0
    assert all(env.rewards[a] == 0.0 for a in env.agents if a != offender)
    assert env.infos[offender]["illegal_action"] == 8 + C.ACE
    assert all(not env.observe(a)["action_mask"].any() for a in env.agents)
    steps = 0
    for agent in env.agent_iter():  # every agent sees the end and leaves
        assert env.last()[2]
        env.step(None)
        steps += 1
        assert agent in env.possible_agents
    assert steps == 4 and env.agents == []
    scaled = HandFootEnv("kitchen-table", 4, reward_scale=0.001, illegal_penalty=-5.0)
    scaled.reset(seed=1)
    scaled.step(10_000)  # out of range
    assert scaled.rewards[offender] == -5.0  # the penalty is not scaled


def test_the_single_seat_env_ends_on_an_illegal_action_too() -> None:
    env = SingleSeatEnv("kitchen-table", 2, opponents="heuristic")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == -1.0 and info["illegal_action"] == illegal
    assert "totals" in info and "winner" in info
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_global_state_holds_every_seat_and_the_hidden_cards() -> None:
    env = HandFootEnv("kitchen-table", 4, illegal="raise")
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(60):
        state = env.state()
        assert state.shape == (STATE_SIZE,) and env.state_space.contains(state)
        for seat in range(4):
            assert np.array_equal(state[seat * SIZE : (seat + 1) * SIZE], env.observation_vector(seat))
        assert not state[4 * SIZE : MAX_SEATS * SIZE].any()  # no seats 4 and 5
        truth = env.game.state
        feet = state[MAX_SEATS * SIZE : MAX_SEATS * SIZE + MAX_SEATS * KINDS].reshape(MAX_SEATS, KINDS)
        assert [int(f.sum()) for f in feet[:4]] == [len(truth.feet[s]) for s in range(4)]
        stock = state[MAX_SEATS * (SIZE + KINDS) :][:KINDS]
        pile = state[MAX_SEATS * (SIZE + KINDS) + KINDS :]
        assert int(stock.sum()) == len(truth.stock) and int(pile.sum()) == len(truth.pile)
        legal = np.flatnonzero(env.action_mask(truth.to_move))
        env.step(int(legal[rng.randrange(len(legal))]))


def test_a_clone_and_a_pickled_copy_play_on_alone_and_alike() -> None:
    env = HandFootEnv("family", 3, illegal="raise")
    env.reset(seed=8)
    rng = random.Random(8)
    for _ in range(40):
        legal = np.flatnonzero(env.action_mask(env.game.state.to_move))
        env.step(int(legal[rng.randrange(len(legal))]))
    before = {a: env.observe(a)["observation"].copy() for a in env.agents}
    copies = [env.clone(), pickle.loads(pickle.dumps(env))]
    for other in copies:
        play_masked(other, random.Random(1))  # plays the clone to the end
        assert other.game.finished
    assert not env.game.finished
    assert all(np.array_equal(env.observe(a)["observation"], before[a]) for a in before)
    twins = [env.clone(), pickle.loads(pickle.dumps(env))]
    results = [play_masked(t, random.Random(2))[0] for t in [env, *twins]]
    assert results[0] == results[1] == results[2]
    assert env.game.totals == twins[0].game.totals == twins[1].game.totals
    single = SingleSeatEnv("kitchen-table", 2, opponents="heuristic")
    _, info = single.reset(seed=4)
    twin = single.clone()
    action = int(np.flatnonzero(info["action_mask"])[0])
    assert np.array_equal(single.step(action)[0], twin.step(action)[0])


def test_render_counts_hands_from_zero_as_the_observation_does() -> None:
    env = HandFootEnv("kitchen-table", 4, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and text.startswith("kitchen-table, hand 0, ")
    assert env.observe("seat_0")["observation"][rl.OFFSETS["hand_index"]][0] == 0


def test_gymnasium_ids_and_the_versioned_module() -> None:
    for preset in PRESET_NAMES:
        assert rl.env_id(preset) in gymnasium.registry
    made = gymnasium.make("handfoot/Family-v0", opponents="heuristic")
    assert isinstance(made.unwrapped, SingleSeatEnv) and made.unwrapped.env.rules.name == "family"
    obs, info = made.reset(seed=1)
    assert obs.shape == (SIZE,) and info["action_mask"].any()
    assert handfoot_v0.env().unwrapped.metadata["name"] == "handfoot_v0"
    assert isinstance(handfoot_v0.parallel_env(), HandFootParallelEnv)


def test_the_versioned_module_comes_with_the_package() -> None:
    """``handfoot.rl.handfoot_v0`` after ``import handfoot.rl`` alone, in a fresh interpreter."""
    code = "import handfoot.rl; print(handfoot.rl.handfoot_v0.env().unwrapped.metadata['name'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "handfoot_v0"


SINGLE_HANDS = {"extends": "kitchen-table", "game_end": "hands", "hands_per_game": 1}


@pytest.mark.parametrize("pick", ["first", "last"])
@pytest.mark.parametrize("rules", [*PRESET_NAMES, "single hands"])
def test_every_episode_of_a_deterministic_policy_ends(rules: str, pick: str) -> None:
    """The first or the last legal action, every time, with the defaults: the episode ends by the rules
    or, for a policy that never reaches the target score (the first legal action lays nothing down and
    loses points every hand), at the documented cap of ``MAX_HANDS`` hands, never at the move cap."""
    env = HandFootEnv(SINGLE_HANDS if rules == "single hands" else rules)
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert info["hands"] == len(env.game.results)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[0] if pick == "first" else legal[-1]))
    game = env.game
    assert env.agents == [] and env.max_moves is not None and env.moves < env.max_moves
    if not game.finished:
        assert len(game.results) == MAX_HANDS
        assert all(env.truncations.values()) and not any(env.terminations.values())
    if rules == "single hands":
        assert game.finished and len(game.results) == 1


def test_the_hand_cap_truncates_every_environment_alike() -> None:
    batch = BatchEnv(2, max_hands=1)
    batch.reset(seed=1)
    ended: list[int] = []
    while len(ended) < 2:
        actions = [int(np.flatnonzero(batch.action_masks[i])[0]) for i in range(2)]
        _, _, terminated, truncated, infos = batch.step(actions)
        for i in range(2):
            if terminated[i] or truncated[i]:
                assert truncated[i] and not terminated[i] and infos[i]["hands"] == 1
                ended.append(i)
    single = SingleSeatEnv("kitchen-table", 2, opponents="random", max_hands=1)
    _, info = single.reset(seed=2)
    over = cut = False
    while not (over or cut):
        _, _, over, cut, info = single.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert cut and not over and info["hands"] == 1
    for bad in (0, -3):
        with pytest.raises(ValueError, match=f"max_hands={bad}: use a positive number"):
            HandFootEnv(max_hands=bad)


def test_normal_rewards_count_points_in_thousands() -> None:
    """``reward_scale="normal"``: every reward in thousands of points (a hand's zero-sum reward a few
    units, on the scale of the -1 illegal-action penalty, which stays unscaled)."""
    plain = HandFootEnv("marmot", 4, illegal="raise")
    normal = HandFootEnv("marmot", 4, illegal="raise", reward_scale="normal")
    assert normal.reward_scale == NORMAL_SCALE == 0.001
    plain.reset(seed=11)
    normal.reset(seed=11)
    earned_plain, _ = play_masked(plain, random.Random(11))
    earned_normal, _ = play_masked(normal, random.Random(11))
    assert any(earned_plain.values())
    for agent, points in earned_plain.items():
        assert earned_normal[agent] == pytest.approx(points / 1000)
    with pytest.raises(ValueError, match="reward_scale='tiny': use a number, or 'normal'"):
        HandFootEnv(reward_scale="tiny")
    penalised = HandFootEnv(reward_scale="normal")
    penalised.reset(seed=1)
    offender = penalised.agent_selection
    penalised.step(10_000)
    assert penalised.rewards[offender] == -1.0
