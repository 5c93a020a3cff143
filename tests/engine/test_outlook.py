"""The seat's outlook (engine/outlook.py): what going out still needs in a sentence, the pile's freeze,
the last turn, an empty stock and the hand's card values, as the server sends them to each seat."""

from __future__ import annotations

import random

import pytest

from handfoot import cards as C
from handfoot.engine import Game, Phase
from handfoot.engine.melding import go_out_refusal
from handfoot.engine.outlook import has_last_turn, outlook
from handfoot.rules import load_rules, preset
from helpers.play import RandomPlayer, play_move


def test_kitchen_table_going_out_reads_as_a_sentence() -> None:
    """kitchen-table, "Going out": one canasta, both partners in their Foot (go_out_books = 1,
    all_feet_to_go_out): at the deal a seat reads what it still needs in one sentence."""
    game = Game(preset("kitchen-table"), 4, 3)
    seen = outlook(game.state, 0)
    assert seen.going_out == (
        "To go out you still need one book and to be in your Foot, and your partner must be in their Foot."
    )
    assert not seen.may_go_out and seen.needs[0] == "one book"


def test_head_and_foot_asks_for_the_partners_yes() -> None:
    """head-and-foot, "Going out": "Permission must be granted from your partner to go out"
    (permission = "required"): the partner's yes is listed among the needs."""
    game = Game(preset("head-and-foot"), 4, 1)
    assert "your partner's yes to “May I go out?”" in outlook(game.state, 0).needs


@pytest.mark.parametrize("name", ["kitchen-table", "family", "head-and-foot", "in-laws", "marmot"])
def test_may_go_out_agrees_with_the_engine(name: str) -> None:
    """Whenever the seat playing its turn is in its Foot, the outlook says it may go out exactly when the
    engine's own going-out check (melding.go_out_refusal) lets it."""
    compared = 0
    for seed in range(6):
        game = Game(preset(name), 4, seed)
        player = RandomPlayer(random.Random(seed))
        for _ in range(1500):
            if game.finished:
                break
            s = game.state
            seat = s.turn_seat
            if s.in_foot[seat] and s.phase is Phase.PLAY:
                books = s.books[s.seating.owner_of[seat]]
                assert outlook(s, seat).may_go_out == (go_out_refusal(s, seat, books) is None)
                compared += 1
            play_move(game, player.choose(s, game.legal_ids()))
    assert compared > 20, compared


def test_family_last_round_marks_every_other_seat_once() -> None:
    """family, "Going out": "All others get one more turn" (after_out = "last_round"): once a seat went
    out, each other seat has a last turn until it has played it, and the seat that went out has none."""
    seen_last_round = False
    for seed in range(30):
        game = Game(preset("family"), 4, seed)
        player = RandomPlayer(random.Random(seed))
        for _ in range(3000):
            if game.finished or game.state.hand_index > 0:
                break
            s = game.state
            if s.last_round_left > 0 and s.out_seat >= 0 and s.phase is not Phase.OVER:
                seen_last_round = True
                assert not has_last_turn(s, s.out_seat)
                assert has_last_turn(s, s.turn_seat)
                assert outlook(s, s.turn_seat).last_turn
                # the seats that played since the seat went out have no turn left
                played = range(s.out_seat + 1, s.out_seat + s.players - s.last_round_left)
                for seat in (p % s.players for p in played):
                    if seat != s.turn_seat:
                        assert not has_last_turn(s, seat)
            play_move(game, player.choose(s, game.legal_ids()))
        if seen_last_round:
            break
    assert seen_last_round


def test_black_three_on_top_freezes_the_pile_for_the_seat() -> None:
    """kitchen-table, "Black 3s": a black 3 discarded freezes the pile for the next player
    (black_three_freezes): the outlook says the pile is frozen, with the engine's sentence."""
    rules = load_rules("kitchen-table")
    game = Game(rules, 2, 0)
    s = game.state
    s.pile.append(C.parse_card("3S"))
    seen = outlook(s, s.to_move)
    assert seen.pile_frozen and seen.pile_refusal and "black 3" in seen.pile_refusal
    public = outlook(s, None)
    assert public.pile_frozen and public.going_out is None


def test_card_values_are_the_hands_own() -> None:
    """The card values a seat is sent are the hand's rules' (by kind name)."""
    game = Game(preset("kitchen-table"), 2, 0)
    values = outlook(game.state, 0).card_values
    assert values == {name: game.state.rules.card_values[k] for k, name in enumerate(C.KIND_NAMES)}
    assert set(values) == set(C.KIND_NAMES)


def test_empty_stock_is_said() -> None:
    """An empty stock is told in a sentence (empty_stock = "end": the next draw ends the hand)."""
    game = Game(preset("kitchen-table"), 2, 0)
    s = game.state
    assert outlook(s, 0).stock is None
    s.stock.clear()
    assert outlook(s, 0).stock == "The stock is empty: the hand ends when the next player must draw."
