"""Tables stored event-sourced: a table row, its seats, its ordered moves and periodic snapshots.

The moves are the truth: a table is rebuilt by replaying them (``tables.rebuild``). A snapshot records
what the game looked like after a given number of moves, so a rebuild can be checked against it (an
engine that no longer replays a stored table the same way is caught, not trusted). Seat tokens are
stored only as SHA-256 hashes. Everything is SQLAlchemy Core with portable types, so the URL may name
SQLite (the default) or PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

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
)

moves_t = Table(
    "hf_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("hf_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0-based; the table's version after it is seq + 1
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("at", String(40), nullable=False),
)

snapshots_t = Table(
    "hf_snapshots",
    metadata,
    Column("table_id", String(32), ForeignKey("hf_tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),  # moves played when it was taken
    Column("data", Text, nullable=False),
    Column("at", String(40), nullable=False),
)


def now() -> str:
    """The current UTC time as ISO 8601 text."""
    return datetime.now(UTC).isoformat(timespec="seconds")


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


class Storage:
    """The table store. Each method is one transaction; writes either happen completely or not at all."""

    def __init__(self, url: str) -> None:
        """Open (and create if needed) the database at a SQLAlchemy ``url``."""
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

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
        primary key (raises StorageError), so two writers can never both append the same move."""
        at = now()
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(moves_t).values(table_id=table_id, seq=seq, seat=seat, move=move, at=at))
                if snapshot is not None:
                    conn.execute(
                        insert(snapshots_t).values(
                            table_id=table_id, version=seq + 1, data=json.dumps(snapshot), at=at
                        )
                    )
                if finished:
                    conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(finished=True))
        except Exception as exc:
            raise StorageError(f"cannot store move {seq} of table {table_id}: {exc}") from exc

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        """Record the display name a seat chose."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(name=name)
            )

    def table_ids(self) -> list[str]:
        """Every stored table's id, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id).order_by(tables_t.c.created_at, tables_t.c.id))
            return [r.id for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its seats, moves and latest snapshot, or None if there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            seats = [
                SeatRow(r.seat, r.kind, r.bot, r.token_hash, r.name)
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
        table = TableRow(
            id=row.id,
            created_at=row.created_at,
            rules_source=json.loads(row.rules_source),
            players=row.players,
            seed=row.seed,
            dealer=row.dealer,
            finished=bool(row.finished),
        )
        snapshot = None if snap_row is None else (int(snap_row.version), json.loads(snap_row.data))
        return StoredTable(table, seats, moves, snapshot)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Write-ahead logging and enforced foreign keys for SQLite connections."""
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
