"""Values worked out once from a rule set, kept by the rule set's identity.

A ``RuleSet`` is frozen, so anything worked out from it holds as long as the object lives. Keeping it by
identity costs one dictionary lookup, where keeping it by equality would hash every option; the rule set
asked for last is answered before that, by one comparison (a game asks under the same rules move after
move). The cache keeps at most ``kept`` rule sets; one more empties it. A server makes a rule set for every
table (and, for rules with per-hand values, for every hand), so an unbounded cache would keep them all.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from handfoot.rules.options import RuleSet

T = TypeVar("T")


class RulesCache(Generic[T]):
    """One value per rule set, by identity, for at most ``kept`` rule sets at once."""

    __slots__ = ("_entries", "_kept", "_last")

    def __init__(self, kept: int = 256) -> None:
        self._kept = kept
        self._entries: dict[int, tuple[RuleSet, T]] = {}  # id(rules) -> (rules, value): rules kept alive
        # the entry last found or kept (None: none yet), set in one store so that threads sharing the
        # cache never see one rule set with another's value
        self._last: tuple[RuleSet, T] | None = None

    def get(self, rules: RuleSet) -> T | None:
        """The value kept for ``rules`` (this very object), or None."""
        last = self._last
        if last is not None and last[0] is rules:
            return last[1]
        entry = self._entries.get(id(rules))
        if entry is None or entry[0] is not rules:
            return None
        self._last = entry
        return entry[1]

    def put(self, rules: RuleSet, value: T) -> T:
        """Keep ``value`` for ``rules`` and return it (emptying the cache first when it is full)."""
        if len(self._entries) >= self._kept:
            self._entries.clear()
        entry = (rules, value)
        self._entries[id(rules)] = entry
        self._last = entry
        return value

    def clear(self) -> None:
        """Forget every value."""
        self._entries.clear()
        self._last = None

    def values(self) -> list[T]:
        """The values kept now."""
        return [value for _, value in self._entries.values()]
