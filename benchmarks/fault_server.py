"""Faults and abuse against real server processes on loopback: kills, database faults, bad input, many
connections.

Five phases, each bounded in time, against ``handfoot serve`` child processes on free 127.0.0.1 ports:

1. ``bad input``: crafted bad requests (HTTP and WebSocket: huge numbers, deep nesting, lone
   surrogates, ids with NUL bytes, oversized bodies and frames, binary frames, junk) sent to one server.
   Counted: tried, answered as docs/protocol.md says (a 4xx JSON error, an ``error`` message, a
   documented close code), and anything else (a 5xx, a connection dropped without a close frame, a
   server that stops answering its health check).
2. ``connections``: ``--connections`` spectators held open on one server, plus ``--stalled`` spectators
   that ask for the state in a loop and never read; a player then moves and must get its state.
3. ``kills``: ``--processes`` servers on one PostgreSQL database and Redis; ``--tables`` tables of two
   invited seats and ``--bot-tables`` tables of one invited seat and a bot, each client playing through
   a random live server and reconnecting to another when its server dies. Every ``--kill-every``
   seconds one server is killed with SIGKILL and started again a second later. At the end every move a
   client saw accepted (its own state at the new version naming its move) is looked up in the
   database: a missing or different one is a lost move. Recovery time is, per kill, how long until
   every table that was in play had a move accepted again (bot tables wait for the bot lease, 5 s).
4. ``outage``: the same tables and clients, no kills; the servers reach PostgreSQL through a fault proxy
   (``FaultProxy`` of tests/helpers/server.py) that every ``--fault-every`` seconds refuses every connection
   (open ones reset) for ``--outage-seconds``. Counted as for kills, plus the tables broken (the server
   says so, or the stored moves no longer rebuild) and, per fault, how long after the database came back
   every table in play had a move accepted again.
5. ``freeze``: as ``outage``, but the proxy freezes PostgreSQL for ``--freeze-seconds`` (connections
   stay open, no byte passes: a stopped database or a partition without a reset). Also counted: the
   ping of a spectator socket on an unrelated table during the freezes (milliseconds), and how tables
   created during a freeze were answered.

    python benchmarks/fault_server.py                      # all five phases, ~5 minutes
    python benchmarks/fault_server.py --only kills --seconds 120 --kill-every 5
    python benchmarks/fault_server.py --only outage,freeze --seconds 90
    python benchmarks/fault_server.py --only input,connections --connections 1000
    python benchmarks/fault_server.py --quick               # every phase, small and short (the test's run)

Loopback only. PostgreSQL and Redis as the tests use them (``--postgres-url``, ``--redis-url``); a fresh
database is made for the run and dropped after it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from handfoot.server.store.storage import Storage
from handfoot.server.tables.rebuild import rebuild

# The server harness the tests use (tests/helpers/server.py) is shared with these benchmarks.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers.server import FREEZE, PASS, REFUSE, FaultProxy

HOST = "127.0.0.1"
PRESET = "kitchen-table"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """One ``handfoot serve`` child process (restartable on the same port)."""

    port: int
    args: list[str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "handfoot",
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            *self.args,
        ]
        env = dict(os.environ, HANDFOOT_RATE_LIMIT="0")  # every client here shares one address
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env
            )
        deadline = time.monotonic() + 120  # a loaded machine starts slowly
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"server on port {self.port} exited ({self.log})")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=5).status_code == 200:
                    return
            time.sleep(0.1)
        raise SystemExit(f"server on port {self.port} did not answer within 120 s")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        if self.process is not None and self.alive():
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


# --- 1. bad input ---------------------------------------------------------------------------------


def bad_http() -> list[tuple[str, str, bytes]]:
    """(method, path, body) of bad HTTP requests."""
    deep = b"[" * 5000 + b"]" * 5000
    return [
        ("POST", "/api/tables", b'{"preset": "kitchen-table", "players": ' + b"9" * 5000 + b"}"),
        ("POST", "/api/tables", b'{"preset": "kitchen-table", "options": ' + deep + b"}"),
        ("POST", "/api/tables", b'{"preset": "kitchen-table", "options": {"name": "x\\ud800"}}'),
        ("POST", "/api/tables", b'{"preset": "kitchen-table", "options": {"title": "\\u0000"}}'),
        (
            "POST",
            "/api/tables",
            b'{"preset": "kitchen-table", "options": {"summary": "' + b"x" * 70000 + b'"}}',
        ),
        ("POST", "/api/tables", b'{"preset": "\\ud800"}'),
        ("POST", "/api/tables", b"not json"),
        ("POST", "/api/tables", b"\xff\xfe\x00"),
        ("POST", "/api/tables", b'{"preset": "kitchen-table", "players": 1e999}'),
        (
            "POST",
            "/api/tables",
            b'{"preset": "kitchen-table", "seats": [' + b'{"kind": "bot"},' * 3000 + b"{}]}",
        ),
        ("POST", "/api/score", b'{"preset": "kitchen-table", "hands": ' + deep + b"}"),
        (
            "POST",
            "/api/score",
            b'{"preset": "kitchen-table", "hands": [[{"clean_books": ' + b"9" * 5000 + b"}]]}",
        ),
        ("GET", "/api/tables/ab%00cd", b""),
        ("GET", "/api/tables/%ED%A0%80", b""),
        ("GET", "/api/tables/" + "x" * 5000, b""),
        ("GET", "/api/tables/ab%00cd/record", b""),
        ("GET", "/api/tables/ab%00cd/replay/0", b""),
        ("POST", "/api/tables/ab%00cd/join", b'{"token": "12345678", "name": "x"}'),
        ("GET", "/api/presets/%00", b""),
    ]


def bad_frames() -> list[str | bytes]:
    """Bad WebSocket messages, sent after a good hello."""
    return [
        '{"type": "move", "version": ' + "9" * 5000 + ', "move": "draw"}',
        '{"type": "sync", "x": ' + "[" * 4000 + "]" * 4000 + "}",
        '{"type": "sync", "x": ' + '{"a":' * 1300 + "1" + "}" * 1300 + "}",
        '{"type": "move", "version": 0, "move": "discard \\ud800"}',
        '{"type": "hint", "version": -1}',
        '{"type": "move", "version": 1e999, "move": "draw"}',
        '{"type": "move", "version": 0, "move": "' + "x" * 9000 + '"}',
        '{"type": "sync", "pad": "' + "x" * 40000 + '"}',  # over the frame limit: closed with 1009
        "[]",
        "null",
        '"\\ud800"',
        b"\x00\x01\x02",
        "{" * 3000,
        '{"type": "hello", "protocol": 1}',
        '{"type": "move", "version": 0, "move": "pickup ' + "KS " * 190 + '"}',
    ]


async def input_phase(server: Server) -> dict[str, int]:
    """Send every bad input; count how each was answered."""
    tally = {"tried": 0, "documented": 0, "other": 0}
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        for method, path, body in bad_http():
            tally["tried"] += 1
            answer = await http.request(
                method, path, content=body, headers={"content-type": "application/json"}
            )
            ok = 400 <= answer.status_code < 500 and "error" in answer.json()
            tally["documented" if ok else "other"] += 1
            if not ok:
                print(
                    f"  HTTP {method} {path[:40]}: {answer.status_code} {answer.text[:80]}", file=sys.stderr
                )
        created = (await http.post("/api/tables", json={"preset": PRESET, "players": 2})).json()
    table_id, token = created["table"]["id"], created["invites"][0]["token"]
    ws_url = server.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    for frame in bad_frames():
        tally["tried"] += 1
        documented = False
        try:
            async with connect(ws_url, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
                await ws.recv()  # welcome
                await ws.recv()  # state
                await ws.send(frame)
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] in ("error", "refused"):
                        documented = True
                        break
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
            documented = code in (1009, 4400)
        except Exception as exc:
            print(f"  WS {str(frame)[:40]}: {type(exc).__name__}: {exc}", file=sys.stderr)
        tally["documented" if documented else "other"] += 1
    for table in ("ab\x00cd", "\ud800"):  # ids that are no ids, over WebSocket
        tally["tried"] += 1
        quoted = "".join(f"%{b:02X}" for b in table.encode("utf-8", "surrogatepass"))
        try:
            async with connect(server.base.replace("http://", "ws://") + f"/ws/tables/{quoted}") as ws:
                await ws.send('{"type": "hello", "protocol": 1}')
                message = json.loads(await ws.recv())
                tally["documented" if message.get("code") == "no_table" else "other"] += 1
        except ConnectionClosed as exc:  # closed (4404) before the hello was read
            tally["documented" if exc.rcvd and exc.rcvd.code == 4404 else "other"] += 1
        except Exception as exc:
            print(f"  WS id {table!r}: {type(exc).__name__}: {exc}", file=sys.stderr)
            tally["other"] += 1
    healthy = httpx.get(f"{server.base}/api/health", timeout=5).status_code == 200
    tally["healthy_after"] = int(healthy)
    return tally


# --- 2. connections held --------------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    """Resident memory of a process, MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def connections_phase(server: Server, count: int, stalled: int) -> dict[str, Any]:
    """Hold ``count`` spectators and ``stalled`` non-reading ones on one table; a player then moves."""
    assert server.process is not None
    before = rss_mib(server.process.pid)
    body = {"preset": PRESET, "players": 2, "public": True}  # spectators watch without a key
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        created = (await http.post("/api/tables", json=body)).json()
    table_id, tokens = created["table"]["id"], [i["token"] for i in created["invites"]]
    url = server.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    watchers: list[ClientConnection] = []
    limit = asyncio.Semaphore(50)

    readers: list[asyncio.Task[None]] = []

    async def watch() -> None:
        async with limit:
            ws = await connect(url, open_timeout=60)
            await ws.send('{"type": "hello", "protocol": 1}')
            if json.loads(await ws.recv())["type"] != "welcome":
                await ws.close()
                return  # not counted as held
            watchers.append(ws)
            readers.append(asyncio.create_task(_drain(ws)))  # a spectator that reads what it is sent

    started = time.monotonic()
    await asyncio.gather(*(watch() for _ in range(count)), return_exceptions=True)
    connect_s = time.monotonic() - started
    stalls = []
    for _ in range(stalled):  # they ask for the state again and again, and never read
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect((HOST, server.port))
        ws = await connect(url, sock=sock, max_queue=1, compression=None)
        await ws.send('{"type": "hello", "protocol": 1}')
        stalls.append(ws)
    flood = [asyncio.create_task(_flood(ws)) for ws in stalls]
    await asyncio.sleep(3)  # their answers pile up until the server drops them
    players = []
    for token in tokens:
        ws = await connect(url)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        players.append(ws)
    states = [await _until(ws, lambda m: m["type"] == "state") for ws in players]
    mover = states[0]["view"]["to_move"]
    moved_at = time.monotonic()
    await players[mover].send(json.dumps({"type": "move", "version": 0, "move": "draw"}))
    await _until(players[mover], lambda m: m["type"] == "state" and m["version"] == 1)
    move_ms = 1000 * (time.monotonic() - moved_at)
    deadline = time.monotonic() + 60
    while True:  # the stalled ones are dropped once 512 answers wait for them (or one waits 15 s)
        held = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()["spectators"]
        if held <= count or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.5)
    dropped_after_s = round(time.monotonic() - moved_at, 1)
    assert server.process is not None
    after = rss_mib(server.process.pid)
    for task in [*flood, *readers]:
        task.cancel()
    for ws in [*watchers, *players, *stalls]:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)
    return {
        "spectators_asked": count,
        "spectators_held": len(watchers),
        "connect_s": round(connect_s, 1),
        "stalled": stalled,
        "spectators_counted_after_move": held,
        "stalled_dropped": count + stalled - held,
        "stalled_dropped_within_s": dropped_after_s,
        "move_with_stalled_watchers_ms": round(move_ms, 1),
        "rss_mib_before": round(before, 1),
        "rss_mib_after": round(after, 1),
    }


async def _drain(ws: ClientConnection) -> None:
    with contextlib.suppress(Exception):
        async for _message in ws:
            pass


async def _flood(ws: ClientConnection) -> None:
    with contextlib.suppress(Exception):
        for _ in range(5000):
            await ws.send('{"type": "sync"}')


async def _until(ws: ClientConnection, wanted: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(
            await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
        )
        if wanted(message):
            return message


# --- 3. kills ---------------------------------------------------------------------------------------


@dataclass
class Run:
    """What the clients saw during the kill phase."""

    servers: list[Server]
    acked: dict[tuple[str, int], str] = field(default_factory=dict)  # (table, seq) -> move text
    accepted_at: dict[str, list[float]] = field(default_factory=dict)  # table -> times of accepted moves
    kills: list[float] = field(default_factory=list)  # when each kill was made (or each fault ended)
    faults_started: list[float] = field(default_factory=list)
    watch_keys: dict[str, str] = field(default_factory=dict)  # table -> its watch key (tables are private)
    reconnects: int = 0
    refused: int = 0
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def live_bases(self) -> list[str]:
        return [s.base for s in self.servers if s.alive()] or [s.base for s in self.servers]


def choose(legal: list[str], rng: random.Random) -> str:
    if "draw" in legal and rng.random() < 0.9:
        return "draw"
    if "yes" in legal or "no" in legal:
        return "yes" if "yes" in legal else "no"
    melds = [m for m in legal if m.startswith("meld")]
    if melds and rng.random() < 0.3:
        return rng.choice(melds)
    discards = [m for m in legal if m.startswith("discard")]
    return rng.choice(discards or legal)


async def seat_client(run: Run, table_id: str, seat: int, token: str, rng: random.Random) -> None:
    """Play one seat until the run stops, through any live server; reconnect when a server dies."""
    while not run.stop.is_set():
        base = rng.choice(run.live_bases())
        try:
            async with connect(
                base.replace("http://", "ws://") + f"/ws/tables/{table_id}", open_timeout=5
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
                pending: tuple[int, str] | None = None
                while not run.stop.is_set():
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    except TimeoutError:
                        continue
                    if message["type"] == "refused":
                        run.refused += 1
                        pending = None
                        await ws.send('{"type": "sync"}')
                        continue
                    if message["type"] != "state":
                        continue
                    last = message["last"]
                    if last is not None and last["seat"] != seat and table_id in run.accepted_at:
                        run.accepted_at[table_id].append(time.monotonic())  # someone else's move (a bot)
                    if pending and last and message["version"] == pending[0] + 1 and last["seat"] == seat:
                        # A staging step is shown as ``stage`` alone (its cards stay private): keep the
                        # move as sent (from the legal list), which is what the database stores.
                        shown = last["move"]
                        run.acked[(table_id, pending[0])] = pending[1] if shown == "stage" else shown
                        run.accepted_at.setdefault(table_id, []).append(time.monotonic())
                        pending = None
                    if message["table"]["finished"]:
                        return
                    legal = message["legal"]
                    if message["view"]["to_move"] == seat and legal and pending is None:
                        await asyncio.sleep(rng.uniform(0.05, 0.3))
                        move = choose(legal, rng)
                        pending = (message["version"], move)
                        await ws.send(
                            json.dumps({"type": "move", "version": message["version"], "move": move})
                        )
        except (OSError, ConnectionClosed, TimeoutError):
            pass
        run.reconnects += 1
        await asyncio.sleep(0.2)


async def killer(run: Run, every: float, rng: random.Random) -> None:
    """Kill a random live server every ``every`` seconds; start it again a second later."""
    while not run.stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.stop.wait(), every)
        if run.stop.is_set():
            return
        victims = [s for s in run.servers if s.alive()]
        if len(victims) < 2:
            continue
        victim = rng.choice(victims)
        run.kills.append(time.monotonic())
        victim.kill()
        await asyncio.sleep(1.0)
        await asyncio.to_thread(victim.start)


async def start_tables(run: Run, args: argparse.Namespace, rng: random.Random) -> list[asyncio.Task[None]]:
    """Create ``--tables`` tables of two invited seats and ``--bot-tables`` of one invited seat and a
    bot, spread over the servers, and start a client for each invited seat."""
    servers = run.servers
    tasks = []
    async with httpx.AsyncClient(timeout=30) as http:
        for index in range(args.tables + args.bot_tables):
            seats: list[dict[str, Any]] = [{"kind": "invite"}, {"kind": "invite"}]
            if index >= args.tables:
                seats[1] = {"kind": "bot", "bot": "easy"}
            base = servers[index % len(servers)].base
            body = {"preset": PRESET, "players": 2, "seats": seats}
            created = (await http.post(f"{base}/api/tables", json=body)).json()
            table_id = created["table"]["id"]
            run.accepted_at[table_id] = []
            run.watch_keys[table_id] = created["watch_key"]
            for invite in created["invites"]:
                seat_rng = random.Random(rng.getrandbits(64))
                tasks.append(
                    asyncio.create_task(seat_client(run, table_id, invite["seat"], invite["token"], seat_rng))
                )
    return tasks


async def kills_phase(servers: list[Server], db_url: str, args: argparse.Namespace) -> dict[str, Any]:
    run = Run(servers)
    rng = random.Random(args.seed)
    tasks = await start_tables(run, args, rng)
    kill_task = asyncio.create_task(killer(run, args.kill_every, random.Random(args.seed + 1)))
    started = time.monotonic()
    await asyncio.sleep(args.seconds)
    run.stop.set()
    await asyncio.gather(kill_task, *tasks, return_exceptions=True)
    elapsed = time.monotonic() - started
    for server in servers:  # make sure every process is up, then stop them all before reading the database
        if not server.alive():
            await asyncio.to_thread(server.start)
    lost, differ = check_moves(db_url, run.acked)
    bot_ids = set(list(run.accepted_at)[args.tables :])
    people = recovery(run, [t for t in run.accepted_at if t not in bot_ids])
    bots = recovery(run, [t for t in run.accepted_at if t in bot_ids])
    return {
        "seconds": round(elapsed),
        "processes": len(servers),
        "tables": args.tables,
        "bot_tables": args.bot_tables,
        "kills": len(run.kills),
        "moves_acknowledged": len(run.acked),
        "moves_lost": lost,
        "moves_stored_differently": differ,
        "reconnects": run.reconnects,
        "refused_stale": run.refused,
        "recovery_s_people_median": _median(people),
        "recovery_s_people_max": max(people, default=None),
        "recovery_s_bots_median": _median(bots),
        "recovery_s_bots_max": max(bots, default=None),
    }


# --- 4. and 5. the database refusing connections, and frozen ----------------------------------------


async def faulter(run: Run, proxy: FaultProxy, mode: str, every: float, length: float) -> None:
    """Every ``every`` seconds put the database in ``mode`` (REFUSE or FREEZE) for ``length`` seconds;
    ``run.kills`` keeps when it came back each time (recovery is counted from there)."""
    while not run.stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.stop.wait(), every)
        if run.stop.is_set():
            return
        await asyncio.to_thread(proxy.set, mode)
        run.faults_started.append(time.monotonic())
        await asyncio.sleep(length)
        await asyncio.to_thread(proxy.set, PASS)
        run.kills.append(time.monotonic())


async def pinger(run: Run, base: str, table_id: str, samples: list[tuple[float, float]]) -> None:
    """A spectator of ``table_id`` pinging every 50 ms: (when, round trip in seconds) into ``samples``."""
    async with connect(base.replace("http://", "ws://") + f"/ws/tables/{table_id}", open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1}))
        while not run.stop.is_set():
            start = time.monotonic()
            await ws.send('{"type": "ping"}')
            await _until(ws, lambda m: m["type"] == "pong", 60)
            samples.append((start, time.monotonic() - start))
            await asyncio.sleep(0.05)


async def creator(run: Run, base: str, statuses: list[int]) -> None:
    """One table created a second into each fault (while the database is away): the answers' statuses."""
    seen = 0
    async with httpx.AsyncClient(timeout=60) as http:
        while not run.stop.is_set():
            await asyncio.sleep(0.1)
            if len(run.faults_started) > seen:
                seen = len(run.faults_started)
                await asyncio.sleep(1.0)
                with contextlib.suppress(httpx.HTTPError):
                    answer = await http.post(f"{base}/api/tables", json={"preset": PRESET, "players": 2})
                    statuses.append(answer.status_code)


async def database_phase(
    servers: list[Server], proxy: FaultProxy, db_url: str, args: argparse.Namespace, mode: str
) -> dict[str, Any]:
    """The ``outage`` (REFUSE) or ``freeze`` (FREEZE) phase."""
    run = Run(servers)
    rng = random.Random(args.seed + (2 if mode == REFUSE else 3))
    tasks = await start_tables(run, args, rng)
    length = args.outage_seconds if mode == REFUSE else args.freeze_seconds
    pings: list[tuple[float, float]] = []
    statuses: list[int] = []
    async with httpx.AsyncClient(timeout=30) as http:
        watched = await http.post(f"{servers[0].base}/api/tables", json={"preset": PRESET, "public": True})
    helpers = [
        asyncio.create_task(faulter(run, proxy, mode, args.fault_every, length)),
        asyncio.create_task(pinger(run, servers[0].base, watched.json()["table"]["id"], pings)),
        asyncio.create_task(creator(run, servers[-1].base, statuses)),
    ]
    started = time.monotonic()
    await asyncio.sleep(args.seconds)
    run.stop.set()
    await asyncio.gather(*helpers, *tasks, return_exceptions=True)
    elapsed = time.monotonic() - started
    lost, differ = check_moves(db_url, run.acked)
    broken = await tables_broken(servers, db_url, run.watch_keys)
    times = recovery(run, list(run.accepted_at))
    windows = list(zip(run.faults_started, run.kills, strict=False))  # the last may still be open

    def in_fault(when: float) -> bool:
        return any(start <= when < end for start, end in windows)

    during = [rtt for when, rtt in pings if in_fault(when)]
    calm = [rtt for when, rtt in pings if not in_fault(when)]
    return {
        "seconds": round(elapsed),
        "processes": len(servers),
        "tables": args.tables,
        "bot_tables": args.bot_tables,
        "faults": len(run.kills),
        "fault_seconds": length,
        "moves_acknowledged": len(run.acked),
        "moves_lost": lost,
        "moves_stored_differently": differ,
        "tables_broken": broken,
        "refused": run.refused,
        "recovery_s_median": _median(times),
        "recovery_s_max": max(times, default=None),
        "ping_ms_max_during_faults": round(1000 * max(during), 1) if during else None,
        "ping_ms_median_otherwise": round(1000 * statistics.median(calm), 1) if calm else None,
        "tables_created_during_faults": {str(code): statuses.count(code) for code in sorted(set(statuses))},
    }


async def tables_broken(servers: list[Server], db_url: str, keys: dict[str, str]) -> int:
    """How many of the tables (id -> watch key) a server reports broken (or fails to answer for), or
    whose stored moves no longer rebuild."""
    broken = set()
    table_ids = list(keys)
    async with httpx.AsyncClient(timeout=30) as http:
        for server in servers:
            for table_id in table_ids:
                headers = {"X-Handfoot-Key": keys[table_id]}
                answer = await http.get(f"{server.base}/api/tables/{table_id}", headers=headers)
                if answer.status_code != 200 or answer.json()["broken"] is not None:
                    broken.add(table_id)
    storage = Storage(db_url)
    try:
        for table_id in table_ids:
            stored = storage.load(table_id)
            if stored is None or rebuild(stored).problem is not None:
                broken.add(table_id)
    finally:
        storage.close()
    return len(broken)


def recovery(run: Run, tables: list[str]) -> list[float]:
    """Per kill (or the database's return after a fault), how long until every one of ``tables`` that was
    in play then (a move in the 5 s before) had a move accepted again (seconds, rounded)."""
    out = []
    for killed in run.kills:
        gaps = []
        for table_id in tables:
            times = run.accepted_at[table_id]
            began = killed - _fault_length(run, killed)
            before = [t for t in times if t < began]
            after = [t for t in times if t >= killed]
            if before and began - before[-1] < 5 and after:
                gaps.append(after[0] - killed)
        if gaps:
            out.append(round(max(gaps), 2))
    return out


def _fault_length(run: Run, ended: float) -> float:
    """How long the database fault that ended at ``ended`` lasted (0 for a kill)."""
    for start, end in zip(run.faults_started, run.kills, strict=False):
        if end == ended:
            return end - start
    return 0.0


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def check_moves(db_url: str, acked: dict[tuple[str, int], str]) -> tuple[int, int]:
    """How many acknowledged moves are missing from the database, and how many differ there."""
    engine = create_engine(db_url.replace("postgresql://", "postgresql+psycopg://", 1))
    stored: dict[tuple[str, int], str] = {}
    with engine.connect() as conn:
        for row in conn.execute(text("SELECT table_id, seq, move FROM hf_moves")):
            stored[(row.table_id, row.seq)] = row.move
    engine.dispose()
    lost = sum(1 for key in acked if key not in stored)
    differ = sum(1 for key, move in acked.items() if key in stored and stored[key] != move)
    return lost, differ


# --- main -------------------------------------------------------------------------------------------


QUICK = {
    "tables": 2,
    "bot_tables": 1,
    "seconds": 8.0,
    "kill_every": 3.0,
    "fault_every": 3.0,
    "outage_seconds": 1.0,
    "freeze_seconds": 2.0,
    "connections": 20,
    "stalled": 2,
}


def apply_quick(args: argparse.Namespace) -> None:
    """Shrink ``args`` to the quick form (``QUICK``): every phase still runs its whole path (two kills,
    two database faults of each kind, bot tables, stalled spectators) and prints the same figures."""
    for name, value in QUICK.items():
        setattr(args, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", default="input,connections,kills,outage,freeze", help="phases to run, comma-separated"
    )
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--bot-tables", type=int, default=6)
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="length of the kill, outage and freeze phases"
    )
    parser.add_argument("--kill-every", type=float, default=6.0)
    parser.add_argument("--fault-every", type=float, default=15.0, help="seconds between database faults")
    parser.add_argument("--outage-seconds", type=float, default=5.0)
    parser.add_argument("--freeze-seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--stalled", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: the phases chosen, each as small and short as still shows its figures",
    )
    args = parser.parse_args()
    if args.quick:
        apply_quick(args)
    phases = set(args.only.split(","))
    admin = create_engine(
        args.postgres_url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )
    name = f"hf_fault_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    db_url = make_url(args.postgres_url).set(database=name).render_as_string(hide_password=False)
    tmp = Path(tempfile.mkdtemp(prefix="handfoot-fault-"))
    target = make_url(args.postgres_url)
    proxy = FaultProxy((target.host or HOST, target.port or 5432)).__enter__()  # passes bytes until a fault
    common = ["--database-url", proxy.url(db_url), "--redis-url", args.redis_url, "--bot-delay", "0.3"]
    servers = [
        Server(free_port(), [*common, "--data", str(tmp / f"s{i}")], tmp / f"server{i}.log")
        for i in range(max(1, args.processes))
    ]
    results: dict[str, Any] = {}
    try:
        for server in servers:
            server.start()
        if "input" in phases:
            results["bad input"] = asyncio.run(input_phase(servers[0]))
            print("bad input:", results["bad input"], flush=True)
        if "connections" in phases:
            results["connections"] = asyncio.run(
                connections_phase(servers[0], args.connections, args.stalled)
            )
            print("connections:", results["connections"], flush=True)
        if "kills" in phases:
            results["kills"] = asyncio.run(kills_phase(servers, db_url, args))
            print("kills:", results["kills"], flush=True)
        for phase, mode in (("outage", REFUSE), ("freeze", FREEZE)):
            if phase in phases:
                results[phase] = asyncio.run(database_phase(servers, proxy, db_url, args, mode))
                print(f"{phase}:", results[phase], flush=True)
    finally:
        for server in servers:
            server.stop()
        proxy.__exit__(None, None, None)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    print(json.dumps(results, indent=2))
    print(f"(server logs in {tmp})")


if __name__ == "__main__":
    main()
