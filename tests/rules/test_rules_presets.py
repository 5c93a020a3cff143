"""Every preset loads, and its values match its rule sheet (seeds/NNN_*.txt) and RULES.md, row by row.

Each row names the sheet it comes from: 000 kitchen-table, 001 head-and-foot, 002 family, 003 marmot,
004 in-laws. Where a sheet is silent, RULES.md gives the value in italics; such rows say "RULES.md".
"""

from __future__ import annotations

from typing import Any

import pytest

from handfoot import cards as C
from handfoot.rules import (
    OPTION_NAMES,
    PRESET_NAMES,
    RuleSet,
    load_rules,
    preset,
    rules_from_mapping,
    rules_to_mapping,
)
from handfoot.rules.validate import max_wilds_in_book

SHEET = {
    "kitchen-table": "000",
    "head-and-foot": "001",
    "family": "002",
    "marmot": "003",
    "in-laws": "004",
}

# (preset, option, expected value, where it comes from)
ROWS: list[tuple[str, str, Any, str]] = [
    # --- 1. table and deal
    ("kitchen-table", "players_allowed", (2, 3, 4, 5, 6), "000: 'Two to six people can play'"),
    ("kitchen-table", "default_players", 4, "000: 'tonight's default is four, partners across'"),
    ("kitchen-table", "partners_at", (4,), "000: four play partners; 2, 3, 5 everyone for themselves"),
    ("kitchen-table", "decks_extra", 1, "000: 'One deck per player plus one extra'"),
    ("kitchen-table", "hand_size", 11, "000: 'deal 11 to a Hand'"),
    ("kitchen-table", "foot_size", 11, "000: 'and 11 to a Foot'"),
    (
        "kitchen-table",
        "first_upcard",
        "until_natural",
        "000: 'Turn the next card face up ... starts the discard pile'",
    ),
    ("kitchen-table", "exact_deal_bonus", 0, "RULES.md: only in-laws has an exact-deal bonus"),
    ("head-and-foot", "players_allowed", (2, 3, 4, 6), "001: '4 Decks - 2 to 4 people / 6 Decks - 6 people'"),
    ("head-and-foot", "partners_at", (4, 6), "001: 'Partners (or single if only 2 or 3 players)'"),
    ("head-and-foot", "decks_by_players", ((2, 4), (3, 4), (4, 4), (6, 6)), "001: 4 decks, 6 for 6 people"),
    ("head-and-foot", "hand_size", 13, "001: 'one 13 cards (HEAD)'"),
    ("head-and-foot", "foot_size", 11, "001: 'one 11 cards (FOOT)'"),
    ("head-and-foot", "first_upcard", "none", "RULES.md: no upcard outside kitchen-table"),
    ("family", "partners_at", (), "002: 'You cannot play on another player's books'"),
    ("family", "decks_extra", 1, "002: '(number_of_players + 1) standard 52-card decks'"),
    ("family", "players_allowed", tuple(range(2, 11)), "002: '(number_of_players + 1)' decks, no maximum"),
    ("family", "hand_size", 11, "002: 'Hand: 11 cards'"),
    ("family", "foot_size", 11, "002: 'Foot: 11 cards'"),
    ("family", "first_upcard", "none", "RULES.md: no upcard outside kitchen-table"),
    ("marmot", "partners_at", (4,), "003: 'individually or as teams, if an even number' (teams at 4)"),
    ("marmot", "players_allowed", tuple(range(2, 11)), "003: 'Two more decks ... than players', no maximum"),
    ("marmot", "decks_extra", 2, "003: 'Two more decks of playing cards than players'"),
    ("marmot", "hand_size", 10, "003: 'two sets of ten cards'"),
    ("marmot", "foot_size", 10, "003: 'two sets of ten cards'"),
    ("in-laws", "players_allowed", (4,), "004: 'Play in partners'; Team 1 and Team 2 on the pad"),
    ("in-laws", "partners_at", (4,), "004: 'Play in partners'"),
    ("in-laws", "decks_extra", 2, "004: '6 deck of cards' for four players"),
    ("in-laws", "hand_size", 11, "004: 'Deal yourself 11 cards in two piles'"),
    ("in-laws", "foot_size", 11, "004: 'Deal yourself 11 cards in two piles'"),
    ("in-laws", "pick_foot_seen", False, "004: the foot is chosen from piles that lie face down (choice)"),
    ("in-laws", "exact_deal_bonus", 100, "004: '100 points given for exact deals'"),
    # --- 2. length of a game and the opening minimum
    ("kitchen-table", "game_end", "target", "000: 'First team to 10000 wins'"),
    ("kitchen-table", "target_score", 10000, "000: 'Game is 10000'"),
    ("kitchen-table", "opening_by", "score", "000: 'Your team's score going into the hand'"),
    ("kitchen-table", "opening_minimums", (50, 90, 120, 150), "000: minimum table 50/90/120/150"),
    (
        "kitchen-table",
        "opening_thresholds",
        (3000, 5000, 8000),
        "000: bands 0-2995, 3000-4995, 5000-7995, 8000+",
    ),
    ("head-and-foot", "game_end", "hands", "001: 'Game consists of 4 hands or rounds'"),
    ("head-and-foot", "hands_per_game", 4, "001: 'Game consists of 4 hands or rounds'"),
    ("head-and-foot", "opening_by", "hand", "001: '1st hand - meld needed/ 50 points' ..."),
    ("head-and-foot", "opening_minimums", (50, 90, 120, 150), "001: 50, 90, 120, 150 points"),
    ("family", "game_end", "hands", "RULES.md: the sheet names no length, four rounds as the others"),
    ("family", "hands_per_game", 4, "RULES.md: *after 4 rounds*"),
    ("family", "opening_minimums", (60, 90), "002: 'Round 1 ... 60 points', 'Round 2: Requirement = 90'"),
    ("family", "opening_increment", 30, "002: 'Each subsequent round: +30 points'"),
    (
        "family",
        "meld_owner",
        "player",
        "002: 'If you haven't played down yet' - each player opens for themselves",
    ),
    ("marmot", "hands_per_game", 4, "003: 'Four hands are played'"),
    ("marmot", "opening_minimums", (50, 90, 120, 150), "003: Round 1: 50 ... Round 4: 150"),
    ("in-laws", "hands_per_game", 4, "004: '4 rounds'"),
    ("in-laws", "opening_minimums", (50, 90, 120, 150), "004: '1st hand 50 points ... 4th hand 150 points'"),
    ("in-laws", "short_opening_penalty", 300, "004: 'the team is penalized 300 points'"),
    # --- 3. melds and books
    (
        "kitchen-table",
        "wild_limit",
        "at_most_naturals",
        "000: 'never put more wilds in a meld than naturals'",
    ),
    ("kitchen-table", "min_naturals", 2, "000: 'A meld still needs at least two natural cards'"),
    ("head-and-foot", "min_naturals", 3, "001: 'Each canasta is begun by playing at least three like cards'"),
    ("marmot", "min_naturals", 3, "003: '2s and Jokers are wild. They can not be used to make a set.'"),
    ("in-laws", "min_naturals", 3, "004: 'To begin a meld, at least 3 cards of like numbers must be laid'"),
    ("family", "min_naturals", 2, "002: Example Turn: '2 Eights' and '1 Wild 2' laid down as a meld"),
    ("kitchen-table", "black_three_melds", True, "000: 'only meld them as a set of black 3s ... going out'"),
    ("kitchen-table", "wild_melds", False, "000: 'at least two natural cards of that rank'"),
    ("kitchen-table", "book_size", 7, "000: 'Seven of a rank is a canasta'"),
    ("kitchen-table", "meld_owner", "side", "000: 'Melds are shared'"),
    ("head-and-foot", "wild_limit", "fewer_than_naturals", "001: wilds 'must always be fewer' (choice)"),
    ("head-and-foot", "max_wilds", 3, "001: 'three maximum wild cards and four regular ones'"),
    ("head-and-foot", "black_three_melds", False, "001: 'BLACK 3'S ... can be used for discard only'"),
    ("head-and-foot", "book_additions", "naturals", "001: further matching cards go to the JUNK pile"),
    ("family", "wild_limit", "at_most_naturals", "002: 'no meld (book) may contain more wilds than natural'"),
    ("family", "book_additions", "any", "002: 'Complete at 7 cards but may contain more'"),
    ("marmot", "wild_limit", "fewer_than_naturals", "003: 'There must be more cards of the value than wild'"),
    ("marmot", "max_wilds", 2, "003: 'no more than two wild cards in a book'"),
    ("marmot", "wild_melds", False, "003: '2s, 3s and Jokers can not be a set'"),
    ("marmot", "black_three_melds", False, "003: '3s can not be used to make a set'"),
    ("marmot", "book_additions", "none", "003: a closed book takes no more; another of that value may start"),
    ("marmot", "new_meld_after_book", True, "003: 'Once the book has been closed, then another one'"),
    ("in-laws", "wild_limit", "fewer_than_naturals", "004: 'the real numbers are greater than the wilds'"),
    ("in-laws", "wild_melds", False, "004: 'Meld's can not be made of only 2's and Jokers'"),
    ("in-laws", "book_additions", "naturals", "004: 'Team may add only real numbers to their closed books'"),
    # --- 4. a turn
    ("kitchen-table", "draw_count", 2, "000: 'Draw two, discard one'"),
    ("kitchen-table", "pickup_naturals", 2, "000: 'two natural cards of that rank from your hand'"),
    ("kitchen-table", "pickup_naturals_on_meld", 1, "000: 'or one if your team already has that rank'"),
    ("kitchen-table", "pickup_count", 0, "000: 'You take the whole pile'"),
    ("kitchen-table", "pickup_before_down", "with_opening", "RULES.md: top card and this turn's melds count"),
    ("kitchen-table", "black_three_freezes", True, "000: 'A black 3 on the discard stops the next player'"),
    ("kitchen-table", "red_threes", "lay_down", "000: 'Red 3s go down immediately'"),
    ("head-and-foot", "pickup_naturals", 2, "001: '2 cards exactly like the one on top of the pile'"),
    ("head-and-foot", "pickup_naturals_on_meld", 2, "001: '2 cards exactly like the one on top of the pile'"),
    ("head-and-foot", "pickup_count", 0, "001: 'you must take the whole pile'"),
    (
        "head-and-foot",
        "pickup_before_down",
        "opening_in_hand",
        "001: 'have the required meld before you take'",
    ),
    ("head-and-foot", "black_three_freezes", False, "RULES.md: the freeze is kitchen-table's alone"),
    ("head-and-foot", "red_threes", "hold", "001: 'RED 3'S ... can be used for discard only'"),
    ("family", "pickup_naturals", 2, "002: 'two natural cards in hand that match the top card'"),
    ("family", "pickup_count", 6, "002 section 4: 'the top discard and the next 5 cards' (choice)"),
    ("family", "pickup_rest_from", "pile", "002 section 4: 'from the discard pile' (choice)"),
    (
        "family",
        "pickup_before_down",
        "never",
        "002 section 4: 'If you've already met the play-down requirement'",
    ),
    ("family", "red_threes", "hold", "002: 'Discard red 3s as soon as possible'"),
    ("family", "pile_visible", "top", "002: 'only the top card is visible'"),
    ("marmot", "draw_count", 2, "003: 'Player draws two cards from one of the excess piles'"),
    ("marmot", "pickup_allowed", False, "003: the sheet never lets anyone take the pile"),
    ("marmot", "discard_wilds", False, "003: 2s and Jokers ... 'Nor can they be discarded'"),
    ("marmot", "discard_playable", False, "003: 'you can not discard a card that you can play'"),
    (
        "marmot",
        "must_play_all",
        True,
        "003: 'The player's turns lasts until he can no longer continue to put down cards'",
    ),
    ("marmot", "red_threes", "hold", "003: '3s ... can be discarded'"),
    ("in-laws", "pickup_naturals", 2, "004: 'with two like cards in his/her hand'"),
    ("in-laws", "pickup_count", 5, "004: 'Player must also take the next 4 cards from discard pile'"),
    (
        "in-laws",
        "pickup_before_down",
        "never",
        "004: 'Players who's team has not yet laid down may not pick up'",
    ),
    ("in-laws", "red_threes", "hold", "004: 'Get rid of red 3's'"),
    # --- 5. the Foot and going out
    ("kitchen-table", "foot_at_once", True, "000: 'pick up the Foot immediately and keep going this turn'"),
    ("kitchen-table", "go_out_books", 1, "000: 'One canasta to go out'"),
    ("kitchen-table", "go_out_clean", 0, "000: clean + dirty only 'if your table also wants'"),
    ("kitchen-table", "all_feet_to_go_out", "picked_up", "000: 'both partners have picked up their Foot'"),
    ("kitchen-table", "out_by_meld", "forbidden", "000: 'meld the rest, with a final discard'"),
    ("kitchen-table", "after_out", "end", "RULES.md: the hand ends"),
    (
        "head-and-foot",
        "foot_at_once",
        True,
        "001: in your FOOT 'and playing' if you entered without a discard",
    ),
    ("head-and-foot", "go_out_clean", 1, "001: 'one natural ... canasta'"),
    ("head-and-foot", "go_out_dirty", 2, "001: 'and two unnatural canastas'"),
    (
        "head-and-foot",
        "all_feet_to_go_out",
        "entered",
        "001: 'If you discarded to enter your FOOT, FOOT play begins next turn ... Both partners have to be "
        "in their FOOT'",
    ),
    ("head-and-foot", "permission", "required", "001: 'Permission must be granted from your partner'"),
    ("family", "go_out_clean", 1, "002: 'At least 1 clean book'"),
    ("family", "go_out_dirty", 1, "002: 'At least 1 dirty book'"),
    ("family", "out_by_meld", "out", "002: 'discard optional - you may play all remaining cards'"),
    ("family", "after_out", "last_round", "002: 'All others get one more turn'"),
    ("marmot", "go_out_clean", 1, "003: 'at least one clean book and one dirty book'"),
    ("marmot", "go_out_dirty", 1, "003: 'at least one clean book and one dirty book'"),
    ("marmot", "out_by_meld", "last_round", "003: 'the other players get one last round to play'"),
    ("marmot", "after_out", "end", "003: 'discards his last card ... play stops immediately'"),
    (
        "marmot",
        "empty_without_out",
        "draw_again",
        "003: 'If player runs out of cards before discarding ..., the player's turn has not ended'",
    ),
    ("marmot", "all_feet_to_go_out", "none", "RULES.md: *no*"),
    ("in-laws", "go_out_clean", 3, "004: 'When team has acquired 3 clean books they may go out'"),
    ("in-laws", "go_out_dirty", 0, "004: only clean books are named"),
    ("in-laws", "permission", "optional", "004: 'Players may ask partner; May I go out?'"),
    ("in-laws", "out_by_meld", "forbidden", "004: a turn 'ends with discarding one card'"),
    # --- 6. scoring
    ("kitchen-table", "red_three_bonus", 100, "000: 'Red 3 (if your side melded) | 100 each'"),
    ("kitchen-table", "red_three_unmelded", -100, "000: 'your team never melded, those red 3s count minus'"),
    ("kitchen-table", "red_three_held", -100, "RULES.md: one in a Foot never picked up counts -100"),
    ("kitchen-table", "clean_book_bonus", 500, "000: 'Natural canasta (7, no wilds) | 500'"),
    ("kitchen-table", "dirty_book_bonus", 300, "000: 'Mixed canasta (7, with wilds) | 300'"),
    ("kitchen-table", "going_out_bonus", 100, "000: 'Going out | 100'"),
    ("kitchen-table", "unplayed_foot_counts", True, "000: 'Subtract cards ... still in an unplayed Foot'"),
    ("head-and-foot", "red_three_held", -500, "001: 'RED 3'S -500 points'"),
    ("head-and-foot", "clean_book_bonus", 500, "001: 'Natural canasta ... = 500 points'"),
    ("head-and-foot", "dirty_book_bonus", 300, "001: 'Unnatural canasta ... = 300 points'"),
    ("head-and-foot", "going_out_bonus", 300, "001: 'Bonus for going out = 300 points'"),
    ("family", "red_three_held", -300, "002: 'Red 3 = -300 points each (only if still held)'"),
    ("family", "clean_book_bonus", 0, "002 section 9: 'Cards in completed books ... score their value'"),
    ("family", "dirty_book_bonus", 0, "002 section 9: no book bonus is named"),
    ("family", "going_out_bonus", 100, "002: 'Player who goes out first gets +100 points'"),
    ("marmot", "red_three_held", -300, "003: 'Red 3 -300 points'"),
    ("marmot", "clean_book_bonus", 500, "003: 'Red Book (Clean ...) 500 points each'"),
    ("marmot", "dirty_book_bonus", 300, "003: 'Black Book (Dirty ...) 300 points each'"),
    ("marmot", "going_out_bonus", 0, "003: no going-out bonus is named"),
    ("in-laws", "red_three_held", -300, "004: 'Red 3's | - 300'"),
    ("in-laws", "clean_book_bonus", 500, "004: 'Clean Books | 500 pts ea'"),
    ("in-laws", "dirty_book_bonus", 300, "004: 'Dirty Books | 300 pts ea'"),
    ("in-laws", "going_out_bonus", 200, "004: 'Go Out | 200 pts'"),
    (
        "in-laws",
        "unplayed_foot_counts",
        False,
        "004: 'The cards that are left in remaining players hand are count against team'",
    ),
]


def _row_id(row: tuple[str, str, Any, str]) -> str:
    name, option, _, _ = row
    return f"{name}({SHEET[name]})-{option}"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_loads_by_name_and_validates(name: str) -> None:
    """Each of the five sheets (000-004) is a preset that loads and carries its own name."""
    rules = load_rules(name)
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    assert rules.summary, "every preset has a one-line summary for `handfoot rules list`"


@pytest.mark.parametrize("row", ROWS, ids=[_row_id(r) for r in ROWS])
def test_preset_value_matches_its_sheet(row: tuple[str, str, Any, str]) -> None:
    """A preset's option has the value its sheet (or RULES.md where the sheet is silent) gives."""
    name, option, expected, source = row
    assert option in OPTION_NAMES, f"{option} is not an option"
    assert getattr(preset(name), option) == expected, source


def test_every_row_cites_the_right_sheet() -> None:
    """Rows quoting a sheet quote their own preset's sheet (a row for marmot cites 003, and so on)."""
    for name, option, _, source in ROWS:
        if not source.startswith("RULES.md"):
            assert source.startswith(SHEET[name]), f"{name}.{option}: {source}"


# Card values, from each sheet's value table: kind -> points (a held card counts minus this).
CARD_VALUE_ROWS: list[tuple[str, dict[int, int], str]] = [
    (
        "kitchen-table",
        {
            C.JOKER: 50,
            C.DEUCE: 20,
            C.ACE: 20,
            C.KING: 10,
            C.EIGHT: 10,
            C.SEVEN: 5,
            C.FOUR: 5,
            C.BLACK_THREE: 5,
        },
        "000: Joker 50, Ace or 2 20, King through 8 10, 7 through 4 and black 3 5",
    ),
    (
        "head-and-foot",
        {
            C.JOKER: 50,
            C.DEUCE: 20,
            C.ACE: 20,
            C.KING: 10,
            C.EIGHT: 10,
            C.SEVEN: 5,
            C.FOUR: 5,
            C.BLACK_THREE: 5,
        },
        "001: ACE 20, DEUCE 20, JOKER 50, 8-KING 10, 4-7 5, BLACK 3'S -5 (held)",
    ),
    (
        "family",
        {C.JOKER: 50, C.DEUCE: 20, C.KING: 10, C.EIGHT: 5, C.BLACK_THREE: 5},
        "002: Joker 50, 2 20, '3 Kings = 3 x 10', '2 Eights = 2 x 5', Black 3 = -5 (held)",
    ),
    (
        "marmot",
        {
            C.JOKER: 50,
            C.DEUCE: 20,
            C.ACE: 20,
            C.KING: 10,
            C.EIGHT: 10,
            C.SEVEN: 5,
            C.FOUR: 5,
            C.BLACK_THREE: 5,
        },
        "003: 4-7 5, 8-K 10, A, 2 20, Joker 50, Black 3 -5 (held)",
    ),
    (
        "in-laws",
        {C.JOKER: 50, C.DEUCE: 20, C.ACE: 20, C.KING: 10, C.EIGHT: 10, C.SEVEN: 5, C.FOUR: 5},
        "004: Jokers 50, 2's 20, Ace's 20, 8 and Above 10, 7 and Below 5",
    ),
]


@pytest.mark.parametrize("row", CARD_VALUE_ROWS, ids=[f"{r[0]}({SHEET[r[0]]})" for r in CARD_VALUE_ROWS])
def test_card_values_match_the_sheet(row: tuple[str, dict[int, int], str]) -> None:
    """Each sheet's card-value table; red 3s are never scored by card value."""
    name, values, source = row
    rules = preset(name)
    for kind, points in values.items():
        assert rules.card_value(kind) == points, f"{C.KIND_NAMES[kind]}: {source}"
    assert rules.card_value(C.RED_THREE) == 0


@pytest.mark.parametrize(
    ("name", "players", "decks"),
    [
        ("kitchen-table", 4, 5),  # 000: 'Five standard 52-card decks'
        ("kitchen-table", 3, 4),  # 000: three people 'Shuffle four decks'
        ("kitchen-table", 2, 3),  # 000: 'Two people ... three decks'
        ("head-and-foot", 2, 4),  # 001: '4 Decks - 2 to 4 people'
        ("head-and-foot", 4, 4),
        ("head-and-foot", 6, 6),  # 001: '6 Decks - 6 people'
        ("family", 2, 3),  # 002: '2 players -> 3 decks'
        ("family", 4, 5),  # 002: '4 players -> 5 decks'
        ("marmot", 4, 6),  # 003: 'Two more decks of playing cards than players'
        ("in-laws", 4, 6),  # 004: '6 deck of cards'
    ],
)
def test_decks_in_the_shoe_match_the_sheets(name: str, players: int, decks: int) -> None:
    """Deck counts of sheets 000-004 for the player counts they name."""
    assert preset(name).decks_for(players) == decks


@pytest.mark.parametrize(
    ("total", "minimum"),
    [
        (-250, 50),
        (0, 50),
        (2995, 50),
        (3000, 90),
        (4995, 90),
        (5000, 120),
        (7995, 120),
        (8000, 150),
        (12000, 150),
    ],
)
def test_kitchen_table_opening_minimum_by_score(total: int, minimum: int) -> None:
    """000: 'Your team's score going into the hand | First meld must be at least' (negatives: RULES.md)."""
    assert preset("kitchen-table").opening_minimum(hand_index=3, side_total=total) == minimum


@pytest.mark.parametrize(
    ("name", "minimums"),
    [
        ("head-and-foot", [50, 90, 120, 150]),  # 001: '1st hand ... 50 points' to '4th hand ... 150'
        ("family", [60, 90, 120, 150, 180]),  # 002: 60, 90, then 'Each subsequent round: +30 points'
        ("marmot", [50, 90, 120, 150]),  # 003: Round 1: 50 ... Round 4: 150
        ("in-laws", [50, 90, 120, 150]),  # 004: '1st hand 50 points ... 4th hand 150 points'
    ],
)
def test_opening_minimum_by_hand(name: str, minimums: list[int]) -> None:
    """Sheets 001-004 raise the opening minimum with the hand, whatever the score."""
    rules = preset(name)
    got = [rules.opening_minimum(hand_index=i, side_total=9000) for i in range(len(minimums))]
    assert got == minimums


@pytest.mark.parametrize(
    ("name", "players", "partners"),
    [
        ("kitchen-table", 4, True),  # 000: 'Partners sit across'
        ("kitchen-table", 3, False),  # 000: 'Three people - everyone for themselves'
        ("head-and-foot", 6, True),  # 001: 'Partners (or single if only 2 or 3 players)'
        ("head-and-foot", 3, False),
        ("family", 4, False),  # 002: 'You cannot play on another player's books'
        ("in-laws", 4, True),  # 004: 'Play in partners'
    ],
)
def test_partnerships_match_the_sheets(name: str, players: int, partners: bool) -> None:
    """Who plays in pairs, per sheets 000, 001, 002 and 004."""
    assert preset(name).partnerships(players) is partners


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_round_trips_through_a_mapping(name: str) -> None:
    """rules_to_mapping then rules_from_mapping gives back the same rule set (what --json prints loads)."""
    rules = preset(name)
    assert rules_from_mapping(rules_to_mapping(rules)) == rules


def test_presets_differ_from_each_other() -> None:
    """The five sheets are five different rule sets, not copies of one (000-004)."""
    mappings = [
        {k: v for k, v in rules_to_mapping(preset(n)).items() if k not in ("name", "title", "summary")}
        for n in PRESET_NAMES
    ]
    for i, a in enumerate(mappings):
        for b in mappings[i + 1 :]:
            assert a != b


@pytest.mark.parametrize(
    ("name", "wilds"),
    [
        ("kitchen-table", 3),  # 000: 'never put more wilds in a meld than naturals': 3 wilds + 4 naturals
        ("head-and-foot", 3),  # 001: 'three maximum wild cards and four regular ones'
        ("family", 3),  # 002: 'never more wilds than natural cards'
        ("marmot", 2),  # 003: 'no more than two wild cards in a book'
        ("in-laws", 3),  # 004: 'real numbers are greater than the wilds': 3 wilds + 4 naturals
    ],
)
def test_most_wilds_in_a_seven_card_book(name: str, wilds: int) -> None:
    """The wild limits of sheets 000-004 allow this many wilds in a 7-card book."""
    assert max_wilds_in_book(preset(name)) == wilds
