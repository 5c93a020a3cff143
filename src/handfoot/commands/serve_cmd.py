"""``handfoot serve``: run the game server (lobby, WebSocket play, stored tables) on this machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from handfoot.commands import fail


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve")(serve)


def serve(
    data: Annotated[
        Path | None,
        typer.Option("--data", help="Folder for the database (env HANDFOOT_DATA; default ./handfoot-data)."),
    ] = None,
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (env HANDFOOT_HOST; default 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(help="Port to listen on (env HANDFOOT_PORT; default 8000).")
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url", help="A SQLAlchemy URL instead of SQLite in --data (env HANDFOOT_DATABASE_URL)."
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            help="Redis for several processes on one PostgreSQL database (env HANDFOOT_REDIS_URL).",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option("--bot-delay", help="Seconds a bot waits before moving (env HANDFOOT_BOT_DELAY)."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The address players reach the server at, e.g. https://cards.example.org behind a reverse "
            "proxy; invitation and watch links are built from it (env HANDFOOT_PUBLIC_URL; default: the "
            "address the page was opened at).",
        ),
    ] = None,
) -> None:
    """Start the server and, once it listens, print the address to open; stop it with Ctrl+C.

    Tables and their moves are stored as they happen, so a restart picks every game up where it was.
    A port in use (or any other address it cannot listen on), a data folder that cannot be made, a
    database that cannot be opened or a Redis that does not answer is one line on stderr and exit
    status 2, before anything is announced.
    """
    from handfoot.server.config import SettingsError, load_settings
    from handfoot.server.preflight import check_database, check_redis
    from handfoot.server.run import StartError, listen, startup_line
    from handfoot.server.run import serve as run_server

    try:
        settings = load_settings(
            data_dir=data,
            host=host,
            port=port,
            database_url=database_url,
            redis_url=redis_url,
            bot_delay=bot_delay,
            public_url=public_url,
        )
        sock = listen(settings.host, settings.port)
    except (SettingsError, StartError) as exc:
        fail(str(exc))
    try:
        settings.prepare()
        check_database(settings)
        if settings.redis_url:
            check_redis(settings.redis_url)
    except SettingsError as exc:
        sock.close()
        fail(str(exc))
    bound_port: int = sock.getsockname()[1]
    run_server(settings, sock, lambda: typer.echo(startup_line(settings, bound_port)))
