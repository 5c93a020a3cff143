"""``handfoot serve``: run the game server (lobby, WebSocket play, stored tables) on this machine."""

from __future__ import annotations

from typing import Annotated

import typer

from handfoot.commands import fail
from handfoot.commands.server_options import DatabaseUrl, DataDir


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve")(serve)


def serve(
    data: DataDir = None,
    host: Annotated[
        str | None, typer.Option(help="Address to listen on (env HANDFOOT_HOST; default 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(help="Port to listen on (env HANDFOOT_PORT; default 8000).")
    ] = None,
    database_url: DatabaseUrl = None,
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
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            help="NAME=PATH: a trained model (a saved Stable-Baselines3 / sb3-contrib .zip) that tables may "
            "seat as the bot NAME; repeat for several (env HANDFOOT_POLICIES, NAME=PATH,...). Loading a "
            "model runs code from its file: list only files you trust.",
        ),
    ] = None,
    access_log: Annotated[
        bool | None,
        typer.Option(
            "--access-log/--no-access-log",
            help="Log a line per HTTP request too (env HANDFOOT_ACCESS_LOG; default: off, the server logs "
            "a line per table event).",
        ),
    ] = None,
) -> None:
    """Start the server and, once it listens, print the address to open; stop it with Ctrl+C.

    Tables and their moves are stored as they happen, so a restart picks every game up where it was.
    A port in use (or any other address it cannot listen on), a data folder that cannot be made, a
    database that cannot be opened, a Redis that does not answer or a ``--policy`` that cannot be loaded
    is one line on stderr and exit status 2, before anything is announced.
    """
    from handfoot.server.app import create_app
    from handfoot.server.process.preflight import check_database, check_redis
    from handfoot.server.process.run import StartError, listen, startup_line
    from handfoot.server.process.run import serve as run_server
    from handfoot.server.settings import SettingsError, load_settings
    from handfoot.server.tables.seat_bots import use_policies

    try:
        settings = load_settings(
            data_dir=data,
            host=host,
            port=port,
            database_url=database_url,
            redis_url=redis_url,
            bot_delay=bot_delay,
            public_url=public_url,
            access_log=access_log,
            policies=policy,
        )
        sock = listen(settings.host, settings.port)
    except (SettingsError, StartError) as exc:
        fail(str(exc))
    try:
        settings.prepare()
        check_database(settings)
        if settings.redis_url:
            check_redis(settings.redis_url)
        use_policies(settings.policies)
    except (SettingsError, ValueError) as exc:
        sock.close()
        fail(str(exc))
    bound_port: int = sock.getsockname()[1]
    run_server(create_app(settings), settings, sock, lambda: typer.echo(startup_line(settings, bound_port)))
