"""The bus between the processes serving one database: only "table X advanced to version N" is published
(``Advance``), never a view, a move or a card. ``LoneFanout`` is the default for one process;
``RedisFanout`` (``HANDFOOT_REDIS_URL``) uses Redis pub/sub. A process that hears an advance catches
the table up (``cluster.follow``).
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

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

log = logging.getLogger("handfoot.server")


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
    def publish(self, table_id: str, version: int) -> None:
        """Tell the others that ``table_id`` is now at ``version``: queued, returns at once (never raises:
        a failure to deliver it is logged)."""

    async def close(self) -> None:
        """Stop listening and release connections."""
        self.handler = None


class LoneFanout(Fanout):
    """The default, for a process that serves its database alone: there is no other process to tell, so
    ``publish`` sends nothing (a test joins services of one process with ``tests/helpers/fanout.py``)."""

    def publish(self, table_id: str, version: int) -> None:
        """Nothing to do: no other process serves this database."""


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

    def publish(self, table_id: str, version: int) -> None:
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
    """Redis pub/sub if ``redis_url`` is set, else the fan-out of a process that serves its database alone
    (it tells nobody)."""
    return RedisFanout(redis_url) if redis_url else LoneFanout()
