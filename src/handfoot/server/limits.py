"""Every limit the server applies to what clients send, in one place (docs/protocol.md lists them).

Sizes: an HTTP request body, a request's head (its line and headers), a WebSocket frame and a
WebSocket message have caps (the text fields in them have their own, checked where each is parsed).
Times: a new connection has ``HEAD_SECONDS`` to send its first request's head and a request
``BODY_SECONDS`` to send its body. Rates: each client (by address) has a budget of HTTP requests,
tables created, hints asked, wrong keys tried and WebSocket messages sent (over all its connections),
refilled over time (``RateLimiter``, a token bucket). Counts: each address may hold at most
``MAX_SOCKETS_PER_ADDRESS`` WebSockets and ``MAX_CONNECTIONS_PER_ADDRESS`` TCP connections
(``server.process.connections``), and at most ``MAX_BOT_TABLES_PER_ADDRESS`` tables of bots alone play at once
(``MAX_BOT_TABLES`` over every address). The web server's own options built from these are
``process.connections.uvicorn_options``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from handfoot.server.wire.jsonout import json_text
from handfoot.server.wire.protocol import MAX_MESSAGE_CHARS

MAX_BODY_BYTES = 64 * 1024  # an HTTP request body (a table, a join, a score sheet)
MAX_HEAD_BYTES = 16 * 1024  # an HTTP request's line and headers (h11 answers 400 past it)
HEAD_SECONDS = 10.0  # a new connection sends its first request's head within this, or is closed
BODY_SECONDS = 10.0  # a request sends its whole body within this, or is answered 408
KEEP_ALIVE_SECONDS = 5  # an idle HTTP connection between requests is closed after this
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
REQUEST_RATE = Rate(burst=240, per=60.0)  # HTTP requests to /api/ by one client (not /api/health)
GUESS_RATE = Rate(burst=20, per=60.0)  # wrong seat tokens, watch keys and host keys tried by one client
MAX_CLIENTS_TRACKED = 10_000  # clients remembered per limiter; the idlest are forgotten first

MAX_SOCKETS_PER_ADDRESS = 32  # WebSockets open from one address at once
MAX_CONNECTIONS_PER_ADDRESS = 64  # TCP connections from one address (not a trusted proxy's) at once
MAX_BOT_TABLES_PER_ADDRESS = 4  # tables of bots alone playing at once, created from one address
MAX_BOT_TABLES = 16  # tables of bots alone playing at once, over every address


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

    def has(self, key: str) -> bool:
        """True if ``key`` has a token now (nothing is spent). Always True for a limiter made without a
        rate."""
        return not self.enabled or self.wait(key) == 0.0

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a token again (0 if it has one now)."""
        tokens, then = self.buckets.get(key, (float(self.rate.burst), self.clock()))
        tokens = min(float(self.rate.burst), tokens + (self.clock() - then) * self.rate.burst / self.rate.per)
        return max(0.0, (1.0 - tokens) * self.rate.per / self.rate.burst)


class Counter:
    """How many of something each client holds now (open WebSockets, say): ``take(key)`` counts one
    more if the client holds fewer than ``cap`` (None: no cap), ``give(key)`` one less."""

    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self.held: dict[str, int] = {}

    def take(self, key: str) -> bool:
        """True (and one more counted) if ``key`` holds fewer than ``cap``; False, changing nothing."""
        count = self.held.get(key, 0)
        if self.cap is not None and count >= self.cap:
            return False
        self.held[key] = count + 1
        return True

    def give(self, key: str) -> None:
        """Count one less for ``key`` (forgetting a key that holds none)."""
        count = self.held.get(key, 0) - 1
        if count > 0:
            self.held[key] = count
        else:
            self.held.pop(key, None)


@dataclass
class Limiters:
    """The limits of one server, per client: rates of HTTP requests, tables, hints, WebSocket messages
    and wrong keys, and how many WebSockets and tables of bots alone it holds. ``guessed`` counts the
    wrong keys tried since the server started, ``guesses_refused`` those refused unread once a client
    was over its rate."""

    tables: RateLimiter
    hints: RateLimiter
    messages: RateLimiter
    requests: RateLimiter
    guesses: RateLimiter
    sockets: Counter
    bot_tables_per_address: int | None = MAX_BOT_TABLES_PER_ADDRESS
    bot_tables: int | None = MAX_BOT_TABLES
    guessed: int = 0
    guesses_refused: int = 0

    @staticmethod
    def default(scale: float = 1.0) -> Limiters:
        """The server's limits; ``scale`` multiplies every per-client burst and count (and so the
        sustained rates); 0 turns the per-client limits off (the cap on bot tables over every address
        stays)."""

        def make(rate: Rate) -> RateLimiter:
            if scale <= 0:
                return RateLimiter(None)
            return RateLimiter(Rate(max(1, int(rate.burst * scale)), rate.per))

        def count(cap: int) -> int | None:
            return None if scale <= 0 else max(1, int(cap * scale))

        return Limiters(
            tables=make(TABLE_RATE),
            hints=make(HINT_RATE),
            messages=make(MESSAGE_RATE),
            requests=make(REQUEST_RATE),
            guesses=make(GUESS_RATE),
            sockets=Counter(count(MAX_SOCKETS_PER_ADDRESS)),
            bot_tables_per_address=count(MAX_BOT_TABLES_PER_ADDRESS),
        )

    def may_guess(self, client: str) -> bool:
        """False (and counted) if ``client`` tried too many wrong keys lately: whatever key it sends is
        then refused without being looked at. True if it may try one."""
        if self.guesses.has(client):
            return True
        self.guesses_refused += 1
        return False

    def wrong_key(self, client: str) -> None:
        """Count a wrong key tried by ``client`` (it spends one of its guesses)."""
        self.guessed += 1
        self.guesses.allow(client)


def guesses_message(limits: Limiters, client: str) -> str:
    """The sentence a client is refused with once it has tried too many wrong table ids and keys."""
    return (
        f"too many wrong table links from your address: at most {limits.guesses.rate.describe()}; "
        f"try again in {limits.guesses.wait(client):.0f} s"
    )


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``max_bytes`` is answered ``413`` with the server's
    JSON error (``{"error": {"code": "too_large", "message": ...}}``) and never reaches the app; one
    that has not all arrived within ``seconds`` is answered ``408`` (code ``too_slow``). The body is
    read (at most ``max_bytes`` of it) before the app sees the request."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on with its body, or answer 413 or 408."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await refuse(send, 413, "too_large", f"a request body has at most {self.max_bytes} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        break
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_bytes:
                        text = f"a request body has at most {self.max_bytes} bytes"
                        await refuse(send, 413, "too_large", text)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await refuse(send, 408, "too_slow", f"a request sends its whole body within {self.seconds:g} s")
            return
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class RequestLimit:
    """ASGI middleware: each client's HTTP requests to ``/api/`` (all but ``/api/health``, which load
    balancers and monitors ask) spend one of ``limiter``'s tokens; a request over the rate is answered
    ``429`` with the server's JSON error and never reaches the app."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 429."""
        path = str(scope.get("path", ""))
        if scope["type"] == "http" and path.startswith("/api/") and path != "/api/health":
            peer = scope.get("client")
            client = client_key(peer[0] if peer else None)
            if not self.limiter.allow(client):
                text = (
                    f"too many requests from your address: at most {self.limiter.rate.describe()}; "
                    f"try again in {self.limiter.wait(client):.0f} s"
                )
                await refuse(send, 429, RATE_LIMITED, text)
                return
        await self.app(scope, receive, send)


async def refuse(send: Send, status: int, code: str, text: str) -> None:
    """Answer an HTTP request with the server's JSON error, before it reaches the app."""
    payload = json_text({"error": {"code": code, "message": text}}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
