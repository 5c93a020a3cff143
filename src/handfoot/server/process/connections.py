"""Caps at the web server's door, before a request reaches the application, and the options uvicorn runs
with (``uvicorn_options``).

uvicorn runs ``guarded_h11(guard)``, its own h11 HTTP protocol with two additions:

- a ``ConnectionGuard``: one address (not a trusted proxy's) may hold at most ``cap`` TCP connections at
  once, HTTP or the WebSockets they become; the next one is answered ``429`` with the server's JSON
  error and closed, so one visitor cannot use up the server's connections (and health checks, like
  everyone else's requests, still get in). Behind a reverse proxy every connection comes from the
  proxy's address, which uvicorn trusts (``FORWARDED_ALLOW_IPS``, ``127.0.0.1`` by default): those are
  not counted here (the proxy has its own per-client limits, and the application counts WebSockets by
  the forwarded address, ``limits.MAX_SOCKETS_PER_ADDRESS``);
- a deadline: a new connection that has not sent its first request's head within ``HEAD_SECONDS`` is
  closed (uvicorn's keep-alive timeout covers the time between later requests).

h11 itself refuses a request head over ``MAX_HEAD_BYTES`` (``h11_max_incomplete_event_size``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from handfoot.server.limits import (
    HEAD_SECONDS,
    KEEP_ALIVE_SECONDS,
    MAX_CONNECTIONS_PER_ADDRESS,
    MAX_FRAME_BYTES,
    MAX_HEAD_BYTES,
    PING_SECONDS,
    RATE_LIMITED,
    SHUTDOWN_SECONDS,
)
from handfoot.server.settings import DEFAULT_MAX_CONNECTIONS
from handfoot.server.wire.jsonout import json_text

log = logging.getLogger("handfoot.server")


class ConnectionGuard:
    """The TCP connections each address holds: ``admit`` counts a new one unless its address already
    holds ``cap``. A connection counts until its transport closes (checked when the address connects
    again, so nothing needs to be told when a WebSocket ends)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self.refused = 0

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """True (and ``transport`` counted) if ``address`` holds fewer than ``cap`` open connections."""
        held = {t for t in self.open.get(address, ()) if not t.is_closing()}
        if len(held) >= self.cap:
            self.open[address] = held
            self.refused += 1
            return False
        held.add(transport)
        self.open[address] = held
        return True

    def release(self, address: str, transport: asyncio.BaseTransport) -> None:
        """Stop counting ``transport`` (its connection ended)."""
        held = self.open.get(address)
        if held is None:
            return
        held.discard(transport)
        if not held:
            del self.open[address]


def _refusal(cap: int) -> bytes:
    text = f"too many connections from your address: at most {cap} at once; close some and try again"
    body = json_text({"error": {"code": RATE_LIMITED, "message": text}}).encode("utf-8")
    head = (
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def guarded_h11(guard: ConnectionGuard) -> type[H11Protocol]:
    """uvicorn's h11 protocol with ``guard``'s per-address cap and the first request's deadline."""

    class GuardedH11Protocol(H11Protocol):
        """H11Protocol, refusing an address over its cap and closing a connection that sends no request."""

        _counted: str | None = None
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            if address is not None and not self._trusted(address):
                if not guard.admit(address, transport):
                    log.info("refused a connection from %s: %d open already", address, guard.cap)
                    transport.write(_refusal(guard.cap))
                    transport.close()
                    return
                self._counted = address
            self._head_timer = self.loop.call_later(HEAD_SECONDS, self._no_head)

        def _trusted(self, address: str) -> bool:
            allowed = self.config.forwarded_allow_ips
            trusted = [allowed] if isinstance(allowed, str) else list(allowed or [])
            return "*" in trusted or address in {t.strip() for item in trusted for t in item.split(",")}

        def _no_head(self) -> None:
            """Close the connection if its first request's head has not arrived."""
            self._head_timer = None
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            if self._head_timer is not None:  # the head came: the WebSocket has its own pings
                self._head_timer.cancel()
                self._head_timer = None
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            if self._counted is not None:
                guard.release(self._counted, self.transport)
            super().connection_lost(exc)

    return GuardedH11Protocol


def uvicorn_options(
    max_connections: int = DEFAULT_MAX_CONNECTIONS, access_log: bool = False
) -> dict[str, Any]:
    """The web server's limits: the largest WebSocket frame, keep-alive pings, how long a graceful stop
    waits for connections (a client that stops reading would otherwise hold it forever), the HTTP
    protocol (h11, with a cap on each request's head, ``HEAD_SECONDS`` for the first one and
    ``MAX_CONNECTIONS_PER_ADDRESS`` per address: above), the idle time between
    requests, and ``max_connections`` in all (then 503). uvicorn's line per request is written only if
    ``access_log`` (the server logs its own line per table event)."""
    return {
        "ws_max_size": MAX_FRAME_BYTES,
        "ws_ping_interval": PING_SECONDS,
        "ws_ping_timeout": PING_SECONDS,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
        "http": guarded_h11(ConnectionGuard(MAX_CONNECTIONS_PER_ADDRESS)),
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "limit_concurrency": max_connections,
        "access_log": access_log,
    }
