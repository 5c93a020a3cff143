"""``handfoot hint RECORD [--json]``: the move to play at the end of a game record, and why.

The record is replayed (``handfoot.record.replay``); the hint is for the seat to move there, from that
seat's view only. ``--seconds``/``--iterations`` set the search budget; ``--quick`` asks the heuristic.
A record that cannot be used exits with status 2; one that stops at an illegal move, or ends with the
game over, exits with 1 (the game says no). ``--json`` prints ``{"seat", "move", "reason"}``, and errors
as ``handfoot.commands`` describes.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from handfoot.bots.base import legal_for
from handfoot.bots.hint import hint
from handfoot.bots.ismcts import Budget
from handfoot.commands import EXIT_REFUSED, fail, json_errors
from handfoot.commands.replay_cmd import illegal_move_text, record_or_fail
from handfoot.record import replay


def register(app: typer.Typer) -> None:
    """Add the ``hint`` command to ``app``."""
    app.command("hint")(hint_command)


def hint_command(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD", help="A game record (JSON, see docs/records.md); - reads standard input."
        ),
    ],
    seconds: Annotated[float, typer.Option("--seconds", help="Search time budget.")] = 1.0,
    iterations: Annotated[int | None, typer.Option("--iterations", help="Search iterations budget.")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="The heuristic's move, without search.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search.")] = 0,
    json_output: Annotated[
        bool, typer.Option("--json", help='Print {"seat": ..., "move": ..., "reason": ...} instead of text.')
    ] = False,
) -> None:
    """Suggest the next move at the end of a game record, with one sentence why."""
    json_errors(json_output)
    if not seconds > 0 or (iterations is not None and iterations < 1):
        fail("--seconds must be more than 0 and --iterations at least 1")
    parsed = record_or_fail(record)
    game, error = replay(parsed)
    if error is not None:
        fail(
            illegal_move_text(error),
            EXIT_REFUSED,
            index=error.index,
            move=error.move,
            rule=error.rule,
        )
    if game.finished:
        fail("the game in this record is over: there is no move to suggest", EXIT_REFUSED)
    state = game.state
    seat = state.to_move
    budget = None if quick else Budget(iterations=iterations, seconds=None if iterations else seconds)
    suggestion = hint(game.seat_info(seat), legal_for(state), budget, seed)
    if json_output:
        typer.echo(json.dumps({"seat": seat, "move": suggestion.text, "reason": suggestion.reason}))
        return
    typer.echo(f"seat {seat}: {suggestion.text}")
    typer.echo(suggestion.reason + ".")
