"""Sending to a table's connections (each seat its own state, spectators the public one), in this
process and, through a ``Fanout``, in the other processes serving the same database.

The broadcast functions are called with the table's lock held, so messages leave in version order.
A connection that cannot be written to is dropped (its handler sees the disconnect and cleans up).

Between processes only "table X advanced to version N" is published (``Advance``): never a view, a move
or a card. ``InProcessFanout`` is the default for one process; ``RedisFanout`` (``HANDFOOT_REDIS_URL``)
uses Redis pub/sub. A process that hears an advance runs ``catch_up``: it reads the table's new moves
from the database, plays them, and sends each of its connections its own view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from handfoot.engine import IllegalMove, MoveSyntaxError
from handfoot.server.history import meld_keys, move_entry
from handfoot.server.protocol import state_message, table_message
from handfoot.server.tables import Connection, LiveTable, TableService

log = logging.getLogger("handfoot.server")


def state_for(live: LiveTable, seat: int | None) -> dict[str, Any]:
    """The ``state`` message for one seat (None: a spectator) at the table's current version."""
    return state_message(live.version, live.info(), live.view_for(seat), live.legal_for(seat), live.last)


async def send(live: LiveTable, conn: Connection, message: dict[str, Any]) -> None:
    """Send one message to one connection; drop the connection if it cannot be written to."""
    try:
        await conn.send(message)
    except Exception as exc:  # a closed socket raises any of several errors
        log.info("dropping a connection to table %s: %s", live.id, exc)
        if conn in live.connections:
            live.connections.remove(conn)


async def broadcast_state(live: LiveTable) -> None:
    """Send every connection the state its seat may see (built once per seat)."""
    built: dict[int | None, dict[str, Any]] = {}
    for conn in list(live.connections):
        if conn.seat not in built:
            built[conn.seat] = state_for(live, conn.seat)
        await send(live, conn, built[conn.seat])


async def broadcast_table(live: LiveTable) -> None:
    """Send every connection the table's public summary now."""
    message = table_message(live.info())
    for conn in list(live.connections):
        await send(live, conn, message)


NOTICE_SECONDS = 1.0  # at most one ``table`` notice a second per table


def notice_table(live: LiveTable) -> None:
    """Send every connection the table's public summary soon (after a join, connect or disconnect): at
    once if none was sent in the last ``NOTICE_SECONDS``, else once that time is up, one notice with the
    latest summary for however many changes came meanwhile. So N spectators arriving together cost
    about N messages, not N squared. Needs a running event loop."""
    if live.notice_pending:
        return
    loop = asyncio.get_running_loop()
    live.notice_pending = True
    wait = max(0.0, live.notice_at + NOTICE_SECONDS - loop.time())
    loop.call_later(wait, lambda: loop.create_task(_send_notice(live)))


async def _send_notice(live: LiveTable) -> None:
    async with live.lock:
        live.notice_pending = False
        live.notice_at = asyncio.get_running_loop().time()
        await broadcast_table(live)


# --- between processes -----------------------------------------------------------------------------
#
# Processes that share one database tell each other only "table X advanced to version N" (with their own
# id, to ignore their own messages). A process that hears it reads the new moves from the database,
# plays them into its copy of the table and sends each of its own connections the view its seat may
# see. No view, move text or card ever travels through the fan-out.

AdvanceHandler = Callable[[str, int], Awaitable[object]]
ResyncHandler = Callable[[], Awaitable[object]]

DEFAULT_CHANNEL = "handfoot:tables"
RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
SEND_BATCH = 256  # advances published in one round trip at most


@dataclass(frozen=True)
class Advance:
    """A table reached a version in some process (``origin``)."""

    table_id: str
    version: int
    origin: str

    def encode(self) -> str:
        """The message as it is published."""
        return json.dumps({"table": self.table_id, "version": self.version, "origin": self.origin})

    @staticmethod
    def decode(raw: str | bytes) -> Advance | None:
        """A published message read back, or None if it is not one of ours."""
        try:
            data = json.loads(raw)
            table_id, version, origin = data["table"], data["version"], data["origin"]
        except (ValueError, TypeError, KeyError):
            return None
        if not (isinstance(table_id, str) and isinstance(version, int) and isinstance(origin, str)):
            return None
        return Advance(table_id, version, origin)


class Fanout(ABC):
    """Tells the other processes serving the same database that a table advanced, and hears them."""

    def __init__(self) -> None:
        self.origin = secrets.token_hex(8)
        self.handler: AdvanceHandler | None = None
        self.resync: ResyncHandler | None = None

    async def start(self, handler: AdvanceHandler, resync: ResyncHandler) -> None:
        """Start listening: ``handler(table_id, version)`` for each other process's advance, ``resync()``
        after messages may have been missed (a lost connection came back)."""
        self.handler = handler
        self.resync = resync

    @abstractmethod
    async def publish(self, table_id: str, version: int) -> None:
        """Tell the others that ``table_id`` is now at ``version`` (never raises: a failure is logged)."""

    async def close(self) -> None:
        """Stop listening and release connections."""
        self.handler = None


class LocalBus:
    """Fan-out between services of one Python process (each InProcessFanout joins one bus)."""

    def __init__(self) -> None:
        self.members: list[InProcessFanout] = []


class InProcessFanout(Fanout):
    """The default, for one process: advances reach the other members of its ``bus`` (by default a bus
    of its own, so nothing is sent anywhere)."""

    def __init__(self, bus: LocalBus | None = None) -> None:
        super().__init__()
        self.bus = bus if bus is not None else LocalBus()

    async def start(self, handler: AdvanceHandler, resync: ResyncHandler) -> None:
        """Join the bus."""
        await super().start(handler, resync)
        self.bus.members.append(self)

    async def publish(self, table_id: str, version: int) -> None:
        """Call every other member's handler."""
        for member in list(self.bus.members):
            if member is not self and member.handler is not None:
                try:
                    await member.handler(table_id, version)
                except Exception:
                    log.exception("fan-out of table %s version %d failed", table_id, version)

    async def close(self) -> None:
        """Leave the bus."""
        if self in self.bus.members:
            self.bus.members.remove(self)
        await super().close()


class RedisFanout(Fanout):
    """Fan-out over Redis pub/sub: every process publishes and subscribes on one ``channel``."""

    def __init__(self, url: str, channel: str = DEFAULT_CHANNEL) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self.client: Redis | None = None
        self.task: asyncio.Task[None] | None = None
        self.outbox: asyncio.Queue[Advance] = asyncio.Queue()
        self.sender: asyncio.Task[None] | None = None

    async def start(self, handler: AdvanceHandler, resync: ResyncHandler) -> None:
        """Connect and subscribe (raises if Redis does not answer: a server told to use Redis does not
        start without it), then listen in a background task."""
        await super().start(handler, resync)
        self.client = Redis.from_url(self.url, client_name=f"handfoot-{self.origin}")
        try:
            pubsub = await self._subscribe()
        except Exception:
            await self.client.aclose()
            self.client = None
            raise
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(self._listen(pubsub), name="handfoot-fanout")
        self.sender = loop.create_task(self._send(), name="handfoot-fanout-send")

    async def _subscribe(self) -> PubSub:
        assert self.client is not None
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        return pubsub

    async def _listen(self, pubsub: PubSub) -> None:
        """Hand each message to the handler; after a lost connection subscribe again and resync."""
        failures = 0
        while True:
            try:
                async for message in pubsub.listen():
                    failures = 0
                    if message.get("type") != "message":
                        continue
                    advance = Advance.decode(message["data"])
                    if advance is None or advance.origin == self.origin or self.handler is None:
                        continue
                    try:
                        await self.handler(advance.table_id, advance.version)
                    except Exception:
                        log.exception("catching up table %s failed", advance.table_id)
                return
            except asyncio.CancelledError:
                await _close(pubsub)
                raise
            except Exception as exc:
                log.warning("lost the Redis subscription (%s); subscribing again", exc)
            await _close(pubsub)
            while True:
                await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                failures += 1
                try:
                    pubsub = await self._subscribe()
                    break
                except Exception as exc:
                    log.warning("Redis subscription failed (%s); trying again", exc)
            if self.resync is not None:
                try:
                    await self.resync()
                except Exception:
                    log.exception("resync after the Redis subscription came back failed")

    async def publish(self, table_id: str, version: int) -> None:
        """Queue the advance for publishing (in order, on one connection, without waiting for Redis)."""
        if self.client is not None:
            self.outbox.put_nowait(Advance(table_id, version, self.origin))

    async def _send(self) -> None:
        """Publish queued advances, those waiting together in one pipelined round trip. A failure is
        logged: the moves are stored, and a process that missed them catches up when a move of its own
        is refused as stale, or when its subscription comes back."""
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self.outbox.get_nowait())
            if self.client is None:
                continue
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for advance in batch:
                        pipe.publish(self.channel, advance.encode())
                    await pipe.execute()
            except Exception as exc:
                log.warning("could not publish %d table advances: %s", len(batch), exc)

    async def close(self) -> None:
        """Stop listening and close the connection."""
        await super().close()
        if self.sender is not None:
            deadline = asyncio.get_running_loop().time() + 1.0
            while not self.outbox.empty() and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.01)
            self.sender.cancel()
            with suppress(asyncio.CancelledError):
                await self.sender
            self.sender = None
        if self.task is not None:
            self.task.cancel()
            with suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        if self.client is not None:
            await self.client.aclose()
            self.client = None


async def _close(pubsub: PubSub) -> None:
    """Close a subscription's connection."""
    await pubsub.aclose()  # type: ignore[no-untyped-call]


def make_fanout(redis_url: str) -> Fanout:
    """Redis pub/sub if ``redis_url`` is set, else the in-process fan-out of a lone process."""
    return RedisFanout(redis_url) if redis_url else InProcessFanout()


async def catch_up(service: TableService, table_id: str, version: int | None = None) -> int:
    """Bring this process's copy of a table up to what the database holds and send each of its
    connections its new state. Returns how many moves were played.

    ``version`` is the version another process announced: nothing is read if the table is already
    there. A table this process has not loaded is left alone (it is read from the database when someone
    asks for it here). The service's listeners are told of a table that moved (the bot runner: if a bot
    is to move, the process holding the table's bot lease runs it, and another takes over if it dies).
    """
    live = service.tables.get(table_id)
    if live is None:
        return 0
    async with live.lock:
        if live.broken or (version is not None and version <= live.version):
            return 0
        moves = await asyncio.to_thread(service.storage.moves_since, live.id, live.version)
        played = 0
        reloaded = False
        for seq, seat, text in moves:
            if seq != live.version:
                log.error(
                    "table %s: stored move %d follows version %d; reloading", live.id, seq, live.version
                )
                service.reload(live)
                live.last = None
                reloaded = True
                break
            try:
                state_before, melds_before = live.game.state, meld_keys(live.game.state)
                events = live.game.apply_text(text)
            except (IllegalMove, MoveSyntaxError) as exc:
                log.error("table %s: stored move %d (%r) does not play here: %s", live.id, seq, text, exc)
                service.reload(live)
                live.last = None
                reloaded = True
                break
            live.version += 1
            played += 1
            live.last = move_entry(state_before, melds_before, seat, live.version, text, events)
            if live.history is not None:
                live.history.append(live.last)
        if played or reloaded:
            await broadcast_state(live)
    if played or reloaded:
        service.notify(live)
    return played


CHECK_SECONDS = 5.0  # how often a process sharing its database checks its tables against it


async def catch_up_stale(service: TableService) -> int:
    """Catch up every table this process holds that the database has moves for beyond its version (an
    announcement that never came: its process died between storing the move and publishing it, or Redis
    was away). One query for all of them; returns how many tables were behind."""
    ids = list(service.tables)
    if not ids:
        return 0
    stored = await asyncio.to_thread(service.storage.versions, ids)
    behind = [t for t, v in stored.items() if t in service.tables and v > service.tables[t].version]
    for table_id in behind:
        await catch_up(service, table_id)
    return len(behind)


async def check_stale(service: TableService, every: float = CHECK_SECONDS) -> None:
    """Run ``catch_up_stale`` every ``every`` seconds, for ever (the app runs it when processes share a
    database)."""
    while True:
        await asyncio.sleep(every)
        try:
            behind = await catch_up_stale(service)
        except Exception:
            log.exception("checking the tables against the database failed")
            continue
        if behind:
            log.info("caught up %d tables whose announcements never came", behind)


async def catch_up_all(service: TableService) -> None:
    """Catch up every table this process holds (after advances may have been missed)."""
    for table_id in list(service.tables):
        await catch_up(service, table_id)
