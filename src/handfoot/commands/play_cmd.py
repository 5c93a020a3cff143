"""``handfoot play [LINK]``: Hand and Foot in the terminal (a Textual app, keyboard only; it fits 80x24).

    handfoot play                                   # kitchen-table against medium bots, on this machine
    handfoot play --rules family --players 3 --bots hard --seed 7
    handfoot play --rules thirteen.toml --bots easy,medium,'cmd:node examples/bots/first_legal.js'
    handfoot play 'http://127.0.0.1:8000/play/k3J9xQ2aVbE#seat=kq1…' --name Ann   # a seat at a server table

Without a link the game runs on the embedded engine: you at seat 0, bots (any ``--seats`` spec of
``simulate``) in the other seats. With a seat link it plays that seat over the server's WebSocket
protocol, as the browser does (reconnecting, welcome back). ``--ascii`` draws cards as ``KS`` instead of
``K♠``; colours follow the terminal (``NO_COLOR`` turns them off). The keys are listed under ``?``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from handfoot.commands import EXIT_REFUSED, fail, players_or_fail, rules_or_fail
from handfoot.protocol.link import LinkError, parse_seat_link
from handfoot.sim.seats import check_seat, split_seats
from handfoot.wording import alternatives


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command("play")(play_command)


def play_command(
    link: Annotated[
        str | None,
        typer.Argument(metavar="[LINK]", help="A seat link of a server table (…/play/TABLE#seat=TOKEN)."),
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="A preset name or a rule file.")] = "kitchen-table",
    players: Annotated[
        int | None, typer.Option("--players", help="Players (default: the rules' own).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help="Who plays the other seats: one spec for all, or one per seat (as --seats)."
        ),
    ] = "medium",
    seed: Annotated[int, typer.Option("--seed", help="The deal's seed.")] = 0,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Cards as KS, not K♠: plain ASCII.")] = False,
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds between the bots' moves.")] = 0.5,
    hint_seconds: Annotated[
        float, typer.Option("--hint-seconds", help="Search time of a hint (0: instant).")
    ] = 0.4,
    name: Annotated[str | None, typer.Option("--name", help="Your name at a server table.")] = None,
) -> None:
    """Play Hand and Foot in the terminal: against bots here, or at a server table with a seat link."""
    from handfoot.tui.app import PlayApp
    from handfoot.tui.source import SEAT_NAMES, LiveTable, LocalTable, TableSource

    if bot_delay < 0 or hint_seconds < 0:
        fail("--bot-delay and --hint-seconds are 0 or more seconds")
    source: TableSource
    if link is not None:
        try:
            seat_link = parse_seat_link(link)
        except LinkError as err:
            fail(str(err))
        try:
            source = LiveTable(seat_link, name)
        except LinkError as err:  # no handfoot table there (2), or it cannot be played now (1)
            fail(str(err), err.status)
        except ValueError as err:  # the table took the link as a spectator's
            fail(str(err), EXIT_REFUSED)
        source.wait_state()
    else:
        rule_set = rules_or_fail(rules)
        count = players_or_fail(rule_set, players)
        if count > len(SEAT_NAMES):  # the terminal table names each seat by where it sits
            seated = alternatives([p for p in rule_set.players_allowed if p <= len(SEAT_NAMES)])
            fail(
                f"the terminal table seats up to {len(SEAT_NAMES)} players, not {count}; "
                f"{rule_set.name} plays here with {seated} (more at a server table: handfoot serve)",
                EXIT_REFUSED,
            )
        specs = split_seats(bots)
        try:
            for spec in specs:
                check_seat(spec)
            source = LocalTable(rule_set, count, specs, seed, hint_seconds=hint_seconds)
        except ValueError as err:
            fail(str(err))
    try:
        PlayApp(source, ascii_only=ascii_only, bot_delay=bot_delay).run()
    finally:
        source.close()
