"""The server's log when browsers connect (issue: two lines per connection read as noise): a running
``handfoot serve`` writes at most one line for a WebSocket connection to a table and none for a plain
page."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from helpers.server import SeatClient, free_port


def test_one_line_per_connection_and_none_for_a_page(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "HANDFOOT_DATA": str(tmp_path)}
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "handfoot", "serve", "--port", str(port), "--data", str(tmp_path)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while "is ready" not in log.read_text():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        before = log.read_text().splitlines()
        assert httpx.get(f"{base}/").status_code == 200
        assert httpx.get(f"{base}/scorepad").status_code == 200
        made = httpx.post(f"{base}/api/tables", json={"preset": "family", "players": 2, "public": True})
        assert made.status_code == 201, made.text
        table_id = made.json()["table"]["id"]
        client = SeatClient(base, table_id)
        client.close()
        time.sleep(1.0)  # the server notices the close
        new = log.read_text().splitlines()[len(before) :]
    finally:
        server.terminate()
        server.wait(timeout=30)
    socket_lines = [line for line in new if "WebSocket" in line or "connection" in line]
    assert len(socket_lines) == 1 and "[accepted]" in socket_lines[0], new
    assert not [line for line in new if "GET /" in line], new
