"""benchmarks/fault_server.py, which makes the README's figure of two server processes on PostgreSQL and
Redis with one killed (SIGKILL) every few seconds, in its quick form: the kill phase with two processes,
two tables of people and one with a bot for 8 s, one kill every 3 s. It still plays over real WebSockets
through whichever process is alive and looks every acknowledged move up in the database; the printed
figures' shape and sense are checked (no acknowledged move lost), never a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "fault_server.py"
KILLS = {
    "seconds",
    "processes",
    "tables",
    "bot_tables",
    "kills",
    "moves_acknowledged",
    "moves_lost",
    "moves_stored_differently",
    "reconnects",
    "refused_stale",
    "recovery_s_people_median",
    "recovery_s_people_max",
    "recovery_s_bots_median",
    "recovery_s_bots_max",
}

pytest_plugins = ["helpers.services"]


def results(stdout: str) -> dict[str, Any]:
    """The JSON document the script prints after the phases' lines (it starts at a line ``{``)."""
    lines = stdout.splitlines()
    start = lines.index("{")
    end = len(lines) - 1 - lines[::-1].index("}")
    found: dict[str, Any] = json.loads("\n".join(lines[start : end + 1]))
    return found


def test_quick_kills_lose_no_acknowledged_move(postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    # The script makes (and drops) a database of its own from the one it is given.
    admin = make_url(postgres_url).set(drivername="postgresql").render_as_string(hide_password=False)
    command = [sys.executable, str(SCRIPT), "--quick", "--only", "kills"]
    command += ["--postgres-url", admin, "--redis-url", redis_url]
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # the servers' logs and data
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    found = results(done.stdout)
    assert set(found) == {"kills"}
    kills = found["kills"]
    assert set(kills) == KILLS
    assert kills["processes"] == 2 and kills["tables"] == 2 and kills["bot_tables"] == 1
    assert kills["kills"] >= 1
    assert kills["moves_acknowledged"] > 0
    assert kills["moves_lost"] == 0 and kills["moves_stored_differently"] == 0
    people = kills["recovery_s_people_median"]  # play resumed on the tables of the killed process
    assert people is not None and 0 <= people <= kills["recovery_s_people_max"]
