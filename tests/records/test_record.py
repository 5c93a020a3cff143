"""Game records: every bad record is refused with a message naming what is wrong, explicit deals put
exactly the given cards where they belong, and records replay to the position the moves reach in Game."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from handfoot import cards as C
from handfoot.bots.plan import whole_openings
from handfoot.engine.deal import DealSpec
from handfoot.engine.game import Game
from handfoot.engine.moves import parse_move
from handfoot.engine.state import HandState, Phase
from handfoot.record import (
    NOTATION_RULE,
    Record,
    RecordError,
    load_record,
    loads_record,
    parse_record,
    record_of,
    replay,
    report,
    rules_source_of,
)
from handfoot.rules import PRESET_NAMES, load_rules, preset

# Two players alone under kitchen-table (3 decks: 3 copies of each card, 6 jokers), 11/11.
HAND_0 = ["5S", "5H", "6S", "6H", "7S", "7H", "4S", "4H", "9C", "TC", "TS"]
HAND_1 = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "JD"]
FOOT_0 = ["QC", "JC", "TH", "TD", "6D", "6C", "5D", "5C", "4D", "7D", "7C"]
FOOT_1 = ["AS", "AH", "AD", "AC", "9S", "9H", "9D", "8S", "8H", "8D", "4C"]
OUT_MOVES = [
    "draw",
    "meld KS KS KH KH KD KD KC | QS QH QD | JD JS JH",
    "meld AS AH AD AC | 9S 9H 9D | 8S 8H 8D",
    "discard 4C",
]


def base() -> dict[str, Any]:
    """A valid two-player record in which seat 1 goes out on its first turn (see docs/records.md)."""
    return {
        "rules": "kitchen-table",
        "players": 2,
        "seed": 1,
        "dealer": 0,
        "deals": [
            {
                "hands": [list(HAND_0), list(HAND_1)],
                "feet": [list(FOOT_0), list(FOOT_1)],
                "stock": ["JS", "JH"],
                "discard": ["4H"],
            }
        ],
        "moves": list(OUT_MOVES),
    }


def counts_of(codes: list[str]) -> list[int]:
    """Per card id, how many of ``codes`` there are."""
    out = [0] * C.NUM_CARD_IDS
    for card in C.parse_cards(codes):
        out[card] += 1
    return out


# --- refusals ------------------------------------------------------------------------------------


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple[Any, ...]) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


BAD_RECORDS: list[tuple[str, Any, list[str]]] = [
    ("unknown top-level key", _set(("seeds",), 3), ['unknown key "seeds"', "allowed: rules, players"]),
    ("unknown deal key", _set(("deals", 0, "piles"), []), ["deals[0]", 'unknown key "piles"', "hands, feet"]),
    ("bad card code", _set(("deals", 0, "hands", 1, 0), "KX"), ["deals[0].hands[1]", '"KX" is not a card']),
    ("a ten written 10", _set(("deals", 0, "stock"), ["10H"]), ["deals[0].stock", '"10H" is not a card']),
    ("card not a string", _set(("deals", 0, "discard"), [7]), ["deals[0].discard", "card codes"]),
    (
        "too many copies of a card",
        _set(("deals", 0, "stock"), ["KS", "KS"]),  # seat 1 holds two KS; 3 decks have 3
        ["deals[0]", "stock", "too many copies of KS"],
    ),
    ("hand too short", _set(("deals", 0, "hands", 0), HAND_0[:10]), ["hands[0]: 10 cards", "deal 11"]),
    ("foot too long", _set(("deals", 0, "feet", 1), [*FOOT_1, "2C"]), ["feet[1]: 12 cards", "deal 11"]),
    (
        "too many hands",
        _set(("deals", 0, "hands"), [HAND_0, HAND_1, HAND_0]),
        ["deals[0].hands lists 3 hands", "one per seat (2)"],
    ),
    (
        "too few feet",
        _set(("deals", 0, "feet"), [FOOT_0]),
        ["deals[0].feet lists 1 foot", "one per seat (2)"],
    ),
    ("hands missing", _delete(("deals", 0, "hands")), ["deals[0]", "'hands' is missing"]),
    ("deal not an object", _set(("deals", 0), ["KS"]), ["deals[0]", "an object with hands"]),
    ("deals not a list", _set(("deals",), {"hands": []}), ["deals is", "a list"]),
    ("dealer past the last seat", _set(("dealer",), 2), ["dealer is 2", "a seat from 0 to 1"]),
    ("negative dealer", _set(("dealer",), -1), ["dealer is -1", "a seat from 0 to 1"]),
    ("dealer as text", _set(("dealer",), "0"), ['dealer is "0"', "a whole number"]),
    ("seed not a number", _set(("seed",), 1.5), ["seed is 1.5", "a whole number"]),
    ("players as a boolean", _set(("players",), True), ["players is true", "a whole number"]),
    ("seven players", _set(("players",), 7), ["players is 7", "kitchen-table allows 2, 3, 4, 5, 6"]),
    ("unknown preset", _set(("rules",), "poker"), ['rules: "poker" is not a preset', "kitchen-table"]),
    ("rules a number", _set(("rules",), 3), ["rules is 3", "a preset name"]),
    (
        "unknown rule option",
        _set(("rules",), {"extends": "kitchen-table", "colour": "red"}),
        ["rules:", "rule option colour", "unknown option"],
    ),
    (
        "bad rule value",
        _set(("rules",), {"extends": "kitchen-table", "hand_size": 0}),
        ["rules:", "rule option hand_size", "from 1 to 30"],
    ),
    (
        "unknown base preset",
        _set(("rules",), {"extends": "gin", "hand_size": 11}),
        ["rules:", '"gin"', "unknown preset"],
    ),
    ("moves not a list", _set(("moves",), "draw"), ['moves is "draw"', "a list of move texts"]),
    ("a move not text", _set(("moves", 1), ["meld", "KS"]), ["moves[1] is", "a move text"]),
]


@pytest.mark.parametrize(
    ("change", "expected"), [(c, e) for _, c, e in BAD_RECORDS], ids=[n for n, _, _ in BAD_RECORDS]
)
def test_bad_record_is_refused_naming_what_is_wrong(change: Any, expected: list[str]) -> None:
    data = base()
    change(data)
    with pytest.raises(RecordError) as info:
        parse_record(data)
    for text in expected:
        assert text in str(info.value)


def test_the_base_record_itself_is_valid() -> None:
    """The refusals above come from their one change, not from the base record."""
    record = parse_record(base())
    assert record.players == 2 and record.moves == tuple(OUT_MOVES)


def test_players_the_preset_does_not_allow() -> None:
    """in-laws is played by four ("Play in partners"); two players are refused by the preset's name."""
    data = base()
    data["rules"] = "in-laws"
    with pytest.raises(RecordError, match=r"players is 2; in-laws allows 4$"):
        parse_record(data)


def test_ten_players_of_marmot_and_no_more() -> None:
    """marmot (003), Requirements: "Two more decks of playing cards than players in the game" names no
    most players: a record of ten reads and plays (twelve decks); eleven is refused naming the counts."""
    data: dict[str, Any] = {"rules": "marmot", "players": 10, "seed": 3, "moves": ["draw"]}
    game, error = replay(parse_record(data))
    assert error is None and game.players == 10 and len(game.state.stock) == 12 * 54 - 10 * 20 - 2
    data["players"] = 11
    with pytest.raises(RecordError, match=r"players is 11; marmot allows 2, 3, 4, 5, 6, 7, 8, 9, 10$"):
        parse_record(data)


def test_a_later_deal_is_checked_before_any_move() -> None:
    """An explicit deal for the second hand is checked when the record is read, not when it is dealt."""
    data = base()
    data["deals"].append({"hands": [HAND_0, HAND_1[:9]]})
    with pytest.raises(RecordError, match=r"deals\[1\]: hands\[1\]: 9 cards"):
        parse_record(data)


def test_more_deals_than_the_game_has_hands() -> None:
    """head-and-foot plays four hands: a fifth deal can never be used."""
    data = base()
    data["rules"] = "head-and-foot"
    data["deals"] = [None] * 5
    with pytest.raises(RecordError, match="deals lists 5 hands; head-and-foot plays 4 hands a game"):
        parse_record(data)


def test_not_enough_cards_left_for_the_shuffled_feet() -> None:
    """A stock so long that fewer than two feet of cards are left in the shoe is refused."""
    data = base()
    deal = data["deals"][0]
    del deal["feet"]
    pool = C.shoe_counts(3)
    for code in HAND_0 + HAND_1 + deal["discard"]:
        pool[C.parse_card(code)] -= 1
    rest = [C.code(card) for card in range(C.NUM_CARD_IDS) for _ in range(pool[card])]
    deal["stock"] = rest[: len(rest) - 21]  # 21 cards left, 22 needed
    with pytest.raises(RecordError, match="not enough cards left in the shoe to deal the feet"):
        parse_record(data)
    deal["stock"] = rest[: len(rest) - 22]  # exactly enough
    parse_record(data)


def test_text_that_is_not_json_or_repeats_a_key() -> None:
    with pytest.raises(RecordError, match=r"game\.json is not JSON"):
        loads_record('{"rules": "kitchen-table",', "game.json")
    with pytest.raises(RecordError, match='the key "seed" appears twice'):
        loads_record('{"seed": 1, "seed": 2}')
    with pytest.raises(RecordError, match="a record is a JSON object"):
        loads_record("[1, 2]")


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(path)


def test_defaults() -> None:
    """Only what differs from the defaults needs writing: kitchen-table, its 4 players, seed 0, dealer 0."""
    record = parse_record({})
    assert record.rules == preset("kitchen-table")
    assert (record.players, record.seed, record.dealer, record.deals, record.moves) == (4, 0, 0, (), ())


def test_rules_object_extends_a_preset() -> None:
    data = base()
    data["rules"] = {"extends": "marmot", "hand_size": 11, "foot_size": 11}
    record = parse_record(data)
    assert record.rules.hand_size == 11 and record.rules.pickup_allowed is False
    assert record.rules_source == {"extends": "marmot", "hand_size": 11, "foot_size": 11}


# --- explicit deals --------------------------------------------------------------------------------


def test_explicit_deal_puts_every_given_card_in_place() -> None:
    data = base()
    data["deals"][0]["stock"] = ["JS", "JH", "2C", "8C", "TD"]
    data["deals"][0]["discard"] = ["4H", "6C", "9S"]
    game = parse_record(data).new_game()
    state = game.state
    assert state.hand_cards[0] == counts_of(HAND_0)
    assert state.hand_cards[1] == counts_of(HAND_1)
    assert state.feet == [C.parse_cards(FOOT_0), C.parse_cards(FOOT_1)]  # in the order given
    assert C.codes(state.pile) == ["4H", "6C", "9S"]  # bottom first: 9S on top
    assert C.codes(state.stock[-5:]) == ["TD", "8C", "2C", "JH", "JS"]  # the list's end is the top
    assert len(state.stock) == 162 - 44 - 3 - 0
    # The first stock card listed is the first drawn, in order.
    hand_before = list(state.hand_cards[1])
    game.apply_text("draw")
    gained = [
        card for card in range(C.NUM_CARD_IDS) for _ in range(state.hand_cards[1][card] - hand_before[card])
    ]
    assert sorted(C.codes(gained)) == ["JH", "JS"]
    game.apply_text("discard JS")
    game.apply_text("draw")  # seat 0 next: the third and fourth cards listed
    assert state.hand_cards[0][C.parse_card("2C")] == 1 and state.hand_cards[0][C.parse_card("8C")] == 1


def test_top_of_the_given_discard_pile_is_the_last_card() -> None:
    """The pile's top is the last card listed: seat 1, holding KS KH, takes the pile on a KD."""
    data = base()
    data["deals"][0]["discard"] = ["5D", "KD"]
    data["moves"] = ["pickup KS KH | QS QH QD"]
    game, error = replay(parse_record(data))
    assert error is None
    assert game.state.pile == []
    assert [C.codes(m.cards) for m in game.state.melds] == [["KD", "KS", "KH"], ["QS", "QH", "QD"]]
    assert game.state.hand_cards[1][C.parse_card("5D")] == 1  # kitchen-table takes the whole pile


def test_without_a_discard_the_upcard_comes_off_the_given_stock() -> None:
    """kitchen-table turns an upcard ("turn another" if it is a red 3 or a wild): from the listed stock."""
    data = base()
    del data["deals"][0]["discard"]
    data["deals"][0]["stock"] = ["2C", "3D", "9H", "JS", "JH"]
    state = parse_record(data).new_game().state
    assert C.codes(state.pile) == ["2C", "3D", "9H"]
    assert C.codes(state.stock[-2:]) == ["JH", "JS"]


def test_an_empty_discard_starts_with_no_pile() -> None:
    data = base()
    data["deals"][0]["discard"] = []
    state = parse_record(data).new_game().state
    assert state.pile == [] and C.codes(state.stock[-2:]) == ["JH", "JS"]


def test_no_upcard_rules_keep_the_stock_for_drawing() -> None:
    """head-and-foot turns no upcard: without a discard the pile starts empty."""
    data = base()
    data["rules"] = {"extends": "head-and-foot", "hand_size": 11}
    del data["deals"][0]["discard"]
    state = parse_record(data).new_game().state
    assert state.pile == [] and C.codes(state.stock[-2:]) == ["JH", "JS"]


def test_red_three_in_a_dealt_hand_is_replaced_from_the_stock_top() -> None:
    data = base()
    data["deals"][0]["hands"][0] = ["3H", *HAND_0[1:]]
    data["deals"][0]["stock"] = ["8C", "JS", "JH"]
    state = parse_record(data).new_game().state
    assert C.codes(state.red_threes[0]) == ["3H"]
    assert state.hand_cards[0][C.parse_card("8C")] == 1 and state.hand_cards[0][C.parse_card("3H")] == 0
    assert C.codes(state.stock[-2:]) == ["JH", "JS"]


def test_feet_left_out_are_shuffled_from_the_seed() -> None:
    data = base()
    del data["deals"][0]["feet"]
    first = parse_record(data).new_game().state.feet
    again = parse_record(data).new_game().state.feet
    data["seed"] = 2
    other = parse_record(data).new_game().state.feet
    assert first == again and first != other
    assert all(len(foot) == 11 for foot in first)


def test_deals_for_later_hands_and_null_entries() -> None:
    """The second entry deals the second hand (dealer seat 1, so seat 0 plays first); null is shuffled."""
    data = base()
    second = {"hands": [HAND_1, HAND_0], "feet": [FOOT_1, FOOT_0], "discard": []}
    data["deals"].append(second)
    game, error = replay(parse_record(data))
    assert error is None and len(game.results) == 1 and not game.finished  # 870 is short of 10,000
    state = game.state
    assert (state.hand_index, state.dealer, game.to_move) == (1, 1, 0)
    assert state.hand_cards[0] == counts_of(HAND_1) and state.hand_cards[1] == counts_of(HAND_0)
    data["deals"] = [None, second]
    record = parse_record(data)
    assert record.deals[0] is None
    shuffled = record.new_game().state
    assert shuffled == Game(preset("kitchen-table"), 2, seed=1).state


# --- replay ------------------------------------------------------------------------------------------


def test_replay_reaches_the_position_the_moves_reach_in_game() -> None:
    record = parse_record(base())
    game = Game(
        preset("kitchen-table"),
        2,
        seed=1,
        dealer=0,
        deals=[
            DealSpec(
                hands=(tuple(C.parse_cards(HAND_0)), tuple(C.parse_cards(HAND_1))),
                feet=(tuple(C.parse_cards(FOOT_0)), tuple(C.parse_cards(FOOT_1))),
                stock_top=tuple(C.parse_cards(["JS", "JH"])),
                discard=tuple(C.parse_cards(["4H"])),
            )
        ],
    )
    for text in OUT_MOVES:
        game.apply(parse_move(text))
    replayed, error = replay(record)
    assert error is None
    assert replayed.state == game.state
    assert replayed.results == game.results and replayed.totals == game.totals
    assert replayed.results[0].scores == (-145, 870) and replayed.results[0].went_out == 1


def test_replay_stops_before_the_first_illegal_move() -> None:
    data = base()
    data["moves"] = ["draw", "discard 5S", "draw"]  # seat 1 does not hold 5S
    game, error = replay(parse_record(data))
    assert error is not None
    assert (error.index, error.move, error.rule) == (1, "discard 5S", "hand")
    assert "5S" in error.message
    assert game.state == replay(parse_record(data), stop=1)[0].state
    assert game.state.phase is Phase.PLAY and game.history == [["draw"]]


def test_replay_reports_text_that_is_not_a_move() -> None:
    data = base()
    data["moves"] = ["draw", "meld KS KH | | QS", "discard 4C"]
    _, error = replay(parse_record(data))
    assert error is not None and (error.index, error.rule) == (1, NOTATION_RULE)
    assert "at least one card" in error.message


def test_moves_after_the_game_is_over_are_illegal() -> None:
    data = base()
    data["rules"] = {"extends": "kitchen-table", "target_score": 500}
    data["moves"] = [*OUT_MOVES, "draw"]
    game, error = replay(parse_record(data))
    assert game.finished and game.winner == 1
    assert error is not None and (error.index, error.rule) == (4, "game_end")


def test_report_describes_the_position() -> None:
    data = base()
    data["moves"] = ["draw"]
    game, _ = replay(parse_record(data))
    out = report(game)
    assert list(out) == [
        "names",
        "hands",
        "totals",
        "finished",
        "winner",
        "to_move",
        "legal",
        "seats",
        "stock",
        "discard",
        "take_pile",
        "table",
    ]
    # three groups of 30 make more than the 50 to open: staging them toward an opening is offered
    assert out["to_move"] == 1 and out["legal"] == [
        "discard KS",
        "discard QS",
        "discard JS",
        "stage KS KS KH",
        "stage QS QH QD",
        "stage JS JH JD",
    ]
    assert out["seats"][1]["hand"] == [
        "KS",
        "KS",
        "KH",
        "KH",
        "KD",
        "KD",
        "KC",
        "QS",
        "QH",
        "QD",
        "JS",
        "JH",
        "JD",
    ]
    assert out["seats"][0]["foot"] == ["QC", "JC", "TH", "TD", "7D", "7C", "6D", "6C", "5D", "5C", "4D"]
    assert (out["stock"], out["discard"], out["hands"], out["totals"]) == (115, ["4H"], [], [0, 0])
    json.dumps(out)  # plain JSON data


def test_report_shows_the_table_melds_books_sides_down_and_feet() -> None:
    """After seat 1's first meld (a clean book of kings, queens, jacks; 000 kitchen-table, opening 50) and
    its Foot picked up at once: each meld with owner, rank, cards as laid, naturals, wilds, clean, closed;
    books and who is down with their minimum; the phase; the Feet."""
    data = base()
    data["moves"] = OUT_MOVES[:2]
    table = report(replay(parse_record(data))[0])["table"]
    assert (table["hand"], table["dealer"], table["turn"], table["phase"]) == (0, 0, 1, "play")
    assert table["owners"] == [
        {"seats": [0], "side": 0, "down": False, "minimum": 50, "books": {"clean": 0, "dirty": 0, "wild": 0}},
        {"seats": [1], "side": 1, "down": True, "minimum": 50, "books": {"clean": 1, "dirty": 0, "wild": 0}},
    ]
    kings, queens, jacks = table["melds"]
    assert kings == {
        "owner": 1,
        "rank": "K",
        "cards": ["KS", "KS", "KH", "KH", "KD", "KD", "KC"],
        "naturals": 7,
        "wilds": 0,
        "clean": True,
        "closed": True,
    }
    assert (queens["rank"], queens["closed"], jacks["cards"]) == ("Q", False, ["JD", "JS", "JH"])
    assert table["pile"] == {"top": "4H", "size": 1, "frozen": False, "why": None}
    assert table["feet"] == ["unplayed", "in_play"]
    assert table["red_threes"] == [[], []]


def test_report_shows_a_frozen_pile_red_threes_and_a_foot_waiting() -> None:
    """000 kitchen-table: 'A black 3 on the discard stops the next player from taking the pile': the pile
    is frozen, with the reason; a red 3 dealt is laid down for its side ('Red 3s go down immediately');
    a Hand emptied by a discard leaves the Foot for the next turn ('the Foot stays down until your next
    turn')."""
    data = base()
    data["deals"][0]["hands"][1] = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "3H"]
    data["deals"][0]["stock"] = ["JD", "QC", "KC"]
    data["deals"][0]["discard"] = ["4H", "3S"]
    data["moves"] = ["draw", "meld KS KS KH KH KD KD KC KC | QS QH QD QC"]
    out = report(replay(parse_record(data))[0])
    table = out["table"]
    assert table["red_threes"] == [[], ["3H"]]
    assert table["pile"]["frozen"] and table["pile"]["top"] == "3S"
    assert "black 3" in table["pile"]["why"]
    assert out["take_pile"] == {"can": False, "move": None, "opening": False}
    assert table["melds"][0]["naturals"] == 8 and table["melds"][0]["closed"]
    data["moves"].append("discard JD")
    table = report(replay(parse_record(data))[0])["table"]
    assert table["feet"] == ["unplayed", "next_turn"]
    assert table["pile"] == {"top": "JD", "size": 3, "frozen": False, "why": None}
    assert (table["turn"], table["phase"]) == (0, "draw")


def test_report_says_when_only_an_opening_takes_the_pile() -> None:
    """000 kitchen-table, 'If the stock runs out and nobody can take the pile, the hand is over': with an
    empty stock seat 1 can take the pile only with an opening of several melds: the legal moves are the
    first steps of one (staging its groups, then the pickup takes the pile with them); ``take_pile``
    names the opening."""
    scenarios = Path(__file__).parent.parent / "scenarios"
    scenario = scenarios / "kitchen-table/stock-empty-pile-taken-with-an-opening.json"
    data = json.loads(scenario.read_text("utf-8"))["record"]
    data["moves"] = []
    out = report(replay(parse_record(data))[0])
    assert out["legal"] and all(move.startswith("stage ") for move in out["legal"]), out["legal"]
    assert out["take_pile"] == {"can": True, "move": "pickup 5H 5D | KS KH KD | QS QH QD", "opening": True}
    assert out["table"]["phase"] == "draw"


def test_report_names_the_atomic_pickup_when_one_takes_the_pile() -> None:
    """000 kitchen-table: 'take the discard pile if you can use the top card in a meld right now — two
    natural cards of that rank from your hand': seat 1, not down, holds AS AH with AD on top, three aces
    make the opening of 50, so 'pickup AS AH' takes the pile (drawing stays legal)."""
    data = base()
    data["deals"][0]["hands"][1] = ["AS", "AH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "JD"]
    data["deals"][0]["discard"] = ["4H", "AD"]
    data["moves"] = []
    out = report(replay(parse_record(data))[0])
    assert out["take_pile"] == {"can": True, "move": "pickup AS AH", "opening": False}
    assert "pickup AS AH" in out["legal"] and "draw" in out["legal"]


# --- record_of: games played through Game come back as records ---------------------------------------


def play_randomly(game: Game, rng: random.Random, moves: int) -> None:
    """Play up to ``moves`` moves: legal moves, and now and then an opening of several groups written at
    once (``meld A | B``, which ``Game.apply`` plays as its steps)."""
    for _ in range(moves):
        if game.finished:
            return
        openings = [] if game.state.staged else whole_openings(game.state)
        if openings and rng.random() < 0.5:
            game.apply(rng.choice(openings))
        else:
            game.apply(rng.choice(game.legal_moves()))


def random_deal(rules_name: str, players: int, rng: random.Random) -> DealSpec:
    """A full explicit deal (hands, feet, a few stock cards, a pile) drawn from a shuffled shoe."""
    rules = preset(rules_name)
    cards = C.shoe(rules.decks_for(players), rules.jokers_per_deck)
    rng.shuffle(cards)
    hands = tuple(tuple(cards[i * rules.hand_size : (i + 1) * rules.hand_size]) for i in range(players))
    del cards[: players * rules.hand_size]
    feet = tuple(tuple(cards[i * rules.foot_size : (i + 1) * rules.foot_size]) for i in range(players))
    del cards[: players * rules.foot_size]
    return DealSpec(hands, feet, tuple(cards[:6]), tuple(cards[6:8]))


@pytest.mark.parametrize("rules_name", PRESET_NAMES)
@pytest.mark.parametrize("explicit", [False, True], ids=["seeded", "explicit"])
def test_record_of_round_trips(rules_name: str, explicit: bool) -> None:
    """A game played through Game, written with record_of, saved as JSON and read back, replays to the
    same position: state, hands scored, totals and moves."""
    rules = preset(rules_name)
    for seed in range(3):
        rng = random.Random(f"{rules_name}:{seed}")
        players = rng.choice(rules.players_allowed)
        dealer = rng.randrange(players)
        deals = (
            [random_deal(rules_name, players, rng), None, random_deal(rules_name, players, rng)]
            if explicit
            else []
        )
        game = Game(rules, players, seed=seed * 101, dealer=dealer, deals=deals)
        play_randomly(game, rng, 700)
        record = record_of(game)
        assert record.rules_source == rules_name
        text = record.dumps()
        again = loads_record(text)
        assert again == record
        replayed, error = replay(again)
        assert error is None
        assert replayed.state == game.state
        assert replayed.results == game.results and replayed.totals == game.totals
        assert replayed.history == game.history and replayed.finished == game.finished


def test_record_of_mid_turn_and_with_custom_rules() -> None:
    rules = load_rules({"extends": "family", "going_out_bonus": 250, "card_values": {"8": 10}})
    game = Game(rules, 3, seed=9)
    play_randomly(game, random.Random(9), 57)
    record = record_of(game)
    assert record.rules_source == {"extends": "family", "going_out_bonus": 250, "card_values": {"8": 10}}
    assert load_rules(record.rules_source) == rules
    replayed, error = replay(parse_record(json.loads(json.dumps(record.to_json()))))
    assert error is None and replayed.state == game.state


def test_rules_source_of_is_the_shortest_form() -> None:
    for name in PRESET_NAMES:
        assert rules_source_of(preset(name)) == name
    house = load_rules({"extends": "in-laws", "name": "our house", "hand_size": 13})
    assert rules_source_of(house) == {"extends": "in-laws", "hand_size": 13, "name": "our house"}


def test_record_to_json_round_trips_through_parse_record() -> None:
    data = base()
    data["deals"].insert(0, None)
    data["deals"][1]["stock"] = []
    del data["deals"][1]["feet"]
    record = parse_record(copy.deepcopy(data))
    assert parse_record(record.to_json()) == record
    assert record.to_json()["deals"][0] is None
    assert isinstance(record, Record) and isinstance(record.new_game().state, HandState)
