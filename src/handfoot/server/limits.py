"""Every limit the server applies to what clients send, in one place (docs/protocol.md lists them).

Sizes: an HTTP request body, a WebSocket frame and a WebSocket message have caps (the text fields in
them have their own, checked where each is parsed). Rates: each client (by address) has a budget of
tables created, hints asked and WebSocket messages sent, refilled over time (``RateLimiter``, a token
bucket). ``uvicorn_options`` are the web server's own limits, shared by ``handfoot serve`` and tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from handfoot.server.jsonout import json_text
from handfoot.server.protocol import MAX_MESSAGE_CHARS

MAX_BODY_BYTES = 64 * 1024  # an HTTP request body (a table, a join, a score sheet)
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_CHARS  # a WebSocket frame: the longest message, all 4-byte characters
SHUTDOWN_SECONDS = 5  # a graceful stop waits this long for connections, then closes them
PING_SECONDS = 20.0  # WebSocket keep-alive pings, and how long a pong may take


@dataclass(frozen=True)
class Rate:
    """``burst`` actions at once, then one more every ``per`` / ``burst`` seconds (``burst`` per ``per``
    seconds, sustained)."""

    burst: int
    per: float

    def describe(self) -> str:
        """The rate in words, for refusals."""
        return f"{self.burst} per {self.per:g} seconds"


TABLE_RATE = Rate(burst=20, per=60.0)  # tables created by one client
HINT_RATE = Rate(burst=10, per=60.0)  # hints asked by one client
MESSAGE_RATE = Rate(burst=60, per=10.0)  # WebSocket messages sent by one client, all connections
MAX_CLIENTS_TRACKED = 10_000  # clients remembered per limiter; the idlest are forgotten first


RATE_LIMITED = "rate_limited"  # the error code of a request refused by a rate limit


def client_key(host: str | None) -> str:
    """The key a client's rate limits are kept under: its address (as the web server reports it, so
    behind a trusted proxy the forwarded one)."""
    return host or "unknown"


class RateLimiter:
    """A token bucket per client key: ``allow(key)`` spends one token if there is one. A bucket holds
    at most ``rate.burst`` tokens and refills at ``rate.burst / rate.per`` tokens a second. At most
    ``max_keys`` clients are remembered (a forgotten one starts with a full bucket)."""

    def __init__(
        self,
        rate: Rate | None,
        max_keys: int = MAX_CLIENTS_TRACKED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate or Rate(1, 1.0)
        self.enabled = rate is not None
        self.max_keys = max_keys
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def allow(self, key: str) -> bool:
        """True (and one token spent) if ``key`` may act now; False, changing nothing, if not. Always
        True for a limiter made without a rate."""
        if not self.enabled:
            return True
        now = self.clock()
        tokens, then = self.buckets.pop(key, (float(self.rate.burst), now))
        tokens = min(float(self.rate.burst), tokens + (now - then) * self.rate.burst / self.rate.per)
        allowed = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if allowed else tokens, now)  # re-inserted: most recent last
        while len(self.buckets) > self.max_keys:
            del self.buckets[next(iter(self.buckets))]
        return allowed

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a token again (0 if it has one now)."""
        tokens, then = self.buckets.get(key, (float(self.rate.burst), self.clock()))
        tokens = min(float(self.rate.burst), tokens + (self.clock() - then) * self.rate.burst / self.rate.per)
        return max(0.0, (1.0 - tokens) * self.rate.per / self.rate.burst)


@dataclass
class Limiters:
    """The rate limiters of one server: tables, hints and WebSocket messages, per client."""

    tables: RateLimiter
    hints: RateLimiter
    messages: RateLimiter

    @staticmethod
    def default(scale: float = 1.0) -> Limiters:
        """The server's limiters; ``scale`` multiplies every burst (and so the sustained rate); 0 turns
        rate limiting off."""

        def make(rate: Rate) -> RateLimiter:
            if scale <= 0:
                return RateLimiter(None)
            return RateLimiter(Rate(max(1, int(rate.burst * scale)), rate.per))

        return Limiters(make(TABLE_RATE), make(HINT_RATE), make(MESSAGE_RATE))


def uvicorn_options() -> dict[str, Any]:
    """The web server's limits: the largest WebSocket frame, keep-alive pings, and how long a graceful
    stop waits for connections (a client that stops reading would otherwise hold it forever)."""
    return {
        "ws_max_size": MAX_FRAME_BYTES,
        "ws_ping_interval": PING_SECONDS,
        "ws_ping_timeout": PING_SECONDS,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
    }


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``max_bytes`` is answered ``413`` with the server's
    JSON error (``{"error": {"code": "too_large", "message": ...}}``) and never reaches the app. The body
    is read (at most ``max_bytes`` of it) before the app sees the request."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on with its body, or answer 413."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        text = f"a request body has at most {self.max_bytes} bytes"
        payload = json_text({"error": {"code": "too_large", "message": text}}).encode("utf-8")
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": payload})
