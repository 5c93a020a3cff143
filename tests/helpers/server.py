"""Running a real server for the tests and the benchmarks: ``running_server`` starts uvicorn on a free
localhost port in a background thread; ``SeatClient`` is a small synchronous WebSocket client of protocol 1;
``FaultProxy`` stands between a server and its database to make the database refuse connections or
freeze. ``create_table`` and ``submit`` make tables and moves without a running server."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from handfoot.engine import Game
from handfoot.record import Record, parse_record
from handfoot.rules import load_rules
from handfoot.server.app import create_app
from handfoot.server.limits import SHUTDOWN_SECONDS
from handfoot.server.process.connections import uvicorn_options
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, StorageError, TableRow
from handfoot.server.tables.moves import Accepted, Refused, _refused_write, _write, check_and_play, commit
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.jsonout import Encoded


def _below_ephemeral_ports() -> range:
    """The ports the tests hand out: below the kernel's ephemeral range, from which it picks the ports of
    ``bind(0)`` and of outgoing connections, so no port handed out here is taken by those meanwhile."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    low = low if low > 12000 else 32768  # a machine whose range starts low: the usual one is assumed
    return range(10000, low)


def _worker_share() -> list[int]:
    """This pytest-xdist worker's share of the ports (every n-th one, n the number of workers; all of them
    outside xdist), beginning at a random place so that two runs at once are unlikely to meet."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    ports = list(_below_ephemeral_ports())[int(worker) if worker.isdigit() else 0 :: max(count, 1)]
    start = random.randrange(len(ports))
    return ports[start:] + ports[:start]


_SHARE = _worker_share()
_next_port = 0
_port_lock = threading.Lock()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now, and that no other call hands out until
    this worker's share of ports has gone round (thousands of calls): a port chosen now and bound only
    later by a program the test starts stays this test's. Each pytest-xdist worker has a share of its own,
    and none is in the kernel's ephemeral range (so neither another test's ``bind(0)`` nor an outgoing
    connection takes it)."""
    global _next_port
    with _port_lock:
        for _attempt in range(len(_SHARE)):
            port = _SHARE[_next_port % len(_SHARE)]
            _next_port += 1
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    continue  # something else holds it
                return port
    raise RuntimeError("no free port below the ephemeral range")


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
        **uvicorn_options(settings.max_connections, settings.access_log),
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
    a private table's watch key and host key, said in the hello (with ``pace``, the hello says this client
    shows each hand's score and sends ``ready`` after; with ``program``, that a program plays the seat);
    ``connect_options`` go to
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
        pace: bool = False,
        program: bool = False,
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
        if pace:
            hello["pace"] = True
        if program:
            hello["program"] = True
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


PASS, REFUSE, FREEZE = "pass", "refuse", "freeze"


class FaultProxy:
    """A TCP proxy on a free 127.0.0.1 port in front of ``target`` (host, port), run by an asyncio loop
    in a thread of its own, whose ``mode`` a test switches at any time:

    - ``pass``: bytes flow both ways;
    - ``refuse``: the database is down: open connections are reset and new ones refused (the proxy
      stops listening), until the mode changes;
    - ``freeze``: the database stops answering: connections stay open (new ones are accepted) but no
      byte is forwarded either way until the mode changes, as a stopped database server or a network
      partition without a reset looks.

    Use it as a context manager (``with FaultProxy(("127.0.0.1", 5432)) as proxy:``); ``url(db_url)``
    is ``db_url`` pointed at the proxy.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.mode = PASS
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="handfoot-fault-proxy", daemon=True)
        self.server: asyncio.Server | None = None
        self.flowing = asyncio.Event()
        self.open: set[asyncio.StreamWriter] = set()

    def __enter__(self) -> FaultProxy:
        self.thread.start()
        self._call(self._listen())
        self._call(self._set(PASS))
        return self

    def __exit__(self, *_exc: object) -> None:
        self._call(self._shut())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    def url(self, db_url: str) -> str:
        """``db_url`` (a SQLAlchemy URL) with its host and port replaced by the proxy's."""
        return make_url(db_url).set(host="127.0.0.1", port=self.port).render_as_string(hide_password=False)

    def set(self, mode: str) -> None:
        """Switch to ``mode`` (``PASS``, ``REFUSE`` or ``FREEZE``); done when this returns."""
        if mode not in (PASS, REFUSE, FREEZE):
            raise ValueError(f"mode {mode!r}; allowed: {PASS}, {REFUSE}, {FREEZE}")
        self._call(self._set(mode))

    def _call(self, job: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(job, self.loop).result(10)

    async def _set(self, mode: str) -> None:
        self.mode = mode
        if mode == REFUSE:
            await self._stop_listening()
            for writer in list(self.open):
                writer.transport.abort()  # a reset, as a database that went away
            self.open.clear()
        elif self.server is None:
            await self._listen()
        if mode == PASS:
            self.flowing.set()
        else:
            self.flowing.clear()

    async def _listen(self) -> None:
        if self.server is None:
            self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port, reuse_address=True)

    async def _stop_listening(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    async def _shut(self) -> None:
        await self._stop_listening()
        for writer in list(self.open):
            writer.transport.abort()
        self.open.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.mode == REFUSE:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.open.update((writer, up_writer))
        await asyncio.gather(
            self._pump(reader, up_writer), self._pump(up_reader, writer), return_exceptions=True
        )
        for end in (writer, up_writer):
            self.open.discard(end)
            end.transport.abort()

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        """Copy bytes from ``source`` to ``sink`` while the mode lets them through."""
        while True:
            data = await source.read(65536)
            if not data:
                sink.transport.abort()
                return
            await self.flowing.wait()
            if sink.transport.is_closing():
                return
            sink.write(data)
            await sink.drain()


# --- tables without a running server --------------------------------------------------------------


def create_table(
    service: TableService,
    preset: str,
    options: dict[str, Any],
    players: int | None,
    seats: Sequence[tuple[str, str | None]],
) -> tuple[LiveTable, dict[int, str]]:
    """``TableService.open_table`` for a private table, storing it in this thread (no event loop needed);
    returns the table and the token of every invited seat."""
    made, row, rows = service.new_table(preset, options, players, seats)
    service.storage.create_table(row, rows)
    return service.keep(made).live, made.tokens


def submit(
    service: TableService, live: LiveTable, token: str | None, version: int, text: str
) -> Accepted | Refused:
    """Check, play, store and commit one move at ``live`` in this thread (no event loop needed; call
    with the table's lock held if one runs). Refuses as ``check_and_play`` does; a move that could not
    be stored is refused as ``play`` refuses it, and is not retried."""
    played = check_and_play(service, live, token, version, text)
    if isinstance(played, Refused):
        return played
    try:
        _write(service, live, played)
    except StorageError as exc:
        return _refused_write(live, played, exc)
    return commit(live, played)


# --- a finished game stored before a server starts -------------------------------------------------------

PLANTED_HAND = Path(__file__).resolve().parent.parent / "fixtures" / "review" / "planted-wild-4.json"
ONE_HAND = {"extends": "kitchen-table", "game_end": "hands", "hands_per_game": 1}


def planted_game_moves() -> tuple[Record, list[str], Game]:
    """The review tests' planted four-player hand (``tests/fixtures/review``) played to its end as a
    one-hand game under ``ONE_HAND``: its record, the moves as they were sent (a lay-down of several
    groups written at once is one of them) and the finished game."""
    record = parse_record(json.loads(PLANTED_HAND.read_text(encoding="utf-8"))["record"])
    game = Game(load_rules(ONE_HAND), record.players, record.seed, record.dealer)
    sent: list[str] = []
    for text in record.moves:
        game.apply_text(text)
        sent.append(text)
        if game.finished:
            break
    assert game.finished
    return record, sent, game


def store_game(
    settings: Settings,
    row: TableRow,
    seats: Sequence[SeatRow],
    moves: Sequence[tuple[int, str]] = (),
    finished: bool = False,
) -> None:
    """Store the table ``row`` with ``seats`` and its ``moves`` (seat, text; the seat is -1 where it is
    not known), in ``settings``' database (prepared here), before a server is started on it; with
    ``finished``, the last move ended the game."""
    settings.prepare()
    storage = Storage(settings.db_url)
    try:
        storage.create_table(row, list(seats))
        for seq, (seat, text) in enumerate(moves):
            storage.append_move(row.id, seq, seat, text, finished=finished and seq == len(moves) - 1)
    finally:
        storage.close()


def store_planted_game(
    settings: Settings, row_for: Callable[[Record], TableRow], seats: list[SeatRow]
) -> list[str]:
    """Store ``planted_game_moves``'s finished game as the table ``row_for(record)`` with ``seats``
    (``store_game``); the moves sent."""
    record, sent, _game = planted_game_moves()
    moves = [(seq % record.players, text) for seq, text in enumerate(sent)]
    store_game(settings, row_for(record), seats, moves, finished=True)
    return sent


def sent_json(message: dict[str, Any] | Encoded) -> dict[str, Any]:
    """A message as a connection's ``send`` is given it (a dict, or JSON text written once for several
    connections), read back as the dict its client receives."""
    if isinstance(message, Encoded):
        value: dict[str, Any] = json.loads(message.text)
        return value
    return message
