"""Alembic's environment for the storage schema: migrations run on the connection ``store.migrate`` hands
over (inside its transaction, holding PostgreSQL's schema lock), or, run by the ``alembic`` command, on
the database of ``sqlalchemy.url``. Only online migrations: the server and ``handfoot db upgrade`` apply
them to a live database, never as SQL scripts."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from handfoot.server.store.storage import database_url, metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    if context.is_offline_mode():
        raise SystemExit("the storage schema is migrated online only: run `handfoot db upgrade`")
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("no database: set sqlalchemy.url")
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


_main()
