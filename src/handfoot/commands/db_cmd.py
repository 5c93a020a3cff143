"""``handfoot db upgrade``: bring the server's database schema up to date, without starting the server.

The server does the same when it starts; this command lets an operator migrate first (say, once,
before starting several processes of a new version on one PostgreSQL database) and see the outcome.
"""

from __future__ import annotations

import typer

from handfoot.commands import fail
from handfoot.commands.server_options import DatabaseUrl, DataDir

db_app = typer.Typer(
    help="The server's database: bring its schema up to date.", no_args_is_help=True, add_completion=False
)


def register(app: typer.Typer) -> None:
    """Add the ``db`` group of commands to ``app``."""
    app.add_typer(db_app, name="db")


@db_app.command("upgrade")
def upgrade(
    data: DataDir = None,
    database_url: DatabaseUrl = None,
) -> None:
    """Apply every schema revision the database lacks and print the revision it is at now.

    A new database gets its tables; one made by an earlier version keeps its tables and games. A
    database that cannot be opened, or that a newer version of handfoot made, is one line on stderr and
    exit status 2, and nothing is changed.
    """
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from handfoot.server.process.preflight import shown_database
    from handfoot.server.settings import SettingsError, load_settings
    from handfoot.server.store.migrate import MigrationError, upgrade
    from handfoot.server.store.storage import SCHEMA_LOCK_KEY
    from handfoot.server.store.storage import database_url as driver_url

    try:
        settings = load_settings(data_dir=data, database_url=database_url)
        settings.prepare()
    except SettingsError as exc:
        fail(str(exc))
    shown = shown_database(settings)
    try:
        engine = create_engine(driver_url(settings.db_url))
    except (ArgumentError, ImportError) as exc:
        fail(
            f"cannot open the database {shown}: {exc}; allowed: a SQLAlchemy URL (sqlite:///, postgresql://)"
        )
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
            before, after = upgrade(conn)
    except MigrationError as exc:
        fail(f"database {shown}: {exc}")
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        fail(f"cannot open the database {shown}: {reason}")
    finally:
        engine.dispose()
    if before == after:
        typer.echo(f"database {shown} is up to date (schema revision {after})")
    else:
        typer.echo(f"database {shown} upgraded from schema revision {before or 'none'} to {after}")
