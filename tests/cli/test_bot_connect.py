"""``handfoot bot connect``: a bot program plays a seat of a live server table, listed by its name."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from handfoot.protocol.link import LinkError, parse_seat_link
from handfoot.server.settings import Settings
from helpers.server import running_server

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
