"""``handfoot hint RECORD``: the move to play at the end of a game record, and why.

The record is replayed (``handfoot.record.replay``); the hint is for the seat to move there, from that
seat's view only. ``--seconds``/``--iterations`` set the search budget; ``--quick`` asks the heuristic.
A record that cannot be read, stops at an illegal move, or ends with the game over exits with status 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from handfoot.bots.base import legal_for
from handfoot.bots.hint import hint
from handfoot.bots.ismcts import Budget
from handfoot.commands import fail
from handfoot.engine.views import view
from handfoot.record import RecordError, load_record, replay


def register(app: typer.Typer) -> None:
    """Add the ``hint`` command to ``app``."""
    app.command("hint")(hint_command)


def hint_command(
    record: Annotated[
        str, typer.Argument(metavar="RECORD", help="A game record (JSON, see docs/records.md).")
    ],
    seconds: Annotated[float, typer.Option("--seconds", help="Search time budget.")] = 1.0,
    iterations: Annotated[int | None, typer.Option("--iterations", help="Search iterations budget.")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="The heuristic's move, without search.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search.")] = 0,
) -> None:
    """Suggest the next move at the end of a game record, with one sentence why."""
    try:
        parsed = load_record(record)
    except RecordError as err:
        fail(str(err))
    game, error = replay(parsed)
    if error is not None:
        fail(f"move {error.index + 1} ({error.move!r}) cannot be played: {error.message} [{error.rule}]")
    if game.finished:
        fail("the game in this record is over: there is no move to suggest")
    if seconds <= 0 or (iterations is not None and iterations < 1):
        fail("--seconds must be positive and --iterations at least 1")
    state = game.state
    seat = state.to_move
    budget = None if quick else Budget(iterations=iterations, seconds=None if iterations else seconds)
    suggestion = hint(view(state, seat), legal_for(state), budget, seed)
    typer.echo(f"seat {seat}: {suggestion.text}")
    typer.echo(suggestion.reason + ".")
