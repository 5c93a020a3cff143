"""Each WebSocket connection's own queue of outgoing messages, and the task that writes them.

Broadcasts happen under a table's lock, so they must never wait for a client: they only put the message
in each connection's ``Outbox`` (no waiting), and the connection's writer task sends them, one by one,
in order, outside any lock. A client that stops reading cannot hold anything up: once ``limit`` messages
wait for it, or one message takes longer than ``timeout`` seconds to leave, it is dropped (its handler
ends and the socket is closed), and it may reconnect to get the current state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from handfoot.server.wire.jsonout import Encoded, json_text

log = logging.getLogger("handfoot.server")

QUEUE_LIMIT = 512  # messages waiting for one connection before it is dropped
SEND_TIMEOUT = 15.0  # seconds one message may take to leave before the connection is dropped


_CLOSE = "\x00close"  # the key of the queued marker that ends a connection (no message has it)


class ConnectionDropped(ConnectionError):
    """The connection was dropped (it fell behind, or it is gone): nothing more is sent to it."""


class Outbox:
    """A bounded queue of messages for one connection. ``put`` never waits; ``run`` (the writer task)
    sends them with ``write`` (a message's JSON text); ``dropped`` is set once the connection is given up
    and ``on_drop`` (if set) is called once, then."""

    def __init__(
        self,
        write: Callable[[str], Awaitable[None]],
        limit: int = QUEUE_LIMIT,
        timeout: float = SEND_TIMEOUT,
    ) -> None:
        self.write = write
        self.limit = limit
        self.timeout = timeout
        self.queue: asyncio.Queue[dict[str, Any] | Encoded | None] = asyncio.Queue()
        self.dropped = asyncio.Event()
        self.reason = ""
        self.on_drop: Callable[[], None] | None = None

    def put(self, message: dict[str, Any] | Encoded) -> None:
        """Queue ``message`` (returns at once; written as JSON when it leaves, unless it is ``Encoded``
        already). Raises ConnectionDropped if the connection was dropped or if ``limit`` messages already
        wait for it (it is then dropped)."""
        if self.dropped.is_set():
            raise ConnectionDropped(f"the connection was dropped: {self.reason}")
        if self.queue.qsize() >= self.limit:
            self.drop(f"{self.limit} messages were waiting for it")
            raise ConnectionDropped(f"the connection was dropped: {self.reason}")
        self.queue.put_nowait(message)

    def drop(self, reason: str) -> None:
        """Give the connection up: send nothing more and tell ``on_drop``."""
        if self.dropped.is_set():
            return
        self.reason = reason
        self.dropped.set()
        self.queue.put_nowait(None)  # wakes the writer, which then stops
        if self.on_drop is not None:
            self.on_drop()

    def close_with(self, message: dict[str, Any], reason: str) -> None:
        """Send ``message`` (after what is queued), then drop the connection for ``reason``."""
        if self.dropped.is_set():
            return
        self.queue.put_nowait(message)
        self.queue.put_nowait({_CLOSE: reason})

    async def run(self) -> None:
        """Send queued messages in order until the connection is dropped or ``finish`` is called."""
        while True:
            message = await self.queue.get()
            if message is None or self.dropped.is_set():
                return
            if isinstance(message, Encoded):
                text = message.text
            elif _CLOSE in message:
                self.drop(str(message[_CLOSE]))
                return
            else:
                text = json_text(message)
            try:
                await asyncio.wait_for(self.write(text), self.timeout)
            except TimeoutError:
                log.info("dropping a connection that read nothing for %.0f s", self.timeout)
                self.drop(f"a message waited {self.timeout:.0f} s to be read")
                return
            except Exception as exc:  # the socket is gone: any of several errors
                self.drop(f"the socket is gone ({type(exc).__name__})")
                return

    async def finish(self, task: asyncio.Task[None], grace: float = 1.0) -> None:
        """Stop the writer ``task``: let it send what is queued for up to ``grace`` seconds, then cancel
        it."""
        if not self.dropped.is_set():
            self.queue.put_nowait(None)
        with suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(task, grace)
        if not task.done():
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
