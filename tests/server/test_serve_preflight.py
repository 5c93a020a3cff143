"""handfoot serve with a database or Redis it cannot use: one clear line on stderr, exit 2, nothing
announced and no traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from handfoot.server.process.preflight import _hide_password, check_redis
from handfoot.server.settings import SettingsError

pytest_plugins = ["helpers.services"]


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "handfoot", "serve", "--port", "0", "--data", str(tmp_path), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--database-url", "postgresql://nobody@127.0.0.1:{port}/x"],
            "cannot open the database postgresql://",
        ),
        (["--database-url", "not a url"], "cannot open the database (an unreadable database URL)"),
        (["--database-url", "sqlite:////no/such/folder/x.db"], "unable to open database file"),
        (["--database-url", "nosuchdb://x/y"], "cannot open the database nosuchdb://x/y: Can't load plugin"),
        (
            ["--redis-url", "redis://user:secret@127.0.0.1:{port}/0"],
            "cannot reach Redis at redis://user:***@",
        ),
    ],
)
def test_an_unusable_database_or_redis_is_one_line_before_anything_is_announced(
    tmp_path: Path, args: list[str], words: str
) -> None:
    port = closed_port()
    done = serve(tmp_path, *(arg.replace("{port}", str(port)) for arg in args))
    assert done.returncode == 2
    assert done.stdout == ""  # nothing announced
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert words in lines[0]
    assert "secret" not in done.stderr


def test_checks_accept_what_answers(redis_url: str) -> None:
    """The Redis the tests use passes the check."""
    check_redis(redis_url)
    with pytest.raises(SettingsError, match="cannot reach Redis"):
        check_redis(f"redis://127.0.0.1:{closed_port()}/0")


def test_passwords_are_hidden() -> None:
    assert _hide_password("redis://u:pw@h:1/0") == "redis://u:***@h:1/0"
    assert _hide_password("redis://h:1/0") == "redis://h:1/0"
    assert _hide_password("redis://:pw@h") == "redis://:***@h"
