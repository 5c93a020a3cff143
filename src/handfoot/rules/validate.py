"""Checks of a whole RuleSet: values in range, and combinations that make the game unplayable."""

from __future__ import annotations

from handfoot import cards as C
from handfoot.rules.errors import RuleError
from handfoot.rules.options import BlackThreeBooks, OpeningBy, Permission, RuleSet, WildLimit

MIN_PLAYERS = 2
# The most seats a rule set may name: the sheets whose deck count grows with the players ("(number_of_players
# + 1)" decks, 002 family; "Two more decks ... than players", 003 marmot) name no largest table, and ten is
# the most the program deals for (docs/rules.md, "Where a preset reads its sheet word for word").
MAX_PLAYERS = 10
# The most decks a shoe may hold: ten players and the most ``decks_extra`` allows.
MAX_DECKS = 16

# The largest points any one scoring option may give or take away, the largest card value and the
# largest total a game may play to. With at most MAX_DECKS decks of 60 cards, 100 hands a game and these
# bounds, no hand scores more than about 10**8 points and no game's total passes 10**10 in size: far inside
# 64-bit integers and the 2**53 a JSON reader keeps exactly. docs/rules.md lists them ("Ranges").
MAX_POINTS = 100_000
MAX_CARD_VALUE = 1_000
MAX_TARGET = 1_000_000

# The range of every numeric option, both ends included: each value of a list (``card_values``, the
# opening lists) and each hand's value of an option given one value per hand must lie in it.
# ``decks_by_players``, ``book_bonuses`` and ``pickup_naturals_on_meld`` (whose top is
# ``pickup_naturals``) have checks of their own below; every other option holding a number is here.
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "players_allowed": (MIN_PLAYERS, MAX_PLAYERS),
    "default_players": (MIN_PLAYERS, MAX_PLAYERS),
    "partners_at": (4, MAX_PLAYERS),
    "decks_extra": (0, MAX_DECKS - MAX_PLAYERS),
    "jokers_per_deck": (0, 8),
    "hand_size": (1, 30),
    "foot_size": (1, 30),
    "exact_deal_bonus": (0, MAX_POINTS),
    "target_score": (1, MAX_TARGET),
    "hands_per_game": (1, 100),
    "opening_minimums": (0, MAX_TARGET),
    "opening_thresholds": (-MAX_TARGET, MAX_TARGET),
    "opening_increment": (0, MAX_POINTS),
    "short_opening_penalty": (0, MAX_POINTS),
    "min_naturals": (1, 7),
    "max_wilds": (0, 20),
    "max_wilds_new_meld": (0, 20),
    "max_wilds_added_per_turn": (0, 20),
    "book_size": (3, 20),
    "draw_count": (1, 5),
    "pickup_naturals": (1, 3),
    "pickup_count": (0, 50),
    "go_out_books": (0, 10),
    "go_out_clean": (0, 10),
    "go_out_dirty": (0, 10),
    "go_out_wild": (0, 10),
    "card_values": (0, MAX_CARD_VALUE),
    "red_three_bonus": (-MAX_POINTS, MAX_POINTS),
    "red_three_unmelded": (-MAX_POINTS, MAX_POINTS),
    "red_three_held": (-MAX_POINTS, 0),
    "clean_book_bonus": (0, MAX_POINTS),
    "dirty_book_bonus": (0, MAX_POINTS),
    "wild_book_bonus": (0, MAX_POINTS),
    "wild_meld_penalty": (0, MAX_POINTS),
    "going_out_bonus": (0, MAX_POINTS),
}
# Options holding numbers that are checked on their own (their shape is not a number or a list of them).
CHECKED_APART = ("decks_by_players", "book_bonuses", "pickup_naturals_on_meld", "hand_values")
# The longest list an option holding a list of numbers may give (one per hand at most).
MAX_LIST = 100


def allowed_range(option: str) -> str:
    """The range of numeric option ``option`` in words, as messages and docs/rules.md give it."""
    low, high = OPTION_RANGES[option]
    return f"a whole number from {low} to {high}"


def check_ranges(rules: RuleSet) -> None:
    """Raise ``RuleError`` for the first option of ``OPTION_RANGES`` holding a number, or a list with a
    value, outside its range (or a list longer than ``MAX_LIST``)."""
    for option, (low, high) in OPTION_RANGES.items():
        value = getattr(rules, option)
        values = value if isinstance(value, tuple) else (value,)
        if len(values) > MAX_LIST:
            raise RuleError(option, list(values), f"a list of at most {MAX_LIST} values")
        for item in values:
            if not low <= item <= high:
                if isinstance(value, tuple):
                    raise RuleError(option, list(value), f"each value {allowed_range(option)}")
                raise RuleError(option, value, allowed_range(option))


def _at_least(rules: RuleSet, option: str, low: int, high: int | None = None) -> None:
    value = getattr(rules, option)
    if value < low or (high is not None and value > high):
        allowed = f"a whole number from {low} to {high}" if high is not None else f"a whole number >= {low}"
        raise RuleError(option, value, allowed)


def validate(rules: RuleSet) -> RuleSet:
    """Return ``rules`` unchanged if it is playable; raise ``RuleError`` naming the first bad option.
    Options given one value per hand are checked hand by hand (each hand's rules must be playable)."""
    if rules.hand_values:
        longest = max(len(values) for _, values in rules.hand_values)
        for hand_index in range(longest):
            _validate(rules.for_hand(hand_index))
        return rules
    return _validate(rules)


def _validate(rules: RuleSet) -> RuleSet:
    allowed_players = f"player counts from {MIN_PLAYERS} to {MAX_PLAYERS}"
    if not rules.players_allowed or any(not MIN_PLAYERS <= p <= MAX_PLAYERS for p in rules.players_allowed):
        raise RuleError(
            "players_allowed", list(rules.players_allowed), f"a non-empty list of {allowed_players}"
        )
    if rules.default_players not in rules.players_allowed:
        raise RuleError("default_players", rules.default_players, f"one of {list(rules.players_allowed)}")
    for count in rules.partners_at:
        if count % 2 or count < 4 or count > MAX_PLAYERS:
            evens = ", ".join(str(even) for even in range(4, MAX_PLAYERS, 2))
            allowed = f"even player counts of {evens} or {MAX_PLAYERS}"
            raise RuleError("partners_at", list(rules.partners_at), allowed)
    for count, decks in rules.decks_by_players:
        if not MIN_PLAYERS <= count <= MAX_PLAYERS or not 1 <= decks <= MAX_DECKS:
            raise RuleError(
                "decks_by_players",
                dict(rules.decks_by_players),
                f"{allowed_players} mapped to 1 to {MAX_DECKS} decks",
            )
    if not rules.opening_minimums or any(m < 0 for m in rules.opening_minimums):
        raise RuleError("opening_minimums", list(rules.opening_minimums), "a non-empty list of points >= 0")
    if list(rules.opening_thresholds) != sorted(set(rules.opening_thresholds)):
        raise RuleError("opening_thresholds", list(rules.opening_thresholds), "strictly rising totals")
    if len(rules.card_values) != len(C.KIND_NAMES):
        raise RuleError("card_values", rules.card_values, "a value for each of JK 2 A K Q J T 9 8 7 6 5 4 3B")
    for kind, points in zip(C.KIND_NAMES, rules.card_values, strict=True):
        if points < 0:
            raise RuleError(
                "card_values",
                {kind: points},
                "points >= 0 for every card kind",
                "cards left in hand are subtracted by their value, so a held black 3 worth 5 already "
                "counts -5",
            )
    if (
        rules.opening_by is OpeningBy.SCORE
        and len(rules.opening_minimums) != len(rules.opening_thresholds) + 1
    ):
        raise RuleError(
            "opening_minimums",
            list(rules.opening_minimums),
            f"{len(rules.opening_thresholds) + 1} minimums with opening_by = score: one below the first of "
            f"opening_thresholds {list(rules.opening_thresholds)} and one from each threshold up",
        )
    for rank, _status, points in rules.book_bonuses:
        if not 0 <= points <= MAX_POINTS:
            raise RuleError(
                "book_bonuses",
                {C.RANK_LETTER[rank]: points},
                f"bonuses from 0 to {MAX_POINTS} (they are added)",
            )
        if rank == C.WILD_RANK and not rules.wild_melds:
            raise RuleError("book_bonuses", {"W": points}, "no W row unless wild_melds = true")
        if (
            rank == C.BLACK_THREE
            and not rules.black_three_melds
            and rules.black_three_books is BlackThreeBooks.NONE
        ):
            raise RuleError(
                "book_bonuses",
                {"3": points},
                "no 3 row unless black_three_melds = true or black_three_books is not 'none'",
            )
    if rules.wild_meld_penalty and not rules.wild_melds:
        raise RuleError(
            "wild_meld_penalty", rules.wild_meld_penalty, "0 unless wild_melds = true", "no meld of wilds"
        )
    if rules.short_opening_penalty < 0:
        raise RuleError(
            "short_opening_penalty",
            rules.short_opening_penalty,
            "a whole number >= 0 (the points taken away, e.g. 300)",
        )
    if rules.red_three_held > 0:
        raise RuleError(
            "red_three_held",
            rules.red_three_held,
            "a whole number <= 0 (the points each held red 3 adds, e.g. -300)",
            "a red 3 still held is a penalty",
        )
    if rules.pickup_count == 1:
        raise RuleError("pickup_count", 1, "0 (the whole pile) or 2 or more", "the top card goes into a meld")

    # Every number in its range (bonuses are added and penalties written as the points taken away, so a
    # sign slip that would turn one into the other is refused too), before the combinations below
    # compute with them.
    check_ranges(rules)
    _at_least(rules, "pickup_naturals_on_meld", 0, rules.pickup_naturals)

    # Combinations that make melds or going out impossible.
    if rules.wild_limit is WildLimit.FEWER_THAN_NATURALS and rules.min_naturals < 2:
        # with fewer wilds than naturals a 3-card meld needs 2 naturals anyway; 1 would be misleading
        raise RuleError("min_naturals", rules.min_naturals, "2 or more with wild_limit = fewer_than_naturals")
    if rules.pick_foot_seen and rules.hand_size != rules.foot_size:
        raise RuleError(
            "pick_foot_seen",
            True,
            "false unless hand_size = foot_size",
            "a player chooses the Foot from two piles of one size",
        )
    if rules.wild_book_counts_clean and not rules.wild_melds:
        raise RuleError(
            "wild_book_counts_clean", True, "false unless wild_melds = true", "wild books are not allowed"
        )
    if rules.go_out_wild > 0 and not rules.wild_melds:
        raise RuleError(
            "go_out_wild", rules.go_out_wild, "0 unless wild_melds = true", "wild books are not allowed"
        )
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
        clean, dirty, wild = books_possible(rules, players)
        if rules.go_out_clean > 0 and not (clean or (wild and rules.wild_book_counts_clean)):
            raise RuleError(
                "book_size",
                rules.book_size,
                f"at most {copies_per_rank} for {players} players",
                "the clean books needed to go out could never be made",
            )
        if rules.go_out_dirty > 0 and not dirty:
            raise RuleError(
                "go_out_dirty",
                rules.go_out_dirty,
                f"0, as no {rules.book_size}-card book can hold a wild under wild_limit, min_naturals "
                "and max_wilds",
                f"a dirty book could never be made with {players} players",
            )
        if rules.go_out_wild > 0 and not wild:
            raise RuleError(
                "go_out_wild",
                rules.go_out_wild,
                f"0, as a wild book needs {rules.book_size} wilds in the shoe and max_wilds = 0 or "
                f">= {rules.book_size}",
                f"a wild book could never be made with {players} players",
            )
        if rules.go_out_books > 0 and not (clean or dirty or wild):
            raise RuleError(
                "book_size",
                rules.book_size,
                f"a size a book can reach with {players} players",
                "the books needed to go out could never be made",
            )
    ranks = len(C.NATURAL_KINDS)
    if not rules.new_meld_after_book and rules.go_out_clean + rules.go_out_dirty > ranks:
        raise RuleError(
            "go_out_clean",
            rules.go_out_clean,
            f"go_out_clean + go_out_dirty <= {ranks} while new_meld_after_book = false",
            f"each side has one meld of each of the {ranks} ranks",
        )
    if rules.ask_with_last_card and rules.permission is Permission.NONE:
        raise RuleError(
            "ask_with_last_card",
            True,
            "false while permission = none",
            "nobody asks 'May I go out?' at this table",
        )
    if rules.pickup_allowed and rules.pickup_naturals + 1 < max(3, rules.min_naturals):
        raise RuleError(
            "pickup_naturals",
            rules.pickup_naturals,
            f">= {max(3, rules.min_naturals) - 1}",
            "the pile's top card and those naturals would not make a meld",
        )
    return rules


def books_possible(rules: RuleSet, players: int) -> tuple[bool, bool, bool]:
    """Whether a clean, a dirty and a wild book can ever be made with this many players.

    A clean book needs ``book_size`` copies of one rank in the shoe; a dirty book some split of
    ``book_size`` into naturals (at least ``min_naturals``, at most the shoe's copies) and at least one
    wild that the wild limits allow; a wild book needs ``wild_melds``, ``book_size`` wilds in the shoe
    and a ``max_wilds`` (if any) of at least ``book_size``.
    """
    decks = rules.decks_for(players)
    copies = 4 * decks
    wilds_in_shoe = decks * (4 + rules.jokers_per_deck)
    clean = rules.book_size <= copies
    dirty = False
    for wilds in range(1, min(rules.book_size - 1, wilds_in_shoe) + 1):
        naturals = rules.book_size - wilds
        if rules.min_naturals <= naturals <= copies and _wilds_allowed(rules, wilds, naturals):
            dirty = True
            break
    wild = (
        rules.wild_melds
        and rules.book_size <= wilds_in_shoe
        and (rules.max_wilds == 0 or rules.max_wilds >= rules.book_size)
    )
    return clean, dirty, wild


def _wilds_allowed(rules: RuleSet, wilds: int, naturals: int) -> bool:
    """True when a meld of a rank may hold this many wilds beside this many naturals."""
    if rules.max_wilds and wilds > rules.max_wilds:
        return False
    if rules.wild_limit is WildLimit.AT_MOST_NATURALS:
        return wilds <= naturals
    return wilds < naturals


def max_wilds_in_book(rules: RuleSet) -> int:
    """The most wilds a book of book_size cards may hold under the wild limits (0 if none)."""
    best = 0
    for wilds in range(1, rules.book_size):
        naturals = rules.book_size - wilds
        if naturals < rules.min_naturals:
            break
        if _wilds_allowed(rules, wilds, naturals):
            best = wilds
    return best
