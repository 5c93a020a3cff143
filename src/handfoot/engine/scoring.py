"""Scoring a hand: one side's tally of what it did, turned into points by the rules.

The engine builds a ``Tally`` for each side from the table at the end of a hand; the score pad builds
one from what a family writes down after a paper game. Both score it with ``score_tally``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from handfoot import cards as C
from handfoot.rules.options import RedThreeBonusIf, RedThrees, RuleSet


@dataclass(frozen=True)
class Tally:
    """What one side has at the end of a hand.

    ``melded_points``: card values of everything the side has on the table (books included, red 3s not).
    ``held_points``: card values of what is left in its hands and unplayed Feet (red 3s not).
    ``red_threes``: red 3s laid down (rules that lay them down). ``held_red_threes``: red 3s still held
    in a hand or an unplayed Foot. ``melded``: the side has melded this hand (for the red-3 bonus).
    ``exact_deals`` and ``short_melds`` are paper-game items the score pad records.
    ``priced_books``: (rank, status) of each book (counted above too) that the ``book_bonuses`` table
    prices; ``open_wild_melds``: melds of wilds that are not books (``wild_meld_penalty``).
    """

    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    melded_points: int = 0
    red_threes: int = 0
    held_red_threes: int = 0
    held_points: int = 0
    went_out: bool = False
    melded: bool = False
    exact_deals: int = 0
    short_melds: int = 0
    priced_books: tuple[tuple[int, int], ...] = ()
    open_wild_melds: int = 0

    def __reduce__(self) -> tuple[type[Tally], tuple[object, ...]]:
        """Pickled through the constructor (compiled with mypyc, the only way one is made)."""
        return (Tally, tuple(getattr(self, f.name) for f in fields(self)))


@dataclass(frozen=True)
class ScoreLine:
    """One item of a hand's score: a label, how many, and the points it brings (signed)."""

    label: str
    count: int
    points: int

    def __reduce__(self) -> tuple[type[ScoreLine], tuple[object, ...]]:
        """Pickled and copied through the constructor (compiled with mypyc, the only way one is made)."""
        return (ScoreLine, (self.label, self.count, self.points))


BOOK_WORDS: Final = ("clean books", "dirty books", "wild books")


def _book_lines(rules: RuleSet, tally: Tally) -> list[ScoreLine]:
    """The book bonuses: one line per kind at its usual bonus, one per rank the table prices."""
    counts = [tally.clean_books, tally.dirty_books, tally.wild_books]
    bonuses = (rules.clean_book_bonus, rules.dirty_book_bonus, rules.wild_book_bonus)
    priced: dict[tuple[int, int], int] = {}
    for rank, status in tally.priced_books:
        priced[(rank, status)] = priced.get((rank, status), 0) + 1
        counts[status] -= 1
    lines = [ScoreLine(BOOK_WORDS[i], counts[i], counts[i] * bonuses[i]) for i in range(3)]
    for (rank, status), count in sorted(priced.items()):
        what = "wild books" if status == 2 else f"{BOOK_WORDS[status]} of {C.KIND_PLURALS[rank]}"
        lines.append(ScoreLine(what, count, count * rules.book_bonus(rank, status)))
    return lines


def score_lines(rules: RuleSet, tally: Tally) -> tuple[ScoreLine, ...]:
    """The breakdown of a side's hand score, item by item (items worth nothing are left out)."""
    lines: list[ScoreLine] = []

    def add(label: str, count: int, points: int) -> None:
        if count or points:
            lines.append(ScoreLine(label, count, points))

    for line in _book_lines(rules, tally):
        add(line.label, line.count, line.points)
    add("cards on the table", 0, tally.melded_points)
    add("unfinished wild melds", tally.open_wild_melds, -tally.open_wild_melds * rules.wild_meld_penalty)
    if tally.red_threes:
        earned = tally.went_out if rules.red_three_bonus_if is RedThreeBonusIf.WENT_OUT else tally.melded
        each = rules.red_three_bonus if earned else rules.red_three_unmelded
        add("red 3s laid down", tally.red_threes, tally.red_threes * each)
    add("red 3s held", tally.held_red_threes, tally.held_red_threes * rules.red_three_held)
    add("going out", int(tally.went_out), rules.going_out_bonus if tally.went_out else 0)
    add("cards left in hand and foot", 0, -tally.held_points)
    add("exact deals", tally.exact_deals, tally.exact_deals * rules.exact_deal_bonus)
    add("short openings", tally.short_melds, -tally.short_melds * rules.short_opening_penalty)
    return tuple(lines)


def score_tally(rules: RuleSet, tally: Tally) -> int:
    """A side's score for one hand under ``rules``."""
    return sum(line.points for line in score_lines(rules, tally))


def pad_tally(
    rules: RuleSet,
    *,
    clean_books: int = 0,
    dirty_books: int = 0,
    wild_books: int = 0,
    melded_points: int = 0,
    red_threes: int = 0,
    held_points: int = 0,
    went_out: bool = False,
    exact_deals: int = 0,
    short_melds: int = 0,
    open_wild_melds: int = 0,
) -> Tally:
    """A Tally from what a score pad records: ``red_threes`` are laid down where the rules lay them
    down (scored as a bonus once the side has melded), and otherwise held (scored as a penalty)."""
    laid = rules.red_threes is RedThrees.LAY_DOWN
    melded = melded_points > 0 or clean_books + dirty_books + wild_books > 0
    return Tally(
        clean_books=clean_books,
        dirty_books=dirty_books,
        wild_books=wild_books,
        melded_points=melded_points,
        red_threes=red_threes if laid else 0,
        held_red_threes=0 if laid else red_threes,
        held_points=held_points,
        went_out=went_out,
        melded=melded,
        exact_deals=exact_deals,
        short_melds=short_melds,
        open_wild_melds=open_wild_melds,
    )
