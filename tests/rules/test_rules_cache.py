"""``RulesCache`` (rules/cache.py): values kept by a rule set's identity, for a bounded few rule sets."""

from __future__ import annotations

from handfoot.rules import apply_overrides, preset
from handfoot.rules.cache import RulesCache


def test_a_value_is_kept_for_the_very_rule_set_it_was_put_for() -> None:
    cache: RulesCache[str] = RulesCache()
    rules = preset("family")
    equal = apply_overrides(preset("family"), {})
    assert equal == rules and equal is not rules
    assert cache.get(rules) is None
    assert cache.put(rules, "family's") == "family's"
    assert cache.get(rules) == "family's"
    assert cache.get(equal) is None  # by identity: an equal rule set is another one


def test_one_rule_set_more_than_it_keeps_empties_it() -> None:
    cache: RulesCache[int] = RulesCache(kept=3)
    rule_sets = [apply_overrides(preset("kitchen-table"), {"max_wilds": n}) for n in range(1, 5)]
    for n, rules in enumerate(rule_sets[:3]):
        cache.put(rules, n)
    assert sorted(cache.values()) == [0, 1, 2]
    cache.put(rule_sets[3], 3)
    assert cache.values() == [3]
    assert cache.get(rule_sets[0]) is None and cache.get(rule_sets[3]) == 3


def test_the_rule_set_asked_for_last_is_answered_as_the_entries_answer() -> None:
    """The last rule set found or kept is answered first; asking in turns, forgetting and emptying on
    the bound give what the entries give."""
    cache: RulesCache[int] = RulesCache(kept=2)
    loose, strict, third = (apply_overrides(preset("kitchen-table"), {"max_wilds": n}) for n in (0, 1, 2))
    cache.put(loose, 1)
    cache.put(strict, 2)
    for _ in range(3):  # in turns: each answered with its own value, never the other's
        assert cache.get(loose) == 1
        assert cache.get(loose) == 1
        assert cache.get(strict) == 2
    cache.put(third, 3)  # past the bound: the others are forgotten, also the one asked for last
    assert cache.get(strict) is None and cache.get(loose) is None and cache.get(third) == 3
    cache.clear()
    assert cache.get(third) is None and cache.values() == []
