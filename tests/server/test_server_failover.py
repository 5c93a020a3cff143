"""Bots when a process dies: with several processes on one database, the one holding a table's bot
lease runs its bots, and when it is killed another takes the turn over once the lease expires. Bots
think in their own threads, so slow bots cannot starve hints or other tables.

In one Python process (two services sharing leases and a bus), then for real: two ``handfoot serve``
processes on PostgreSQL and Redis, one killed with SIGKILL while a bot's turn is its own."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.engine import Move, View
from handfoot.server.bots import runner as bot_runner
from handfoot.server.bots.runner import BotRunner
from handfoot.server.cluster.follow import catch_up, catch_up_all, catch_up_stale
from handfoot.server.cluster.leases import LocalLeases, RedisLeases
from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.moves import Accepted, play
from handfoot.server.tables.service import TableService
from helpers.fanout import InProcessFanout, LocalBus
from helpers.server import SeatClient, create_table, free_port, running_server

pytest_plugins = ["helpers.services"]


def test_local_leases_go_to_one_owner_until_they_expire() -> None:
    async def run() -> None:
        shared: dict[str, tuple[str, float]] = {}
        a, b = LocalLeases("a", 0.2, shared), LocalLeases("b", 0.2, shared)
        assert await a.acquire("t") and not await b.acquire("t")
        assert await a.acquire("t")  # renewed
        assert await b.acquire("u")  # another table
        await asyncio.sleep(0.3)
        assert await b.acquire("t") and not await a.acquire("t")

    asyncio.run(run())


def test_redis_leases_go_to_one_owner_until_they_expire(redis_url: str) -> None:
    async def run() -> None:
        table = f"lease-test-{os.getpid()}-{time.monotonic_ns()}"
        a, b = RedisLeases(redis_url, "a", 0.3), RedisLeases(redis_url, "b", 0.3)
        try:
            assert await a.acquire(table) and not await b.acquire(table)
            assert await a.acquire(table)
            await asyncio.sleep(0.45)
            assert await b.acquire(table) and not await a.acquire(table)
        finally:
            await a.close()
            await b.close()

    asyncio.run(run())


def test_a_bot_turn_whose_process_stopped_is_taken_over_after_its_lease(tmp_path: Path) -> None:
    url = f"sqlite:///{(tmp_path / 'shared.db').as_posix()}"

    async def scenario() -> None:
        bus, shared = LocalBus(), {}
        services = [TableService(Storage(url), snapshot_every=50) for _ in range(2)]
        fanouts = [InProcessFanout(bus) for _ in services]
        runners = []
        for name, service, fanout in zip("ab", services, fanouts, strict=True):
            runner = BotRunner(service, 0.05, LocalLeases(name, 0.5, shared))
            runner.attach()
            runners.append(runner)
            await fanout.start(lambda t, v, s=service: catch_up(s, t, v), lambda s=service: catch_up_all(s))
            service.announcers.append(fanout.publish)
        a, b = services
        live_a, tokens = create_table(a, "kitchen-table", {}, 2, [("invite", None), ("bot", "random")])
        live_b = await b.get(live_a.id)
        assert live_b is not None
        # Play the human seat at A until the bot is to move; A's runner holds the lease.
        while live_a.game.to_move != 1:
            legal = live_a.legal_for(0)
            text = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
            assert isinstance(await play(a, live_a, tokens[0], live_a.version, text), Accepted)
            await asyncio.sleep(0.2)  # the bot (at A) answers
        await runners[0].stop()  # A "dies" while the bot is to move: its lease stays until it expires
        await fanouts[0].close()
        stopped_at = live_b.version
        assert live_b.game.to_move == 1
        for _ in range(40):  # B takes the turn over within the lease (0.5 s) and a retry
            await asyncio.sleep(0.1)
            if live_b.version > stopped_at:
                break
        assert live_b.version > stopped_at and shared[live_b.id][0] == "b"
        await runners[1].stop()
        await fanouts[1].close()
        for service in services:
            service.storage.close()

    asyncio.run(scenario())


class StuckBot:
    """A bot that thinks until ``release`` is set (a search that takes its time)."""

    release = threading.Event()

    def choose(self, view: View, legal: Sequence[Move], rng: Any) -> Move:
        StuckBot.release.wait(60)
        return legal[0]


def test_slow_bots_cannot_starve_hints_or_other_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDFOOT_HINT_SECONDS", "0")
    monkeypatch.setattr(bot_runner, "seat_bot", lambda name: StuckBot())
    StuckBot.release.clear()
    try:
        with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0)) as base:
            bots = {"preset": "kitchen-table", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
            for _ in range(12):  # twelve tables of bots that think for a long time: more than any pool
                assert httpx.post(f"{base}/api/tables", json=bots).status_code == 201
            created = httpx.post(f"{base}/api/tables", json={"preset": "kitchen-table", "players": 2}).json()
            table_id, tokens = created["table"]["id"], [i["token"] for i in created["invites"]]
            players = [SeatClient(base, table_id, token) for token in tokens]
            state = players[0].state(0)
            mover = players[state["view"]["to_move"]]
            mover.send({"type": "hint", "version": 0})  # a hint thinks in a worker thread too
            assert mover.until(lambda m: m["type"] in ("hint", "error"), 20)["type"] == "hint"
            mover.move("draw", 0)
            assert mover.state(1)["version"] == 1
    finally:
        StuckBot.release.set()


# --- two real processes, one killed -----------------------------------------------------------------


@contextmanager
def serve_process(
    tmp: Path, database_url: str, redis_url: str, bot_delay: float
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A ``handfoot serve`` child process on a free loopback port; yields it and its base URL."""
    port = free_port()
    command = [
        sys.executable, "-m", "handfoot", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--data", str(tmp), "--database-url", database_url, "--redis-url", redis_url,
        "--bot-delay", str(bot_delay),
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server process did not start")
            time.sleep(0.1)
        yield process, base
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def test_killing_the_process_that_owns_a_bot_turn_does_not_stop_the_game(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    with (
        serve_process(tmp_path / "a", postgres_url, redis_url, 1.5) as (proc_a, base_a),
        serve_process(tmp_path / "b", postgres_url, redis_url, 1.5) as (_proc_b, base_b),
    ):
        body = {"preset": "kitchen-table", "players": 2, "seats": [{"kind": "invite"}, {"kind": "bot"}]}
        created = httpx.post(f"{base_a}/api/tables", json=body).json()
        table_id, token = created["table"]["id"], created["invites"][0]["token"]
        watcher = SeatClient(base_b, table_id, key=created["watch_key"])  # B holds the table, hears A's moves
        human = SeatClient(base_a, table_id, token)
        state = human.state()
        while state["view"]["to_move"] != 1:  # the human plays at A until it is the bot's turn
            legal = state["legal"]
            text = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
            human.move(text, state["version"])
            state = human.state(state["version"] + 1)
        watcher.state(state["version"], timeout=10)
        os.kill(proc_a.pid, signal.SIGKILL)  # A had the bot's turn: it was waiting its 1.5 s to move
        proc_a.wait(5)
        killed_at = time.monotonic()
        moved = watcher.until(lambda m: m["type"] == "state" and m["version"] > state["version"], 40)
        assert moved["last"]["seat"] == 1
        assert time.monotonic() - killed_at < 30
        rejoined = SeatClient(base_b, table_id, token)  # the human comes back through B
        assert rejoined.state()["version"] >= moved["version"]


def test_a_table_whose_announcement_never_came_is_caught_up_from_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{(tmp_path / 'shared.db').as_posix()}"

    async def scenario() -> None:
        a, b = (TableService(Storage(url), snapshot_every=50) for _ in range(2))  # no fan-out between them
        live_a, tokens = create_table(a, "kitchen-table", {}, 2, [("invite", None), ("invite", None)])
        live_b = await b.get(live_a.id)
        assert live_b is not None
        for _ in range(3):  # moves stored by A; B hears nothing (A "died" before announcing them)
            seat = live_a.game.to_move
            assert seat is not None
            legal = live_a.legal_for(seat)
            text = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
            assert isinstance(await play(a, live_a, tokens[seat], live_a.version, text), Accepted)
        assert live_b.version == 0 and b.storage.versions([live_a.id, "nothing"]) == {live_a.id: 3}
        assert await catch_up_stale(b) == 1
        assert live_b.version == 3 and await catch_up_stale(b) == 0
        for service in (a, b):
            service.storage.close()

    asyncio.run(scenario())
