"""benchmarks/bench_review.py, which makes docs/bots.md's hand-review tables (time per reviewed hand, the
planted bad moves found), in its quick form: one world per decision, one planted hand. It still reviews
every fixed hand and prints the figures the tables quote; only what is printed is checked, never a time."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_review  # noqa: E402


def test_review_times_of_the_fixed_hands(capsys: pytest.CaptureFixture[str]) -> None:
    bench_review.time_reviews(worlds=1)
    lines = capsys.readouterr().out.strip().splitlines()
    hands = sorted(path.stem for path in bench_review.FIXTURES.glob("*.json"))
    assert [line.split(":")[0] for line in lines] == hands
    for line in lines:
        figures = r"[\w-]+: \d+ decisions, \d+ judged on worlds, \d+ mistakes, \d+\.\d s CPU, \d+\.\d s wall"
        assert re.fullmatch(figures, line), line


def test_a_planted_bad_move_is_ranked(capsys: pytest.CaptureFixture[str]) -> None:
    bench_review.planted("wild", seeds=3, worlds=1, rounds=1)  # a hand without a wild to throw is skipped
    out = capsys.readouterr().out
    line = r"^seed \d: rank \d+ of \d+, cost -?\d+ \[-?\d+, -?\d+\], costly (?:True|False)$"
    ranked = re.findall(line, out, re.M)
    found = re.search(r"^wild: (\d) of (\d) planted moves among the three costliest$", out, re.M)
    assert found is not None and int(found[2]) == len(ranked) >= 1 and int(found[1]) <= len(ranked), out
