"""The score pad of a game played with real cards: what each side writes down for a hand, checked.

One hand's pad is ``{"sides": [{...}, ...]}``: one object per side (a team, or a player playing alone),
each with any of the keys in ``SIDE_KEYS``. Missing numbers are 0 and a missing ``went_out`` is false.
``parse_pad`` checks it against the rules; ``PadSide.score`` and ``PadSide.lines`` score it with the
engine (``engine.scoring``). Both ``handfoot score`` and the server's score pad read pads through here.

Positions in messages are JSON paths into the input, counted from 0 (``sides[1]`` is the second side).
A ``PadError`` says whether the pad could not be used (``refused`` false: its shape or a value) or the
rules refuse it (``refused`` true: two sides out, wild books without wild melds, a number of sides no
table under the rules has).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from handfoot.engine.scoring import ScoreLine, Tally, pad_tally, score_lines, score_tally
from handfoot.engine.state import Seating
from handfoot.rules import RuleSet
from handfoot.wording import alternatives, kind, plural, show

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
SHAPE = '{"sides": [{"clean_books": 1, "melded_points": 250, "went_out": true}, ...]}'
# Largest count accepted: far above any real hand (a 16-deck shoe holds 960 cards), and small enough
# that with the rules' bounds (rules.validate.MAX_POINTS) 100 hands stay far inside JSON's exact 2**53.
MAX_COUNT = 10**6


class PadError(ValueError):
    """A pad that cannot be scored; the message says what was wrong and what is allowed. ``refused``
    is true when the pad was read but the rules refuse it, false when it could not be used at all."""

    def __init__(self, message: str, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


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


def side_counts(rules: RuleSet) -> tuple[int, ...]:
    """The numbers of sides a table under ``rules`` can have (one per allowed player count), rising."""
    return tuple(sorted({Seating(rules, players).num_sides for players in rules.players_allowed}))


def parse_pad(data: object, rules: RuleSet) -> list[PadSide]:
    """The sides of a decoded ``{"sides": [...]}`` pad, checked against its shape and ``rules``.

    Raises PadError when ``data`` is not an object with a non-empty list ``sides`` of objects, a key is
    unknown, a count is not a whole number from 0 to MAX_COUNT, ``went_out`` is not true/false (all
    ``refused`` false); or, ``refused`` true, when no table under ``rules`` has that many sides, more
    than one side went out, or a side has wild books under rules without them.
    """
    if not isinstance(data, dict):
        raise PadError(f"the input must be a JSON object like {SHAPE}, not {kind(data)}")
    unknown = [key for key in data if key != "sides"]
    if unknown:
        raise PadError(f"unknown key {show(unknown[0])} at the top level; allowed: sides")
    if "sides" not in data:
        raise PadError(f'the key "sides" is missing: the input must look like {SHAPE}')
    sides = data["sides"]
    if not isinstance(sides, list) or not sides:
        raise PadError(f'"sides" must be a non-empty list with one object per side, not {kind(sides)}')
    parsed = [parse_side(side, f"sides[{index}]") for index, side in enumerate(sides)]
    allowed = side_counts(rules)
    if len(parsed) not in allowed:
        raise PadError(
            f"the pad lists {plural(len(parsed), 'side')}; "
            f"a table under {rules.name} has {alternatives(allowed)} sides",
            refused=True,
        )
    check_hand(parsed, rules, "sides")
    return parsed


def parse_sides(sides: list[Any], rules: RuleSet, where: str) -> list[PadSide]:
    """Check one hand's list of side entries (``where`` is its JSON path, for messages): each entry as
    ``parse_side`` says, then the hand as ``check_hand`` does."""
    parsed = [parse_side(side, f"{where}[{index}]") for index, side in enumerate(sides)]
    check_hand(parsed, rules, where)
    return parsed


def check_hand(sides: list[PadSide], rules: RuleSet, where: str) -> None:
    """Raise PadError (``refused``) when more than one side went out, or a side has wild books under
    rules without them (``where`` is the JSON path of the list of sides, for messages)."""
    out = [f"{where}[{index}]" for index, side in enumerate(sides) if side.went_out]
    if len(out) > 1:
        raise PadError(f"went_out is true for {' and '.join(out)}; only one side goes out in a hand", True)
    if not rules.wild_melds:
        for index, side in enumerate(sides):
            if side.counts["wild_books"]:
                raise PadError(
                    f"{where}[{index}]: wild_books is {side.counts['wild_books']}, but {rules.name} "
                    "has no wild books (wild_melds = false); allowed: 0",
                    refused=True,
                )


def parse_side(side: object, where: str) -> PadSide:
    """One side's entry, checked (``where`` is its JSON path, for messages)."""
    if not isinstance(side, dict):
        raise PadError(
            f"{where} must be a JSON object with keys from {', '.join(SIDE_KEYS)}, not {kind(side)}"
        )
    for key in side:
        if key not in SIDE_KEYS:
            raise PadError(f"{where}: unknown key {show(key)}; allowed: {', '.join(SIDE_KEYS)}")
    counts: dict[str, int] = {}
    for key, meaning in COUNT_KEYS.items():
        value = side.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
            raise PadError(
                f"{where}: {key} must be a whole number from 0 to {MAX_COUNT:,} ({meaning}), "
                f"not {show(value)}"
            )
        counts[key] = value
    went_out = side.get("went_out", False)
    if not isinstance(went_out, bool):
        raise PadError(f"{where}: went_out must be true or false, not {show(went_out)}")
    return PadSide(counts, went_out)
