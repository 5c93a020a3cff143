"""simulate's progress per hand with its estimate, and stopping: Ctrl-C or SIGTERM leaves no worker
process behind, nor does a parent killed outright; a job that fails or a worker that dies ends the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from handfoot.rules import preset
from handfoot.rules.options import GameEnd
from handfoot.sim.progress import HandDone, ProgressTracker, Snapshot, clock
from handfoot.sim.tournament import TournamentConfig, parse_seats, run_tournament
from handfoot.sim.workers import Done, Report, WorkerError, process_map

# --- the estimate --------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def tracker(
    games: int, end: GameEnd = GameEnd.TARGET, now: Callable[[], float] | None = None
) -> ProgressTracker:
    return ProgressTracker(games, end, hands_per_game=4, target_score=10000, now=now or Clock())


def test_a_game_to_a_target_is_extrapolated_from_its_leader_and_unstarted_games_take_the_mean() -> None:
    t = tracker(3)
    assert t.hands_estimate() == 3  # nothing known: at least a hand a game
    t.hand_done(0, HandDone(hands=2, lead=5000))  # half way after 2 hands: about 4
    assert t.hands_estimate() == 12  # 4 + 2 games not started at 4
    t.game_done(0, 5)
    t.hand_done(1, HandDone(hands=1, lead=-300))  # no lead: one more hand at least
    assert t.hands_estimate() == 5 + 2 + 4  # ended 5, playing at least 2, one game at mean(5, 2)=3.5
    t.game_done(1, 3)
    t.game_done(2, 4)
    assert t.hands_estimate() == t.hands_done() == 12


def test_fixed_length_games_and_single_hands_are_known_exactly() -> None:
    assert tracker(5, GameEnd.HANDS).hands_estimate() == 20
    single = ProgressTracker(7, GameEnd.TARGET, 4, 10000, single_hands=True, now=Clock())
    assert single.hands_estimate() == 7


def test_time_left_is_the_hands_left_at_the_pace_so_far() -> None:
    now = Clock()
    t = tracker(2, GameEnd.HANDS, now)  # 8 hands
    assert t.snapshot().remaining is None
    now.t += 30
    t.hand_done(0, HandDone(1, 100))
    t.hand_done(1, HandDone(1, 100))
    snap = t.snapshot()
    assert (snap.hands_done, snap.hands_estimate, snap.elapsed, snap.remaining) == (2, 8, 30.0, 90.0)
    assert snap.text() == "2 of ~8 hands, games 0/2, 0:30 elapsed, ~1:30 left"
    assert clock(3725) == "1:02:05"


@pytest.mark.parametrize("workers", [1, 2])
def test_run_tournament_reports_every_hand(workers: int) -> None:
    config = TournamentConfig(preset("marmot"), 4, parse_seats("heuristic,random", 4), 3, seed=2)
    seen: list[Snapshot] = []
    summary = run_tournament(config, workers, seen.append)
    hands = sum(len(o.hand_scores) for o in summary.outcomes)
    assert hands == 12  # marmot: 4 hands a game
    assert len(seen) == hands + 3  # one after every hand and every game
    assert [s.hands_done for s in seen if s.games_done == 0][:1] == [1]
    assert max(s.hands_done for s in seen) == hands
    last = seen[-1]
    assert (last.games_done, last.hands_done, last.hands_estimate, last.remaining) == (3, 12, 12, 0.0)
    assert all(s.hands_estimate == 12 for s in seen)


# --- the worker processes ------------------------------------------------------------------------------


def square(index: int, report: Callable[[Any], None]) -> int:
    report(f"half of {index}")
    return index * index


def fail_on_two(index: int, report: Callable[[Any], None]) -> int:
    if index == 2:
        raise ValueError("two is not allowed")
    return index


def die(index: int, report: Callable[[Any], None]) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return index


def test_process_map_streams_reports_and_results() -> None:
    messages = list(process_map(square, range(5), 2))
    assert sorted(m.value for m in messages if isinstance(m, Done)) == [0, 1, 4, 9, 16]
    assert sorted(m.payload for m in messages if isinstance(m, Report)) == [f"half of {i}" for i in range(5)]


def test_a_failing_job_and_a_dying_worker_end_the_run_with_a_message() -> None:
    with pytest.raises(WorkerError, match="job 2 failed: ValueError: two is not allowed"):
        list(process_map(fail_on_two, range(4), 2))
    with pytest.raises(WorkerError, match=r"a worker process died \(signal 9\)"):
        list(process_map(die, range(2), 2))


def children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


Starter = Callable[..., tuple["subprocess.Popen[str]", set[int]]]


def wait_for(condition: Callable[[], bool], what: str, limit: float = 60.0) -> None:
    """Poll until ``condition`` holds (a bound so a broken build fails instead of hanging)."""
    end = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < end, f"gave up waiting: {what}"
        time.sleep(0.05)


def as_a_terminal_starts_it() -> None:
    """In the child, before it runs: Ctrl-C's SIGINT (and SIGQUIT) at their defaults, as a terminal starts
    a program. A test run started in the background (``make test &``, ``nohup``) has them ignored, a
    program inherits that, and Python then leaves Ctrl-C ignored, as it should for a background job."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


@pytest.fixture
def start_simulate() -> Iterator[Starter]:
    """Starts a long `handfoot simulate` on two workers and returns it once both workers run; whatever
    the test leaves running of it (a failed test) is killed at the end."""
    started: list[tuple[subprocess.Popen[str], set[int]]] = []

    def start(**kwargs: Any) -> tuple[subprocess.Popen[str], set[int]]:
        command = [sys.executable, "-m", "handfoot", "simulate", "--games", "40", "--workers", "2"]
        command += ["--seats", "ismcts:2000,heuristic", "--quiet"]
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=as_a_terminal_starts_it,
            **kwargs,
        )
        started.append((process, set()))
        wait_for(lambda: len(children(process.pid)) >= 2, "two worker processes")
        started[-1] = (process, children(process.pid))
        return started[-1]

    yield start
    for process, workers in started:
        for pid in (process.pid, *workers):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.communicate()


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


@needs_proc
def test_sigterm_stops_simulate_and_its_workers(start_simulate: Starter) -> None:
    process, workers = start_simulate()
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert err.strip() == "stopped by SIGTERM: no results" and out == ""
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to end")


@needs_proc
def test_ctrl_c_to_the_process_group_stops_everything_without_a_traceback(start_simulate: Starter) -> None:
    process, workers = start_simulate(start_new_session=True)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip() == "stopped by Ctrl-C: no results" and out == ""
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to end")


@needs_proc
def test_workers_of_a_killed_simulate_end_by_themselves(start_simulate: Starter) -> None:
    process, workers = start_simulate()
    process.kill()
    process.communicate(timeout=60)
    wait_for(lambda: not any(alive(pid) for pid in workers), "orphaned workers to exit")
