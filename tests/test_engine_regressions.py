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
    game.state.books[owner] = [3, 0, 0]  # three clean books: the side may go out
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
    game.state.books[game.state.seating.owner_of[1]] = [3, 0, 0]
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
