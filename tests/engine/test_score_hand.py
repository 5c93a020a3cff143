"""Scoring one side's hand, per sheet: the kitchen-table worked example, red 3s, bonuses, card values.

Sheets: 000 kitchen-table, 001 head-and-foot, 002 family, 003 marmot, 004 in-laws.
"""

from __future__ import annotations

import pytest

from handfoot import cards as C
from handfoot.engine.scoring import Tally, pad_tally, score_lines, score_tally
from handfoot.rules import PRESET_NAMES, RuleSet, preset


def points(rules: RuleSet, *kinds: int) -> int:
    """Card value of these card kinds under ``rules``."""
    return sum(rules.card_value(k) for k in kinds)


def breakdown(rules: RuleSet, tally: Tally) -> dict[str, int]:
    """The score lines as label -> points."""
    return {line.label: line.points for line in score_lines(rules, tally)}


def test_kitchen_table_worked_example_is_850() -> None:
    """000's example: a mixed canasta of kings (4 kings + 3 jokers), three aces, two red 3s, going out.

    'That is 300 for the canasta, aces 60, red 3s 200, going out 100, plus the other cards on the
    table, minus nothing': 300 + 60 + 200 + 100 + 190 = 850.
    """
    rules = preset("kitchen-table")
    kings_book = points(rules, *[C.KING] * 4, *[C.JOKER] * 3)
    aces = points(rules, C.ACE, C.ACE, C.ACE)
    assert (kings_book, aces) == (190, 60)
    tally = pad_tally(rules, dirty_books=1, melded_points=kings_book + aces, red_threes=2, went_out=True)
    assert score_tally(rules, tally) == 850
    assert breakdown(rules, tally) == {
        "dirty books": 300,
        "cards on the table": 250,
        "red 3s laid down": 200,
        "going out": 100,
    }


def test_kitchen_table_worked_example_from_the_engine_tally() -> None:
    """000's example as the engine reports it (red 3s laid down, the side has melded): still 850."""
    rules = preset("kitchen-table")
    tally = Tally(dirty_books=1, melded_points=250, red_threes=2, went_out=True, melded=True)
    assert score_tally(rules, tally) == 850


def test_kitchen_table_red_three_plus_100_once_the_side_has_melded() -> None:
    """000: 'Each red 3 is 100 if your side has melded at least once this hand.'"""
    rules = preset("kitchen-table")
    tally = pad_tally(rules, melded_points=60, red_threes=3)
    assert score_tally(rules, tally) == 60 + 300
    assert breakdown(rules, tally)["red 3s laid down"] == 300


def test_kitchen_table_red_three_minus_100_when_the_side_never_melded() -> None:
    """000: 'If the hand ends and your team never melded, those red 3s count minus.'"""
    rules = preset("kitchen-table")
    tally = pad_tally(rules, red_threes=2, held_points=45)
    assert score_tally(rules, tally) == -200 - 45
    assert breakdown(rules, tally)["red 3s laid down"] == -200


def test_kitchen_table_red_three_in_an_unplayed_foot_minus_100() -> None:
    """000 via RULES.md: a red 3 in a Foot never picked up counts -100 even when the side melded."""
    rules = preset("kitchen-table")
    tally = Tally(melded_points=100, melded=True, red_threes=1, held_red_threes=1)
    assert breakdown(rules, tally) == {
        "cards on the table": 100,
        "red 3s laid down": 100,
        "red 3s held": -100,
    }


def test_head_and_foot_red_three_held_minus_500() -> None:
    """001: 'RED 3'S -500 points', held whether or not the side has melded."""
    rules = preset("head-and-foot")
    melded = pad_tally(rules, clean_books=1, melded_points=70, red_threes=1)
    assert breakdown(rules, melded)["red 3s held"] == -500
    assert score_tally(rules, melded) == 500 + 70 - 500
    assert score_tally(rules, pad_tally(rules, red_threes=2)) == -1000


@pytest.mark.parametrize("name", ["family", "marmot", "in-laws"])
def test_family_marmot_in_laws_red_three_held_minus_300(name: str) -> None:
    """002 'Red 3 = -300 points each (only if still held)', 003 'Red 3 -300 points', 004 'Red 3's - 300'."""
    rules = preset(name)
    tally = pad_tally(rules, melded_points=90, red_threes=2)
    assert breakdown(rules, tally) == {"cards on the table": 90, "red 3s held": -600}
    assert score_tally(rules, tally) == 90 - 600


@pytest.mark.parametrize(
    ("name", "bonus"),
    [
        ("kitchen-table", 100),  # 000: 'Going out | 100'
        ("head-and-foot", 300),  # 001: 'Bonus for going out = 300 points'
        ("family", 100),  # 002: 'Player who goes out first gets +100 points'
        ("marmot", 0),  # 003: no going-out bonus named
        ("in-laws", 200),  # 004: 'Go Out | 200 pts'
    ],
)
def test_going_out_bonus_per_sheet(name: str, bonus: int) -> None:
    """The going-out bonus of sheets 000-004, added only for the side that went out."""
    rules = preset(name)
    out = pad_tally(rules, clean_books=1, melded_points=80, went_out=True)
    stayed = pad_tally(rules, clean_books=1, melded_points=80)
    assert score_tally(rules, out) - score_tally(rules, stayed) == bonus
    assert breakdown(rules, out)["going out"] == bonus  # listed even at 0 (003): the side did go out
    assert "going out" not in breakdown(rules, stayed)


@pytest.mark.parametrize("name", [name for name in PRESET_NAMES if name != "family"])
def test_clean_500_dirty_300_in_every_sheet(name: str) -> None:
    """Clean 500 and dirty 300 in 000, 001, 003 and 004 ('500 pts ea'); 002 names none (below)."""
    rules = preset(name)
    tally = pad_tally(rules, clean_books=2, dirty_books=1, melded_points=230)
    assert breakdown(rules, tally) == {"clean books": 1000, "dirty books": 300, "cards on the table": 230}


def test_family_books_score_their_cards_only() -> None:
    """002 section 9: 'Cards in completed books and melds on table score their value.': no book bonus."""
    rules = preset("family")
    tally = pad_tally(rules, clean_books=2, dirty_books=1, melded_points=230)
    assert score_tally(rules, tally) == 230


def test_cards_left_in_hand_and_foot_are_subtracted() -> None:
    """000: 'Cards left in Hand or Foot | Minus those card values'."""
    rules = preset("kitchen-table")
    held = points(rules, C.JOKER, C.ACE, C.NINE, C.FIVE, C.BLACK_THREE)
    assert held == 50 + 20 + 10 + 5 + 5
    tally = pad_tally(rules, melded_points=120, held_points=held)
    assert breakdown(rules, tally) == {"cards on the table": 120, "cards left in hand and foot": -90}


def test_head_and_foot_black_three_held_minus_5() -> None:
    """001: 'BLACK 3'S -5 points' and 'Subtract the value of any 3's left in your hand'."""
    rules = preset("head-and-foot")
    tally = pad_tally(rules, melded_points=60, held_points=points(rules, C.BLACK_THREE, C.BLACK_THREE))
    assert score_tally(rules, tally) == 60 - 10


def test_family_eights_are_worth_5() -> None:
    """002's example turn: '3 Kings = 3 x 10 = 30', '2 Eights = 2 x 5 = 10', '1 Wild 2 = 20': 60 to open."""
    rules = preset("family")
    opening = points(rules, C.KING, C.KING, C.KING, C.EIGHT, C.EIGHT, C.DEUCE)
    assert opening == 60 == rules.opening_minimum(hand_index=0, side_total=0)
    assert score_tally(rules, pad_tally(rules, held_points=points(rules, C.EIGHT, C.EIGHT))) == -10


def test_in_laws_score_pad_exact_deal_and_short_meld() -> None:
    """004's pad: 'Exact Deal | 100 pts', 'Short Meld | - 300'."""
    rules = preset("in-laws")
    tally = pad_tally(rules, melded_points=150, exact_deals=2, short_melds=1)
    assert breakdown(rules, tally) == {"cards on the table": 150, "exact deals": 200, "short openings": -300}
    assert score_tally(rules, tally) == 50


@pytest.mark.parametrize("name", ["kitchen-table", "head-and-foot", "family", "marmot"])
def test_exact_deals_and_short_melds_score_nothing_outside_in_laws(name: str) -> None:
    """Only 004 (in-laws) has the exact-deal bonus and the short-meld penalty."""
    rules = preset(name)
    assert score_tally(rules, pad_tally(rules, melded_points=80, exact_deals=1, short_melds=1)) == 80


def test_in_laws_full_hand_from_the_score_pad() -> None:
    """004's pad for a team that went out with 3 clean books and a dirty one, one exact deal, a red 3 left."""
    rules = preset("in-laws")
    tally = pad_tally(
        rules,
        clean_books=3,
        dirty_books=1,
        melded_points=610,
        red_threes=1,
        held_points=15,
        went_out=True,
        exact_deals=1,
    )
    assert score_tally(rules, tally) == 1500 + 300 + 610 - 300 - 15 + 200 + 100


def test_wild_books_score_their_bonus() -> None:
    """A house that allows wild books (kitchen-table 000 + wild_melds) scores them at wild_book_bonus."""
    from handfoot.rules import apply_overrides

    rules = apply_overrides(preset("kitchen-table"), {"wild_melds": True, "wild_book_bonus": 1500})
    tally = pad_tally(rules, wild_books=1, melded_points=4 * 50 + 3 * 20)
    assert breakdown(rules, tally) == {"wild books": 1500, "cards on the table": 260}


def test_nothing_scores_nothing() -> None:
    """An empty tally scores 0 with no lines, in every sheet (000-004)."""
    for name in PRESET_NAMES:
        rules = preset(name)
        assert score_lines(rules, Tally()) == ()
        assert score_tally(rules, Tally()) == 0
