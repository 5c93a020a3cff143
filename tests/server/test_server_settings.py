"""The server's settings: an argument, else the environment, else the default; negatives refused; the data
folder is the platform's folder for an application's data unless told."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from handfoot.server.settings import SettingsError, default_data_dir, load_settings

SECONDS = ["bot_delay", "away_seconds", "rate_limit", "idle_seconds"]
ENV = {
    "bot_delay": "HANDFOOT_BOT_DELAY",
    "away_seconds": "HANDFOOT_AWAY_SECONDS",
    "rate_limit": "HANDFOOT_RATE_LIMIT",
    "idle_seconds": "HANDFOOT_IDLE_SECONDS",
}


@pytest.mark.parametrize("name", SECONDS)
def test_a_negative_argument_is_refused_naming_the_setting(name: str) -> None:
    with pytest.raises(SettingsError, match=rf"^{name} is -2(\.0)?; allowed: zero"):
        load_settings({}, **{name: -2})


@pytest.mark.parametrize("name", SECONDS)
def test_the_argument_wins_over_the_environment(name: str) -> None:
    settings = load_settings({ENV[name]: "7"}, **{name: 3})
    assert getattr(settings, name) == 3.0
    assert getattr(load_settings({ENV[name]: "7"}), name) == 7.0


@pytest.mark.parametrize("name", SECONDS)
def test_a_negative_environment_value_is_refused(name: str) -> None:
    with pytest.raises(SettingsError, match=rf"^{ENV[name]} is '-1'; allowed: zero or more"):
        load_settings({ENV[name]: "-1"})


def test_the_connection_cap_and_the_switches() -> None:
    assert load_settings({}).max_connections == 4096
    assert load_settings({"HANDFOOT_MAX_CONNECTIONS": "100"}).max_connections == 100
    with pytest.raises(SettingsError, match=r"^max_connections is 0; allowed: 1 or more"):
        load_settings({"HANDFOOT_MAX_CONNECTIONS": "0"})
    off = load_settings({})
    assert off.api_docs is False and off.access_log is False  # both off unless asked for
    on = load_settings({"HANDFOOT_API_DOCS": "1", "HANDFOOT_ACCESS_LOG": "yes"})
    assert on.api_docs is True and on.access_log is True
    assert load_settings({"HANDFOOT_ACCESS_LOG": "1"}, access_log=False).access_log is False
    with pytest.raises(SettingsError, match=r"^HANDFOOT_API_DOCS is 'maybe'; allowed: 1 or 0"):
        load_settings({"HANDFOOT_API_DOCS": "maybe"})


def test_uvicorn_logs_requests_only_when_asked() -> None:
    from handfoot.server.process.connections import uvicorn_options

    assert uvicorn_options()["access_log"] is False
    assert uvicorn_options(access_log=True)["access_log"] is True
    assert uvicorn_options(max_connections=10)["limit_concurrency"] == 10


def test_the_data_folder_is_the_platforms_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert load_settings({}).data_dir == default_data_dir() == tmp_path / "xdg" / "handfoot"
    assert load_settings({"HANDFOOT_DATA": "here"}).data_dir == Path("here")
    assert load_settings({"HANDFOOT_DATA": "here"}, data_dir=tmp_path).data_dir == tmp_path


def test_an_installed_serve_keeps_its_data_in_the_platforms_folder_and_says_so(tmp_path: Path) -> None:
    """``handfoot serve`` started from any folder, without --data: the database goes to the user data
    folder (``$XDG_DATA_HOME/handfoot`` on Linux), the start line names it, the folder it was started
    from is left alone."""
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDFOOT_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    command = [sys.executable, "-m", "handfoot", "serve", "--port", "0"]
    with subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
        finally:
            server.terminate()
            server.wait(30)
    assert line.startswith("handfoot is ready"), line
    assert f"data: {tmp_path / 'xdg' / 'handfoot' / 'handfoot.db'}" in line
    assert (tmp_path / "xdg" / "handfoot" / "handfoot.db").is_file()
    assert list(work.iterdir()) == []
