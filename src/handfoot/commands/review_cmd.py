"""``handfoot review RECORD --seat N [--hand H] [--worlds K] [--json]``: how a seat played a hand.

For each of the seat's decisions in the hand (the last finished one unless ``--hand`` says), the move
the strong bot would have made from what the seat knew then, and what the difference cost in points,
estimated on ``--worlds`` worlds sampled from the seat's view (``handfoot.review``); the costliest
first, each with a sentence and the position's index (``step``, the replay page's ``?step=``).
Progress goes to standard error (a bar on a terminal, a line now and then otherwise).

A record that cannot be used, a seat or hand it does not have, or a budget out of range exits with
status 2; a record whose moves do not play, or whose hand is not finished, exits with 1 (the game says
no). ``--json`` prints ``HandReview.to_json()``, and errors as ``handfoot.commands`` describes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from handfoot.commands import EXIT_BAD_INPUT, EXIT_REFUSED, fail, json_errors
from handfoot.commands.replay_cmd import record_or_fail
from handfoot.review import (
    DEFAULT_SEARCH_WORLDS,
    DEFAULT_WORLDS,
    HandReview,
    ReviewError,
    ReviewSettings,
    review_hand,
)
from handfoot.review.hand import Progress as ProgressCallback

LINE_EVERY = 10.0  # seconds between progress lines when standard error is not a terminal
SHOWN = 10  # decisions printed as text (all of them in --json)


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to ``app``."""
    app.command("review")(review_command)


@contextmanager
def progress_reporter(console: Console) -> Iterator[ProgressCallback]:
    """A ``progress(done, total)`` callback drawing a Rich bar on ``console`` (standard error), or on a
    console that is no terminal a line every ``LINE_EVERY`` seconds and at the end."""
    if not console.is_terminal:
        last = [time.monotonic() - LINE_EVERY]

        def line(done: int, total: int) -> None:
            now = time.monotonic()
            if done == total or now - last[0] >= LINE_EVERY:
                last[0] = now
                console.print(f"progress: {done} of {total} decisions judged", highlight=False)

        yield line
        return
    with Progress(
        TextColumn("judging decisions"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("review", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, total=total, completed=done)

        yield update


def review_command(
    record: Annotated[
        str,
        typer.Argument(
            metavar="RECORD", help="A game record (JSON, see docs/records.md); - reads standard input."
        ),
    ],
    seat: Annotated[int, typer.Option("--seat", help="The seat reviewed, counted from 0.")],
    hand: Annotated[
        int | None,
        typer.Option("--hand", help="The hand reviewed, counted from 0 (default: the last finished)."),
    ] = None,
    worlds: Annotated[
        int, typer.Option("--worlds", help="Worlds sampled per decision to estimate its cost.")
    ] = DEFAULT_WORLDS,
    search_worlds: Annotated[
        int, typer.Option("--search-worlds", help="Worlds the bot searches to find its own move.")
    ] = DEFAULT_SEARCH_WORLDS,
    seed: Annotated[int, typer.Option("--seed", help="Seed mixed into every decision's worlds.")] = 0,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON (every decision) instead of text.")
    ] = False,
) -> None:
    """Review how a seat played a finished hand: its costliest decisions first, and the bot's move."""
    json_errors(json_output)
    parsed = record_or_fail(record)
    try:
        settings = ReviewSettings(worlds=worlds, search_worlds=search_worlds, seed=seed)
        with progress_reporter(Console(stderr=True)) as progress:
            result = review_hand(parsed, seat, hand, settings, progress)
    except ReviewError as err:
        fail(err.message, EXIT_REFUSED if err.refused else EXIT_BAD_INPUT)
    if json_output:
        typer.echo(json.dumps(result.to_json()))
        return
    print_review(result, Console())


def print_review(result: HandReview, console: Console) -> None:
    """The review as text: a summary line, then the costliest decisions (at most ``SHOWN``)."""
    judged = len(result.decisions)
    differ = [d for d in result.decisions if d.played != d.bot]
    costly = result.costly
    lost = sum(d.cost.mean for d in costly)
    console.print(
        f"seat {result.seat}, hand {result.hand}: {judged} decisions, {len(differ)} unlike the bot's, "
        f"{len(costly)} costly ({lost:.0f} points); {result.settings.worlds} worlds per decision",
        highlight=False,
    )
    if not differ:
        console.print("Every decision was the bot's own.", highlight=False)
        return
    table = Table(show_lines=True)
    for column in ("step", "you played", "the bot", "cost (95% CI)", "why"):
        table.add_column(column, overflow="fold")
    for d in differ[:SHOWN]:
        mark = " costly" if d.costly else ""
        table.add_row(
            str(d.index),
            d.played,
            d.bot,
            f"{d.cost.mean:.0f} [{d.cost.low:.0f}, {d.cost.high:.0f}] of {d.cost.worlds}{mark}",
            d.sentence,
        )
    console.print(table)
