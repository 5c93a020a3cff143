"""One-line explanations of a rule, for a player meeting it the first time at a table.

Each function takes the table's ``RuleSet`` and says the rule as that table plays it, in one sentence:
the black 3 that freezes the pile, a red 3 laid down, the opening minimum, taking the pile, going out.
``LESSONS`` maps the kind of fact the server tells a seat (the engine's event types, by their text:
``red_three``, ``took_pile``, ``went_out``; and ``pile_frozen``, ``opening``) to its function, for the
table page: the first time a fact reaches a player in their first hand, it shows ``lesson(rules,
fact)``. Standard library only (the rules ring).
"""

from __future__ import annotations

from collections.abc import Callable

from handfoot.rules.options import (
    OpeningBy,
    Permission,
    PickupBeforeDown,
    RedThreeBonusIf,
    RedThrees,
    RuleSet,
)
from handfoot.wording import alternatives, plural


def pile_frozen(rules: RuleSet) -> str:
    """A black 3 on top of the pile (``black_three_freezes``)."""
    if not rules.black_three_freezes:
        return "A black 3 on the pile does not freeze it here: it is only a card nobody can use."
    draw = plural(rules.draw_count, "card")
    stops = "A black 3 on top of the pile stops the next player taking it"
    return f"{stops}: they draw {draw} from the stock instead."


def red_three(rules: RuleSet) -> str:
    """A red 3 laid down (``red_threes``, the red-3 scores)."""
    when = (
        "your side has melded" if rules.red_three_bonus_if is RedThreeBonusIf.MELDED else "your side goes out"
    )
    worth = f"{rules.red_three_bonus} if {when} this hand, {rules.red_three_unmelded} if not"
    if rules.red_threes is RedThrees.LAY_DOWN:
        return f"A red 3 goes down at once and is replaced from the stock: it is worth {worth}."
    if rules.red_threes is RedThrees.LAY_BY_CHOICE:
        return f"A red 3 is laid down in your turn when you choose, never discarded: it is worth {worth}."
    return f"A red 3 is held like any card here; one still held at the end costs {rules.red_three_held}."


def opening(rules: RuleSet, minimum: int | None = None) -> str:
    """Laying down the first meld (the opening minimum): ``minimum`` is the side's, if known."""
    what = "card values count, book bonuses too" if rules.opening_counts_books else "count card values only"
    rises = "your side's score" if rules.opening_by is OpeningBy.SCORE else "the hand number"
    mins = alternatives(rules.opening_minimums)
    if minimum is None:
        return f"Your side's first meld must be worth at least {mins} points as {rises} rises ({what})."
    return f"Your side's first meld must be worth at least {minimum} points ({what}; it rises with {rises})."


def took_pile(rules: RuleSet) -> str:
    """Taking the discard pile (``pickup_*``)."""
    if not rules.pickup_allowed:
        return "The discard pile is never taken at this table: everyone draws from the stock."
    naturals = plural(rules.pickup_naturals, "natural")
    on_meld = plural(rules.pickup_naturals_on_meld, "natural")
    how = "the whole pile" if rules.pickup_count == 0 else plural(rules.pickup_count, "card")
    before = "" if rules.pickup_before_down is not PickupBeforeDown.NEVER else " once your side is down"
    return (
        f"Taking the pile{before}: show {naturals} of the top card's rank ({on_meld} if your side has that "
        f"rank on the table), meld them with it, and take {how} instead of drawing."
    )


def went_out(rules: RuleSet) -> str:
    """Going out (``go_out_*``, ``all_feet_to_go_out``, ``permission``, the bonus)."""
    needs = []
    for count, word in (
        (rules.go_out_books, "book"),
        (rules.go_out_clean, "clean book"),
        (rules.go_out_dirty, "dirty book"),
        (rules.go_out_wild, "wild book"),
    ):
        if count:
            needs.append(plural(count, word))
    books = alternatives(needs, "and") if needs else "no book"
    feet = " and every Foot of your side picked up" if rules.all_feet_to_go_out else ""
    ask = " You must ask your partner first." if rules.permission is Permission.REQUIRED else ""
    bonus = rules.going_out_bonus
    return f"Going out needs {books}{feet}; it ends the hand and earns {bonus}.{ask}"


LESSONS: dict[str, Callable[[RuleSet], str]] = {
    "pile_frozen": pile_frozen,
    "red_three": red_three,
    "opening": opening,
    "took_pile": took_pile,
    "went_out": went_out,
}


def lesson(rules: RuleSet, fact: str) -> str | None:
    """The explanation of ``fact`` (a key of ``LESSONS``) under ``rules``; None for a fact with none."""
    explain = LESSONS.get(fact)
    return None if explain is None else explain(rules)


__all__ = ["LESSONS", "lesson", "opening", "pile_frozen", "red_three", "took_pile", "went_out"]
