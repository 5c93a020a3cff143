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
    from handfoot.server.process.preflight import check_database, shown_database
    from handfoot.server.settings import SettingsError, load_settings

    try:
        settings = load_settings(data_dir=data, database_url=database_url)
        settings.prepare()
        before, after = check_database(settings)  # as the server opens it: with its timeouts and lock
    except SettingsError as exc:
        fail(str(exc))
    shown = shown_database(settings)
    if before == after:
        typer.echo(f"database {shown} is up to date (schema revision {after})")
    else:
        typer.echo(f"database {shown} upgraded from schema revision {before or 'none'} to {after}")
