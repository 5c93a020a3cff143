"""Tournaments on a real Dask cluster: a scheduler and two worker processes started here over TCP on
127.0.0.1 (ephemeral ports), the same games and results as the local run for a seed, progress after every
hand, errors and a bad address reported, and every process stopped afterwards."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from handfoot.commands import simulate_cmd
from handfoot.rules import preset
from handfoot.sim.cluster import ClusterError, cluster_map, scheduler_address
from handfoot.sim.progress import Snapshot
from handfoot.sim.tournament import GameOutcome, TournamentConfig, parse_seats, run_tournament
from handfoot.sim.workers import Report, WorkerError

DASK = Path(sys.executable).parent / "dask"


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    # the workers import this module's test jobs (_fails, _slow) as the test process does
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    with log.open("wb") as out:
        return subprocess.Popen(
            [str(DASK), *args], stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and two single-threaded worker processes on 127.0.0.1; yields the address."""
    folder = tmp_path_factory.mktemp("dask")
    info = folder / "scheduler.json"
    common = ["--no-dashboard"]
    processes = [
        _start(
            ["scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(info), *common],
            folder / "scheduler.log",
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert processes[0].poll() is None, (folder / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for number in range(2):
            processes.append(
                _start(
                    [
                        *("worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--nworkers", "1"),
                        *("--local-directory", str(folder / f"w{number}"), *common),
                    ],
                    folder / f"worker{number}.log",
                )
            )
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)
    assert all(process.poll() is not None for process in processes)


def cli_app() -> typer.Typer:
    app = typer.Typer()
    simulate_cmd.register(app)
    return app


def without_times(data: dict[str, Any]) -> dict[str, Any]:
    """A summary's JSON without the decision times (which vary from run to run) and the provenance's
    record of when, how long and where it ran."""
    out = {k: v for k, v in data.items() if k != "decision_ms"}
    out["sides"] = [{k: v for k, v in side.items() if k != "decision_ms"} for side in data["sides"]]
    run = ("started", "seconds", "workers", "scheduler")
    out["provenance"] = {k: v for k, v in data["provenance"].items() if k not in run}
    return out


def strip_times(outcomes: list[GameOutcome]) -> list[tuple[object, ...]]:
    return [
        (o.index, o.totals, o.hand_scores, o.went_out, o.moves_per_hand, o.decision_count, o.capped)
        for o in outcomes
    ]


def test_the_cluster_plays_the_same_games_as_the_local_run(scheduler: str) -> None:
    config = TournamentConfig(preset("marmot"), 4, parse_seats("heuristic,random", 4), 5, seed=7)
    local = run_tournament(config, workers=1)
    snapshots: list[Snapshot] = []
    remote = run_tournament(config, progress=snapshots.append, scheduler=scheduler)
    assert strip_times(remote.outcomes) == strip_times(local.outcomes)
    assert without_times(remote.to_json()) == without_times(local.to_json())
    # progress after every hand (4 per game) and every game
    hands = sum(len(o.hand_scores) for o in local.outcomes)
    assert snapshots[-1].hands_done == hands and snapshots[-1].games_done == 5
    assert len(snapshots) > 5 and [s.hands_done for s in snapshots] == sorted(s.hands_done for s in snapshots)


def test_simulate_command_on_the_cluster(scheduler: str) -> None:
    args = ["--rules", "marmot", "--games", "3", "--seed", "2", "--json", "--quiet"]
    runner = CliRunner()
    local = runner.invoke(cli_app(), [*args, "--workers", "1"])
    remote = runner.invoke(cli_app(), [*args, "--scheduler", scheduler.removeprefix("tcp://")])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert without_times(json.loads(local.stdout)) == without_times(json.loads(remote.stdout))


def _fails(index: int, report: object) -> int:
    if index == 2:
        raise ValueError("no such card")
    return index


def test_a_failing_job_and_a_bad_address_are_reported(scheduler: str) -> None:
    with pytest.raises(WorkerError, match="job 2 failed: ValueError: no such card"):
        list(cluster_map(_fails, range(4), scheduler))
    with pytest.raises(ClusterError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        list(cluster_map(_fails, range(2), "tcp://127.0.0.1:9", connect_seconds=2))
    with pytest.raises(ValueError, match="tcp://HOST:PORT"):
        scheduler_address("http://example")
    result = CliRunner().invoke(cli_app(), ["--scheduler", "nowhere", "--games", "1"])
    assert result.exit_code == 2 and "tcp://HOST:PORT" in result.output


def _slow(folder: str, index: int, report: object) -> int:
    """A long job that writes down each hand it reports (so the test sees when it stops)."""
    for hand in range(200):
        time.sleep(0.05)
        report(hand)  # type: ignore[operator]
        Path(folder, f"job{index}").write_text(str(hand))
    return index


def test_closing_the_run_stops_its_jobs(scheduler: str, tmp_path: Path) -> None:
    messages = cluster_map(functools.partial(_slow, str(tmp_path)), range(2), scheduler)
    first = next(messages)
    assert isinstance(first, Report) and first.payload == 0
    time.sleep(0.5)
    messages.close()  # as on Ctrl-C or SIGTERM: the generator's cleanup calls the run off
    time.sleep(1.0)  # a job stops at its next report
    written = {p.name: p.read_text() for p in tmp_path.iterdir()}
    time.sleep(1.0)
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == written, "jobs went on after the run ended"
    assert all(int(hand) < 100 for hand in written.values())
