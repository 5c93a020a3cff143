"""benchmarks/bench_bots.py, which makes the strength and speed tables of docs/bots.md and the bot rows of
the README, in its quick form: each of its runs still plays and prints the figures those tables quote
(a bot's wins with a Wilson interval, score per hand and capped games; worlds per CPU second; hands per
second beside random play). Only what is printed is checked, never a speed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_bots  # noqa: E402

WINS = re.compile(r"([\w:]+) wins (\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\], score/hand -?\d+, .* capped (\d+)")


def test_heuristic_against_random_whole_games(capsys: pytest.CaptureFixture[str]) -> None:
    data = bench_bots.report("kitchen-table", "heuristic,random", 2, 1, hands=False)
    line = capsys.readouterr().out.strip().splitlines()[-1]
    found = WINS.search(line)
    assert found is not None, line
    assert found[1] == "heuristic" and float(found[3]) <= float(found[2]) <= float(found[4])
    assert int(found[5]) == data["capped"] and data["games"] == 2


def test_ismcts_against_the_heuristic_single_hands(capsys: pytest.CaptureFixture[str]) -> None:
    data = bench_bots.report("family", "ismcts:2,heuristic,heuristic", 1, 1, True, seed=1, players=3)
    line = capsys.readouterr().out.strip().splitlines()[-1]
    found = WINS.search(line)
    assert found is not None and found[1] == "ismcts:2", line
    assert "1 hands" in line and data["hands"] == 1


def test_search_time_and_speed_print_their_figures(capsys: pytest.CaptureFixture[str]) -> None:
    bench_bots.bench_search_time("2", hands=1)
    out = capsys.readouterr().out
    assert re.search(r"ismcts:2: \d+ searched decisions in 1 hands, .* \d+ worlds per CPU second", out), out
    rate = bench_bots.bench_speed(1, repeats=1)
    out = capsys.readouterr().out
    assert rate > 0 and "hands/s by CPU time" in out
    assert re.search(r"heuristic hands/s per 1,000 random moves/s: \d+\.\d\d", out), out
