"""Tables stored event-sourced: a table row, its seats, its ordered moves and periodic snapshots.

The moves are the truth: a table is rebuilt from its latest snapshot and the moves after it
(``tables.rebuild``). A snapshot records what the game looked like after a given number of
moves, so a rebuild can be checked against it (an engine that no longer replays a stored table the same
way is caught, not trusted). Seat tokens are stored only as SHA-256 hashes. Everything is SQLAlchemy
Core with portable types, so the URL may name SQLite (the default) or PostgreSQL (``postgresql://`` URLs
are driven by psycopg 3).

Request and socket handlers never call the database on the event loop: they ``await storage.run(method,
...)``, which runs the method in the storage's own threads and gives up after ``STORAGE_TIMEOUT``
seconds (raising ``StorageUnavailable``), so a frozen or locked database slows only the requests that
need it. Connecting gives up after ``CONNECT_SECONDS``, and on PostgreSQL a connection whose packets go
unanswered (a partition) fails after ``TCP_USER_TIMEOUT_MS`` instead of the system's TCP timeout.

Several server processes may share one PostgreSQL database. The moves' primary key is the unique
constraint on ``(table_id, seq)``: of two processes that try to store move ``seq`` of a table, the
database takes exactly one, and the other gets ``MoveConflict`` (it then reloads the table and refuses
its move as stale).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from handfoot.server.store.migrate import upgrade

metadata = MetaData()

tables_t = Table(
    "hf_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", String(40), nullable=False),
    Column("rules_source", Text, nullable=False),  # JSON: a preset name or {"extends": ..., options}
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("dealer", Integer, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    # Who may see the table (added later: NULL in tables stored before; read as public, no host).
    Column("public", Boolean, nullable=True),
    Column("watch_hash", String(64), nullable=True),  # SHA-256 of the watch key
    Column("host_hash", String(64), nullable=True),  # SHA-256 of the host key
    Column("ended", String(16), nullable=True),  # "host": the host ended the game
    # The host's longest wait for people reading a hand's score, in seconds (added later; NULL: default).
    Column("read_seconds", Integer, nullable=True),
    # True: the first hand waits for the invited people (the lobby's tables; added later, NULL: no).
    Column("waits", Boolean, nullable=True),
)

seats_t = Table(
    "hf_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("hf_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "human" or "bot"
    Column("bot", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),  # humans only
    Column("name", String(64), nullable=True),
    Column("stand_in", String(64), nullable=True),  # a bot playing a human seat for now (added later)
)

moves_t = Table(
    "hf_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("hf_tables.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # 0-based; the table's version after it is seq + 1
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("at", String(40), nullable=False),
    # One move per (table, index), whichever process writes it: the loser of a race is refused.
    PrimaryKeyConstraint("table_id", "seq", name="hf_moves_table_seq_key"),
)

# Threads (and connections) storing moves on a server database: commits of several tables overlap and
# the database groups them. SQLite takes one writer at a time, so it gets one thread: writers that
# queue in Python wait less than writers that SQLite's busy handler puts to sleep.
STORE_CONNECTIONS = 16

# Threads reading tables for the request and socket handlers (loading a table, catching up): apart from
# the writers, so that a write waiting on a lock (SQLite's, held by another program) delays no read.
READ_THREADS = 4

# How long a handler waits for the database before answering that it is unavailable (the call's thread
# may go on waiting: its outcome then is unknown, and the table it wrote to is read again from storage).
STORAGE_TIMEOUT = 10.0
CONNECT_SECONDS = 5  # opening a connection
TCP_USER_TIMEOUT_MS = 10_000  # PostgreSQL: unacknowledged data for this long fails the connection
POOL_WAIT_SECONDS = 10.0  # waiting for a free connection of the pool

# Taken (on PostgreSQL) while migrating the schema, so that processes starting together do not race.
SCHEMA_LOCK_KEY = 0x48465343

snapshots_t = Table(
    "hf_snapshots",
    metadata,
    Column("table_id", String(32), ForeignKey("hf_tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),  # moves played when it was taken
    Column("data", Text, nullable=False),
    Column("at", String(40), nullable=False),
)

# Built once: a statement with bound parameters is compiled once per engine and reused for every move.
INSERT_MOVE = insert(moves_t)
INSERT_SNAPSHOT = insert(snapshots_t)


def now(timespec: str = "seconds") -> str:
    """The current UTC time as ISO 8601 text, to the second (or as ``timespec`` says: a table's
    ``created_at`` is to the microsecond, so that tables made in the same second list newest first; the
    text of a time to the second sorts before that of any later time of its second)."""
    return datetime.now(UTC).isoformat(timespec=timespec)


def token_hash(token: str) -> str:
    """The SHA-256 hex digest under which a seat token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored: a human (with the hash of its secret token) or a bot (with its name)."""

    seat: int
    kind: str
    bot: str | None = None
    token_hash: str | None = None
    name: str | None = None
    stand_in: str | None = None


@dataclass(frozen=True)
class TableRow:
    """A table as stored: its rules source, player count, secret seed and first dealer."""

    id: str
    created_at: str
    rules_source: str | dict[str, Any]
    players: int
    seed: int
    dealer: int
    finished: bool = False
    public: bool = True
    watch_hash: str | None = None
    host_hash: str | None = None
    ended: str | None = None
    read_seconds: int | None = None
    waits: bool = False


@dataclass(frozen=True)
class StoredTable:
    """Everything stored about one table: the row, its seats, its moves (texts, in order; with the seat
    that made each) and its latest snapshot (version, data) if any."""

    row: TableRow
    seats: list[SeatRow]
    moves: list[tuple[int, str]] = field(default_factory=list)
    snapshot: tuple[int, dict[str, Any]] | None = None


class StorageError(RuntimeError):
    """The database refused a write or holds something that cannot be read back."""


class MoveConflict(StorageError):
    """Another writer (another server process) stored this move index of the table first."""


class StorageUnavailable(StorageError):
    """The database did not answer in time (``STORAGE_TIMEOUT``): whether a write took is unknown."""


class UnreadableRow(StorageError):
    """A stored row that cannot be read back (its JSON is not valid, or holds a number too long to
    read): the message says which table and what is wrong."""


P = ParamSpec("P")
R = TypeVar("R")


def _connect_args(url: str) -> dict[str, Any]:
    """Driver options bounding how long a connection may hang: the connect timeout everywhere, and on
    PostgreSQL keepalives and a TCP user timeout (libpq's), so a partition fails calls in seconds."""
    if url.startswith("sqlite"):
        return {"timeout": STORAGE_TIMEOUT / 2}  # SQLite's busy wait for another writer's lock
    if url.startswith("postgresql"):
        return {
            "connect_timeout": CONNECT_SECONDS,
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
        }
    return {}


def database_url(url: str) -> str:
    """``url`` with PostgreSQL's bare scheme (``postgresql://``, ``postgres://``) pointed at psycopg 3,
    the driver this project installs; any other URL unchanged."""
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url[len(bare) :]
    return url


class Storage:
    """The table store. Each method is one transaction; writes either happen completely or not at all.
    ``writers`` is the thread pool the server stores moves from (``append_move`` is safe in any thread).
    """

    def __init__(self, url: str) -> None:
        """Open the database at a SQLAlchemy ``url`` and bring its schema up to date (``store.migrate``:
        a new database gets its tables, an older one the revisions it lacks). Raises MigrationError for a
        database a newer version of handfoot made, or a revision that fails."""
        # No ping before each use (a round trip per move): a connection the database dropped fails one
        # write (refused, nothing played), and SQLAlchemy then replaces the pool's connections.
        url = database_url(url)
        bounded: dict[str, Any] = {"connect_args": _connect_args(url)}
        if not url.startswith("sqlite"):
            bounded["pool_timeout"] = POOL_WAIT_SECONDS
        self.engine: Engine = create_engine(url, **bounded)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
            # the schema revision before and after (``store.migrate``): what ``handfoot db upgrade`` reports
            self.revisions: tuple[str | None, str] = upgrade(conn)
        # A move alone is one INSERT: on a server database, a connection in autocommit stores it in one
        # round trip instead of three (BEGIN, INSERT, COMMIT). A single statement is atomic either way.
        self.single: Engine = self.engine
        sqlite = self.engine.dialect.name == "sqlite"
        self.writers = ThreadPoolExecutor(
            1 if sqlite else STORE_CONNECTIONS, thread_name_prefix="handfoot-store"
        )
        self.readers = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="handfoot-read")
        if not sqlite:
            self.single = create_engine(
                url, isolation_level="AUTOCOMMIT", pool_size=STORE_CONNECTIONS, max_overflow=8, **bounded
            )

    async def run(self, method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Await ``method(*args, **kwargs)`` (one of this storage's methods) run in the storage's threads:
        the writers' for a write, the readers' for a read (``READS``). Raises StorageUnavailable when it
        takes longer than ``STORAGE_TIMEOUT`` (the thread may still finish it: a write's outcome is then
        unknown) and StorageError for any failure of the database, whatever the driver raised."""
        pool = self.readers if getattr(method, "__name__", "") in READS else self.writers
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(pool, partial(_as_storage_error, method, *args, **kwargs))
        try:
            return await asyncio.wait_for(future, STORAGE_TIMEOUT)
        except TimeoutError:
            name = getattr(method, "__name__", "a storage call")
            raise StorageUnavailable(
                f"the database did not answer {name} within {STORAGE_TIMEOUT:.0f} s"
            ) from None

    def close(self) -> None:
        """Stop the writer threads (after the writes in flight) and release the database connections."""
        self.writers.shutdown(wait=True)
        self.readers.shutdown(wait=False, cancel_futures=True)
        self.engine.dispose()
        if self.single is not self.engine:
            self.single.dispose()

    def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table and its seats."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    created_at=row.created_at,
                    rules_source=json.dumps(row.rules_source),
                    players=row.players,
                    seed=row.seed,
                    dealer=row.dealer,
                    finished=row.finished,
                    public=row.public,
                    watch_hash=row.watch_hash,
                    host_hash=row.host_hash,
                    ended=row.ended,
                    read_seconds=row.read_seconds,
                    waits=row.waits,
                )
            )
            for seat in seats:
                conn.execute(
                    insert(seats_t).values(
                        table_id=row.id,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        token_hash=seat.token_hash,
                        name=seat.name,
                        stand_in=seat.stand_in,
                    )
                )

    def append_move(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: str,
        *,
        finished: bool = False,
        snapshot: dict[str, Any] | None = None,
    ) -> None:
        """Store move number ``seq`` (0-based) of a table, with a snapshot taken after it if given, and
        mark the table finished if ``finished``. A second move with the same ``seq`` is refused by the
        unique key (raises MoveConflict), so two writers can never both append the same move; any other
        failure raises StorageError. Either way nothing of the move is stored."""
        at = now()
        values = {"table_id": table_id, "seq": seq, "seat": seat, "move": move, "at": at}
        try:
            if snapshot is None and not finished:
                with self.single.begin() as conn:
                    conn.execute(INSERT_MOVE, values)
                return
            with self.engine.begin() as conn:
                conn.execute(INSERT_MOVE, values)
                if snapshot is not None:
                    conn.execute(
                        INSERT_SNAPSHOT,
                        {"table_id": table_id, "version": seq + 1, "data": json.dumps(snapshot), "at": at},
                    )
                if finished:
                    conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(finished=True))
        except IntegrityError as exc:
            if self._move_exists(table_id, seq):
                raise MoveConflict(f"move {seq} of table {table_id} was stored by another writer") from exc
            raise StorageError(f"cannot store move {seq} of table {table_id}: {exc}") from exc
        except Exception as exc:
            raise StorageError(f"cannot store move {seq} of table {table_id}: {exc}") from exc

    def _move_exists(self, table_id: str, seq: int) -> bool:
        """True if move ``seq`` of the table is stored (tells a lost race from another refused write)."""
        try:
            with self.engine.connect() as conn:
                found = conn.execute(
                    select(moves_t.c.seq).where(moves_t.c.table_id == table_id, moves_t.c.seq == seq)
                ).first()
        except Exception:
            return False
        return found is not None

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version (number of moves) of each of ``table_ids`` that has moves, in one query per
        500 ids."""
        out: dict[str, int] = {}
        with self.single.connect() as conn:
            for start in range(0, len(table_ids), 500):
                batch = table_ids[start : start + 500]
                rows = conn.execute(
                    select(moves_t.c.table_id, func.max(moves_t.c.seq))
                    .where(moves_t.c.table_id.in_(batch))
                    .group_by(moves_t.c.table_id)
                )
                out.update({str(table_id): int(last) + 1 for table_id, last in rows})
        return out

    def moves_since(self, table_id: str, start: int) -> list[tuple[int, int, str]]:
        """The stored moves of a table from index ``start`` on, in order, as (seq, seat, text)."""
        with self.single.connect() as conn:
            rows = conn.execute(
                select(moves_t.c.seq, moves_t.c.seat, moves_t.c.move)
                .where(moves_t.c.table_id == table_id, moves_t.c.seq >= start)
                .order_by(moves_t.c.seq)
            )
            return [(int(r.seq), int(r.seat), str(r.move)) for r in rows]

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        """Record the display name a seat chose."""
        self._update_seat(table_id, seat, name=name)

    def set_stand_in(self, table_id: str, seat: int, bot: str | None) -> None:
        """Record the bot playing a human seat for now (None: the person plays it again)."""
        self._update_seat(table_id, seat, stand_in=bot)

    def set_token(self, table_id: str, seat: int, digest: str) -> None:
        """Record a human seat's new invitation (the SHA-256 of its token); the old one opens nothing."""
        self._update_seat(table_id, seat, token_hash=digest)

    def _update_seat(self, table_id: str, seat: int, **values: str | None) -> None:
        """Set the columns ``values`` of one stored seat, in a transaction of its own."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values)
            )

    def set_ended(self, table_id: str, ended: str) -> None:
        """Record that a table's game was ended before its rules ended it (``ended``: who ended it)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(ended=ended))

    def set_read_seconds(self, table_id: str, seconds: int) -> None:
        """Record the host's longest wait for people reading a finished hand's score."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(read_seconds=seconds))

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its seats, moves and latest snapshot, or None if there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            seats = [
                SeatRow(r.seat, r.kind, r.bot, r.token_hash, r.name, r.stand_in)
                for r in conn.execute(
                    select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
                )
            ]
            moves = [
                (r.seat, r.move)
                for r in conn.execute(
                    select(moves_t.c.seat, moves_t.c.move, moves_t.c.seq)
                    .where(moves_t.c.table_id == table_id)
                    .order_by(moves_t.c.seq)
                )
            ]
            snap_row = conn.execute(
                select(snapshots_t.c.version, snapshots_t.c.data)
                .where(snapshots_t.c.table_id == table_id)
                .order_by(snapshots_t.c.version.desc())
                .limit(1)
            ).first()
        try:
            rules_source = json.loads(row.rules_source)
            snapshot = None if snap_row is None else (int(snap_row.version), json.loads(snap_row.data))
        except ValueError as exc:  # not JSON, or a number of more digits than Python reads
            raise UnreadableRow(f"table {table_id} is stored with data that cannot be read: {exc}") from None
        table = TableRow(
            id=row.id,
            created_at=row.created_at,
            rules_source=rules_source,
            players=row.players,
            seed=row.seed,
            dealer=row.dealer,
            finished=bool(row.finished),
            public=True if row.public is None else bool(row.public),
            watch_hash=row.watch_hash,
            host_hash=row.host_hash,
            ended=row.ended,
            read_seconds=row.read_seconds,
            waits=bool(row.waits),
        )
        return StoredTable(table, seats, moves, snapshot)


# The methods ``Storage.run`` sends to the readers' threads (every other one writes).
READS = frozenset({"load", "versions", "moves_since"})


def _as_storage_error(method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``method(*args, **kwargs)``, with any failure of the database or its driver raised as
    StorageError (StorageError itself, MoveConflict included, passes through)."""
    try:
        return method(*args, **kwargs)
    except StorageError:
        raise
    except (SQLAlchemyError, OSError) as exc:
        name = getattr(method, "__name__", "a storage call")
        raise StorageError(f"the database refused {name}: {_first_line(exc)}") from exc


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message (drivers append SQL and links after it)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Write-ahead logging and enforced foreign keys for SQLite connections. With WAL, ``synchronous``
    NORMAL keeps every committed move through a crash or restart of the server (the log is written
    before the commit returns) and syncs to disk at checkpoints instead of at every move, which would
    cost a disk flush (milliseconds) per move; only a power cut or OS crash can lose the last moves."""
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
