"""Properties of score_tally over every preset and random house values (hypothesis).

- the score is linear in each count (books, red 3s, points, exact deals, short melds);
- the going-out bonus is added exactly when the side went out;
- the breakdown lines add up to the score.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from handfoot.engine.scoring import Tally, pad_tally, score_lines, score_tally
from handfoot.rules import PRESET_NAMES, RuleSet, apply_overrides, preset

COUNT_FIELDS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "melded_points",
    "red_threes",
    "held_red_threes",
    "held_points",
    "exact_deals",
    "short_melds",
)
counts = st.integers(min_value=0, max_value=5000)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """A preset, sometimes with its scoring values changed to other legal ones."""
    base = preset(draw(st.sampled_from(PRESET_NAMES)))
    if not draw(st.booleans()):
        return base
    bonus = st.integers(min_value=0, max_value=3000)
    overrides = {
        "clean_book_bonus": draw(bonus),
        "dirty_book_bonus": draw(bonus),
        "wild_book_bonus": draw(bonus),
        "going_out_bonus": draw(bonus),
        "red_three_bonus": draw(st.integers(min_value=-1000, max_value=1000)),
        "red_three_unmelded": draw(st.integers(min_value=-1000, max_value=1000)),
        "red_three_held": draw(st.integers(min_value=-1000, max_value=0)),
        "exact_deal_bonus": draw(bonus),
        "short_opening_penalty": draw(bonus),
        "red_threes": draw(st.sampled_from(["lay_down", "hold"])),
    }
    return apply_overrides(base, overrides)


@st.composite
def tallies(draw: st.DrawFn) -> Tally:
    """Any side's tally (the engine's form: red 3s laid down and held kept apart)."""
    values = {name: draw(counts) for name in COUNT_FIELDS}
    return Tally(**values, went_out=draw(st.booleans()), melded=draw(st.booleans()))


@given(rule_sets(), tallies(), st.sampled_from(COUNT_FIELDS), counts, counts)
def test_score_is_linear_in_each_count(rules: RuleSet, tally: Tally, name: str, a: int, b: int) -> None:
    """score(n = a + b) = score(n = a) + score(n = b) - score(n = 0), for every count n, in 000-004."""

    def at(n: int) -> int:
        return score_tally(rules, replace(tally, **{name: n}))

    assert at(a + b) == at(a) + at(b) - at(0)


@given(rule_sets(), tallies())
def test_each_count_moves_the_score_by_its_rule_value(rules: RuleSet, tally: Tally) -> None:
    """One more of each item changes the score by exactly what the rules give it (sheets 000-004)."""
    red_each = rules.red_three_bonus if tally.melded else rules.red_three_unmelded
    per_unit = {
        "clean_books": rules.clean_book_bonus,
        "dirty_books": rules.dirty_book_bonus,
        "wild_books": rules.wild_book_bonus,
        "melded_points": 1,
        "red_threes": red_each,
        "held_red_threes": rules.red_three_held,
        "held_points": -1,
        "exact_deals": rules.exact_deal_bonus,
        "short_melds": -rules.short_opening_penalty,
    }
    base = score_tally(rules, tally)
    for name, each in per_unit.items():
        more = replace(tally, **{name: getattr(tally, name) + 1})
        assert score_tally(rules, more) - base == each, name


@given(rule_sets(), tallies())
def test_going_out_bonus_only_when_went_out(rules: RuleSet, tally: Tally) -> None:
    """Going out adds going_out_bonus (000: 100, 001: 300, 002: 100, 003: 0, 004: 200), never otherwise."""
    out = replace(tally, went_out=True)
    stayed = replace(tally, went_out=False)
    assert score_tally(rules, out) - score_tally(rules, stayed) == rules.going_out_bonus
    assert all(line.label != "going out" for line in score_lines(rules, stayed))


@given(rule_sets(), tallies())
def test_breakdown_lines_sum_to_the_score(rules: RuleSet, tally: Tally) -> None:
    """The lines the score command prints add up to the score it prints, with no line worth nothing."""
    lines = score_lines(rules, tally)
    assert sum(line.points for line in lines) == score_tally(rules, tally)
    assert all(line.count or line.points for line in lines)
    assert len({line.label for line in lines}) == len(lines)


@given(
    rule_sets(),
    st.fixed_dictionaries(
        {
            "clean_books": counts,
            "dirty_books": counts,
            "melded_points": counts,
            "red_threes": counts,
            "held_points": counts,
            "went_out": st.booleans(),
            "exact_deals": counts,
            "short_melds": counts,
        }
    ),
)
def test_pad_red_threes_are_laid_down_or_held_as_the_rules_say(rules: RuleSet, pad: dict[str, Any]) -> None:
    """A score pad's red 3s: a bonus where they are laid down (000), a held penalty elsewhere (001-004)."""
    tally = pad_tally(rules, **pad)
    if rules.red_threes == "lay_down":
        assert (tally.red_threes, tally.held_red_threes) == (pad["red_threes"], 0)
        assert tally.melded is (pad["melded_points"] > 0 or pad["clean_books"] + pad["dirty_books"] > 0)
    else:
        assert (tally.red_threes, tally.held_red_threes) == (0, pad["red_threes"])
    # priced_books (the book_bonuses rows) needs the books' ranks, which a score pad does not record
    skipped = {"red_threes", "held_red_threes", "melded", "wild_books", "priced_books", "open_wild_melds"}
    copied = {f.name for f in fields(Tally)} - skipped
    for name in copied:
        assert getattr(tally, name) == pad[name], name
