"""The events a move causes say what happened without re-reading the move (docs/engine.md, Events)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from handfoot import cards as C
from handfoot.engine import DealSpec, EventType, Game
from handfoot.record import parse_record, replay
from handfoot.rules import load_rules
from handfoot.server.tables.step import move_entry, move_game, rule_facts

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def _cards(text: str) -> tuple[int, ...]:
    return tuple(C.parse_card(code) for code in text.split())


def test_the_engine_docs_events_example_runs() -> None:
    """The Python example of docs/engine.md's Events section runs and its asserts hold."""
    section = DOC.read_text("utf-8").split("## Events", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "docs/engine.md has no Events example"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})


def _game() -> Game:
    """Two players, kitchen-table: seat 0 holds six kings, three queens and two nines; 8C then KD on
    the stock; seat 1 plays first."""
    deal = DealSpec(
        hands=(_cards("KS KH KD KC KS KH QS QH QD 9S 9H"), _cards("4S 4H 5S 5H 6S 6H 9C 9D TS TH JS")),
        stock_top=_cards("7C 7D KD 8C"),
        discard=_cards("5C"),
    )
    return Game(load_rules("kitchen-table"), players=2, seed=1, dealer=0, deals=[deal])


def test_melded_events_say_began_or_added_and_books_are_told() -> None:
    """A group that starts a meld says ``began``, one laid on a meld says ``added``; the group that makes
    a meld a book is followed by a ``book`` event naming its kind; ``amount`` is the meld's size."""
    game = _game()
    game.apply_text("draw")
    game.apply_text("discard 7C")
    game.apply_text("draw")
    events = game.apply_text("meld KS KH KD KC KS KH | QS QH QD")
    told = [(e.type, C.RANK_LETTER[e.rank], e.detail, e.amount) for e in events if e.rank >= 0]
    assert told == [(EventType.MELDED, "K", "began", 6), (EventType.MELDED, "Q", "began", 3)]
    events = game.apply_text("meld KD")
    told = [(e.type, C.RANK_LETTER[e.rank], e.detail, e.amount) for e in events if e.rank >= 0]
    assert told == [(EventType.MELDED, "K", "added", 7), (EventType.BOOK, "K", "clean", 7)]
    entry = move_entry(0, 9, "meld KD", events)
    assert entry["events"][0]["rank"] == "K" and entry["events"][0]["added"] is True
    assert entry["events"][1] == {
        "type": "book",
        "seat": 0,
        "cards": [],
        "amount": 7,
        "detail": "clean",
        "rank": "K",
    }


def test_hand_over_says_why_the_hand_ended() -> None:
    """``hand_over`` names the reason (the same word as the hand's result) and who went out."""
    game = Game(load_rules("kitchen-table"), players=2, seed=3)
    game.state.stock.clear()
    events = game.apply_text("draw")
    over = next(e for e in events if e.type is EventType.HAND_OVER)
    assert (over.detail, over.seat) == ("stock_empty", -1) == (game.results[-1].reason, -1)


def test_history_entries_name_the_rules_a_move_brought_up() -> None:
    """A history entry's ``facts`` (``move_game``, the one way a table moves; for the table page's
    first-hand rule lines): a black 3 discarded
    freezes the pile, a side's first meld is its opening (its next meld is not), and no fact is told
    for a plain draw or discard."""
    deal = DealSpec(
        hands=(_cards("KS KH KD KC KS KH QS QH QD 9S 9H"), _cards("3C 4H 5S 5H 6S 6H 9C 9D TS TH JS")),
        stock_top=_cards("7C 7D KD 8C"),
        discard=_cards("5C"),
    )
    game = Game(load_rules("kitchen-table"), players=2, seed=1, dealer=0, deals=[deal])

    def entry(text: str) -> dict[str, object]:
        return move_game(game, 1, game.state.to_move, text).entry

    assert entry("draw")["facts"] == []
    assert entry("discard 3C")["facts"] == ["pile_frozen"]
    assert entry("draw")["facts"] == []
    assert entry("meld KS KH KD KC KS KH | QS QH QD")["facts"] == ["opening"]
    assert entry("meld KD")["facts"] == []
    assert entry("discard 9S")["facts"] == []


def test_an_opening_needs_the_melds_before_the_move() -> None:
    """``rule_facts`` tells an opening only from who was down before the move: the same events with that
    owner already down, or with nothing known of the table, tell none."""
    game = _game()
    for text in ("draw", "discard 7C", "draw"):
        game.apply_text(text)
    owner_of = game.state.seating.owner_of
    events = game.apply_text("meld KS KH KD KC KS KH | QS QH QD")
    assert rule_facts(events, owner_of, [False, False]) == ["opening"]
    assert rule_facts(events, owner_of, [owner == owner_of[0] for owner in range(2)]) == []
    assert rule_facts(events, owner_of, None) == []


def test_a_move_that_ends_a_hand_tells_no_fact_of_the_next_deal() -> None:
    """Going out deals the next hand in the same move; a red 3 laid at that deal is not a fact of the
    move (the review tests' planted hand: seat 0 goes out with move 134, and the new deal lays a red 3)."""
    fixture = Path(__file__).parent.parent / "fixtures" / "review" / "planted-wild-4.json"
    data = json.loads(fixture.read_text())
    record = parse_record(data["record"])
    game, error = replay(record, 134)
    assert error is None and game.hand_index == 0
    state, down = game.state, list(game.state.down)
    events = game.apply_text(record.moves[134])
    kinds = [e.type for e in events]
    assert EventType.RED_THREE in kinds[kinds.index(EventType.NEW_HAND) :]
    assert rule_facts(events, state.seating.owner_of, down) == ["went_out"]
