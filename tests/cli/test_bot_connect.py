"""``handfoot bot connect``: a bot program plays a seat of a live server table, listed by its name."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

from handfoot.protocol.link import TABLE_ID, LinkError, parse_seat_link
from handfoot.server.settings import Settings
from helpers.server import free_port, running_server

ROOT = Path(__file__).resolve().parents[2]
PY_BOT = f"{shlex.quote(sys.executable)} {ROOT / 'examples/bots/first_legal.py'}"
BAD_BOT = f"{shlex.quote(sys.executable)} {ROOT / 'tests/fixtures/bots/bad_bot.py'}"


def connect(link: str, command: str, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "handfoot", "bot", "connect", link, "--cmd", command, *extra]
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)


def new_table(base: str, hands: int = 1) -> dict[str, object]:
    body = {
        "preset": "kitchen-table",
        "options": {"game_end": "hands", "hands_per_game": hands},
        "players": 2,
        "seats": [{"kind": "invite"}, {"kind": "bot", "bot": "random"}],
    }
    created = httpx.post(f"{base}/api/tables", json=body)
    assert created.status_code == 201, created.text
    data: dict[str, object] = created.json()
    return data


def test_seat_links_are_read_and_bad_ones_refused() -> None:
    link = parse_seat_link("https://cards.example.org/play/abc_1#seat=tok12345")
    assert link.socket_url == "wss://cards.example.org/ws/tables/abc_1" and link.token == "tok12345"
    for bad, said in [
        ("cards.example.org/play/x#seat=t", "not a web address"),
        ("http://h/watch/x#key=k", "no /play/TABLE"),
        ("http://h/play/x", "no #seat=TOKEN"),
    ]:
        with pytest.raises(LinkError, match=said):
            parse_seat_link(bad)


JS_BOT = f"node {ROOT / 'examples/bots/first_legal.js'}"


@pytest.mark.parametrize(
    ("command", "name"), [(PY_BOT, "first-legal-py"), (JS_BOT, "first-legal-js")], ids=["python", "node"]
)
def test_a_program_plays_a_whole_game_at_a_live_table_under_its_name(
    tmp_path: Path, command: str, name: str
) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    with running_server(settings) as base:
        created = new_table(base)
        table_id = created["table"]["id"]  # type: ignore[index]
        link = created["invites"][0]["link"]  # type: ignore[index]
        done = connect(link, command, "--move-time", "10")
        assert done.returncode == 0, done.stderr
        assert f"{name} 1.0 by handfoot examples plays seat 0" in done.stderr
        summary = httpx.get(
            f"{base}/api/tables/{table_id}", headers={"X-Handfoot-Key": created["watch_key"]}
        ).json()  # type: ignore[index]
        assert summary["finished"] is True and len(summary["hands"]) == 1
        assert summary["seats"][0]["name"] == name  # the lobby lists the seat by the bot's name
        record = httpx.get(
            f"{base}/api/tables/{table_id}/record", headers={"X-Handfoot-Key": created["watch_key"]}
        )  # type: ignore[index]
        assert record.status_code == 200


def test_a_failing_program_leaves_the_seat_to_the_table(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    with running_server(settings) as base:
        created = new_table(base, hands=2)
        link = created["invites"][0]["link"]  # type: ignore[index]
        done = connect(link, f"{BAD_BOT} garbage")
        assert done.returncode == 1
        assert "bot error: seat 0, cmd:" in done.stderr
        assert (
            "(bad-garbage)" in done.stderr
            and "decision 3: wrote 'I think I will draw', which is not JSON" in done.stderr
        )
        assert "the seat is left to the table" in done.stderr
        summary = httpx.get(
            f"{base}/api/tables/{created['table']['id']}", headers={"X-Handfoot-Key": created["watch_key"]}
        ).json()  # type: ignore[index]
        assert summary["finished"] is False and summary["seats"][0]["connected"] is False


def test_a_bad_link_is_a_usage_error() -> None:
    done = connect("http://127.0.0.1:1/watch/x#key=y", PY_BOT)
    assert done.returncode == 2 and "no /play/TABLE" in done.stderr


# --- every bad link, port, table id, silent or garbled server: one line, exit 2 ---------------------

LONG_ID = "a" * 40


@pytest.mark.parametrize(
    ("link", "said"),
    [
        ("http://[::1/play/T#seat=tok12345", "is not a web address (Invalid IPv6 URL)"),
        ("http://127.0.0.1:99999/play/abc#seat=tok12345", "has a bad port"),
        ("http://127.0.0.1:abc/play/abc#seat=tok12345", "has a bad port"),
        ("http://127.0.0.1:0/play/abc#seat=tok12345", "has port 0"),
        (f"http://127.0.0.1:8000/play/{LONG_ID}#seat=tok12345", "is not a table id"),
        ("http://127.0.0.1:8000/play/a.b#seat=tok12345", "'a.b' is not a table id"),
        ("http://127.0.0.1:8000/play/abc#seat=kq1…", "the seat token is not one a server hands out"),
        ("http://user:pw@127.0.0.1:8000/play/abc#seat=tok12345", "holds a user name or password"),
    ],
)
def test_a_malformed_link_is_refused_in_one_line_before_connecting(link: str, said: str) -> None:
    with pytest.raises(LinkError, match=re.escape(said)) as caught:
        parse_seat_link(link)
    assert caught.value.status == 2 and "; allowed: " in str(caught.value)
    for command in (["bot", "connect", link, "--cmd", PY_BOT], ["play", link]):
        done = handfoot(*command)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and said in done.stderr
        assert "allowed: " in done.stderr


def test_the_server_and_the_runner_agree_on_table_ids() -> None:
    from handfoot.server.tables.table import is_table_id

    for text in ("abc", "k3J9xQ2aVbE", "a_b-c", "a" * 32, "a" * 33, "a.b", "", "a b", "ä", "a/b"):
        assert (TABLE_ID.fullmatch(text) is not None) == is_table_id(text), text


def handfoot(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "handfoot", *args]
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)


@contextmanager
def fake_server(answer: str | None) -> Iterator[str]:
    """A WebSocket server on loopback that answers a hello with ``answer`` (None: never answers); yields
    a seat link to it."""

    def handler(connection: ServerConnection) -> None:
        with suppress(ConnectionClosed):
            connection.recv(timeout=30)
            if answer is None:
                time.sleep(30)
            else:
                connection.send(answer)
                connection.recv(timeout=30)

    with serve(handler, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = server.socket.getsockname()[1]
        try:
            yield f"http://127.0.0.1:{port}/play/abc#seat=tok12345"
        finally:
            server.shutdown()


WELCOME = {"type": "welcome", "protocol": 1, "table_id": "abc", "seat": 0, "role": "player"}


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (None, "sent no welcome within 10 s"),
        ("nonsense", "which is not JSON"),
        ("[1, 2]", "a JSON list, not a message"),
        ('{"no": "type"}', "an object without a type"),
        ('{"type": "pong"}', "answered hello with 'pong', not a welcome"),
        (json.dumps(WELCOME | {"rules": {}}), "the server's welcome has no seating"),
        (json.dumps(WELCOME | {"rules": {}, "seating": {"side_of": [0, 1]}}), "has no seating.owner_of"),
        (json.dumps(WELCOME), "has no rules"),
        (
            '{"type": "error", "code": "no_table", "message": "there is no table \'abc\'"}',
            "the table said no",
        ),
    ],
    ids=[
        "silent",
        "garbage",
        "list",
        "untyped",
        "pong",
        "no-seating",
        "half-seating",
        "no-rules",
        "no-table",
    ],
)
def test_a_silent_or_garbled_server_is_refused_in_one_line(answer: str | None, said: str) -> None:
    with fake_server(answer) as link:
        done = handfoot("bot", "connect", link, "--cmd", PY_BOT)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and said in done.stderr
    assert "allowed: " in done.stderr


def test_a_table_that_cannot_be_reached_is_exit_1_in_one_line() -> None:
    done = handfoot(
        "bot", "connect", f"http://127.0.0.1:{free_port()}/play/abc#seat=tok12345", "--cmd", PY_BOT
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("error: cannot connect to ") and "allowed: " in done.stderr


@pytest.mark.parametrize("seconds", ["inf", "1e308", "nan", "0", "-1", "3601"])
def test_an_out_of_range_move_time_is_refused_by_both_runners(seconds: str) -> None:
    link = "http://127.0.0.1:8000/play/abc#seat=tok12345"
    for command in (
        ["bot", "connect", link, "--cmd", PY_BOT, "--move-time", seconds],
        ["simulate", "--seats", f"cmd:{PY_BOT},random", "--games", "1", "--move-time", seconds],
    ):
        done = handfoot(*command)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: --move-time ") and "allowed: " in done.stderr


def test_an_out_of_range_reconnect_time_is_refused() -> None:
    link = "http://127.0.0.1:8000/play/abc#seat=tok12345"
    done = handfoot("bot", "connect", link, "--cmd", PY_BOT, "--reconnect", "inf")
    assert done.returncode == 2 and done.stderr.startswith("error: --reconnect inf is out of range; allowed:")


def test_play_refuses_a_garbled_server_in_one_line() -> None:
    with fake_server('{"type": "welcome", "seat": 0}') as link:
        done = handfoot("play", link)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: the server's welcome has no rules; allowed: ")
