"""Fan-out between server processes that share one database: a move stored by one process reaches the
clients of another, each seat with its own view, and only "table X is at version N" travels between
them.

Two services in one process on a shared in-process bus (SQLite), two real server instances on one
PostgreSQL database and one Redis, and the Redis subscription coming back after its connection dies.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import redis.asyncio

from handfoot.server.cluster.bus import (
    Advance,
    AdvanceHandler,
    LoneFanout,
    RedisFanout,
    ResyncHandler,
    make_fanout,
)
from handfoot.server.cluster.follow import catch_up, catch_up_all
from handfoot.server.live.broadcast import Broadcaster, state_for
from handfoot.server.settings import Settings, SettingsError, load_settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.moves import Accepted, play
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import Connection
from handfoot.server.wire.jsonout import Encoded
from helpers.fanout import InProcessFanout, LocalBus
from helpers.server import SeatClient, create_table, running_server, sent_json

pytest_plugins = ["helpers.services"]

CARD_CODE = re.compile(r"\b(?:[AKQJT98765432][SHDC]|JK)\b")


def test_advance_messages_round_trip_and_junk_is_ignored() -> None:
    advance = Advance("k3J9xQ2aVbE", 17, "ab12")
    assert json.loads(advance.encode()) == {"table": "k3J9xQ2aVbE", "version": 17, "origin": "ab12"}
    assert Advance.decode(advance.encode()) == advance
    assert Advance.decode(advance.encode().encode()) == advance
    for junk in ("", "[]", "{}", "not json", '{"table": 1, "version": 2, "origin": "x"}',
                 '{"table": "t", "version": "2", "origin": "x"}'):  # fmt: skip
        assert Advance.decode(junk) is None


def test_the_redis_url_comes_from_the_argument_else_the_environment() -> None:
    env = {"HANDFOOT_REDIS_URL": "redis://cache:6380/2"}
    assert load_settings({}).redis_url == ""
    assert load_settings(env).redis_url == "redis://cache:6380/2"
    assert load_settings(env, redis_url="unix:///run/redis.sock").redis_url == "unix:///run/redis.sock"
    with pytest.raises(SettingsError, match="redis_url is 'http://cache'"):
        load_settings({"HANDFOOT_REDIS_URL": "http://cache"})


def test_without_redis_a_process_serves_its_database_alone_and_tells_nobody() -> None:
    lone = make_fanout("")
    assert isinstance(lone, LoneFanout)
    lone.publish("t1", 3)  # nothing to deliver, nothing raised
    assert isinstance(make_fanout("redis://127.0.0.1:6379/0"), RedisFanout)


def handlers(service: TableService) -> tuple[AdvanceHandler, ResyncHandler]:
    """What the app gives its fan-out: catch a table up on an advance, every table on a resync."""

    async def advanced(table_id: str, version: int) -> None:
        await catch_up(service, table_id, version)

    async def resync() -> None:
        await catch_up_all(service)

    return advanced, resync


def test_two_services_on_a_bus_catch_up_with_each_others_moves(tmp_path: Path) -> None:
    url = f"sqlite:///{(tmp_path / 'shared.db').as_posix()}"

    async def scenario() -> None:
        bus = LocalBus()
        # as the app wires them: connections see each change
        services = [TableService(Storage(url), 50, notifier=Broadcaster()) for _ in range(2)]
        fanouts = [InProcessFanout(bus) for _ in services]
        for service, fanout in zip(services, fanouts, strict=True):
            await fanout.start(*handlers(service))
            service.announcers.append(fanout.publish)
        a, b = services
        live_a, tokens = create_table(a, "kitchen-table", {}, 2, [("invite", None), ("invite", None)])
        live_b = await b.get(live_a.id)
        assert live_b is not None and live_b is not live_a and live_b.version == 0
        inbox: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
        for seat in (0, 1):

            def keep(message: dict[str, Any] | Encoded, seat: int = seat) -> None:
                inbox[seat].append(sent_json(message))

            live_b.connections.append(Connection(keep, seat))

        for version in range(4):  # four moves made at A: draw, discard, draw, discard
            mover = live_a.game.to_move
            assert mover is not None
            legal = live_a.legal_for(mover)
            text = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
            outcome = await play(a, live_a, tokens[mover], version, text)
            assert isinstance(outcome, Accepted)
            # The announcement reaches B in a task of its own (``play`` never waits for it): B plays the
            # stored move and sends each of its connections its own seat's view.
            await wait_for(lambda version=version: live_b.version == version + 1)
            for seat in (0, 1):
                state = inbox[seat][-1]
                assert state["type"] == "state" and state["version"] == version + 1
                assert state["view"]["seat"] == seat
                assert state["view"] == state_for(live_a, seat)["view"]  # what A would send it
                assert state["last"]["move"] == outcome.move and state["last"]["seat"] == mover
        assert [m["view"] for m in inbox[0]] != [m["view"] for m in inbox[1]]
        # An announcement B already has is not read again; nor is a table B never loaded.
        assert await catch_up(b, live_a.id, live_a.version) == 0
        assert await catch_up(b, "no-such-table", 9) == 0
        for service, fanout in zip(services, fanouts, strict=True):
            await fanout.close()
            service.storage.close()
        assert bus.members == []

    asyncio.run(scenario())


@contextmanager
def channel_spy(url: str, channel: str) -> Iterator[list[str]]:
    """Every message published on ``channel`` while the block runs (collected in a thread)."""
    client = redis.Redis.from_url(url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    messages: list[str] = []
    stop = threading.Event()

    def collect() -> None:
        while not stop.is_set():
            message = pubsub.get_message(timeout=0.1)
            if message is not None:
                messages.append(message["data"].decode())

    thread = threading.Thread(target=collect, daemon=True)
    thread.start()
    try:
        yield messages
    finally:
        stop.set()
        thread.join(5)
        pubsub.close()
        client.close()


def test_a_move_on_one_instance_reaches_the_clients_of_another(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    def settings(name: str) -> Settings:
        return Settings(
            data_dir=tmp_path / name, database_url=postgres_url, redis_url=redis_url, port=0, bot_delay=0.0
        )

    with (
        channel_spy(redis_url, "handfoot:tables") as published,
        running_server(settings("a")) as base_a,
        running_server(settings("b")) as base_b,
    ):
        created = httpx.post(
            f"{base_a}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True}
        ).json()
        table_id = created["table"]["id"]
        tokens = [invite["token"] for invite in created["invites"]]
        on_a = [SeatClient(base_a, table_id, tokens[seat]) for seat in (0, 1)]
        on_b = [SeatClient(base_b, table_id, tokens[seat]) for seat in (0, 1)]
        state = on_a[0].state(0)
        version = 0
        for _ in range(6):  # moves alternate between the instances: even ones on A, odd ones on B
            mover = state["view"]["to_move"]
            here, there = (on_a, on_b) if version % 2 == 0 else (on_b, on_a)
            own = here[mover].latest_state()
            assert own["version"] == version
            legal = own["legal"]
            text = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
            here[mover].move(text, version)
            version += 1
            # Every client on the other instance receives its own seat's new view, as this one sends it.
            for seat in (0, 1):
                remote = there[seat].state(version)
                local = here[seat].state(version)
                assert remote["view"] == local["view"] and remote["view"]["seat"] == seat
                assert remote["legal"] == local["legal"]
                assert remote["last"] == local["last"] and remote["last"]["move"] == text
            state = local
        assert httpx.get(f"{base_b}/api/tables/{table_id}").json()["version"] == version
        deadline = time.monotonic() + 5
        while len([m for m in published if table_id in m]) < version and time.monotonic() < deadline:
            time.sleep(0.05)
    ours = [json.loads(m) for m in published if table_id in m]
    assert [m["version"] for m in ours] == list(range(1, version + 1))
    for message in ours:  # only "table X advanced to version N": no view, move or card
        assert set(message) == {"table", "version", "origin"}
        assert not CARD_CODE.search(json.dumps(message).replace(table_id, "").replace(message["origin"], ""))


def test_a_lost_redis_subscription_comes_back_and_resyncs(redis_url: str) -> None:
    channel = f"handfoot-test:{secrets.token_hex(4)}"

    async def scenario() -> None:
        heard: list[tuple[str, str, int]] = []
        resyncs: list[str] = []
        fanouts = [RedisFanout(redis_url, channel) for _ in range(2)]
        for name, fanout in zip("AB", fanouts, strict=True):

            async def on_advance(table_id: str, version: int, name: str = name) -> None:
                heard.append((name, table_id, version))

            async def on_resync(name: str = name) -> None:
                resyncs.append(name)

            await fanout.start(on_advance, on_resync)
        a, b = fanouts
        a.publish("t1", 1)
        await wait_for(lambda: ("B", "t1", 1) in heard)
        assert [h for h in heard if h[0] == "A"] == []  # a process does not hear itself

        admin = redis.asyncio.Redis.from_url(redis_url)
        ids = [c["id"] for c in await admin.client_list() if c.get("name") == f"handfoot-{b.origin}"]
        assert ids  # B's subscription
        for client_id in ids:
            await admin.client_kill_filter(_id=client_id)
        await admin.aclose()
        # B notices, subscribes again and resyncs; what A publishes afterwards reaches it.
        await wait_for(lambda: "B" in resyncs)
        a.publish("t1", 2)
        await wait_for(lambda: ("B", "t1", 2) in heard)
        for fanout in fanouts:
            await fanout.close()

    asyncio.run(scenario())


async def wait_for(condition: Any, timeout: float = 10.0) -> None:
    """Wait until ``condition()`` is true (fails the test after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)
