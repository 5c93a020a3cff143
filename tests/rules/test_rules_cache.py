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
