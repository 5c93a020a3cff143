"""The runners of bot programs (``simulate --seats cmd:...``, ``bot connect``) under faults, each with
real processes on loopback addresses:

- a bot that leaves a helper behind, in a session of its own, holding the bot's output: the game ends
  as usual and the helper with it; SIGTERM and Ctrl-C stop the runner (143, 130) and the helper too;
- the database refusing while ``bot connect`` plays (PostgreSQL behind ``FaultProxy``): the move is sent
  again once the server can store it, not blamed on the bot;
- a second connection on the runner's seat that moves first: the runner's stale moves are dropped and
  it plays on to the game's end;
- the server stopped for 20 seconds and started again: the runner reconnects and finishes the game;
- a table that waits for the people invited to it before its first move: the runner's move is sent
  again once they are there, not blamed on the bot.

Each bound on time here only keeps a test from hanging: the helpers sleep ten minutes, the bounds are
far below that and far above what the runners take.
"""

from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from handfoot.server.settings import Settings
from helpers.server import PASS, REFUSE, FaultProxy, SeatClient, free_port, running_server

pytest_plugins = ["helpers.services"]

ROOT = Path(__file__).resolve().parents[2]
PY = shlex.quote(sys.executable)
TRICKY = ROOT / "tests/fixtures/bots/tricky_bot.py"
PY_BOT = f"{PY} {ROOT / 'examples/bots/first_legal.py'}"
ENV = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
HANG_GUARD = 120  # seconds: far below the helpers' ten minutes, far above a runner's few seconds


def tricky(mode: str, arg: str = "") -> str:
    return f"{PY} {TRICKY} {mode} {arg}".strip()


def left_running(mark: str) -> str:
    """The processes whose command line holds ``mark`` (empty when none is left)."""
    found = subprocess.run(["pgrep", "-f", mark], capture_output=True, text=True)
    return found.stdout.strip()


def gone(mark: str, within: float = 10.0) -> bool:
    """True once no process holds ``mark`` (a killed helper is reaped within a moment)."""
    deadline = time.monotonic() + within
    while left_running(mark):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@contextmanager
def cleanup(mark: str) -> Iterator[None]:
    """Kill whatever holds ``mark`` after the test, so a failing test leaves nothing behind."""
    try:
        yield
    finally:
        for pid in left_running(mark).split():
            with suppress(ProcessLookupError, PermissionError):
                os.kill(int(pid), signal.SIGKILL)


def handfoot(*args: str) -> subprocess.Popen[str]:
    """The runner, started as from a terminal: hearing Ctrl-C even where the tests run with SIGINT
    ignored (started in the background by a shell without job control), which a child inherits."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "handfoot", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def wait_for_line(process: subprocess.Popen[str], wanted: str, within: float = 60.0) -> list[str]:
    """Read ``process``'s stderr until a line holds ``wanted``; the lines read. Fails after ``within``
    seconds (a process that stalls without a word included). Reads a byte at a time from the pipe
    itself, so what comes after the line is left for ``communicate``."""
    assert process.stderr is not None
    fd = process.stderr.fileno()
    lines: list[str] = []
    line = b""
    deadline = time.monotonic() + within
    while True:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
        if byte == b"\n":
            lines.append(line.decode(errors="replace"))
            line = b""
            if wanted in lines[-1]:
                return lines
    raise AssertionError(f"no line with {wanted!r}; read: {lines}")


# --- a bot that leaves a helper behind -------------------------------------------------------------


def simulate_args(seat: str) -> list[str]:
    return ["simulate", "--seats", f"cmd:{seat},random", "--games", "1", "--hands", "--workers", "1", "-q"]


def test_simulate_ends_with_its_game_when_a_bot_leaves_a_helper_behind() -> None:
    mark = f"helper-{uuid.uuid4().hex}"
    with cleanup(mark):
        runner = handfoot(*simulate_args(tricky("escape", mark)), "--json", "--move-time", "5")
        out, err = finish(runner)
        assert runner.returncode == 0, err
        assert '"bot_errors": []' in out
        assert gone(mark), "the helper outlived the game"


@pytest.mark.parametrize(("stop", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_simulate_stops_on_a_signal_with_a_hung_bot_and_its_helper(stop: signal.Signals, status: int) -> None:
    mark = f"helper-{uuid.uuid4().hex}"
    with cleanup(mark):
        runner = handfoot(*simulate_args(tricky("escape-hang", mark)), "--move-time", "300")
        wait_for_line(runner, "hello answered")
        time.sleep(0.5)  # the runner is waiting for the first decision's answer
        runner.send_signal(stop)
        _, err = finish(runner, 30)
        assert runner.returncode == status, err
        assert "stopped by" in err
        assert gone(mark), "the helper outlived the runner"


def test_a_stopped_runner_tells_every_keeper_before_waiting_on_any() -> None:
    """``end_soon`` has the keeper end the bot and its helper without the runner waiting for it, so a
    runner stopped with several bots ends them all at the same time (``play_game`` does so when it is
    stopped); ``kill`` after it finds them gone."""
    from handfoot.protocol.process import BotProcess

    mark = f"helper-{uuid.uuid4().hex}"
    with cleanup(mark):
        bots = [BotProcess([sys.executable, str(TRICKY), "escape-hang", mark], quiet=True) for _ in range(3)]
        deadline = time.monotonic() + 30
        while len(left_running(mark).split()) < 9:  # three keepers, three bots, three helpers
            assert time.monotonic() < deadline, "the bots did not start their helpers"
            time.sleep(0.05)
        for bot in bots:
            bot.end_soon()
        assert gone(mark), "end_soon left the bots or their helpers running"
        for bot in bots:
            bot.kill()


# --- bot connect ---------------------------------------------------------------------------------


def new_table(
    base: str, seats: list[dict[str, Any]], hands: int = 1, wait_for_players: bool = False
) -> dict[str, Any]:
    body = {
        "preset": "kitchen-table",
        "options": {"game_end": "hands", "hands_per_game": hands},
        "players": len(seats),
        "seats": seats,
        "wait_for_players": wait_for_players,
    }
    created = httpx.post(f"{base}/api/tables", json=body, timeout=30)
    assert created.status_code == 201, created.text
    data: dict[str, Any] = created.json()
    return data


def summary(base: str, created: dict[str, Any]) -> dict[str, Any]:
    table_id = created["table"]["id"]
    answer = httpx.get(f"{base}/api/tables/{table_id}", headers={"X-Handfoot-Key": created["watch_key"]})
    data: dict[str, Any] = answer.json()
    return data


def joined(base: str, created: dict[str, Any], name: str) -> None:
    """Wait until seat 0 is connected under the bot's ``name`` (the runner's second hello)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        seat = summary(base, created)["seats"][0]
        if seat["name"] == name and seat["connected"]:
            return
        time.sleep(0.05)
    raise AssertionError(f"the runner never joined seat 0 as {name}")


def finish(runner: subprocess.Popen[str], within: float = HANG_GUARD) -> tuple[str, str]:
    """The runner's output once it ends; fails (killing it) if it has not ended ``within`` seconds. A
    process it left behind may hold its pipes: after a kill nothing more is read."""
    try:
        return runner.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        runner.kill()
        pytest.fail(f"the runner did not end within {within} s")


BOT_SEAT = [{"kind": "invite"}, {"kind": "bot", "bot": "random"}]
TWO_PEOPLE = [{"kind": "invite"}, {"kind": "invite"}]


def test_bot_connect_ends_with_its_game_when_a_bot_leaves_a_helper_behind(tmp_path: Path) -> None:
    mark = f"helper-{uuid.uuid4().hex}"
    with cleanup(mark), running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as base:
        created = new_table(base, BOT_SEAT)
        runner = handfoot("bot", "connect", created["invites"][0]["link"], "--cmd", tricky("escape", mark))
        _, err = finish(runner)
        assert runner.returncode == 0, err
        assert summary(base, created)["finished"] is True
        assert gone(mark), "the helper outlived the game"


@pytest.mark.parametrize(("stop", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_bot_connect_stops_on_a_signal_with_a_hung_bot_and_its_helper(
    tmp_path: Path, stop: signal.Signals, status: int
) -> None:
    mark = f"helper-{uuid.uuid4().hex}"
    with cleanup(mark), running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as base:
        created = new_table(base, BOT_SEAT)
        link = created["invites"][0]["link"]
        runner = handfoot("bot", "connect", link, "--cmd", tricky("escape-hang", mark), "--move-time", "300")
        wait_for_line(runner, "plays seat 0")
        time.sleep(0.5)
        runner.send_signal(stop)
        _, err = finish(runner, 30)
        assert runner.returncode == status, err
        assert "stopped by" in err
        assert gone(mark), "the helper outlived the runner"


def play_seat(client: SeatClient, seat: int, until: float, moves: int) -> int:
    """Play ``seat`` through ``client`` (draw, then the first discard offered, at once) until it has
    made ``moves`` moves or ``until`` (a monotonic time) passes; the moves made."""
    made = 0
    while made < moves and time.monotonic() < until:
        try:
            message = client.recv(timeout=max(0.1, until - time.monotonic()))
        except TimeoutError:
            break
        if message["type"] != "state" or message["table"]["finished"]:
            continue
        if message["view"]["to_move"] != seat or not message["legal"]:
            continue
        client.move(choose(message["legal"]), message["version"])
        made += 1
    return made


def choose(legal: list[str]) -> str:
    """Draw, else the first discard offered, else the first move."""
    return "draw" if "draw" in legal else next((m for m in legal if m.startswith("discard ")), legal[0])


def play_turn(client: SeatClient, seat: int) -> dict[str, Any]:
    """Play ``seat``'s whole turn through ``client``, each move at once; the state after it."""
    state = client.latest_state()
    while not state["table"]["finished"] and state["view"]["to_move"] == seat and state["legal"]:
        version = state["version"]
        client.move(choose(state["legal"]), version)
        state = client.until(lambda m, v=version: m["type"] == "state" and m["version"] > v, timeout=30)
    return state


def test_a_second_connection_on_the_seat_moving_first_is_not_the_bots_fault(tmp_path: Path) -> None:
    """A browser tab (here a test client) on the runner's seat plays each of its turns at once; the
    runner's slow bot answers later, when seat 1 (a person who takes two seconds) is to move, so each
    of the runner's moves is refused as not its turn (rule ``turn``)."""
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0)
    with running_server(settings) as base, ExitStack() as stack:
        created = new_table(base, TWO_PEOPLE)
        invite, other_invite = created["invites"]
        table_id = created["table"]["id"]
        runner = handfoot("bot", "connect", invite["link"], "--cmd", tricky("slow", "0.8"))
        stack.callback(runner.kill)
        joined(base, created, "tricky-slow")
        tab = SeatClient(base, table_id, invite["token"])
        stack.callback(tab.close)
        other = SeatClient(base, table_id, other_invite["token"])
        stack.callback(other.close)
        for _ in range(5):
            play_turn(tab, 0)
            time.sleep(2)  # the runner's move for seat 0 arrives now, on seat 1's turn
            play_turn(other, 1)
        host = SeatClient(base, table_id, host=created["host"]["key"])
        stack.callback(host.close)
        host.send({"type": "host", "action": "end"})
        _, err = finish(runner)
        assert runner.returncode == 0, err
        assert "bot error" not in err and "the game is over" in err
        assert "the table moved on first" in err and "It is not your turn" in err


def pg_target(postgres_url: str) -> tuple[str, int]:
    parsed = make_url(postgres_url)
    return parsed.host or "127.0.0.1", parsed.port or 5432


def test_bot_connect_sends_a_move_again_when_the_database_refused_it(
    tmp_path: Path, postgres_url: str
) -> None:
    """PostgreSQL refuses for 3 s just as the runner's seat is to move: its move is refused with rule
    ``server``; the runner sends it again once the database is back and plays on."""
    with FaultProxy(pg_target(postgres_url)) as proxy, ExitStack() as stack:
        settings = Settings(
            data_dir=tmp_path, database_url=proxy.url(postgres_url), port=0, bot_delay=0.0, rate_limit=0
        )
        base = stack.enter_context(running_server(settings))
        created = new_table(base, TWO_PEOPLE)
        table_id = created["table"]["id"]
        runner = handfoot("bot", "connect", created["invites"][0]["link"], "--cmd", tricky("slow", "0.5"))
        stack.callback(runner.kill)
        joined(base, created, "tricky-slow")
        other = SeatClient(base, table_id, created["invites"][1]["token"])
        stack.callback(other.close)
        other.send({"type": "sync"})
        deadline = time.monotonic() + 60
        while True:  # play seat 1 until seat 0 (the runner) is to move
            state = other.state(timeout=max(0.1, deadline - time.monotonic()))
            if state["view"]["to_move"] == 0 or time.monotonic() > deadline:
                break
            if state["legal"]:
                other.move(choose(state["legal"]), state["version"])
        proxy.set(REFUSE)  # the runner's bot answers half a second later: its move cannot be stored
        time.sleep(3)
        proxy.set(PASS)
        assert play_seat(other, 1, time.monotonic() + 60, 4) == 4  # the runner played its turns between
        host = SeatClient(base, table_id, host=created["host"]["key"])
        stack.callback(host.close)
        host.send({"type": "host", "action": "end"})
        _, err = finish(runner)
        assert runner.returncode == 0, err
        assert "could not take the move" in err and "bot error" not in err


def test_bot_connect_outlasts_a_server_restart_of_20_seconds(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=free_port(), bot_delay=0.0, rate_limit=0)
    with ExitStack() as stack:
        with running_server(settings) as base:
            created = new_table(base, BOT_SEAT)
            runner = handfoot(
                "bot", "connect", created["invites"][0]["link"], "--cmd", tricky("slow", "0.05")
            )
            stack.callback(runner.kill)
            wait_for_line(runner, "plays seat 0")
            deadline = time.monotonic() + 60
            while summary(base, created)["version"] < 6 and time.monotonic() < deadline:
                time.sleep(0.05)
        time.sleep(20)  # the server is down
        with running_server(replace(settings)) as base:
            _, err = finish(runner)
            assert runner.returncode == 0, err
            assert "reconnect" in err and "the game is over" in err
            assert summary(base, created)["finished"] is True


def test_bot_connect_waits_with_a_table_that_waits_for_its_invited_people(tmp_path: Path) -> None:
    """A table made to wait for the people invited to it (as the lobby's are) refuses every move before
    the first with rule ``waiting`` while a person's seat is empty (docs/protocol.md, "Before the first
    move"): the runner's move then waits with the table and is played once the person comes."""
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0)
    with running_server(settings) as base, ExitStack() as stack:
        created = new_table(base, TWO_PEOPLE, wait_for_players=True)
        table_id = created["table"]["id"]
        first = summary(base, created)["to_move"]
        runner = handfoot("bot", "connect", created["invites"][first]["link"], "--cmd", PY_BOT)
        stack.callback(runner.kill)
        wait_for_line(runner, "waits for")
        time.sleep(1)
        assert runner.poll() is None, "the runner left the table while it waited"
        assert summary(base, created)["version"] == 0
        person = SeatClient(base, table_id, created["invites"][1 - first]["token"])
        stack.callback(person.close)
        assert play_seat(person, 1 - first, time.monotonic() + 60, 4) == 4  # the runner played between
        host = SeatClient(base, table_id, host=created["host"]["key"])
        stack.callback(host.close)
        host.send({"type": "host", "action": "end"})
        _, err = finish(runner)
        assert runner.returncode == 0, err
        assert "bot error" not in err and "the game is over" in err
