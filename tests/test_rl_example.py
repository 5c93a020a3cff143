"""The learning example, run for a few hundred steps: MaskablePPO trains in the single-seat wrapper,
evaluates against the random and the heuristic bot, and writes its curve and plot."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_training_example_smoke(tmp_path: Path) -> None:
    path = ROOT / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_example", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "curve.png"
    example.main(
        [
            *("--steps", "300", "--n-steps", "128", "--batch-size", "64", "--eval-every", "256"),
            *("--eval-games", "2", "--out", str(out)),
        ]
    )
    points = json.loads(out.with_suffix(".json").read_text())
    assert points[0]["steps"] <= 1 and points[-1]["steps"] >= 300
    for point in points:
        assert 0 <= point["vs_random"] <= 1 and 0 <= point["vs_heuristic"] <= 1
    assert out.stat().st_size > 10_000
