"""A ``RuleSet`` (rules/options.py) pickled and copied: equal after a round trip through ``pickle`` (the
simulation's workers receive rule sets pickled), itself when copied (it is frozen), and never changed in
place. These hold the same in the compiled build, where the class is compiled (``make test-compiled``)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from handfoot.engine import Game
from handfoot.rules import PRESET_NAMES, load_rules, preset


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_preset_comes_back_equal_from_pickle(name: str) -> None:
    rules = preset(name)
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and hash(again) == hash(rules)
    assert again.for_hand(3) == rules.for_hand(3)


def test_per_hand_values_survive_pickle() -> None:
    rules = load_rules({"extends": "marmot", "go_out_books": [1, 2, 3]})
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules
    assert [again.for_hand(i).go_out_books for i in range(4)] == [1, 2, 3, 3]


def test_a_copy_is_the_rule_set_itself_and_what_is_copied_with_it_shares_it() -> None:
    rules = preset("in-laws")
    assert copy.copy(rules) is rules and copy.deepcopy(rules) is rules
    table = {"rules": rules, "seats": [1, 2]}
    assert copy.deepcopy(table)["rules"] is rules
    assert Game(rules, 4, seed=3).copy().rules is rules


def test_a_rule_set_is_never_changed_in_place() -> None:
    rules = preset("kitchen-table")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.draw_count = 3  # type: ignore[misc]
    assert dataclasses.replace(rules, draw_count=3).draw_count == 3 and rules.draw_count == 2
