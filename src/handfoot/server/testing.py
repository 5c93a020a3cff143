"""Running a real server for tests and tools: ``running_server`` starts uvicorn on a free localhost port
in a background thread; ``SeatClient`` is a small synchronous WebSocket client of protocol 1."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import replace
from typing import Any

import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from handfoot.server.app import create_app
from handfoot.server.config import Settings
from handfoot.server.limits import SHUTDOWN_SECONDS, uvicorn_options


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(settings: Settings, start_timeout: float = 10.0) -> Iterator[str]:
    """Run the server for ``settings`` (on a free port if ``settings.port`` is 0) until the block ends;
    yields its base URL (``http://127.0.0.1:PORT``). The web server has ``handfoot serve``'s limits.
    Stopping waits for the lifespan's shutdown, and raises RuntimeError if the server does not stop."""
    if settings.port == 0:
        settings = replace(settings, port=free_port())
    config = uvicorn.Config(
        create_app(settings),
        host="127.0.0.1",
        port=settings.port,
        log_level="warning",
        lifespan="on",
        **uvicorn_options(),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="handfoot-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        thread.join(SHUTDOWN_SECONDS + start_timeout)
        if thread.is_alive():
            raise RuntimeError("the test server did not stop")


class SeatClient:
    """One WebSocket connection to a table: says hello, keeps every message it receives in ``received``.

    ``base`` is ``http://...`` or ``https://...`` (then the socket is ``wss://``); ``key`` and ``host`` are
    a private table's watch key and host key, said in the hello; ``connect_options`` go to
    ``websockets.sync.client.connect`` as they are (``ssl``, ``server_hostname``, ``sock``, ``origin``,
    ``open_timeout`` (default 5 s)...).
    """

    def __init__(
        self,
        base: str,
        table_id: str,
        token: str | None = None,
        name: str | None = None,
        *,
        key: str | None = None,
        host: str | None = None,
        **connect_options: Any,
    ) -> None:
        url = "ws" + base.removeprefix("http") + f"/ws/tables/{table_id}"
        self._stack = ExitStack()
        # No keepalive pings: a test may stop a server under an open client and should not print a traceback.
        options: dict[str, Any] = {"open_timeout": 5, "ping_interval": None} | connect_options
        connection = connect(url, **options)
        self.ws: ClientConnection = self._stack.enter_context(connection)
        self.received: list[dict[str, Any]] = []
        hello: dict[str, Any] = {"type": "hello", "protocol": 1}
        if token is not None:
            hello["token"] = token
        if name is not None:
            hello["name"] = name
        if key is not None:
            hello["key"] = key
        if host is not None:
            hello["host"] = host
        # If the server refused before reading the hello, its error message is still there to read.
        with suppress(ConnectionClosed):
            self.send(hello)
        self.welcome = self.recv()

    def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict as JSON, a str as it is)."""
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message (raises TimeoutError after ``timeout`` seconds)."""
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Receive until a message satisfies ``wanted``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message arrived")
            message = self.recv(left)
            if wanted(message):
                return message

    def state(self, version: int | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """The next ``state`` message (at ``version`` if given)."""
        return self.until(
            lambda m: m["type"] == "state" and (version is None or m["version"] == version), timeout
        )

    def latest_state(self) -> dict[str, Any]:
        """Ask for the state (``sync``) and return the answer (skipping older states still queued)."""
        self.send({"type": "sync"})
        states = [m for m in self.barrier() if m["type"] == "state"]
        return states[-1]

    def barrier(self) -> list[dict[str, Any]]:
        """Ping and wait for the pong; returns every message that arrived before it."""
        start = len(self.received)
        self.send({"type": "ping"})
        self.until(lambda m: m["type"] == "pong")
        return self.received[start:-1]

    def move(self, text: str, version: int) -> None:
        """Send a move made at ``version``."""
        self.send({"type": "move", "version": version, "move": text})

    def close(self) -> None:
        """Close the connection."""
        self._stack.close()
