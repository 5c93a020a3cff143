"""``handfoot review RECORD --seat N [--hand H] [--worlds K] [--json]``: how a seat played a hand.

For each of the seat's decisions in the hand (the last finished one unless ``--hand`` says), a whole
part of a turn (the draw; the lay-down and discard; an answer), the line the strong bot would have
played from what the seat knew then (or a line going out), and what the difference cost in points,
estimated on ``--worlds`` worlds sampled from the seat's view (``handfoot.review``). The text lists
the mistakes, the costliest first, each with a sentence and the position's index (``step``, the
replay page's ``?step=``); ``--json`` has every decision.
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
    """Review how a seat played a finished hand: its mistakes, the costliest first, and what was better."""
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


KIND_WORDS = {
    "draw": "the draw",
    "play": "lay-down and discard",
    "answer": "the answer",
    "foot": "the Foot",
}  # the browser's review page names the parts of a turn the same way


def print_review(result: HandReview, console: Console) -> None:
    """The review as text: the summary line, then the mistakes (at most ``SHOWN``), costliest first."""
    console.print(result.summary(), highlight=False)
    mistakes = result.mistakes
    if not mistakes:
        console.print("No decision cost points beyond the noise of the estimate.", highlight=False)
        return
    table = Table(show_lines=True)
    for column in ("step", "decision", "cost", "what happened"):
        table.add_column(column, overflow="fold")
    for d in mistakes[:SHOWN]:
        table.add_row(str(d.index), KIND_WORDS.get(d.kind, d.kind), d.cost_words(), d.sentence)
    console.print(table)
