"""The storage schema's migrations (Alembic, ``server/store/migrations``): a database made by the releases
before migrations, with a game in it, is upgraded when the server opens it or by ``handfoot db upgrade``
and the game plays on; a new database gets exactly the schema the code reads; a database that a newer
version made is refused with a clear error. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
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
    inspect,
    text,
)
from typer.testing import CliRunner

from handfoot.cli import run
from handfoot.engine import Game, move_text
from handfoot.rules import load_rules
from handfoot.server.store.migrate import MigrationError, head
from handfoot.server.store.storage import Storage, database_url, metadata, now, token_hash
from handfoot.server.tables.moves import Accepted, play
from handfoot.server.tables.service import TableService

pytest_plugins = ["helpers.services"]

OLD_MOVES = 12


def released_schema(later_columns: bool) -> MetaData:
    """The four tables as the releases before migrations created them (a copy, frozen here: never the
    code's own ``metadata``). Without ``later_columns``, as the first of them did, before a table's
    ``public``, ``watch_hash``, ``host_hash`` and ``ended`` and a seat's ``stand_in`` were added."""
    old = MetaData()
    later = (
        [
            Column("public", Boolean, nullable=True),
            Column("watch_hash", String(64), nullable=True),
            Column("host_hash", String(64), nullable=True),
            Column("ended", String(16), nullable=True),
        ]
        if later_columns
        else []
    )
    Table(
        "hf_tables",
        old,
        Column("id", String(32), primary_key=True),
        Column("created_at", String(40), nullable=False),
        Column("rules_source", Text, nullable=False),
        Column("players", Integer, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("dealer", Integer, nullable=False),
        Column("finished", Boolean, nullable=False, default=False),
        *later,
    )
    Table(
        "hf_seats",
        old,
        Column("table_id", String(32), ForeignKey("hf_tables.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String(16), nullable=False),
        Column("bot", String(64), nullable=True),
        Column("token_hash", String(64), nullable=True),
        Column("name", String(64), nullable=True),
        *([Column("stand_in", String(64), nullable=True)] if later_columns else []),
    )
    Table(
        "hf_moves",
        old,
        Column("table_id", String(32), ForeignKey("hf_tables.id"), nullable=False),
        Column("seq", Integer, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("move", Text, nullable=False),
        Column("at", String(40), nullable=False),
        PrimaryKeyConstraint("table_id", "seq", name="hf_moves_table_seq_key"),
    )
    Table(
        "hf_snapshots",
        old,
        Column("table_id", String(32), ForeignKey("hf_tables.id"), primary_key=True),
        Column("version", Integer, primary_key=True),
        Column("data", Text, nullable=False),
        Column("at", String(40), nullable=False),
    )
    return old


def old_database(url: str, later_columns: bool = True) -> tuple[str, dict[int, str]]:
    """A database as a release before migrations left it, holding one two-player table of kitchen-table
    with ``OLD_MOVES`` moves played; returns the table's id and its seat tokens."""
    old = released_schema(later_columns)
    engine = create_engine(database_url(url))
    table_id, seed, dealer = secrets.token_urlsafe(8), 1234, 0
    tokens = {0: secrets.token_urlsafe(24), 1: secrets.token_urlsafe(24)}
    game = Game(load_rules("kitchen-table"), 2, seed, dealer)
    moves = []
    for seq in range(OLD_MOVES):
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves()[0]
        moves.append({"table_id": table_id, "seq": seq, "seat": seat, "move": move_text(move), "at": now()})
        game.apply(move)
    row = {
        "id": table_id,
        "created_at": now(),
        "rules_source": '"kitchen-table"',
        "players": 2,
        "seed": seed,
        "dealer": dealer,
        "finished": False,
    }
    if later_columns:
        row["public"] = True
    with engine.begin() as conn:
        old.create_all(conn)
        conn.execute(old.tables["hf_tables"].insert(), row)
        conn.execute(
            old.tables["hf_seats"].insert(),
            [
                {"table_id": table_id, "seat": s, "kind": "human", "token_hash": token_hash(t), "name": name}
                for (s, t), name in zip(tokens.items(), ("P0", "P1"), strict=True)
            ],
        )
        conn.execute(old.tables["hf_moves"].insert(), moves)
    engine.dispose()
    return table_id, tokens


def schema_differences(url: str) -> list[object]:
    """What the database's schema lacks or has beyond the code's ``metadata`` (Alembic's comparison)."""
    engine = create_engine(database_url(url))
    with engine.connect() as conn:
        found = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    return list(found)


def revision_of(url: str) -> str | None:
    engine = create_engine(database_url(url))
    with engine.connect() as conn:
        found = MigrationContext.configure(conn).get_current_revision()
    engine.dispose()
    return found


def plays_on(url: str, table_id: str, tokens: dict[int, str]) -> None:
    """The old table opens at its version, takes the next move, and a fresh process reads it back."""

    async def scenario() -> None:
        storage = Storage(url)
        service = TableService(storage, snapshot_every=50)
        live = await service.get(table_id)
        assert live is not None and live.broken is None and live.version == OLD_MOVES
        assert live.public and live.seats[0].name == "P0" and live.seats[0].stand_in is None
        mover = live.game.to_move
        assert mover is not None
        outcome = await play(service, live, tokens[mover], OLD_MOVES, live.legal_for(mover)[0])
        assert isinstance(outcome, Accepted) and outcome.version == OLD_MOVES + 1
        storage.close()
        again = Storage(url)
        fresh = await TableService(again, snapshot_every=50).get(table_id)
        assert fresh is not None and fresh.version == OLD_MOVES + 1 and fresh.broken is None
        again.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("later_columns", [True, False], ids=["last-release", "first-release"])
def test_an_old_database_is_upgraded_at_start_up_and_plays_on(database_url: str, later_columns: bool) -> None:
    table_id, tokens = old_database(database_url, later_columns)
    assert revision_of(database_url) is None
    plays_on(database_url, table_id, tokens)
    assert revision_of(database_url) == head()
    assert schema_differences(database_url) == []


def test_a_new_database_gets_exactly_the_schema_the_code_reads(database_url: str) -> None:
    Storage(database_url).close()
    assert revision_of(database_url) == head()
    assert schema_differences(database_url) == []
    Storage(database_url).close()  # opening it again migrates nothing
    assert revision_of(database_url) == head()


def invoke(args: list[str]) -> tuple[int, str, str]:
    """``handfoot <args>`` in this process: (status, stdout, stderr)."""
    with CliRunner().isolation() as streams:
        status = run(args)
        out, err = (stream.getvalue().decode() for stream in streams[:2])
    return status, out, err


def test_db_upgrade_migrates_an_old_database_once(database_url: str) -> None:
    table_id, tokens = old_database(database_url, later_columns=False)
    status, out, err = invoke(["db", "upgrade", "--database-url", database_url])
    assert status == 0 and err == "" and f"from schema revision none to {head()}" in out
    assert revision_of(database_url) == head()
    engine = create_engine(database_url_of(database_url))
    with engine.connect() as conn:
        assert "stand_in" in {c["name"] for c in inspect(conn).get_columns("hf_seats")}
        assert conn.execute(text("SELECT count(*) FROM hf_moves")).scalar() == OLD_MOVES  # nothing lost
    engine.dispose()
    status, out, _ = invoke(["db", "upgrade", "--database-url", database_url])
    assert status == 0 and f"is up to date (schema revision {head()})" in out
    plays_on(database_url, table_id, tokens)


def database_url_of(url: str) -> str:
    return database_url(url)


def test_a_database_from_a_newer_version_is_refused(database_url: str) -> None:
    Storage(database_url).close()
    engine = create_engine(database_url_of(database_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    engine.dispose()
    with pytest.raises(MigrationError, match=r"'f00d'.*does not know.*allowed: revisions up to"):
        Storage(database_url)
    status, out, err = invoke(["db", "upgrade", "--database-url", database_url])
    assert status == 2 and out == ""
    assert err.startswith("error: database ") and "does not know" in err and "; allowed: " in err


def test_db_upgrade_refuses_a_database_it_cannot_open(tmp_path: object) -> None:
    status, out, err = invoke(["db", "upgrade", "--database-url", "nosuchdriver://x/y"])
    assert status == 2 and out == "" and err.startswith("error: cannot open the database")
