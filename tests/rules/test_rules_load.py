"""Rule files: ``extends`` a preset, override options, and every bad file or value is refused clearly.

The common variants RULES.md and the sheets mention are each a small rule file away:
13-card hands (000: 'Some tables deal 13 and 13'), 2 clean + 3 dirty books to go out, taking the top 7
of the pile, at most 3 wilds in a meld, and a 1500-point wild book.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from handfoot import cards as C
from handfoot.rules import (
    RuleError,
    RuleSet,
    apply_overrides,
    load_rules,
    preset,
    rules_from_mapping,
    rules_to_mapping,
)
from handfoot.wording import show


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    """A rule file with ``text`` in ``tmp_path``."""
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# --- extends and overrides


def test_file_extends_a_preset_and_overrides_some_options(tmp_path: Path) -> None:
    """A file names its base with ``extends``; what it does not set comes from that preset (003 marmot)."""
    path = write(tmp_path, 'extends = "marmot"\nhand_size = 11\nfoot_size = 11\n', "our-marmot.toml")
    rules = load_rules(path)
    assert (rules.hand_size, rules.foot_size) == (11, 11)
    assert rules.name == "our-marmot"  # a file without a name is named after itself
    base = preset("marmot")
    assert rules.max_wilds == base.max_wilds == 2
    assert rules.pickup_allowed is False
    assert rules.going_out_bonus == 0


def test_file_without_extends_builds_on_kitchen_table(tmp_path: Path) -> None:
    """The default base is kitchen-table (000)."""
    rules = load_rules(write(tmp_path, "going_out_bonus = 250\n"))
    assert rules.going_out_bonus == 250
    assert rules.target_score == 10000
    assert rules.red_threes == "lay_down"


def test_a_file_may_name_itself(tmp_path: Path) -> None:
    """``name``, ``title`` and ``summary`` are options like any other."""
    rules = load_rules(write(tmp_path, 'extends = "in-laws"\nname = "grandma"\ntitle = "Grandma\'s way"\n'))
    assert (rules.name, rules.title) == ("grandma", "Grandma's way")
    assert rules.go_out_clean == 3  # 004: '3 clean books'


def test_apply_overrides_marks_the_rule_set_as_custom() -> None:
    """Overriding a preset without naming the result gives ``<preset>+custom`` (000 base)."""
    rules = apply_overrides(preset("kitchen-table"), {"draw_count": 1})
    assert rules.name == "kitchen-table+custom"
    assert apply_overrides(rules, {"draw_count": 3}).name == "kitchen-table+custom"
    assert preset("kitchen-table").draw_count == 2, "the preset itself is unchanged"


def test_apply_overrides_with_nothing_changes_nothing() -> None:
    """No overrides, no new name: the preset comes back equal (002 family)."""
    assert apply_overrides(preset("family"), {}) == preset("family")


def test_card_values_override_merges_with_the_base() -> None:
    """Setting one card's value keeps the base's others: family's 8s stay worth 5 (002 '2 Eights = 2 x 5')."""
    rules = rules_from_mapping({"extends": "family", "card_values": {"A": 25}})
    assert rules.card_value(C.ACE) == 25
    assert rules.card_value(C.EIGHT) == 5
    assert rules.card_value(C.JOKER) == 50


def test_decks_by_players_table_in_a_file(tmp_path: Path) -> None:
    """A players -> decks table in TOML (string keys there), as 001 head-and-foot's '4 Decks ... 6 Decks'."""
    rules = load_rules(write(tmp_path, 'extends = "kitchen-table"\ndecks_by_players = { 4 = 6, 6 = 8 }\n'))
    assert rules.decks_for(4) == 6
    assert rules.decks_for(6) == 8
    assert rules.decks_for(3) == 4, "counts not in the table still use decks_extra"


def test_mapping_source_is_loaded_like_a_file() -> None:
    """load_rules takes a table too (what a game record or the server sends)."""
    rules = load_rules({"extends": "head-and-foot", "permission": "optional"})
    assert rules.permission == "optional"
    assert rules.go_out_dirty == 2  # 001: 'two unnatural canastas'


# --- the common variants, each a small file


VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "thirteen-card-hands",
        'extends = "kitchen-table"\nhand_size = 13\nfoot_size = 13\n',  # 000: 'Some tables deal 13 and 13'
        {"hand_size": 13, "foot_size": 13},
    ),
    (
        "two-clean-three-dirty",
        'extends = "kitchen-table"\ngo_out_books = 0\ngo_out_clean = 2\ngo_out_dirty = 3\n',
        {"go_out_books": 0, "go_out_clean": 2, "go_out_dirty": 3},
    ),
    (
        "take-the-top-seven",
        'extends = "in-laws"\npickup_count = 7\n',  # 004 takes the top card + 4; this house takes 7
        {"pickup_count": 7, "pickup_rest_from": "pile"},
    ),
    (
        "at-most-three-wilds",
        'extends = "kitchen-table"\nmax_wilds = 3\n',
        {"max_wilds": 3, "wild_limit": "at_most_naturals"},
    ),
    (
        "wild-books",
        'extends = "kitchen-table"\nwild_melds = true\nwild_book_bonus = 1500\n',
        {"wild_melds": True, "wild_book_bonus": 1500},
    ),
    (
        "wild-book-to-go-out",
        'extends = "kitchen-table"\nwild_melds = true\nwild_book_bonus = 1500\ngo_out_wild = 1\n',
        {"wild_melds": True, "go_out_wild": 1},
    ),
    (
        "kitchen-table-clean-and-dirty",
        # 000: 'Some tables also require one clean canasta and one dirty canasta'
        'extends = "kitchen-table"\ngo_out_books = 0\ngo_out_clean = 1\ngo_out_dirty = 1\n',
        {"go_out_clean": 1, "go_out_dirty": 1},
    ),
    (
        "head-and-foot-at-most-naturals",
        # 001: 'You may not have more wild cards than natural ones'
        'extends = "head-and-foot"\nwild_limit = "at_most_naturals"\n',
        {"wild_limit": "at_most_naturals"},
    ),
    (
        "family-unlock-from-stock",
        # 002 section 5: 'Draw 5 additional cards from the draw pile', without the 'already met' condition
        'extends = "family"\npickup_rest_from = "stock"\npickup_before_down = "with_opening"\n',
        {"pickup_rest_from": "stock", "pickup_count": 6},
    ),
    (
        "in-laws-foot-seen",
        # 004 via RULES.md: 'an option lets a player look at both first'
        'extends = "in-laws"\npick_foot_seen = true\n',
        {"pick_foot_seen": True},
    ),
    (
        "kitchen-table-six-as-pairs",
        'extends = "kitchen-table"\npartners_at = [4, 6]\n',  # 000: 'at six you can make three pairs'
        {"partners_at": (4, 6)},
    ),
]


@pytest.mark.parametrize(("name", "text", "expected"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_common_variant_is_a_small_rule_file(
    tmp_path: Path, name: str, text: str, expected: dict[str, Any]
) -> None:
    """Each common variant loads from a few lines of TOML and sets what it says."""
    rules = load_rules(write(tmp_path, text, f"{name}.toml"))
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    for option, value in expected.items():
        assert getattr(rules, option) == value, option


# --- bad files and values


def refused(source: str | Path | dict[str, Any]) -> RuleError:
    """The RuleError that loading ``source`` raises (the test fails if it loads)."""
    with pytest.raises(RuleError) as info:
        load_rules(source)
    return info.value


def assert_names(err: RuleError, option: str, value: object, allowed_words: str) -> None:
    """The error names the option, shows the bad value and says what is allowed."""
    assert err.option == option
    assert err.value == value
    assert allowed_words in err.allowed
    message = str(err)
    assert f"rule option {option}: " in message
    assert show(value) in message  # as JSON writes it: true, "x", [50, "90"], never Python's True or '90'
    assert "allowed: " in message and allowed_words in message


def test_unknown_option_is_refused_by_name(tmp_path: Path) -> None:
    """A misspelt option is an error, not silently ignored."""
    err = refused(write(tmp_path, "hand_sise = 13\n"))
    assert_names(err, "hand_sise", 13, "a known option")
    assert "unknown option" in str(err)


@pytest.mark.parametrize(
    ("text", "option", "value", "allowed"),
    [
        ('hand_size = "13"\n', "hand_size", "13", "a whole number"),
        ("hand_size = 12.5\n", "hand_size", 12.5, "a whole number"),
        ("hand_size = true\n", "hand_size", True, "a whole number"),
        ('first_upcard = "yes"\n', "first_upcard", "yes", "one of none, one, until_natural"),
        ("first_upcard = 1\n", "first_upcard", 1, "one of none, one, until_natural"),
        ("players_allowed = 4\n", "players_allowed", 4, "a list of whole numbers"),
        ('opening_minimums = [50, "90"]\n', "opening_minimums", [50, "90"], "a list of whole numbers"),
        ("title = 7\n", "title", 7, "text"),
        ("card_values = [1, 2]\n", "card_values", [1, 2], "a table giving whole-number points"),
        (
            'card_values = { A = "twenty" }\n',
            "card_values",
            {"A": "twenty"},
            "a table giving whole-number points",
        ),
        ("decks_by_players = 6\n", "decks_by_players", 6, "a table of player count"),
        ("decks_by_players = { 4 = 6.5 }\n", "decks_by_players", {"4": 6.5}, "whole number of decks"),
        ("extends = 3\n", "extends", 3, "one of kitchen-table, head-and-foot, family, marmot, in-laws"),
    ],
)
def test_wrong_type_is_refused(tmp_path: Path, text: str, option: str, value: object, allowed: str) -> None:
    """A value of the wrong type names the option, the value and the type wanted."""
    assert_names(refused(write(tmp_path, text)), option, value, allowed)


@pytest.mark.parametrize(
    ("text", "option", "value", "allowed"),
    [
        ("hand_size = 0\n", "hand_size", 0, "from 1 to 30"),
        ("book_size = 25\n", "book_size", 25, "from 3 to 20"),
        ("draw_count = 0\n", "draw_count", 0, "from 1 to 5"),
        ("players_allowed = [4, 11]\n", "players_allowed", [4, 11], "player counts from 2 to 10"),
        ("default_players = 7\n", "default_players", 7, "one of [2, 3, 4, 5, 6]"),
        ("partners_at = [3]\n", "partners_at", [3], "even player counts of 4, 6, 8 or 10"),
        ("partners_at = [12]\n", "partners_at", [12], "even player counts of 4, 6, 8 or 10"),
        (
            "players_allowed = [4, 10]\ndecks_by_players = { 10 = 17 }\n",
            "decks_by_players",
            {10: 17},
            "player counts from 2 to 10 mapped to 1 to 16 decks",
        ),
        ("pickup_count = 1\n", "pickup_count", 1, "0 (the whole pile) or 2 or more"),
        ("pickup_naturals_on_meld = 3\n", "pickup_naturals_on_meld", 3, "from 0 to 2"),
        ("opening_thresholds = [5000, 3000]\n", "opening_thresholds", [5000, 3000], "strictly rising"),
        ("opening_minimums = [50, 90]\n", "opening_minimums", [50, 90], "4 minimums with opening_by = score"),
        ('card_values = { "3B" = -5 }\n', "card_values", {"3B": -5}, "points >= 0"),
        ("short_opening_penalty = -300\n", "short_opening_penalty", -300, "the points taken away"),
        ("red_three_held = 300\n", "red_three_held", 300, "a whole number <= 0"),
        ("going_out_bonus = -100\n", "going_out_bonus", -100, "a whole number from 0 to 100000"),
        ("go_out_clean = 11\n", "go_out_clean", 11, "from 0 to 10"),
        ("go_out_clean = 6\ngo_out_dirty = 6\n", "go_out_clean", 6, "go_out_clean + go_out_dirty <= 11"),
        (  # 001: four players share 4 decks (216 cards) and would need 241
            'extends = "head-and-foot"\nhand_size = 30\nfoot_size = 30\n',
            "hand_size",
            30,
            "fits the 216-card shoe for 4 players",
        ),
        ("pick_foot_seen = true\nhand_size = 13\n", "pick_foot_seen", True, "hand_size = foot_size"),
    ],
)
def test_out_of_range_value_is_refused(
    tmp_path: Path, text: str, option: str, value: object, allowed: str
) -> None:
    """A value outside what the rules can use names the option, the value and the range."""
    assert_names(refused(write(tmp_path, text)), option, value, allowed)


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("wild_limit", "fewest", "one of at_most_naturals, fewer_than_naturals"),
        ("red_threes", "discard", "one of lay_down, hold"),
        ("permission", "ask", "one of none, required, optional"),
        ("pickup_before_down", 1, "one of never, with_opening, opening_in_hand"),
    ],
)
def test_unknown_enum_value_lists_the_choices(option: str, value: object, allowed: str) -> None:
    """An unknown choice lists every allowed choice."""
    assert_names(refused({option: value}), option, value, allowed)


def test_unknown_preset_is_refused_with_the_list() -> None:
    """``extends`` must name one of the five presets (000-004)."""
    err = refused({"extends": "grandmas"})
    assert_names(err, "extends", "grandmas", "one of kitchen-table, head-and-foot, family, marmot, in-laws")


def test_no_such_preset_or_file() -> None:
    """A name that is neither a preset nor a file says both were tried."""
    err = refused("kitchen")
    assert_names(err, "rules", "kitchen", "a preset (kitchen-table, head-and-foot, family, marmot, in-laws)")
    assert "there is no preset or file called kitchen" in str(err)


def test_bad_toml_is_refused(tmp_path: Path) -> None:
    """A file that does not parse as TOML says so and where."""
    path = write(tmp_path, "hand_size = = 13\n")
    err = refused(path)
    assert_names(err, "rules", str(path), "a TOML rule file")
    assert "is not TOML" in str(err)
    assert "line 1" in str(err)


def test_directory_is_refused_not_crashed_on(tmp_path: Path) -> None:
    """A path that is not a readable file gives a RuleError, not an OSError."""
    err = refused(tmp_path)
    assert_names(err, "rules", str(tmp_path), "a TOML rule file")
    assert "is a folder" in str(err)


def test_non_utf8_file_is_refused(tmp_path: Path) -> None:
    """A file that is not UTF-8 text gives a RuleError."""
    path = tmp_path / "latin1.toml"
    path.write_bytes('title = "Grand-mère"\n'.encode("latin-1"))
    assert_names(refused(path), "rules", str(path), "a TOML rule file")
    assert "it is not UTF-8 text" in str(refused(path))


def test_go_out_wild_needs_wild_melds() -> None:
    """Wild books to go out, on a table that allows no wild melds (000 kitchen-table has none)."""
    assert_names(refused({"go_out_wild": 1}), "go_out_wild", 1, "0 unless wild_melds = true")


def test_ask_with_last_card_needs_permission() -> None:
    """Asking with the last card (zacharyyung/hand-and-foot) on a table where nobody asks (000
    kitchen-table: permission = none)."""
    err = refused({"ask_with_last_card": True})
    assert_names(err, "ask_with_last_card", True, "false while permission = none")


def test_wild_book_cannot_be_required_when_max_wilds_forbids_it() -> None:
    """With at most 3 wilds in a meld, a 7-card wild book can never be made, so it cannot be needed."""
    err = refused({"wild_melds": True, "go_out_wild": 1, "max_wilds": 3})
    assert_names(err, "go_out_wild", 1, "max_wilds = 0 or >= 7")


def test_wild_limits_that_forbid_every_dirty_book_are_refused_when_one_is_needed() -> None:
    """Naturals > wilds (001/003/004) with 7 naturals required leaves no room for a wild in a 7-card book."""
    err = refused({"extends": "marmot", "min_naturals": 7})
    assert_names(err, "go_out_dirty", 1, "no 7-card book can hold a wild")


# A one-deck shoe (4 of a rank) at a two-player table with small hands: room for few of a kind.
ONE_DECK_TWO_PLAYERS = {
    "players_allowed": [2],
    "default_players": 2,
    "decks_by_players": {"2": 1},
    "hand_size": 5,
    "foot_size": 5,
}


@pytest.mark.parametrize(
    ("options", "name", "value", "words"),
    [
        # 5 naturals required: every meld impossible
        ({"min_naturals": 5}, "min_naturals", 5, "at most 4 (the shoe's copies of a rank)"),
        # clean books of 9 can never be made
        (
            {"book_size": 9, "go_out_books": 0, "go_out_clean": 1},
            "book_size",
            9,
            "at most 4 for 2 players",
        ),
        # one book of any kind, of 12 cards, with at most 2 wilds: none can be made
        ({"book_size": 12, "max_wilds": 2}, "book_size", 12, "a size a book can reach with 2 players"),
    ],
    ids=["naturals", "clean-books", "any-book"],
)
def test_what_a_one_deck_shoe_cannot_hold_is_refused(
    options: dict[str, object], name: str, value: int, words: str
) -> None:
    """Meld and book sizes a one-deck shoe (4 of a rank) can never reach are refused, naming why."""
    err = refused({**ONE_DECK_TWO_PLAYERS, **options})
    assert_names(err, name, value, words)
    if name == "min_naturals":
        assert "no meld could ever be made" in str(err)


def test_a_refused_override_leaves_the_preset_unchanged() -> None:
    """Bad input changes nothing: the cached preset is the same object with the same values after."""
    before = preset("head-and-foot")
    with pytest.raises(RuleError):
        apply_overrides(before, {"hand_size": 0})
    assert preset("head-and-foot") is before
    assert before.hand_size == 13


def test_first_upcard_booleans_of_older_files_still_load() -> None:
    """first_upcard was true/false before it had a third choice: older files and records keep loading."""
    assert load_rules({"first_upcard": True}).first_upcard == "until_natural"
    assert load_rules({"first_upcard": False}).first_upcard == "none"
    assert load_rules({"first_upcard": "one"}).first_upcard == "one"


def test_options_that_took_true_or_false_still_read_it() -> None:
    """all_feet_to_go_out and opening_waived_if_emptied were true/false before they took words: older
    files and records keep loading with the meaning they had."""
    assert load_rules({"all_feet_to_go_out": True}).all_feet_to_go_out == "picked_up"
    assert load_rules({"all_feet_to_go_out": False}).all_feet_to_go_out == "none"
    assert load_rules({"all_feet_to_go_out": "entered"}).all_feet_to_go_out == "entered"
    assert load_rules({"opening_waived_if_emptied": True}).opening_waived_if_emptied == "discard"
    assert load_rules({"opening_waived_if_emptied": False}).opening_waived_if_emptied == "none"
    assert load_rules({"opening_waived_if_emptied": "empty"}).opening_waived_if_emptied == "empty"


def test_the_new_options_say_what_is_allowed() -> None:
    """A bad word names the choices; a wild book counts as clean only where wild books exist; the split
    draw is true or false."""
    assert_names(
        refused({"all_feet_to_go_out": "yes"}), "all_feet_to_go_out", "yes", "none, picked_up, entered"
    )
    assert_names(
        refused({"opening_waived_if_emptied": "always"}),
        "opening_waived_if_emptied",
        "always",
        "none, discard, empty",
    )
    assert_names(
        refused({"wild_book_counts_clean": True}), "wild_book_counts_clean", True, "unless wild_melds"
    )
    assert_names(refused({"split_draw": "yes"}), "split_draw", "yes", "true or false")
    rules = load_rules({"wild_melds": True, "wild_book_counts_clean": True, "split_draw": True})
    assert rules.wild_book_counts_clean and rules.split_draw


def test_family_and_marmot_seat_up_to_ten() -> None:
    """family (002), 1. Setup: "Use (number_of_players + 1) standard 52-card decks", and marmot (003),
    Requirements: "Two more decks of playing cards than players in the game": neither names a most
    players, so both seat two to ten, with eleven and twelve decks at ten."""
    family, marmot = load_rules("family"), load_rules("marmot")
    assert family.players_allowed == marmot.players_allowed == tuple(range(2, 11))
    assert [family.decks_for(p) for p in (9, 10)] == [10, 11]
    assert [marmot.decks_for(p) for p in (7, 9, 10)] == [9, 11, 12]


def test_per_hand_lists_give_one_value_per_hand() -> None:
    """Book counts to go out and the going-out bonus may be lists, one value per hand (like
    opening_minimums); the last value holds for later hands, and the list round-trips."""
    rules = load_rules({"going_out_bonus": [100, 200, 300], "go_out_books": [1, 2]})
    assert [rules.for_hand(i).going_out_bonus for i in range(5)] == [100, 200, 300, 300, 300]
    assert [rules.for_hand(i).go_out_books for i in range(3)] == [1, 2, 2]
    assert rules.going_out_bonus == 100 and rules.per_hand("going_out_bonus") == (100, 200, 300)
    mapping = rules_to_mapping(rules)
    assert mapping["going_out_bonus"] == [100, 200, 300] and mapping["go_out_clean"] == 0
    assert load_rules(mapping) == rules
    assert load_rules({"going_out_bonus": [150, 150]}).hand_values == ()  # one value: no list kept
    # a number replaces a list the base had
    assert apply_overrides(rules, {"going_out_bonus": 50}).for_hand(2).going_out_bonus == 50


def test_per_hand_lists_are_checked_hand_by_hand() -> None:
    """Each hand's value is checked as the option itself is; a list of no numbers is refused."""
    assert_names(refused({"go_out_clean": [1, 11]}), "go_out_clean", 11, "from 0 to 10")
    assert_names(refused({"going_out_bonus": []}), "going_out_bonus", [], "a list of 1 to 100 whole numbers")
    assert_names(refused({"going_out_bonus": [100, "x"]}), "going_out_bonus", [100, "x"], "one per hand")
    assert_names(refused({"hand_size": [11, 13]}), "hand_size", [11, 13], "a whole number")


def test_house_rule_tables_and_penalties_are_checked() -> None:
    """book_bonuses keys name a book (a rank, 3 or W, maybe after clean/dirty), and rows and penalties
    for melds the rules never allow are refused, saying what is allowed."""
    assert_names(refused({"book_bonuses": {"Z": 3}}), "book_bonuses", {"Z": 3}, "a table of book")
    assert_names(refused({"book_bonuses": {"clean W": 5}}), "book_bonuses", {"clean W": 5}, "a table of book")
    assert_names(refused({"book_bonuses": {"W": 5}}), "book_bonuses", {"W": 5}, "no W row unless wild_melds")
    err = refused({"extends": "family", "book_bonuses": {"3": 5}})
    assert_names(err, "book_bonuses", {"3": 5}, "no 3 row unless black_three_melds")
    assert_names(refused({"wild_meld_penalty": 100}), "wild_meld_penalty", 100, "0 unless wild_melds = true")
    rules = load_rules({"book_bonuses": {"clean 7": 1500, "K": 700, "dirty 3": 900}})
    assert (rules.book_bonus(C.SEVEN, 0), rules.book_bonus(C.SEVEN, 1)) == (1500, 300)
    assert (rules.book_bonus(C.KING, 0), rules.book_bonus(C.KING, 1)) == (700, 700)
    assert rules_to_mapping(rules)["book_bonuses"] == {"K": 700, "clean 7": 1500, "dirty 3": 900}
