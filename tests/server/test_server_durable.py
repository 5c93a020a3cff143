"""Nothing lost when the database fails or a number is huge, and a database fault slows only what needs it.

- A rule option with a huge number (a 4,300-digit bonus) is refused at the door: at table creation and
  by the score pad. A table stored with one (by an older version) is refused when it is loaded, with a
  message naming the table and the option, and nothing else is affected.
- PostgreSQL refusing connections (``FaultProxy`` between the server and PostgreSQL) while tables play,
  in one server process and in two sharing Redis: every move a client saw accepted is in the database
  afterwards, in its place; no table is broken; every table plays on by itself once the database is back.
- A frozen PostgreSQL, or SQLite's write lock held by another program: an unrelated socket's ping stays
  under 100 ms (a functional bound on isolation, far above the few ms a ping takes), the requests that
  need the database answer the documented JSON error (or succeed once it is back), and the table whose
  move was caught plays on.
- A host's new invitation the database refuses changes nothing (the old link still opens the seat).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from handfoot.engine.serialize import state_to_json
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, StorageError, TableRow, now
from handfoot.server.tables import moves as pipeline
from handfoot.server.tables.host import apply_host_action
from handfoot.server.tables.rebuild import rebuild
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.protocol import HostAction
from helpers.server import FREEZE, PASS, REFUSE, FaultProxy, SeatClient, create_table, running_server

pytest_plugins = ["helpers.services"]

HUGE = 9 * 10**4299  # 4,300 digits: as many as Python reads from text
ISSUE_OPTIONS = {
    "clean_book_bonus": HUGE,
    "dirty_book_bonus": HUGE,
    "going_out_bonus": HUGE,
    "game_end": "hands",
    "hands_per_game": 5,
}
PING_BOUND = 0.1  # seconds: an unrelated socket's ping while the database is stuck


def create(base: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/tables", json={"preset": "kitchen-table", **body}, timeout=30)


def new_table(base: str, seats: list[dict[str, Any]] | None = None) -> tuple[str, dict[int, str]]:
    """A public 2-player table (both seats invited unless ``seats`` says); its id and invitations."""
    body: dict[str, Any] = {"players": 2, "public": True}
    if seats is not None:
        body["seats"] = seats
    made = create(base, **body)
    assert made.status_code == 201, made.text
    return made.json()["table"]["id"], {i["seat"]: i["token"] for i in made.json()["invites"]}


# --- huge numbers ----------------------------------------------------------------------------------


def test_a_huge_number_is_refused_at_table_creation_and_by_the_score_pad(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0)) as base:
        refused = create(base, public=True, options=ISSUE_OPTIONS, seats=[{"kind": "bot"}, {"kind": "bot"}])
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "bad_table"
        assert "clean_book_bonus" in error["message"] and "from 0 to 100000" in error["message"]
        assert httpx.get(f"{base}/api/tables").json() == []  # nothing was made
        sheet = {"preset": "kitchen-table", "options": ISSUE_OPTIONS, "hands": [[{"clean_books": 1}, {}]]}
        scored = httpx.post(f"{base}/api/score", json=sheet)
        assert scored.status_code == 422, scored.text
        assert scored.json()["error"]["code"] == "bad_sheet"
        assert "clean_book_bonus" in scored.json()["error"]["message"]


def test_a_stored_table_with_a_huge_number_is_refused_on_load_and_nothing_else(tmp_path: Path) -> None:
    """Two tables an older version stored: one whose rules hold the 4,300-digit bonus, one whose rules
    text holds a number longer than Python reads. Each is refused with a clear message, over HTTP and
    WebSocket, after a restart too; the lobby and the other tables work."""
    url = f"sqlite:///{tmp_path / 'handfoot.db'}"
    storage = Storage(url)
    seats = [SeatRow(0, "human", None, "0" * 64), SeatRow(1, "human", None, "1" * 64)]
    storage.create_table(
        TableRow("huge0001", now(), {"extends": "kitchen-table", **ISSUE_OPTIONS}, 2, 7, 0), seats
    )
    storage.create_table(TableRow("long0001", now(), "kitchen-table", 2, 7, 0), seats)
    with storage.engine.begin() as conn:  # a number of 5,000 digits: JSON, but not readable by Python
        conn.execute(
            text("UPDATE hf_tables SET rules_source = :r WHERE id = 'long0001'"),
            {"r": '{"extends": "kitchen-table", "going_out_bonus": ' + "9" * 5000 + "}"},
        )
    storage.close()
    settings = Settings(data_dir=tmp_path, database_url=url, port=0, bot_delay=0.0, rate_limit=0)
    for _restart in range(2):
        with running_server(settings) as base:
            good, tokens = new_table(base)
            for table_id, words in (("huge0001", "clean_book_bonus"), ("long0001", "cannot be read")):
                for _twice in range(2):  # the second answer comes from what the first learned
                    answer = httpx.get(f"{base}/api/tables/{table_id}")
                    assert answer.status_code == 409, answer.text
                    error = answer.json()["error"]
                    assert error["code"] == "unreadable_table"
                    assert table_id in error["message"] and words in error["message"]
                    assert len(error["message"]) < 1000
                socket = SeatClient(base, table_id)
                assert socket.welcome["type"] == "error" and socket.welcome["code"] == "unreadable_table"
                socket.close()
            listing = httpx.get(f"{base}/api/tables")
            assert listing.status_code == 200 and good in {t["id"] for t in listing.json()}
            player = SeatClient(base, good, tokens[0])
            first = player.state()
            mover = first["table"]["to_move"]
            if mover != 0:
                player.close()
                player = SeatClient(base, good, tokens[mover])
                player.state()
            player.move("draw", 0)
            assert player.state(1)["last"]["move"] == "draw"
            player.close()


# --- driving tables through a fault ----------------------------------------------------------------


def pick(legal: list[str]) -> str | None:
    """A move to make: draw when drawing, else the first discard (a game of draws and discards)."""
    if "draw" in legal:
        return "draw"
    return next((t for t in legal if t.startswith("discard")), legal[0] if legal else None)


@dataclass
class Driver:
    """Plays a table's human seats (one client each, possibly on different servers) and keeps every move
    it saw accepted: its own state at the new version naming the move."""

    table_id: str
    clients: dict[int, SeatClient]
    acked: list[tuple[float, int, str]] = field(default_factory=list)  # (when, version, move)
    refusals: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def attempt(self) -> None:
        """Try one move for whichever human seat is to move (nothing if a bot is)."""
        look = next(iter(self.clients.values())).latest_state()
        mover = look["table"]["to_move"]
        if mover not in self.clients:
            time.sleep(0.05)  # a bot's turn, or the game is over
            return
        client = self.clients[mover]
        state = client.latest_state()
        move = pick(state["legal"])
        if state["table"]["to_move"] != mover or move is None:
            return
        version = state["version"]
        client.move(move, version)
        answer = client.until(
            lambda m: m["type"] == "refused" or (m["type"] == "state" and m["version"] > version), timeout=40
        )
        if answer["type"] == "refused":
            self.refusals.append(answer["rule"])
            time.sleep(0.1)
            return
        last = answer["last"]
        if answer["version"] == version + 1 and last and last["move"] == move and last["seat"] == mover:
            self.acked.append((time.monotonic(), version + 1, move))

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.attempt()
            except Exception as exc:  # kept and reported by the test: a driver must not die quietly
                self.errors.append(repr(exc))
                return

    def acked_since(self, moment: float) -> int:
        return sum(1 for when, _v, _m in self.acked if when >= moment)


@contextmanager
def driving(drivers: list[Driver]) -> Iterator[threading.Event]:
    stop = threading.Event()
    threads = [threading.Thread(target=d.run, args=(stop,), daemon=True) for d in drivers]
    for thread in threads:
        thread.start()
    try:
        yield stop
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)


def wait_until(check: Any, seconds: float) -> float:
    """Poll ``check()`` until true; returns how long it took (fails the test after ``seconds``)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < seconds, "timed out"
        time.sleep(0.05)
    return time.monotonic() - start


def check_nothing_lost(db_url: str, drivers: list[Driver]) -> None:
    """Every accepted move is stored at its place, and every table rebuilds from storage unbroken."""
    storage = Storage(db_url)
    try:
        for driver in drivers:
            assert driver.errors == []
            stored = {seq: move for seq, _seat, move in storage.moves_since(driver.table_id, 0)}
            lost = [(v, m) for _when, v, m in driver.acked if stored.get(v - 1) != m]
            assert lost == [], f"table {driver.table_id}: accepted moves not stored: {lost}"
            table = storage.load(driver.table_id)
            assert table is not None and rebuild(table).problem is None
    finally:
        storage.close()


def outage(
    proxy: FaultProxy, drivers: list[Driver], seconds: float = 3.0, held_up: Callable[[], bool] | None = None
) -> float:
    """Let every table play, refuse every database connection for ``seconds`` (and until the outage was
    met: some move was refused for it, or ``held_up()`` says every table waits on it), then let it back;
    returns how long until every table had two more moves accepted."""
    with driving(drivers):
        wait_until(lambda: all(len(d.acked) >= 4 for d in drivers), 60)
        proxy.set(REFUSE)
        time.sleep(seconds)

        def met() -> bool:
            refused = any(rule == "server" for d in drivers for rule in d.refusals)
            return refused or (held_up is not None and held_up())

        # on a loaded machine the clients may be slow: the database stays away until the outage was met
        wait_until(met, 30)
        proxy.set(PASS)
        back = time.monotonic()
        try:
            recovery = wait_until(lambda: all(d.acked_since(back) >= 2 for d in drivers), 60)
        except AssertionError:
            report = [
                (d.table_id, len(d.acked), d.acked_since(back), d.refusals[-5:], d.errors) for d in drivers
            ]
            raise AssertionError(f"the tables did not all play on after the outage: {report}") from None
    assert all(rule in ("server", "version") for d in drivers for rule in d.refusals)
    return recovery


def pg_target(postgres_url: str) -> tuple[str, int]:
    parsed = make_url(postgres_url)
    return parsed.host or "127.0.0.1", parsed.port or 5432


def test_postgres_refusing_connections_loses_no_move_in_one_process(
    tmp_path: Path, postgres_url: str
) -> None:
    with FaultProxy(pg_target(postgres_url)) as proxy, ExitStack() as stack:
        settings = Settings(
            data_dir=tmp_path, database_url=proxy.url(postgres_url), port=0, bot_delay=0.0, rate_limit=0
        )
        base = stack.enter_context(running_server(settings))
        drivers = []
        for seats in (None, None, [{"kind": "invite"}, {"kind": "bot", "bot": "random"}]):
            table_id, tokens = new_table(base, seats)
            clients = {
                seat: stack.enter_context(closing(SeatClient(base, table_id, token)))
                for seat, token in tokens.items()
            }
            drivers.append(Driver(table_id, clients))
        outage(proxy, drivers)
        for driver in drivers:
            summary = httpx.get(f"{base}/api/tables/{driver.table_id}").json()
            assert summary["broken"] is None
    check_nothing_lost(postgres_url, drivers)


def test_postgres_refusing_connections_loses_no_move_in_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Each table's two seats play on different processes: both must come back, whichever stored last."""
    with FaultProxy(pg_target(postgres_url)) as proxy, ExitStack() as stack:

        def settings(name: str) -> Settings:
            return Settings(
                data_dir=tmp_path / name,
                database_url=proxy.url(postgres_url),
                redis_url=redis_url,
                port=0,
                bot_delay=0.0,
                rate_limit=0,  # the drivers retry refused moves at once
            )

        bases = [stack.enter_context(running_server(settings(name))) for name in ("a", "b")]
        drivers = []
        for _table in range(3):
            table_id, tokens = new_table(bases[0])
            clients = {
                seat: stack.enter_context(closing(SeatClient(bases[seat], table_id, token)))
                for seat, token in tokens.items()
            }
            drivers.append(Driver(table_id, clients))

        def every_table_waits_on_a_catch_up() -> bool:
            """Each table's two processes hold different versions: the one behind could not read the move
            the other stored (its catch-up met the outage), so the seat to move there waits for it, and no
            move is sent until the database is back."""
            return all(
                len({httpx.get(f"{b}/api/tables/{d.table_id}").json()["version"] for b in bases}) > 1
                for d in drivers
            )

        outage(proxy, drivers, held_up=every_table_waits_on_a_catch_up)

        def versions() -> list[set[int]]:
            return [
                {httpx.get(f"{b}/api/tables/{d.table_id}").json()["version"] for b in bases} for d in drivers
            ]

        # A process whose catch-up met the outage reads the table again by itself, waiting up to
        # RECOVER_SECONDS between attempts: the two agree within a few seconds, with no move sent.
        try:
            wait_until(lambda: all(len(held) == 1 for held in versions()), 15)
        except AssertionError:
            raise AssertionError(f"the processes hold different versions: {versions()}") from None
    check_nothing_lost(postgres_url, drivers)


@contextmanager
def closing(client: SeatClient) -> Iterator[SeatClient]:
    try:
        yield client
    finally:
        client.close()


# --- a stuck database slows only what needs it ------------------------------------------------------


def ping_times(client: SeatClient, seconds: float) -> list[float]:
    """Round trips of pings on ``client`` for ``seconds``."""
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        client.send({"type": "ping"})
        client.until(lambda m: m["type"] == "pong", timeout=30)
        times.append(time.monotonic() - start)
        time.sleep(0.02)
    return times


def in_thread(job: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(job()), daemon=True)
    thread.start()
    return thread, out


def seat_to_move(base: str, table_id: str, tokens: dict[int, str]) -> SeatClient:
    mover = SeatClient(base, table_id).state()["table"]["to_move"]
    client = SeatClient(base, table_id, tokens[mover])
    client.state()
    return client


def test_a_frozen_postgres_slows_only_the_requests_that_need_it(tmp_path: Path, postgres_url: str) -> None:
    with FaultProxy(pg_target(postgres_url)) as proxy, ExitStack() as stack:
        settings = Settings(
            data_dir=tmp_path, database_url=proxy.url(postgres_url), port=0, bot_delay=0.0, rate_limit=0
        )
        base = stack.enter_context(running_server(settings))
        watched, _tokens = new_table(base)
        spectator = stack.enter_context(closing(SeatClient(base, watched)))
        playing, tokens = new_table(base)
        player = stack.enter_context(closing(seat_to_move(base, playing, tokens)))
        proxy.set(FREEZE)
        creating, created = in_thread(lambda: create(base, players=2))
        player.move("draw", 0)  # its write is caught by the freeze
        pings = ping_times(spectator, 2.0)
        proxy.set(PASS)
        creating.join(40)
        assert max(pings) < PING_BOUND, f"pings while the database was frozen: max {max(pings):.3f} s"
        response = created[0]
        assert response.status_code in (201, 503), response.text
        if response.status_code == 503:
            assert response.json()["error"]["code"] == "unavailable"
        answer = player.until(lambda m: m["type"] in ("refused", "state"), timeout=40)
        assert answer["type"] == "state" or answer["rule"] == "server"
        # the table plays on: the draw is in, or made again now
        state = player.latest_state()
        if state["version"] == 0:
            wait_until(lambda: _moved(player, "draw", 0), 30)
        assert player.latest_state()["version"] == 1
    check = Storage(postgres_url)
    assert [m for _seq, _seat, m in check.moves_since(playing, 0)] == ["draw"]
    check.close()


def _moved(client: SeatClient, move: str, version: int) -> bool:
    client.move(move, version)
    answer = client.until(lambda m: m["type"] in ("refused", "state"), timeout=40)
    return answer["type"] == "state" or answer["rule"] != "server"


def test_sqlites_write_lock_held_elsewhere_answers_json_and_stalls_no_socket(tmp_path: Path) -> None:
    db = tmp_path / "handfoot.db"
    settings = Settings(
        data_dir=tmp_path, database_url=f"sqlite:///{db}", port=0, bot_delay=0.0, rate_limit=0
    )
    with running_server(settings) as base, ExitStack() as stack:
        watched, _tokens = new_table(base)
        spectator = stack.enter_context(closing(SeatClient(base, watched)))
        playing, tokens = new_table(base)
        player = stack.enter_context(closing(seat_to_move(base, playing, tokens)))
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        creating, created = in_thread(lambda: create(base, players=2))
        player.move("draw", 0)
        pings = ping_times(spectator, 2.0)
        refused = player.until(lambda m: m["type"] in ("refused", "state"), timeout=40)
        creating.join(40)
        other.execute("ROLLBACK")
        other.close()
        assert max(pings) < PING_BOUND, f"pings while SQLite was locked: max {max(pings):.3f} s"
        assert refused["type"] == "refused" and refused["rule"] == "server"
        response = created[0]
        assert response.status_code == 503, response.text
        assert response.headers["content-type"].startswith("application/json")
        assert json.loads(response.text)["error"]["code"] == "unavailable"
        # once the lock is gone, everything works again by itself
        assert create(base, players=2).status_code == 201
        wait_until(lambda: _moved(player, "draw", 0), 30)
        assert player.latest_state()["version"] == 1


# --- a failure between playing and storing leaves the table as it was --------------------------------


def fingerprint(live: LiveTable) -> tuple[object, ...]:
    """What a move changes at a table, as values."""
    return (
        live.version,
        state_to_json(live.game.state),
        live.game.history,
        list(live.game.totals),
        live.last,
    )


def _service(tmp_path: Path) -> TableService:
    return TableService(Storage(f"sqlite:///{tmp_path / 'unit.db'}"), snapshot_every=3)


async def _play_one(service: TableService, live: LiveTable, tokens: dict[int, str]) -> None:
    """Play one move for the seat to move (a draw or a discard); it must be accepted."""
    seat = live.game.to_move
    assert seat is not None
    move = pick(live.legal_for(seat))
    assert move is not None
    outcome = await pipeline.play(service, live, tokens[seat], live.version, move)
    assert isinstance(outcome, pipeline.Accepted)


def test_a_move_that_cannot_be_recorded_is_refused_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot taken with a move cannot be built (as a score past what JSON output allows once
    could not): the move is refused with rule server, and the table is exactly as it was."""
    service = _service(tmp_path)
    live, tokens = create_table(service, "kitchen-table", {}, 2, [])

    def cannot(*_args: Any) -> Any:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    async def scenario() -> None:
        for _ in range(2):  # moves 1 and 2 take no snapshot; move 3 does (snapshot_every=3)
            await _play_one(service, live, tokens)
        seat = live.game.to_move
        assert seat is not None
        move = pick(live.legal_for(seat))
        assert move is not None
        before = fingerprint(live)
        monkeypatch.setattr(pipeline, "snapshot_of", cannot)
        refused = await pipeline.play(service, live, tokens[seat], live.version, move)
        assert isinstance(refused, pipeline.Refused) and refused.rule == "server"
        assert fingerprint(live) == before
        assert [m for _s, _seat, m in service.storage.moves_since(live.id, 0)] == live.game.history[0]
        monkeypatch.undo()
        await _play_one(service, live, tokens)

    try:
        asyncio.run(scenario())
    finally:
        service.storage.close()


def test_a_failed_write_refuses_the_move_changes_nothing_and_the_table_recovers_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses a move's write: the move is refused with rule server, the table is unchanged
    and stale (it takes no move until read again), and once the database takes writes again the service
    reads it again by itself and it plays on."""
    service = _service(tmp_path)
    live, tokens = create_table(service, "kitchen-table", {}, 2, [])
    real = service.storage.append_move

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise StorageError("the database refused the write (injected)")

    async def scenario() -> None:
        seat = live.game.to_move
        assert seat is not None
        before = fingerprint(live)
        monkeypatch.setattr(service.storage, "append_move", refuse)
        refused = await pipeline.play(service, live, tokens[seat], 0, "draw")
        assert isinstance(refused, pipeline.Refused) and refused.rule == "server"
        assert fingerprint(live) == before and live.stale
        again = await pipeline.play(service, live, tokens[seat], 0, "draw")  # still refused, still as it was
        assert isinstance(again, pipeline.Refused) and again.rule == "server" and fingerprint(live) == before
        monkeypatch.setattr(service.storage, "append_move", real)
        for _ in range(100):  # the service reads the table again by itself (0.25 s, then 0.5 s, ...)
            if not live.stale:
                break
            await asyncio.sleep(0.05)
        assert not live.stale and fingerprint(live) == before
        assert isinstance(await pipeline.play(service, live, tokens[seat], 0, "draw"), pipeline.Accepted)
        await service.stop()

    try:
        asyncio.run(scenario())
    finally:
        service.storage.close()


def test_a_new_invitation_the_database_refuses_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's ``invite`` goes through the same guarded write as the other host actions: when the
    database refuses the new token, StorageError is raised, the seat's old link still opens it, and the
    table is stale until read again; once the database takes writes, the invitation is made and stored."""
    service = _service(tmp_path)
    live, tokens = create_table(service, "kitchen-table", {}, 2, [])
    real = service.storage.set_token
    invite = HostAction(type="host", action="invite", seat=1)

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise StorageError("the database refused the write (injected)")

    async def scenario() -> None:
        before = live.seats[1].token_hash
        monkeypatch.setattr(service.storage, "set_token", refuse)
        with pytest.raises(StorageError):
            await apply_host_action(service, live, invite)
        assert live.seats[1].token_hash == before and live.seat_of_token(tokens[1]) == 1 and live.stale
        monkeypatch.setattr(service.storage, "set_token", real)
        for _ in range(100):  # the service reads the table again by itself
            if not live.stale:
                break
            await asyncio.sleep(0.05)
        assert not live.stale
        token = await apply_host_action(service, live, invite)
        assert token is not None and live.seat_of_token(token) == 1 and live.seat_of_token(tokens[1]) is None
        stored = service.storage.load(live.id)
        assert stored is not None and stored.seats[1].token_hash == live.seats[1].token_hash
        await service.stop()

    try:
        asyncio.run(scenario())
    finally:
        service.storage.close()
