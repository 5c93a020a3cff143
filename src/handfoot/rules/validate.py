"""Checks of a whole RuleSet: values in range, and combinations that make the game unplayable."""

from __future__ import annotations

from handfoot import cards as C
from handfoot.rules.errors import RuleError
from handfoot.rules.options import RuleSet, WildLimit

MIN_PLAYERS = 2
MAX_PLAYERS = 6


def _at_least(rules: RuleSet, option: str, low: int, high: int | None = None) -> None:
    value = getattr(rules, option)
    if value < low or (high is not None and value > high):
        allowed = f"a whole number from {low} to {high}" if high is not None else f"a whole number >= {low}"
        raise RuleError(option, value, allowed)


def validate(rules: RuleSet) -> RuleSet:
    """Return ``rules`` unchanged if it is playable; raise ``RuleError`` naming the first bad option."""
    allowed_players = f"player counts from {MIN_PLAYERS} to {MAX_PLAYERS}"
    if not rules.players_allowed or any(not MIN_PLAYERS <= p <= MAX_PLAYERS for p in rules.players_allowed):
        raise RuleError(
            "players_allowed", list(rules.players_allowed), f"a non-empty list of {allowed_players}"
        )
    if rules.default_players not in rules.players_allowed:
        raise RuleError("default_players", rules.default_players, f"one of {list(rules.players_allowed)}")
    for count in rules.partners_at:
        if count % 2 or count < 4 or count > MAX_PLAYERS:
            raise RuleError("partners_at", list(rules.partners_at), "even player counts of 4 or 6")
    _at_least(rules, "decks_extra", 0, 6)
    for count, decks in rules.decks_by_players:
        if not MIN_PLAYERS <= count <= MAX_PLAYERS or not 1 <= decks <= 12:
            raise RuleError(
                "decks_by_players", dict(rules.decks_by_players), f"{allowed_players} mapped to 1 to 12 decks"
            )
    _at_least(rules, "jokers_per_deck", 0, 8)
    _at_least(rules, "hand_size", 1, 30)
    _at_least(rules, "foot_size", 1, 30)
    _at_least(rules, "target_score", 1)
    _at_least(rules, "hands_per_game", 1, 100)
    if not rules.opening_minimums or any(m < 0 for m in rules.opening_minimums):
        raise RuleError("opening_minimums", list(rules.opening_minimums), "a non-empty list of points >= 0")
    if list(rules.opening_thresholds) != sorted(set(rules.opening_thresholds)):
        raise RuleError("opening_thresholds", list(rules.opening_thresholds), "strictly rising totals")
    _at_least(rules, "opening_increment", 0)
    _at_least(rules, "min_naturals", 1, 7)
    _at_least(rules, "max_wilds", 0, 20)
    _at_least(rules, "book_size", 3, 20)
    _at_least(rules, "draw_count", 1, 5)
    _at_least(rules, "pickup_naturals", 1, 3)
    _at_least(rules, "pickup_naturals_on_meld", 0, rules.pickup_naturals)
    _at_least(rules, "pickup_count", 0, 50)
    for option in ("go_out_books", "go_out_clean", "go_out_dirty", "go_out_wild"):
        _at_least(rules, option, 0, 10)
    if len(rules.card_values) != len(C.KIND_NAMES):
        raise RuleError("card_values", rules.card_values, "a value for each of JK 2 A K Q J T 9 8 7 6 5 4 3B")
    if rules.pickup_count == 1:
        raise RuleError("pickup_count", 1, "0 (the whole pile) or 2 or more", "the top card goes into a meld")

    # Combinations that make melds or going out impossible.
    if rules.wild_limit is WildLimit.FEWER_THAN_NATURALS and rules.min_naturals < 2:
        # with fewer wilds than naturals a 3-card meld needs 2 naturals anyway; 1 would be misleading
        raise RuleError("min_naturals", rules.min_naturals, "2 or more with wild_limit = fewer_than_naturals")
    for players in rules.players_allowed:
        decks = rules.decks_for(players)
        copies_per_rank = 4 * decks
        if rules.min_naturals > copies_per_rank:
            raise RuleError(
                "min_naturals",
                rules.min_naturals,
                f"at most {copies_per_rank} (the shoe's copies of a rank)",
                "no meld could ever be made",
            )
        needed = players * (rules.hand_size + rules.foot_size) + 1
        shoe = decks * (52 + rules.jokers_per_deck)
        if needed > shoe:
            raise RuleError(
                "hand_size",
                rules.hand_size,
                f"sizes whose deal fits the {shoe}-card shoe for {players} players",
                f"{players} players need {needed} cards",
            )
        if rules.go_out_clean > 0 and rules.book_size > copies_per_rank:
            raise RuleError(
                "book_size",
                rules.book_size,
                f"at most {copies_per_rank} for {players} players",
                "the clean books needed to go out could never be made",
            )
    if rules.go_out_dirty > 0 and max_wilds_in_book(rules) < 1:
        raise RuleError(
            "go_out_dirty",
            rules.go_out_dirty,
            "0 when no meld may hold a wild",
            "a dirty book could never be made",
        )
    if rules.go_out_wild > 0 and not rules.wild_melds:
        raise RuleError(
            "go_out_wild", rules.go_out_wild, "0 unless wild_melds = true", "wild books are not allowed"
        )
    if rules.pickup_allowed and rules.pickup_naturals + 1 < max(3, rules.min_naturals):
        raise RuleError(
            "pickup_naturals",
            rules.pickup_naturals,
            f">= {max(3, rules.min_naturals) - 1}",
            "the pile's top card and those naturals would not make a meld",
        )
    return rules


def max_wilds_in_book(rules: RuleSet) -> int:
    """The most wilds a book of book_size cards may hold under the wild limits (0 if none)."""
    best = 0
    for wilds in range(1, rules.book_size):
        naturals = rules.book_size - wilds
        if naturals < rules.min_naturals:
            break
        ok = wilds <= naturals if rules.wild_limit is WildLimit.AT_MOST_NATURALS else wilds < naturals
        if ok and (rules.max_wilds == 0 or wilds <= rules.max_wilds):
            best = wilds
    return best
