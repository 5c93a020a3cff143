"""What one read of the lobby's list costs: ``GET /api/tables`` with 200 public tables in memory.

Creates the tables through the lobby of an in-process server (``fastapi.testclient``, no network), each
with a 900-character summary in its rules (so each table's rules source weighs something), then asks
for the list 50 times as a client that polls would, and prints the answer's size and the CPU time per
request (client and server together: they share the process), twice: with the page built afresh for
every request (the server's page cache set to keep nothing: what a read costs while tables change) and
as the server answers a poll while nothing changes (the page kept, at most 2 s).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_lobby.py
"""

from __future__ import annotations

import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from handfoot.server.app import create_app  # noqa: E402
from handfoot.server.settings import Settings  # noqa: E402

TABLES = 200
REQUESTS = 50
OPTIONS = {"summary": "x" * 900, "game_end": "hands", "hands_per_game": 2}


def main() -> None:
    """Fill a server with public tables and time reads of its list."""
    with tempfile.TemporaryDirectory() as data:
        app = create_app(Settings(data_dir=Path(data), rate_limit=0))
        with TestClient(app) as client:
            body = {"preset": "kitchen-table", "players": 4, "public": True, "options": OPTIONS}
            for _ in range(TABLES):
                assert client.post("/api/tables", json=body).status_code == 201
            cache = app.state.listing
            kept_for = cache.seconds
            for path in ("/api/tables", "/api/tables?playing=true&limit=8"):
                first = client.get(path)
                for how, seconds in (("built afresh", 0.0), ("kept", kept_for)):
                    cache.seconds = seconds
                    start = time.process_time()
                    for _ in range(REQUESTS):
                        client.get(path)
                    cpu_ms = (time.process_time() - start) / REQUESTS * 1000
                    print(
                        f"{path:36} {how:12} {len(first.content):8,d} bytes  {cpu_ms:5.1f} ms CPU a request  "
                        f"({len(first.json())} tables listed)"
                    )


if __name__ == "__main__":
    main()
