"""The learning example with --smoke: MaskablePPO trains in the single-seat wrapper for a few hundred
steps, evaluates against the random and the heuristic bot (first before training, at step 0), and writes
its curve, plot and model into the folder it is given, which a fresh process loads and plays."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def test_training_example_smoke(tmp_path: Path) -> None:
    path = ROOT / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_example", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "run"
    example.main(["--smoke", "--out", str(out)])
    points = json.loads((out / "curve.json").read_text())
    assert points[0]["steps"] == 0 and points[-1]["steps"] >= 300
    assert [p["steps"] for p in points] == sorted({p["steps"] for p in points})  # no point twice
    for point in points:
        assert 0 <= point["vs_random"] <= 1 and 0 <= point["vs_heuristic"] <= 1
    assert (out / "curve.png").stat().st_size > 10_000
    assert not Path(example.DEFAULT_OUT).resolve().is_relative_to(ROOT)  # the default is outside the repo

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(out / "model.zip", device="cpu")
    env = example.make_env("random")
    obs, _ = env.reset(seed=1)
    mask = env.action_masks()
    action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert mask[int(np.asarray(action))]
    seat_saved_model(out / "model.zip")


def seat_saved_model(model: Path) -> None:
    """The saved model takes a seat of a tournament (``policy:PATH``) and plays whole legal hands."""
    from handfoot.rules import preset
    from handfoot.sim.seats import check_seat, parse_seats
    from handfoot.sim.tournament import TournamentConfig, run_tournament

    spec = f"policy:{model}"
    check_seat(spec)
    rules = preset("kitchen-table")
    config = TournamentConfig(rules, 2, parse_seats(f"{spec},random", 2), games=2, seed=4, single_hands=True)
    data = run_tournament(config).to_json()
    assert data["hands"] == 2 and data["capped"] == 0 and data["bot_errors"] == []
    assert data["sides"][0]["bots"] == [spec]
