"""``handfoot bot connect LINK --cmd '...'``: a bot program of any language plays a seat of a live table.

    handfoot bot connect 'http://127.0.0.1:8000/play/k3J9xQ2aVbE#seat=kq1…' \\
        --cmd 'python examples/bots/first_legal.py' [--move-time 5]

The program speaks the bot protocol (docs/bot-protocol.md) on its standard input and output; this
command speaks the server's WebSocket protocol (docs/protocol.md) for it, under the name the bot gives
(the lobby lists the seat by it), reconnecting when the connection drops. Exit status 0 when the game
is over, 1 when the bot failed or the table was lost (the seat is then a missing player's, which the
host can hand to a bot), 2 for a bad link or command.
"""

from __future__ import annotations

from typing import Annotated

import typer

from handfoot.commands import EXIT_REFUSED, fail
from handfoot.protocol.link import LinkError, parse_seat_link
from handfoot.protocol.live import LiveSeat
from handfoot.protocol.process import command_argv
from handfoot.sim.seats import DEFAULT_MOVE_TIME

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
) -> None:
    """Play a seat of a live table with a bot program speaking the bot protocol."""
    try:
        seat_link = parse_seat_link(link)
        argv = command_argv(cmd)
    except (LinkError, ValueError) as err:
        fail(str(err))
    if not move_time > 0:
        fail("--move-time must be more than 0 seconds")
    status = LiveSeat(seat_link, argv, f"cmd:{cmd}", move_time).run()
    if status:
        raise typer.Exit(EXIT_REFUSED)
