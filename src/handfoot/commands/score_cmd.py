"""``handfoot score``: score one hand of a paper game from what the score pad records.

The input is JSON: ``{"sides": [{...}, ...]}``, one object per side, as ``handfoot.pad`` describes and
checks it; the scoring itself is ``engine.scoring``. Sides are numbered from 0, as in the input's list.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from handfoot.commands import EXIT_BAD_INPUT, EXIT_REFUSED, fail, json_errors, rules_or_fail
from handfoot.decode import DecodeError, decode_json, read_text
from handfoot.pad import SHAPE, PadError, parse_pad


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to ``app``."""
    app.command("score")(score)


def score(
    source: Annotated[
        str, typer.Argument(metavar="FILE|-", help="The score pad as JSON: a file, or - for standard input.")
    ],
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            "-r",
            metavar="PRESET|FILE",
            help="A preset name, a rule file, or - for a rule file on standard input.",
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"scores": [...]} instead of tables.')
    ] = False,
    hand: Annotated[
        int,
        typer.Option(
            "--hand",
            min=1,
            max=100,
            help="Which hand of the game this is (1 first): options given one value per hand use its value.",
        ),
    ] = 1,
) -> None:
    """Score one hand of a paper game: each side's points, item by item.

    The input is {"sides": [{...}, ...]}, one object per side, with any of: clean_books, dirty_books,
    wild_books, melded_points (card value of everything on the table, books included, red 3s not),
    red_threes (laid down where the rules lay them down, otherwise held), held_points (card value
    left in hands and unplayed Feet, red 3s not), exact_deals, short_melds (whole numbers, default 0)
    and went_out (true/false, default false).
    """
    json_errors(as_json)
    if source == "-" and rules == "-":
        fail("the score pad and the rules cannot both come from standard input; allowed: - for one of them")
    rule_set = rules_or_fail(rules).for_hand(hand - 1)
    try:
        text, name = read_text(source)
    except DecodeError as err:
        fail(f"{err}; allowed: a JSON file, or - for standard input")
    try:
        sides = parse_pad(decode_json(text, name), rule_set)
    except DecodeError as err:
        fail(f"{err}; expected {SHAPE}")
    except PadError as err:
        fail(str(err), EXIT_REFUSED if err.refused else EXIT_BAD_INPUT)
    if as_json:
        typer.echo(json.dumps({"scores": [side.score(rule_set) for side in sides]}))
        return
    console = Console(highlight=False)
    console.print(Text(f"Scores for one hand under {rule_set.name}", style="bold"))
    for number, side in enumerate(sides):
        total = side.score(rule_set)
        table = Table(title=f"side {number}: {total}", title_justify="left", show_footer=True)
        table.add_column("item", footer="total")
        table.add_column("count", justify="right")
        table.add_column("points", justify="right", footer=f"{total:+d}" if total else "0")
        for line in side.lines(rule_set):
            table.add_row(Text(line.label), str(line.count) if line.count else "", f"{line.points:+d}")
        console.print(table)
