"""Regression tests for engine faults found by random play and by the bots, each named after its sheet."""

from __future__ import annotations

import pickle

from handfoot import cards as C
from handfoot.engine import Game, IllegalMove, Phase, parse_move
from handfoot.engine.apply import give_card, take_card
from handfoot.engine.moves import ASK_ID
from handfoot.rules import preset


def _one_card_in_foot(game: Game, seat: int, card: str) -> None:
    """Put ``seat`` in its Foot, in the play phase, holding only ``card``."""
    s = game.state
    for held in range(C.NUM_CARD_IDS):
        while s.hand_cards[seat][held]:
            take_card(s, seat, held)
    give_card(s, seat, C.parse_card(card))
    s.feet[seat] = []
    s.in_foot[seat] = True
    s.turn_seat = s.to_move = seat
    s.phase = Phase.PLAY


def test_in_laws_no_asking_with_one_card_left() -> None:
    """In-laws (004): 'May I go out?' is optional. A player who has melded down to one card and were told
    'no' could neither discard nor meld: asking with one card left is refused, going out is not."""
    game = Game(preset("in-laws"), 4, seed=1)
    _one_card_in_foot(game, 1, "5H")
    owner = game.state.seating.owner_of[1]
    game.state.books[owner] = (3, 0, 0)  # three clean books: the side may go out
    game.state.in_foot[3] = True
    assert ASK_ID not in game.legal_ids()
    try:
        game.verify(parse_move("ask"))
    except IllegalMove as refused:
        assert refused.rule == "permission"
    else:
        raise AssertionError("asking with one card left was accepted")
    assert [str(m) for m in game.legal_moves()] == ["discard 5H"]
    game.apply_text("discard 5H")
    assert game.results[-1].went_out == 1


def test_every_position_in_random_in_laws_play_has_a_move() -> None:
    """In-laws (004): the position that once had no legal move (optional permission answered 'no')
    cannot arise: after a 'no' the asker still holds two or more cards to play on."""
    game = Game(preset("in-laws"), 4, seed=2)
    _one_card_in_foot(game, 1, "5H")
    give_card(game.state, 1, C.parse_card("6H"))
    game.state.books[game.state.seating.owner_of[1]] = (3, 0, 0)
    game.apply_text("ask")
    game.apply_text("no")
    moves = [str(m) for m in game.legal_moves()]
    assert sorted(moves) == ["discard 5H", "discard 6H"]
    game.apply_text("discard 6H")  # keeps a card: the turn passes, nobody went out
    assert game.state.turn_seat == 2 and game.state.out_seat == -1


def test_illegal_move_survives_pickling() -> None:
    """A refusal raised in a worker process reaches the parent with its rule and message."""
    refused = IllegalMove("permission", "Ask first.", "discard 5H")
    again = pickle.loads(pickle.dumps(refused))
    assert (again.rule, again.message, again.move) == ("permission", "Ask first.", "discard 5H")


def _in_foot_drawing(game: Game, seat: int, held: str, stock: list[str]) -> None:
    """``seat`` in its Foot holding only ``held``, about to draw from a stock of ``stock`` (last on top);
    its partner still in the Hand, so the seat may not go out."""
    _one_card_in_foot(game, seat, held)
    s = game.state
    s.phase = Phase.DRAW
    s.stock[:] = [C.parse_card(card) for card in stock]
    partner = s.seating.partners[seat][0]
    s.in_foot[partner] = False


def test_kitchen_table_a_draw_that_empties_the_stock_on_red_threes_ends_a_stranded_hand() -> None:
    """Kitchen-table (000), "Red 3s": one drawn from the stock is laid down and replaced; "If the stock runs
    out and nobody can take the pile, the hand is over". Found by PettingZoo's performance benchmark: a
    seat in its Foot holding one wild (which it may not discard: that would go out while its partner is
    still in the Hand) drew the stock's last card, a red 3, and had no move at all. The stock has run out
    and the seat cannot finish its turn: the hand ends there, without a going-out bonus."""
    game = Game(preset("kitchen-table"), 4, seed=3)
    _in_foot_drawing(game, 0, "2C", ["3H"])
    game.apply_text("draw")
    assert len(game.results) == 1, "the hand did not end"
    result = game.results[0]
    assert result.went_out is None and result.reason == "stock_empty"
    assert result.tallies[0].red_threes == 1  # the red 3 drawn was laid down
    assert game.hand_index == 1 and game.legal_ids()  # the next hand is dealt and playable


def test_kitchen_table_a_short_draw_that_leaves_a_move_plays_on() -> None:
    """Kitchen-table (000): the stock running out during a draw ends the hand only when the drawer is
    left with no move: one natural card drawn after the red 3 gives the seat a discard, and play goes on."""
    game = Game(preset("kitchen-table"), 4, seed=3)
    _in_foot_drawing(game, 0, "2C", ["5H", "3H"])
    game.apply_text("draw")
    assert not game.results
    assert game.state.phase is Phase.PLAY and game.state.to_move == 0
    assert "discard 5H" in [str(m) for m in game.legal_moves()]
