"""Running the server as a program (``handfoot serve``): take the port first, so a port in use is one
clear error rather than a traceback (the database and Redis are checked by ``process.preflight``); run
uvicorn on the port; say where to open the game once it listens.

``listen(host, port)`` binds the socket (raising StartError with a sentence); ``serve(settings, sock,
on_ready)`` runs the application on it (the garbage collector set for a server: ``process.collector``)
until Ctrl+C or SIGTERM and calls ``on_ready`` once connections are being accepted;
``address_to_open`` / ``startup_line`` say where players can reach it.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Callable

import uvicorn
from fastapi import FastAPI

from handfoot.server.process.collector import tune_collector
from handfoot.server.process.connections import uvicorn_options
from handfoot.server.process.preflight import shown_database
from handfoot.server.settings import Settings

# Any address outside this machine: a UDP socket "connected" to it (no packet is sent) shows which of
# this computer's addresses faces the network.
_PROBE_ADDRESS = ("192.0.2.1", 9)
_EVERYWHERE = ("0.0.0.0", "::", "")
_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def host_port(host: str, port: int) -> str:
    """``host:port``, with an IPv6 address in brackets (``[::1]:8000``), as URLs and messages write it."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class StartError(Exception):
    """The server cannot listen where it was asked to (the message says why and what to do)."""


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (port 0: any free port), not yet accepting connections.

    Raises StartError for a port already in use, a port that needs administrator rights, an address that
    is not this computer's, or a host name that does not resolve.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    where = host_port(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            message = (
                f"port {port} on {host} is already in use (another handfoot server?); "
                "stop that program or choose another port with --port"
            )
        elif exc.errno == errno.EACCES:
            message = (
                f"port {port} on {host} needs administrator rights; allowed: a port from 1024 up "
                "(put a reverse proxy in front for 80 and 443, see docs/hosting.md)"
            )
        elif exc.errno == errno.EADDRNOTAVAIL:
            message = (
                f"{host} is not an address of this computer; allowed: one of its addresses, "
                "127.0.0.1 (this computer only) or 0.0.0.0 (every network it is on)"
            )
        elif isinstance(exc, socket.gaierror):
            message = f"host {host!r} cannot be found ({exc.strerror}); allowed: an address or a known name"
        else:
            message = f"cannot listen on {where}: {exc.strerror or exc}"
        raise StartError(message) from None
    return sock


def network_address() -> str | None:
    """This computer's address on its network (what other devices at home reach it at), or None if it
    is not on one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_PROBE_ADDRESS)
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def _http(host: str, port: int) -> str:
    return f"http://{host_port(host, port)}/"


def address_to_open(settings: Settings, port: int) -> str:
    """Where to open the game: the public URL if set; else ``localhost`` for a server on this computer
    only; else, for one listening everywhere, its network address (which works from this computer too,
    and makes invitation links that work from the others), or localhost if it is on no network."""
    if settings.public_url:
        return f"{settings.public_url}/"
    if settings.host in _EVERYWHERE:
        lan = network_address()
        return _http(lan, port) if lan else _http("localhost", port)
    if settings.host in _LOOPBACK:
        return _http("localhost", port)
    return _http(settings.host, port)


def startup_line(settings: Settings, port: int) -> str:
    """The line printed once the server listens: where to open it, where it listens, where its data is,
    and the trained policies tables may seat (if the operator listed any)."""
    data = shown_database(settings)
    listening = host_port(settings.host, port)
    policies = "".join(f"; policy {name}: {path}" for name, path in settings.policies)
    return (
        f"handfoot is ready: open {address_to_open(settings, port)}  "
        f"[listening on {listening}; data: {data}{policies}]"
    )


class _Server(uvicorn.Server):
    """uvicorn's server, calling ``on_ready`` once its sockets accept connections."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self._on_ready()


# What the WebSocket library says of every connection, through uvicorn's logger: uvicorn's own line
# ('... "WebSocket /ws/tables/ID" [accepted]') already names each one, so these are dropped.
_CONNECTION_CHATTER = frozenset({"connection open", "connection closed"})


class QuietConnections(logging.Filter):
    """Drops the "connection open" and "connection closed" lines, so a browser's connection to a table
    is one line of the log (uvicorn's "[accepted]" or its refusal) and a plain page none (uvicorn's line
    per request is off unless asked for)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for the connection chatter, true for every other record."""
        return record.msg not in _CONNECTION_CHATTER


def serve(app: FastAPI, settings: Settings, sock: socket.socket, on_ready: Callable[[], None]) -> None:
    """Run ``app`` (``create_app(settings)``) on ``sock`` (from ``listen``) until Ctrl+C or SIGTERM;
    ``on_ready`` is called once the application has started (its storage open) and the socket accepts
    connections."""
    options = uvicorn_options(settings.max_connections, settings.access_log)
    config = uvicorn.Config(app, log_level="info", **options)  # configures uvicorn's loggers
    logging.getLogger("uvicorn.error").addFilter(QuietConnections())
    tune_collector()
    _Server(config, on_ready).run(sockets=[sock])
