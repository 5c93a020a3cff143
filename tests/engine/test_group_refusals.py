"""A refusal of a lay-down of several groups says which group is wrong and what is wrong with it, in
words, not card codes (the table page shows the engine's sentence as it is)."""

from __future__ import annotations

import re

import pytest

from handfoot import cards as C
from handfoot.engine import Game, IllegalMove, Phase, parse_move
from handfoot.engine.apply import give_card, take_card
from handfoot.engine.melding import GroupSpec, group_words
from handfoot.rules import preset


def _holding(cards: str, down: bool = True) -> Game:
    """A kitchen-table game with seat 0 to play (after drawing) holding exactly ``cards``; its side down
    (no opening minimum in the way) unless ``down`` is false."""
    game = Game(preset("kitchen-table"), 2, seed=3)
    s = game.state
    for held in range(C.NUM_CARD_IDS):
        while s.hand_cards[0][held]:
            take_card(s, 0, held)
    for card in cards.split():
        give_card(s, 0, C.parse_card(card))
    s.turn_seat = s.to_move = 0
    s.phase = Phase.PLAY
    s.down[s.seating.owner_of[0]] = down
    return game


def _refusal(game: Game, move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        game.verify(parse_move(move))
    return refused.value


def test_the_refusal_names_the_second_group_in_words() -> None:
    game = _holding("KS KH KD 7S 7H JK JK 2C 5H 6D")
    refused = _refusal(game, "meld KS KH KD | 7S JK JK")
    assert refused.message.startswith("The second group, a seven and two jokers: "), refused.message
    assert refused.rule in ("wild_limit", "min_naturals")
    assert not re.search(r"\b(7S|JK|KS)\b", refused.message)


def test_the_first_group_is_named_too() -> None:
    game = _holding("KS KH 2D 2H 7S 7H 7D 5H 6D")
    refused = _refusal(game, "meld KS 2D 2H | 7S 7H 7D")
    assert refused.message.startswith("The first group, a king and two 2s: "), refused.message


def test_a_single_group_is_refused_as_before() -> None:
    game = _holding("7S JK JK 5H 6D")
    refused = _refusal(game, "meld 7S JK JK")
    assert not refused.message.startswith("The "), refused.message


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (GroupSpec(C.SEVEN, 3, 1, 0, 0), "three sevens and a joker"),
        (GroupSpec(C.ACE, 1, 0, 2, 0), "an ace and two 2s"),
        (GroupSpec(C.EIGHT, 2, 0, 1, 0), "two eights and a 2"),
        (GroupSpec(C.WILD_RANK, 0, 2, 1, 0), "two jokers and a 2"),
    ],
)
def test_group_words(spec: GroupSpec, words: str) -> None:
    assert group_words(spec) == words
