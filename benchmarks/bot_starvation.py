"""How long a normal table's bot turn takes while other addresses play many tables of slow bots.

Starts ``handfoot serve`` (the program on ``PYTHONPATH``, as a process of its own, bots moving without a
pause), then from ``--addresses`` visitor addresses (``X-Forwarded-For``, which the server believes from
this machine, as from a reverse proxy) creates ``--tables`` tables of four ``hard`` bots each and keeps a
spectator on each (so none is put away). With ``--programs`` each of those tables has a program in one
seat instead of a fourth bot (a client that plays the seat at once and says ``program`` in its hello,
as ``handfoot bot connect`` does; a server that does not know the word is told nothing), so the caps on
tables of bots alone do not apply; those clients run in a process of their own, so that they do not
slow this one's clock. Then a person plays one seat of a two-seat table against a
``--bot`` (default ``hard``), from an address of its own, and the time from the end of the person's turn
to the start of their next one (the bot's whole turn: every decision of it) is measured, ``--turns``
times.

    PYTHONPATH=src .venv/bin/python benchmarks/bot_starvation.py
    PYTHONPATH=src .venv/bin/python benchmarks/bot_starvation.py --tables 0      # the table alone
    PYTHONPATH=src .venv/bin/python benchmarks/bot_starvation.py --programs --tables 50 --bot medium
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/bot_starvation.py        # another version

The person moves at once (draw, then the first discard offered). Printed: the bot turns' median and
longest, in seconds, the moves the other tables made meanwhile, and how many of them the server
refused to create (its caps on tables of bots alone).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

# The server harness the tests use (tests/helpers/server.py) is shared with these benchmarks.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers.server import SeatClient, free_port


def _wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server stopped while starting")
        try:
            httpx.get(f"{url}/api/health", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def _create(
    url: str, address: str, seats: list[dict[str, Any]], public: bool = True
) -> dict[str, Any] | None:
    """The new table, or None if the server refused it with 429 (a cap)."""
    body = {"preset": "kitchen-table", "players": len(seats), "seats": seats, "public": public}
    made = httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": address}, timeout=30)
    if made.status_code == 429:
        return None
    if made.status_code != 201:
        raise SystemExit(f"could not create a table: {made.status_code} {made.text}")
    created: dict[str, Any] = made.json()
    return created


def _choose(legal: list[str]) -> str:
    if "draw" in legal:
        return "draw"
    discards = [m for m in legal if m.startswith("discard ")]
    return discards[0] if discards else legal[0]


def _program(url: str, table_id: str, token: str, address: str, stop: threading.Event) -> SeatClient:
    """A client playing a seat at once (draw, then the first discard), saying ``program`` in its hello
    unless the server refuses the word; it plays in a thread of its own until ``stop`` is set."""
    headers = {"X-Forwarded-For": address}
    client = SeatClient(url, table_id, token, program=True, additional_headers=headers, open_timeout=30)
    if client.welcome.get("type") != "welcome":  # a server from before the word
        client.close()
        client = SeatClient(url, table_id, token, additional_headers=headers, open_timeout=30)
    seat = client.welcome["seat"]

    def play() -> None:
        try:
            while not stop.is_set():
                try:
                    message = client.recv(timeout=1)
                except TimeoutError:
                    continue
                if message["type"] != "state" or message["table"]["finished"]:
                    continue
                if message["view"]["to_move"] == seat and message["legal"]:
                    client.move(_choose(message["legal"]), message["version"])
        except Exception:  # the connection closed at the end
            return

    threading.Thread(target=play, daemon=True).start()
    return client


def _programs(url: str, seats: list[tuple[str, str, str]], ready: Any, stop: Any) -> None:
    """In a process of its own (so their threads do not slow this one's clock): a ``_program`` client
    for each (table id, token, address) of ``seats``; sets ``ready`` once all are connected, and plays
    until ``stop`` is set."""
    done = threading.Event()
    clients = [_program(url, table_id, token, address, done) for table_id, token, address in seats]
    ready.set()
    stop.wait()
    done.set()
    for client in clients:
        client.close()


def measure(
    url: str, tables: int, addresses: int, turns: int, bot: str = "hard", programs: bool = False
) -> tuple[list[float], int, int]:
    """The person's table's bot turns (seconds), the moves the heavy tables made meanwhile, and how many
    of them the server refused to create."""
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    with ExitStack() as stack:
        stack.callback(stop.set)
        heavy = []
        refused = 0
        seats: list[tuple[str, str, str]] = []
        for n in range(tables):
            address = f"203.0.113.{1 + n % max(1, addresses)}"
            hard = {"kind": "bot", "bot": "hard"}
            created = _create(
                url, address, [{"kind": "invite"}, hard, hard, hard] if programs else [hard] * 4
            )
            if created is None:
                refused += 1
                continue
            table_id = created["table"]["id"]
            heavy.append(table_id)
            if programs:
                seats.append((table_id, created["invites"][0]["token"], address))
            else:
                headers = {"X-Forwarded-For": address}
                watcher = SeatClient(url, table_id, additional_headers=headers, open_timeout=30)
                stack.callback(watcher.close)
        if seats:
            ready = context.Event()
            player = context.Process(target=_programs, args=(url, seats, ready, stop), daemon=True)
            player.start()
            stack.callback(player.join, 30)
            if not ready.wait(300):
                raise SystemExit("the programs did not connect")
        before = sum(httpx.get(f"{url}/api/tables/{t}", timeout=30).json()["version"] for t in heavy)
        created = _create(url, "198.51.100.7", [{"kind": "invite"}, {"kind": "bot", "bot": bot}])
        assert created is not None, "the person's table was refused"
        token = created["invites"][0]["token"]
        person = SeatClient(url, created["table"]["id"], token, "Ann", open_timeout=30)
        stack.callback(person.close)
        state = person.latest_state()
        seat = person.welcome["seat"]
        waits: list[float] = []
        turn_ended: float | None = None
        while len(waits) < turns and not state["table"]["finished"]:
            if state["view"]["to_move"] == seat and state["legal"]:
                if turn_ended is not None:
                    waits.append(time.monotonic() - turn_ended)
                    print(f"  bot turn {len(waits)}: {waits[-1]:.2f} s", flush=True)
                    turn_ended = None
                move = _choose(state["legal"])
                person.move(move, state["version"])
                if move.startswith("discard "):
                    turn_ended = time.monotonic()
            state = person.state(timeout=600)
        after = sum(httpx.get(f"{url}/api/tables/{t}", timeout=30).json()["version"] for t in heavy)
        return waits, after - before, refused


def main() -> None:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables of four hard bots (default 20)")
    parser.add_argument("--addresses", type=int, default=5, help="addresses they come from (default 5)")
    parser.add_argument("--turns", type=int, default=6, help="bot turns measured (default 6)")
    parser.add_argument("--bot", default="hard", help="the person's opponent (default hard)")
    parser.add_argument(
        "--programs", action="store_true", help="a program in one seat of each heavy table, three hard bots"
    )
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        env = os.environ | {"HANDFOOT_BOT_DELAY": "0", "HANDFOOT_DATA": data, "HANDFOOT_PORT": str(port)}
        command = [sys.executable, "-c", "from handfoot.cli import main; main()", "serve"]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for(url, server)
            kind = "a program and 3 hard bots" if args.programs else "4 hard bots"
            heavy = f"{args.tables} tables of {kind} from {args.addresses} addresses"
            print(f"{heavy}; one person against a {args.bot} bot")
            waits, others, refused = measure(
                url, args.tables, args.addresses, args.turns, args.bot, args.programs
            )
        finally:
            server.terminate()
            server.wait(30)
    print(
        f"bot turns: median {statistics.median(waits):.2f} s, longest {max(waits):.2f} s over {len(waits)}; "
        f"the other tables made {others} moves meanwhile ({refused} of them refused at creation)"
    )


if __name__ == "__main__":
    main()
