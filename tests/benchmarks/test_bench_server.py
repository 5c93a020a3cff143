"""benchmarks/bench_server.py, which makes the README's server figures, in a quick form: two tables for a
second against a server it starts itself. It still plays over real WebSockets and prints the row the
figures quote (moves, latency percentiles, server CPU per move); only what is printed is checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = "tables moves moves/s p50 ms p99 ms max ms server-cpu-ms/move server-cpu client-cpu refused games"


def test_two_tables_for_a_second() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_server.py")]
    command += ["--tables", "2", "--seconds", "1", "--warmup", "0.5"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["tables", "moves"])
    assert " ".join(lines[header].split()) == COLUMNS
    row = lines[header + 1].split()
    assert row[0] == "2" and int(row[1]) > 0 and row[9] == "0"  # two tables played moves, none refused
