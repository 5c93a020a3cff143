"""``handfoot bot connect LINK --cmd '...'``: a bot program of any language plays a seat of a live table.

    handfoot bot connect 'http://127.0.0.1:8000/play/k3J9xQ2aVbE#seat=kq1…' \\
        --cmd 'python examples/bots/first_legal.py' [--move-time 5] [--reconnect 120]

The program speaks the bot protocol (docs/bot-protocol.md) on its standard input and output; this
command speaks the server's WebSocket protocol (docs/protocol.md) for it, under the name the bot gives
(the lobby lists the seat by it), reconnecting when the connection drops and sending a move again that
the server could not store, for ``--reconnect`` seconds. Exit status 0 when the game is over, 1 when
the bot failed or the table was lost (the seat is then a missing player's, which the host can hand to a
bot), 2 for a bad link, command or option, or a link that leads to no handfoot table; 143 or 130 when
stopped by SIGTERM or Ctrl-C (the bot and everything it started are ended first).
"""

from __future__ import annotations

from typing import Annotated

import typer

from handfoot.commands import fail
from handfoot.commands.simulate_cmd import Terminated, stop_on_sigterm
from handfoot.protocol.link import RECONNECT_SECONDS, LinkError, parse_seat_link
from handfoot.protocol.live import LiveSeat
from handfoot.protocol.process import check_move_time, command_argv
from handfoot.sim.seats import DEFAULT_MOVE_TIME

MOST_RECONNECT = 86400.0  # --reconnect: at most a day

bot_app = typer.Typer(
    name="bot",
    help="Bot programs of any language at live tables (docs/bot-protocol.md).",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    """Add the ``bot`` commands to ``app``."""
    app.add_typer(bot_app, name="bot")


@bot_app.command("connect")
def connect_command(
    link: Annotated[str, typer.Argument(metavar="LINK", help="The seat's link (…/play/TABLE#seat=TOKEN).")],
    cmd: Annotated[
        str,
        typer.Option(
            "--cmd", help="The bot program's command line, e.g. 'node examples/bots/first_legal.js'."
        ),
    ],
    move_time: Annotated[
        float, typer.Option("--move-time", help="Seconds the program has for each decision.")
    ] = DEFAULT_MOVE_TIME,
    reconnect: Annotated[
        float,
        typer.Option(
            "--reconnect",
            help="Seconds to keep reconnecting after the connection drops (and to keep sending a move the "
            "server could not store) before giving up.",
        ),
    ] = RECONNECT_SECONDS,
) -> None:
    """Play a seat of a live table with a bot program speaking the bot protocol."""
    try:
        seat_link = parse_seat_link(link)
        argv = command_argv(cmd)
        check_move_time(move_time)
    except (LinkError, ValueError) as err:
        fail(str(err))
    if not 0 <= reconnect <= MOST_RECONNECT:
        fail(f"--reconnect {reconnect!r} is out of range; allowed: 0 to {MOST_RECONNECT:g} seconds")
    seat = LiveSeat(seat_link, argv, f"cmd:{cmd}", move_time, reconnect_seconds=reconnect)
    try:
        with stop_on_sigterm():
            status = seat.run()
    except (KeyboardInterrupt, Terminated) as stop:
        terminated = isinstance(stop, Terminated)
        typer.echo(
            f"stopped by {'SIGTERM' if terminated else 'Ctrl-C'}: the bot is ended; the seat is left to the "
            "table",
            err=True,
        )
        raise typer.Exit(143 if terminated else 130) from None
    if status:
        raise typer.Exit(status)
