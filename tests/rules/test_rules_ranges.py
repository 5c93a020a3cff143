"""Every number a rule set holds is bounded (rules.validate.OPTION_RANGES), so no score a game or a score
pad can reach comes near the limits of 64-bit integers or of JSON's exactly kept 2**53, and docs/rules.md
("Ranges") says what each range is."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from handfoot.pad import COUNT_KEYS, MAX_COUNT, parse_side
from handfoot.record import RecordError, loads_record
from handfoot.rules import RuleError, RuleSet, load_rules, rules_to_mapping
from handfoot.rules.options import PER_HAND_OPTIONS
from handfoot.rules.validate import CHECKED_APART, MAX_LIST, MAX_POINTS, OPTION_RANGES

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
HUGE = 9 * 10**4299  # the 4,300-digit number that once got into stored games
JSON_EXACT = 2**53


def _holds_numbers(field: dataclasses.Field[Any]) -> bool:
    return "int" in str(field.type)


def test_every_numeric_option_has_a_range() -> None:
    """Each option holding a number or numbers is in OPTION_RANGES or has a check of its own: an option
    added without a range fails here."""
    numeric = {f.name for f in dataclasses.fields(RuleSet) if _holds_numbers(f)}
    assert numeric - set(OPTION_RANGES) - set(CHECKED_APART) == set()
    assert set(OPTION_RANGES) <= numeric


@pytest.mark.parametrize("option", sorted(OPTION_RANGES))
@pytest.mark.parametrize("how", ["above", "huge", "below"])
def test_a_number_out_of_range_is_refused(option: str, how: str) -> None:
    """One past either end of the range, and a 4,300-digit number, are refused naming the option, the
    value and the range."""
    low, high = OPTION_RANGES[option]
    bad = {"above": high + 1, "huge": HUGE, "below": low - 1}[how]
    current = rules_to_mapping(load_rules("kitchen-table"))[option]
    value: Any = [bad] * len(current) if isinstance(current, list | dict) else bad
    if option == "card_values":
        value = {"K": bad}
    with pytest.raises(RuleError) as caught:
        load_rules({"extends": "kitchen-table", option: value})
    message = str(caught.value)
    assert caught.value.option == option, message
    if how == "huge":
        assert "a number of about" in message  # the message itself stays short
        assert len(message) < 400
    if caught.value.allowed.endswith(f"from {low} to {high}"):
        assert f"from {low} to {high}" in message


@pytest.mark.parametrize("option", PER_HAND_OPTIONS)
def test_each_hand_of_a_per_hand_list_is_in_range(option: str) -> None:
    """A per-hand list is checked hand by hand: one huge value among sensible ones is refused."""
    low, high = OPTION_RANGES[option]
    with pytest.raises(RuleError) as caught:
        load_rules(
            {"extends": "kitchen-table", "game_end": "hands", "hands_per_game": 3, option: [low, high + 1]}
        )
    assert caught.value.option == option


def test_a_list_longer_than_allowed_is_refused() -> None:
    """The opening lists hold at most MAX_LIST values."""
    with pytest.raises(RuleError) as caught:
        load_rules(
            {"extends": "kitchen-table", "opening_by": "hand", "opening_minimums": [50] * (MAX_LIST + 1)}
        )
    assert caught.value.option == "opening_minimums"


def test_the_largest_score_pad_hand_stays_far_inside_json() -> None:
    """Every scoring option at its largest and every score-pad count at MAX_COUNT: 100 such hands total
    far less than 2**53 (and any single option's largest value is MAX_POINTS)."""
    rules = load_rules(
        {
            "extends": "kitchen-table",
            **{
                name: OPTION_RANGES[name][1]
                for name in ("clean_book_bonus", "dirty_book_bonus", "going_out_bonus")
            },
            "red_three_bonus": MAX_POINTS,
            "exact_deal_bonus": MAX_POINTS,
            "card_values": {"JK": OPTION_RANGES["card_values"][1]},
        }
    )
    side = parse_side(
        {key: MAX_COUNT for key in COUNT_KEYS if key != "wild_books"} | {"held_points": 0, "went_out": True},
        "side",
    )
    worst = side.score(rules)
    assert 0 < worst * 100 < JSON_EXACT // 100


def test_docs_list_every_range() -> None:
    """docs/rules.md's Ranges table gives each option's range as OPTION_RANGES holds it."""
    text = DOC.read_text("utf-8")
    section = text[text.index("### Ranges") :]
    rows = dict(re.findall(r"^\| `(\w+)` \| (-?\d+ to -?\d+) \|$", section, re.MULTILINE))
    assert rows == {name: f"{low} to {high}" for name, (low, high) in OPTION_RANGES.items()}


def test_a_record_whose_rules_hold_a_huge_number_is_refused_with_a_clear_message() -> None:
    """Records are checked by the same ranges: the 4,300-digit bonus is refused naming the option."""
    text = json.dumps(
        {
            "rules": {"extends": "kitchen-table", "clean_book_bonus": HUGE},
            "players": 2,
            "seed": 1,
            "moves": [],
        }
    )
    with pytest.raises(RecordError) as caught:
        loads_record(text)
    assert "clean_book_bonus" in str(caught.value) and "from 0 to 100000" in str(caught.value)
    assert len(str(caught.value)) < 400
