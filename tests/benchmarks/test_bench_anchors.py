"""benchmarks/bench_anchors.py: the driver runs handfoot's candidates and reports each as a spread of rates;
ratios are paired round by round. The anchors themselves need their own environment (make bench-anchors)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_anchors  # noqa: E402


def test_quick_run_of_handfoot_alone_measures_both_figures(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_anchors.py"),
            "--quick",
            "--only",
            "handfoot",
            "--json",
            "--compiled",
            str(tmp_path / "no-build"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = {(row["figure"], row["name"]): row for row in json.loads(done.stdout)["rows"]}
    for figure in ("play", "rl"):
        pure = rows[(figure, "handfoot pure")]
        assert pure["per_cpu_second"]["median"] > 0
        compiled = rows[(figure, "handfoot compiled")]
        assert "mypyc" in compiled["error"], "an empty build folder is reported, not measured as compiled"


def test_ratios_are_paired_by_round_and_the_anchor_is_one() -> None:
    mine = bench_anchors.Candidate("play", "mine", ("x",))
    anchor = bench_anchors.Candidate("play", "anchor", ("y",), anchor=True)
    results = [
        bench_anchors.Result(mine, [10.0, 30.0, 20.0]),
        bench_anchors.Result(anchor, [5.0, 10.0, 20.0]),
    ]
    rows = {row["name"]: row for row in bench_anchors.summary(results)}
    assert rows["mine"]["ratio_to_anchor"] == {"median": 2.0, "min": 1.0, "max": 3.0}
    assert rows["anchor"]["ratio_to_anchor"]["median"] == 1.0
    text = bench_anchors.table(bench_anchors.summary(results), 3, 1.0)
    assert "2.00 [1.00, 3.00]" in text and "1.00 (the anchor)" in text
