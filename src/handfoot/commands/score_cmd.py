"""``handfoot score``: score one hand of a paper game from what the score pad records.

The input is JSON: ``{"sides": [{...}, ...]}``, one object per side (a team, or a player playing
alone), each with any of the keys in ``SIDE_KEYS``. Missing numbers are 0 and a missing ``went_out``
is false. The scoring itself is ``engine.scoring`` (``pad_tally``, ``score_lines``, ``score_tally``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from handfoot.commands import fail, rules_or_fail
from handfoot.engine.scoring import ScoreLine, Tally, pad_tally, score_lines, score_tally
from handfoot.rules import RuleSet

# Whole numbers >= 0 a side may give, with what each means.
COUNT_KEYS: dict[str, str] = {
    "clean_books": "clean (natural) books",
    "dirty_books": "dirty (mixed) books",
    "wild_books": "books made only of wilds (rules with wild_melds)",
    "melded_points": "card value of everything the side has on the table, books included, red 3s not",
    "red_threes": "the side's red 3s: laid down where the rules lay them down, otherwise held",
    "held_points": "card value of what is left in hands and unplayed Feet, red 3s not",
    "exact_deals": "exact deals (score-pad bonus, rules with exact_deal_bonus)",
    "short_melds": "short openings (score-pad penalty, rules with short_opening_penalty)",
    "open_wild_melds": "melds of wilds short of a book at the end (rules with wild_meld_penalty)",
}
FLAG_KEYS: dict[str, str] = {"went_out": "true for the side that went out"}
SIDE_KEYS: tuple[str, ...] = (*COUNT_KEYS, *FLAG_KEYS)
_SHAPE = '{"sides": [{"clean_books": 1, "melded_points": 250, "went_out": true}, ...]}'


class ScoreInputError(ValueError):
    """Score-pad input that cannot be scored; the message says what was wrong and what is allowed."""


@dataclass(frozen=True)
class PadSide:
    """One side's score-pad entry, checked: a whole number >= 0 for each of COUNT_KEYS, and went_out."""

    counts: dict[str, int]
    went_out: bool

    def lines(self, rules: RuleSet) -> tuple[ScoreLine, ...]:
        """This side's score lines under ``rules`` (see ``engine.scoring.score_lines``)."""
        return score_lines(rules, self._tally(rules))

    def score(self, rules: RuleSet) -> int:
        """This side's score for the hand under ``rules``."""
        return score_tally(rules, self._tally(rules))

    def _tally(self, rules: RuleSet) -> Tally:
        """The engine's Tally for this entry (red 3s laid down or held as ``rules`` say)."""
        c = self.counts
        return pad_tally(
            rules,
            clean_books=c["clean_books"],
            dirty_books=c["dirty_books"],
            wild_books=c["wild_books"],
            melded_points=c["melded_points"],
            red_threes=c["red_threes"],
            held_points=c["held_points"],
            went_out=self.went_out,
            exact_deals=c["exact_deals"],
            short_melds=c["short_melds"],
            open_wild_melds=c["open_wild_melds"],
        )


def parse_pad(data: object, rules: RuleSet) -> list[PadSide]:
    """The sides of a decoded score-pad document, checked against its shape and ``rules``.

    Raises ScoreInputError when ``data`` is not an object with a non-empty list ``sides`` of objects,
    when a key is unknown, a count is not a whole number >= 0, ``went_out`` is not true/false, more
    than one side went out, or a side has wild books under rules without them.
    """
    if not isinstance(data, dict):
        raise ScoreInputError(f"the input must be a JSON object like {_SHAPE}, not {_json_kind(data)}")
    unknown = [key for key in data if key != "sides"]
    if unknown:
        raise ScoreInputError(f"unknown key {unknown[0]!r} at the top level; allowed: sides")
    if "sides" not in data:
        raise ScoreInputError(f"missing key 'sides': the input must look like {_SHAPE}")
    sides = data["sides"]
    if not isinstance(sides, list) or not sides:
        raise ScoreInputError(
            f"'sides' must be a non-empty list with one object per side, not {_json_kind(sides)}"
        )
    parsed = [_parse_side(number, side) for number, side in enumerate(sides, start=1)]
    out = [number for number, side in enumerate(parsed, start=1) if side.went_out]
    if len(out) > 1:
        raise ScoreInputError(
            f"went_out is true for sides {' and '.join(map(str, out))}; only one side goes out in a hand"
        )
    if not rules.wild_melds:
        for number, side in enumerate(parsed, start=1):
            if side.counts["wild_books"]:
                raise ScoreInputError(
                    f"side {number}: wild_books is {side.counts['wild_books']}, but rule set {rules.name!r} "
                    "has no wild books (wild_melds = false); allowed: 0"
                )
    return parsed


def _parse_side(number: int, side: object) -> PadSide:
    """One side's object, checked (``number`` counts from 1, for messages)."""
    if not isinstance(side, dict):
        raise ScoreInputError(
            f"side {number} must be a JSON object with keys from {', '.join(SIDE_KEYS)}, "
            f"not {_json_kind(side)}"
        )
    for key in side:
        if key not in SIDE_KEYS:
            raise ScoreInputError(f"side {number}: unknown key {key!r}; allowed: {', '.join(SIDE_KEYS)}")
    counts: dict[str, int] = {}
    for key in COUNT_KEYS:
        value = side.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScoreInputError(
                f"side {number}: {key} must be a whole number >= 0 ({COUNT_KEYS[key]}), "
                f"not {json.dumps(value)}"
            )
        counts[key] = value
    went_out = side.get("went_out", False)
    if not isinstance(went_out, bool):
        raise ScoreInputError(f"side {number}: went_out must be true or false, not {json.dumps(went_out)}")
    return PadSide(counts, went_out)


def _json_kind(value: object) -> str:
    """How a decoded JSON value reads in a message: 'a list', 'a number', 'null'..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "an empty list" if not value else "a list"
    return "an object"


def read_input(source: str) -> object:
    """The decoded JSON of file ``source`` (``-`` for stdin); ScoreInputError if unreadable or not JSON."""
    name = "stdin" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ScoreInputError(f"cannot read {name}: {reason}; give a JSON file, or - for stdin") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScoreInputError(
            f"{name} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); expected {_SHAPE}"
        ) from None


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to ``app``."""
    app.command("score")(score)


def score(
    source: Annotated[
        str, typer.Argument(metavar="FILE|-", help="The score pad as JSON: a file, or - for stdin.")
    ],
    rules: Annotated[
        str, typer.Option("--rules", "-r", metavar="PRESET|FILE", help="A preset name or a TOML rule file.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"scores": [...]} instead of tables.')
    ] = False,
) -> None:
    """Score one hand of a paper game: each side's points, item by item.

    The input is {"sides": [{...}, ...]}, one object per side, with any of: clean_books, dirty_books,
    wild_books, melded_points (card value of everything on the table, books included, red 3s not),
    red_threes (laid down where the rules lay them down, otherwise held), held_points (card value
    left in hands and unplayed Feet, red 3s not), exact_deals, short_melds (whole numbers, default 0)
    and went_out (true/false, default false).
    """
    rule_set = rules_or_fail(rules)
    try:
        sides = parse_pad(read_input(source), rule_set)
    except ScoreInputError as err:
        fail(str(err))
    if as_json:
        typer.echo(json.dumps({"scores": [side.score(rule_set) for side in sides]}))
        return
    console = Console(highlight=False)
    console.print(Text(f"Scores for one hand under {rule_set.name}", style="bold"))
    for number, side in enumerate(sides, start=1):
        total = side.score(rule_set)
        table = Table(title=f"Side {number}: {total}", title_justify="left", show_footer=True)
        table.add_column("item", footer="total")
        table.add_column("count", justify="right")
        table.add_column("points", justify="right", footer=f"{total:+d}" if total else "0")
        for line in side.lines(rule_set):
            table.add_row(Text(line.label), str(line.count) if line.count else "", f"{line.points:+d}")
        console.print(table)
