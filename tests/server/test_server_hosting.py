"""Hosting: the public address links are built from (``--public-url`` / ``HANDFOOT_PUBLIC_URL``), the
startup line once the server listens, and one clear line for a port in use."""

from __future__ import annotations

import re
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from handfoot.cli import app
from handfoot.server.process import run
from handfoot.server.process.run import address_to_open, startup_line
from handfoot.server.settings import Settings, SettingsError, load_settings, public_origin
from helpers.server import free_port, running_server

TWO_SEATS = {"preset": "kitchen-table", "players": 2, "public": True}  # a watch link without a key


@pytest.mark.parametrize(
    ("raw", "origin"),
    [
        ("https://cards.example.org", "https://cards.example.org"),
        ("  https://Cards.Example.ORG/  ", "https://cards.example.org"),
        ("https://cards.example.org:443/", "https://cards.example.org"),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("HTTP://localhost:80", "http://localhost"),
        ("https://cards.example.org:8443", "https://cards.example.org:8443"),
        ("http://[::1]:8000/", "http://[::1]:8000"),
        ("https://kärten.example", "https://xn--krten-gra.example"),
        ("", ""),
    ],
)
def test_public_url_is_kept_as_the_origin_a_browser_sends(raw: str, origin: str) -> None:
    assert public_origin(raw) == origin
    assert Settings(data_dir=Path("d"), public_url=raw).public_url == origin


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("cards.example.org", "is not an http:// or https:// address"),
        ("ftp://cards.example.org", "is not an http:// or https:// address"),
        ("https:/cards.example.org", "is not an http:// or https:// address"),
        ("https://cards.example.org/handfoot", "has a path (/handfoot)"),
        ("https://cards.example.org/?x=1", "has a query"),
        ("https://cards.example.org/#top", "has a fragment"),
        ("https://me:secret@cards.example.org", "has a user name"),
        ("https://cards.example.org:99999", "port that is not a number from 1 to 65535"),
        ("https://cards.example.org:0", "has port 0"),
        ("https://", "has no host"),
        ("https://cards example.org", "malformed host name"),
        ("https://-cards.example.org", "malformed host name"),
        ("http://[not-an-ip]/", "cannot be read as an address"),
    ],
)
def test_a_bad_public_url_is_refused_saying_what_is_allowed(raw: str, says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        public_origin(raw)
    message = str(caught.value)
    assert says in message and repr(raw) in message
    assert "allowed: an http:// or https:// address" in message
    with pytest.raises(SettingsError):
        load_settings({"HANDFOOT_PUBLIC_URL": raw})


def test_public_url_from_the_environment_or_the_argument() -> None:
    assert load_settings({}).public_url == ""
    env = {"HANDFOOT_PUBLIC_URL": "https://cards.example.org/"}
    assert load_settings(env).public_url == "https://cards.example.org"
    assert load_settings(env, public_url="http://10.0.0.5:8000").public_url == "http://10.0.0.5:8000"
    assert load_settings(env, public_url="").public_url == ""


def test_serve_refuses_a_bad_public_url_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--data", str(tmp_path / "data"), "--public-url", "cards.example.org/play"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: public_url 'cards.example.org/play' is not an http://")
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "data").exists()  # nothing was made


def links(base: str, host: str | None = None) -> tuple[list[str], str]:
    """The invitation links and the watch link of a new two-seat table (asked under ``host`` if given)."""
    headers = {"Host": host} if host else {}
    created = httpx.post(f"{base}/api/tables", json=TWO_SEATS, headers=headers).json()
    return [invite["link"] for invite in created["invites"]], created["watch"]


def test_links_are_built_from_the_public_url(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, public_url="https://cards.example.org/")
    with running_server(settings) as base:
        invites, watch = links(base)
        table_id = watch.rsplit("/", 1)[1]
        assert watch == f"https://cards.example.org/watch/{table_id}"
        assert len(invites) == 2
        assert all(link.startswith(f"https://cards.example.org/play/{table_id}#seat=") for link in invites)


def test_without_a_public_url_links_use_the_address_the_page_was_opened_at(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as base:
        _, watch = links(base)
        assert watch.startswith(f"{base}/watch/")
        # Opened under another name (as a home-network address would be), links follow it.
        _, watch = links(base, "192.168.1.20:8000")
        assert watch.startswith("http://192.168.1.20:8000/watch/")


def test_settings_replace_keeps_the_public_url_checked(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert (
        replace(settings, public_url="https://Cards.Example.org/").public_url == "https://cards.example.org"
    )
    with pytest.raises(SettingsError):
        replace(settings, public_url="https://cards.example.org/game")


def test_a_port_in_use_is_one_clear_line_and_exit_status_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: port {port} on 127.0.0.1 is already in use (another handfoot server?); "
        "stop that program or choose another port with --port\n"
    )
    assert result.stdout == ""


def test_an_address_that_is_not_this_computers_is_one_clear_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path), "--host", "192.0.2.77"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: 192.0.2.77 is not an address of this computer; allowed:")
    assert len(result.stderr.splitlines()) == 1


@contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[str]:
    """``handfoot serve --port 0 --data TMP ARGS`` in a process of its own until the block ends; yields
    its startup line, read as soon as it is printed. Stopping it (Ctrl+C) must be clean."""
    command = [sys.executable, "-c", "from handfoot.cli import main; main()", "serve", "--port", "0"]
    command += ["--data", str(tmp_path), *args]
    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], 60)  # a guard against hanging, not a timing
        assert ready, "the server printed nothing"
        yield server.stdout.readline()
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl+C
        server.wait(30)
    assert "Application shutdown complete" in log.read_text()  # a clean stop, no traceback
    assert "Traceback" not in log.read_text()


def test_the_startup_line_comes_once_the_server_listens(tmp_path: Path) -> None:
    with serving(tmp_path, "--public-url", "https://cards.example.org") as line:
        found = re.fullmatch(
            r"handfoot is ready: open https://cards\.example\.org/  "
            r"\[listening on 127\.0\.0\.1:(\d+); data: (.+)\]\n",
            line,
        )
        assert found, line
        assert found[2] == str((tmp_path / "handfoot.db").resolve())
        # Printed after the socket accepts connections: asking right away is answered.
        health = httpx.get(f"http://127.0.0.1:{found[1]}/api/health")
        assert health.json()["ok"] is True


def test_on_the_home_network_the_printed_address_works_and_links_use_it(tmp_path: Path) -> None:
    with serving(tmp_path, "--host", "0.0.0.0") as line:
        pattern = r"handfoot is ready: open http://([^/: ]+):(\d+)/  \[listening on 0\.0\.0\.0:(\d+); .+\]\n"
        found = re.fullmatch(pattern, line)
        assert found, line
        assert found[1] == (run.network_address() or "localhost") and found[2] == found[3]
        printed = f"http://{found[1]}:{found[2]}"
        invites, watch = links(printed)
        assert watch.startswith(f"{printed}/watch/")
        assert all(link.startswith(f"{printed}/play/") for link in invites)


def test_where_to_open_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    data = Path("data")
    assert address_to_open(Settings(data_dir=data), 8000) == "http://localhost:8000/"
    public = Settings(data_dir=data, public_url="https://cards.example.org")
    assert address_to_open(public, 8000) == "https://cards.example.org/"
    # Listening everywhere: the network address, so that links made there work from the other devices.
    home = Settings(data_dir=data, host="0.0.0.0")
    monkeypatch.setattr(run, "network_address", lambda: "192.168.1.20")
    assert address_to_open(home, 8000) == "http://192.168.1.20:8000/"
    assert startup_line(home, 8000).startswith(
        "handfoot is ready: open http://192.168.1.20:8000/  [listening on 0.0.0.0:8000; data: "
    )
    monkeypatch.setattr(run, "network_address", lambda: None)
    assert address_to_open(home, 8000) == "http://localhost:8000/"
    assert address_to_open(Settings(data_dir=data, host="::1"), 8000) == "http://localhost:8000/"
    assert address_to_open(Settings(data_dir=data, host="fd00::5"), 8000) == "http://[fd00::5]:8000/"
    postgres = Settings(data_dir=data, database_url="postgresql://cards:secret@db/handfoot")
    assert "data: postgresql://cards:***@db/handfoot]" in startup_line(postgres, 8000)


def test_the_network_address_is_one_of_this_computers() -> None:
    address = run.network_address()
    if address is None:
        pytest.skip("this machine is on no network")
    with socket.socket() as sock:
        sock.bind((address, 0))  # only an address of this computer can be bound


def test_a_database_that_cannot_be_opened_is_one_clear_line(tmp_path: Path) -> None:
    nowhere = f"postgresql://cards:secret@127.0.0.1:{free_port()}/handfoot"
    result = CliRunner().invoke(
        app, ["serve", "--data", str(tmp_path), "--port", "0", "--database-url", nowhere]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"error: cannot open the database {nowhere.replace('secret', '***')}: connection failed:"
    )
    assert len(result.stderr.splitlines()) == 1 and "secret" not in result.stderr
