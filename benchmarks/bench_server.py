"""Server load: N tables played over real WebSocket connections against one server process.

The script starts the server itself (``handfoot`` app under uvicorn, in a child process, on a free
localhost port, bots' delay 0, a fresh SQLite file unless ``--database-url`` is given), creates N tables
of two invited seats through the lobby, connects one WebSocket client per seat and lets the clients
play: the seat to move picks a legal move from its own ``state`` message (mostly draw, then a meld now
and then, else a discard) and sends it. A table whose game ends is replaced by a new one, so N tables
are always in play. For each N it measures, after a warm-up, moves per second and the latency of a
move: from the client sending it to that client receiving its own ``state`` at the new version.

    python benchmarks/bench_server.py                       # 10, 100 and 500 tables, 10 s each
    python benchmarks/bench_server.py --tables 10,50 --seconds 5
    python benchmarks/bench_server.py --database-url postgresql://postgres@127.0.0.1/test
    python benchmarks/bench_server.py --database-url postgresql://postgres@127.0.0.1/test --processes 2

``--processes K`` starts K servers on one PostgreSQL database and one Redis (each seat of a table on a
different server, so every move crosses the fan-out); ``--think S`` makes the clients pause about S
seconds before each move (as people, or the server's own bots, do).

Loopback only; every phase is bounded in time and the script stops by itself (the servers with it).
``--profile FILE`` runs the server under cProfile and writes its statistics to FILE at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
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
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
SETUP_CONCURRENCY = 16  # tables being created and connected at once
PRESET = "kitchen-table"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


# --- the server (child process) --------------------------------------------------------------------


def serve(
    port: int, data: str, database_url: str, redis_url: str, profile: str, deflate: bool, gc_default: bool
) -> None:
    """Run the server in this process until SIGTERM or SIGINT (under cProfile if ``profile``)."""
    import uvicorn

    from handfoot.server.app import create_app
    from handfoot.server.process.collector import tune_collector
    from handfoot.server.process.connections import uvicorn_options
    from handfoot.server.settings import load_settings

    settings = load_settings(
        data_dir=data,
        host=HOST,
        port=port,
        database_url=database_url,
        redis_url=redis_url,
        bot_delay=0.0,
        rate_limit=0.0,  # every client is on 127.0.0.1: per-address limits would throttle the load itself
    )
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings),
            host=HOST,
            port=port,
            log_level="warning",
            **uvicorn_options(),
            ws_max_queue=64,
            ws_per_message_deflate=deflate,
        )
    )
    if not gc_default:
        tune_collector()  # as `handfoot serve` does (server/process/collector.py)
    if not profile:
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
        return
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        profiler.disable()
        profiler.dump_stats(profile)


def start_server(
    data: str, database_url: str, redis_url: str, profile: str, deflate: bool, gc_default: bool = False
) -> tuple[subprocess.Popen[bytes], str]:
    """Start the server child process; returns it and its base URL once it answers."""
    port = free_port()
    command = [sys.executable, __file__, "--serve", str(port), "--data", data]
    if database_url:
        command += ["--database-url", database_url]
    if redis_url:
        command += ["--redis-url", redis_url]
    if profile:
        command += ["--profile", profile]
    if not deflate:
        command += ["--no-deflate"]
    if gc_default:
        command += ["--gc-default"]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    base = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with code {process.returncode}")
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.terminate()
    raise SystemExit("the server did not answer within 30 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop the server child (SIGINT: uvicorn shuts down and the profile is written)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


# --- the clients ------------------------------------------------------------------------------------


@dataclass
class Meter:
    """What the clients saw: move latencies (seconds) in the measured window, refusals, finished games;
    ``ready`` counts tables set up, ``go`` is set when they may start playing."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    setups: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(SETUP_CONCURRENCY))
    ready: int = 0
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    finished: int = 0
    errors: int = 0


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (0.0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def choose(legal: list[str], rng: random.Random) -> str:
    """A simple legal move: usually draw; a meld now and then; else a discard (or whatever is legal)."""
    if "draw" in legal and rng.random() < 0.9:
        return "draw"
    if "yes" in legal or "no" in legal:
        return "yes" if rng.random() < 0.5 else "no"
    melds = [m for m in legal if m.startswith("meld")]
    if melds and rng.random() < 0.3:
        return rng.choice(melds)
    discards = [m for m in legal if m.startswith("discard")]
    return rng.choice(discards or legal)


async def play_seat(
    ws: ClientConnection, seat: int, meter: Meter, rng: random.Random, stop: asyncio.Event, think: float
) -> bool:
    """Play one seat until the game ends (True) or ``stop`` is set (False), pausing about ``think``
    seconds (0.5 to 1.5 times it) before each move."""
    sent_at: float | None = None
    waiting_for = -1
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), 1.0)
        except TimeoutError:
            continue
        message: dict[str, Any] = json.loads(raw)
        kind = message["type"]
        if kind == "refused":
            meter.refused += 1
            sent_at = None
            await ws.send('{"type": "sync"}')
            continue
        if kind != "state":
            continue
        version = message["version"]
        if sent_at is not None and version >= waiting_for:
            if meter.measuring:
                meter.latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        if message["table"]["finished"]:
            return True
        legal = message["legal"]
        if message["view"]["to_move"] == seat and legal and sent_at is None:
            move = choose(legal, rng)
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            waiting_for = version + 1
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "version": version, "move": move}))
    return False


async def new_table(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    """Create a table of two invited seats; its id and seat tokens."""
    response = await http.post("/api/tables", json={"preset": PRESET, "players": 2})
    response.raise_for_status()
    created = response.json()
    return created["table"]["id"], [invite["token"] for invite in created["invites"]]


async def run_table(
    http: httpx.AsyncClient,
    seat_bases: list[str],
    meter: Meter,
    rng: random.Random,
    stop: asyncio.Event,
    think: float,
) -> None:
    """Keep one table in play until ``stop``: a finished game is replaced by a new table. The table is
    created through ``http``; seat ``i`` connects to the server at ``seat_bases[i]``."""
    first = True
    while not stop.is_set():
        sockets = []
        table_id = "(not created)"
        try:
            async with meter.setups:
                table_id, tokens = await new_table(http)
                for seat, token in enumerate(tokens):
                    ws_base = seat_bases[seat].replace("http://", "ws://")
                    ws = await connect(f"{ws_base}/ws/tables/{table_id}", max_queue=64, open_timeout=30)
                    await ws.send(
                        json.dumps({"type": "hello", "protocol": 1, "token": token, "name": f"P{seat}"})
                    )
                    sockets.append(ws)
            if first:
                first = False
                meter.ready += 1
                await meter.go.wait()
            results = await asyncio.gather(
                *(play_seat(ws, seat, meter, rng, stop, think) for seat, ws in enumerate(sockets))
            )
            if any(results):
                meter.finished += 1
        except Exception as exc:  # a dropped connection: count it and start a fresh table
            meter.errors += 1
            if first:  # do not hold the others back
                first = False
                meter.ready += 1
            print(f"  table {table_id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            await asyncio.sleep(0.1)
        finally:
            for ws in sockets:
                await ws.close()


async def phase(
    bases: list[str], pids: list[int], tables: int, warmup: float, seconds: float, seed: int, think: float
) -> dict[str, Any]:
    """Play ``tables`` tables at once; measure for ``seconds`` after ``warmup`` seconds. With several
    servers, table ``i`` is created on server ``i`` and its seats sit on servers ``i`` and ``i + 1``
    (round the list), so every move reaches the other seat through the fan-out."""
    meter = Meter()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=50)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30, limits=limits))
            for base in bases
        ]
        rng = random.Random(seed)
        tasks = []
        for index in range(tables):
            seat_bases = [bases[(index + seat) % len(bases)] for seat in range(2)]
            table_rng = random.Random(rng.getrandbits(64))
            tasks.append(
                asyncio.create_task(
                    run_table(clients[index % len(bases)], seat_bases, meter, table_rng, stop, think)
                )
            )
        deadline = time.monotonic() + 300
        while meter.ready < tables and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        meter.go.set()
        await asyncio.sleep(warmup)
        meter.measuring = True
        started = time.perf_counter()
        cpu = sum(map(cpu_seconds, pids)), time.process_time()
        await asyncio.sleep(seconds)
        meter.measuring = False
        elapsed = time.perf_counter() - started
        server_cpu = sum(map(cpu_seconds, pids)) - cpu[0]
        client_cpu = time.process_time() - cpu[1]
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    lat = sorted(meter.latencies)
    count = len(lat)
    return {
        "tables": tables,
        "moves": count,
        "moves_per_s": count / elapsed,
        "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99_ms": 1000 * lat[min(count - 1, int(0.99 * count))] if lat else float("nan"),
        "max_ms": 1000 * lat[-1] if lat else float("nan"),
        "server_cpu_ms": 1000 * server_cpu / max(count, 1),
        "server_cpu_share": server_cpu / elapsed,
        "client_cpu_share": client_cpu / elapsed,
        "refused": meter.refused,
        "finished": meter.finished,
        "errors": meter.errors,
    }


def main() -> None:
    """Parse the arguments; run the server (``--serve``) or the benchmark."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tables", default="10,100,500", help="table counts, one phase each (default 10,100,500)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per phase (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring (default 3)")
    parser.add_argument(
        "--database-url", default="", help="a SQLAlchemy URL (default: SQLite in a temp folder)"
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a client waits before moving, about (default 0)"
    )
    parser.add_argument(
        "--no-deflate", action="store_true", help="serve WebSockets without permessage-deflate compression"
    )
    parser.add_argument(
        "--gc-default",
        action="store_true",
        help="keep Python's default garbage-collector thresholds in the server (handfoot serve tunes them)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes sharing --database-url and --redis-url"
    )
    parser.add_argument(
        "--redis-url", default="", help="Redis for --processes above 1 (default redis://127.0.0.1:6379/0)"
    )
    parser.add_argument("--profile", default="", help="write the server's cProfile statistics to this file")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--data", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(
            args.serve,
            args.data,
            args.database_url,
            args.redis_url,
            args.profile,
            not args.no_deflate,
            args.gc_default,
        )
        return
    counts = [int(n) for n in args.tables.split(",") if n.strip()]
    if not counts or any(n < 1 or n > 2000 for n in counts):
        raise SystemExit("--tables: comma-separated counts from 1 to 2000")
    if not 0 < args.seconds <= 120 or not 0 <= args.warmup <= 60 or not 0 <= args.think <= 10:
        raise SystemExit("--seconds: more than 0 and at most 120; --warmup: 0 to 60; --think: 0 to 10")
    if not 1 <= args.processes <= 8:
        raise SystemExit("--processes: 1 to 8")
    redis_url = args.redis_url
    if args.processes > 1:
        if not args.database_url.startswith("postgres"):
            raise SystemExit("--processes above 1 needs a PostgreSQL --database-url")
        redis_url = redis_url or "redis://127.0.0.1:6379/0"
    with tempfile.TemporaryDirectory(prefix="handfoot-bench-") as data:
        servers = []
        try:
            for index in range(args.processes):
                folder = os.path.join(data, str(index))
                profile = f"{args.profile}.{index}" if args.profile and args.processes > 1 else args.profile
                servers.append(
                    start_server(
                        folder, args.database_url, redis_url, profile, not args.no_deflate, args.gc_default
                    )
                )
        except BaseException:
            for process, _base in servers:
                stop_server(process)
            raise
        bases = [base for _process, base in servers]
        pids = [process.pid for process, _base in servers]
        storage = args.database_url.split("://")[0] if args.database_url else "sqlite"
        print(
            f"servers {' '.join(bases)} ({storage}{', redis' if redis_url else ''}, "
            f"deflate {'off' if args.no_deflate else 'on'}, "
            f"collector {'default' if args.gc_default else 'tuned'}); {os.cpu_count()} cores; "
            f"preset {PRESET}, 2 seats; think {args.think:g} s"
        )
        columns = ("tables", 6), ("moves", 7), ("moves/s", 8), ("p50 ms", 7), ("p99 ms", 7), ("max ms", 7)
        print(
            " ".join(f"{name:>{width}}" for name, width in columns),
            "server-cpu-ms/move server-cpu client-cpu refused games",
        )
        try:
            for count in counts:
                result = asyncio.run(
                    phase(bases, pids, count, args.warmup, args.seconds, args.seed, args.think)
                )
                print(
                    f"{result['tables']:>6} {result['moves']:>7} {result['moves_per_s']:>8.0f} "
                    f"{result['p50_ms']:>7.1f} {result['p99_ms']:>7.1f} {result['max_ms']:>7.1f} "
                    f"{result['server_cpu_ms']:>18.2f} {result['server_cpu_share']:>9.0%} "
                    f"{result['client_cpu_share']:>10.0%} {result['refused']:>7} {result['finished']:>5}"
                    + (f"  ({result['errors']} connection errors)" if result["errors"] else ""),
                    flush=True,
                )
        finally:
            for process, _base in servers:
                stop_server(process)


if __name__ == "__main__":
    main()
