"""benchmarks/bench_instructions.py, which counts the instructions the README quotes (a move of random
play, a step of the RL env), in its quick form: the same two processes under valgrind's callgrind and the
same printed line, for 3 hands (200 env steps). Only the line's shape and sense are checked, never a
count's size against another run."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.services import in_ci

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_instructions.py"
LINE = re.compile(
    r"^(?P<what>play|rl), pure Python, \S+ at (?P<path>.+): (?P<spent>[\d,]+) instructions for "
    r"(?P<units>[\d,]+) (?P<unit>move|step)s \((?P<each>[\d,]+) a (?P=unit)\); "
    r"the process without the workload: (?P<base>[\d,]+)$"
)


def number(text: str) -> int:
    return int(text.replace(",", ""))


def need_valgrind() -> None:
    """Skip (fail in CI, where `make test` installs it) when valgrind is not installed."""
    if shutil.which("valgrind") is None:
        message = "valgrind is not installed (Debian: apt-get install valgrind; `make test` installs it)"
        if in_ci():
            pytest.fail(f"{message}: CI needs it", pytrace=False)
        pytest.skip(message)


@pytest.mark.parametrize(("what", "unit"), [("play", "move"), ("rl", "step")])
def test_quick_count_of_each_workload(what: str, unit: str) -> None:
    need_valgrind()
    command = [sys.executable, str(SCRIPT), "--quick", "--what", what]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found = LINE.match(done.stdout.strip().splitlines()[-1])
    assert found is not None, done.stdout
    assert found["what"] == what and found["unit"] == unit
    assert Path(found["path"]) == ROOT / "src"
    spent, units, each = number(found["spent"]), number(found["units"]), number(found["each"])
    if what == "rl":
        assert units == 200  # the quick form's steps, all taken
    else:
        assert units > 3 * 4  # 3 whole hands at four seats: many moves each
    assert spent > 0 and each > 0 and number(found["base"]) > 0
    assert each == round(spent / units)


def test_missing_valgrind_is_said_not_counted() -> None:
    bare = {"PATH": str(Path(sys.executable).parent)}  # no valgrind on this PATH
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"], capture_output=True, text=True, env=bare, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "valgrind is not installed" in done.stderr


def test_quick_and_count_together_are_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--count", "5"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "--quick or --count" in done.stderr
