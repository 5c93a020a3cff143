"""The masked DQN baseline (``handfoot.rl.masked_dqn``, examples/train_dqn.py): its values and its
exploration keep to the mask, the example trains with --smoke against random bots and in self-play, and
the checkpoint shipped in examples/dqn/ loads, plays only legal actions and takes a tournament seat."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from handfoot.rl import SingleSeatEnv
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.layout import SIZE

torch = pytest.importorskip("torch", reason="the DQN baseline needs handfoot[train]")

from handfoot.rl.masked_dqn import MASKED, MaskedDQN, MaskObservation  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "examples" / "dqn" / "model.zip"
SINGLE_HAND = {"extends": "kitchen-table", "game_end": "hands", "hands_per_game": 1}


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_dqn", ROOT / "examples" / "train_dqn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_masked_hand(model: MaskedDQN, opponent: str, seed: int) -> int:
    """One hand of the deterministic policy, every action checked against the mask; the moves played."""
    env = MaskObservation(SingleSeatEnv(SINGLE_HAND, 2, opponents=opponent, illegal="raise"))
    obs, _ = env.reset(seed=seed)
    moves = 0
    while True:
        action, _ = model.predict(obs, deterministic=True)
        assert obs[SIZE + int(action)] == 1.0  # the mask the observation carries
        obs, _, terminated, truncated, _ = env.step(np.int64(action))
        moves += 1
        if terminated or truncated:
            return moves


def test_forbidden_actions_are_valued_below_every_legal_one() -> None:
    env = MaskObservation(SingleSeatEnv(SINGLE_HAND, 2))
    model = MaskedDQN("MaskedMlpPolicy", env, learning_starts=10, device="cpu", seed=1)
    obs, _ = env.reset(seed=1)
    obs, *_ = env.step(np.int64(np.flatnonzero(obs[SIZE:])[0]))  # drawn: a choice of melds and discards
    mask = obs[SIZE:]
    assert mask.sum() > 2
    values = model.q_net(torch.as_tensor(obs[None, :]))[0].detach().numpy()
    assert (values[mask == 0] == MASKED).all() and (values[mask == 1] > MASKED).all()
    over = np.concatenate([obs[:SIZE], np.zeros(NUM_ACTIONS, np.float32)])  # nothing legal: the end
    assert not model.q_net(torch.as_tensor(over[None, :])).detach().numpy().any()
    model.exploration_rate = 1.0  # exploring: a random action, always a legal one
    np.random.seed(0)
    chosen = {int(model.predict(obs, deterministic=False)[0]) for _ in range(50)}
    assert chosen <= set(np.flatnonzero(mask)) and len(chosen) > 1
    batch, _ = model.predict(np.stack([obs, obs]), deterministic=False)
    assert batch.shape == (2,) and all(mask[int(a)] for a in batch)


@pytest.mark.parametrize("opponent", ["random", "self"])
def test_training_example_smoke(tmp_path: Path, opponent: str) -> None:
    out = tmp_path / opponent
    example().main(["--smoke", "--opponent", opponent, "--out", str(out)])
    curve = json.loads((out / "curve.json").read_text())
    assert curve["settings"]["opponent"] == opponent
    assert [p["steps"] for p in curve["points"]] == [0, 400]
    for point in curve["points"]:
        assert 0 <= point["vs_random"] <= 1 and 0 <= point["vs_heuristic"] <= 1
    model = MaskedDQN.load(out / "model.zip", device="cpu")
    assert play_masked_hand(model, "random", seed=5) > 0


def test_the_shipped_checkpoint_plays_legal_hands_and_takes_a_seat() -> None:
    from handfoot.rules import preset
    from handfoot.sim.seats import check_seat, parse_seats
    from handfoot.sim.tournament import TournamentConfig, run_tournament

    assert SHIPPED.stat().st_size < 1_000_000  # small enough to keep in the repository
    model = MaskedDQN.load(SHIPPED, device="cpu")
    for seed in (1, 2):
        assert play_masked_hand(model, "heuristic", seed) > 0
    spec = f"policy:{SHIPPED}"
    check_seat(spec)
    config = TournamentConfig(
        preset("kitchen-table"), 2, parse_seats(f"{spec},random", 2), games=2, seed=3, single_hands=True
    )
    data = run_tournament(config).to_json()
    assert data["hands"] == 2 and data["capped"] == 0 and data["bot_errors"] == []
    assert data["sides"][0]["bots"] == [spec]
