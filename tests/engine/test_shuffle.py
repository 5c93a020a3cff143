"""The engine's shuffle (engine/shuffle.py): the permutation ``random.Random.shuffle`` makes, so a seed deals
what it always dealt and a record replays unchanged."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from handfoot import cards as C
from handfoot.engine import Game
from handfoot.engine.shuffle import shuffle
from handfoot.rules import preset


@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(min_value=0, max_value=800))
def test_the_permutation_and_the_draws_are_the_standard_librarys(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, standard = list(range(size)), list(range(size))
    shuffle(ours, mine)
    theirs.shuffle(standard)
    assert mine == standard
    # the same number of draws taken: what the generator gives next is the same
    assert ours.getrandbits(64) == theirs.getrandbits(64)


def test_every_size_up_to_two_shoes_of_twelve_decks_and_a_string_seed() -> None:
    for size in range(0, 2 * 12 * 54 + 1, 7):
        mine, standard = list(range(size)), list(range(size))
        shuffle(random.Random(f"handfoot:{size}:0"), mine)
        random.Random(f"handfoot:{size}:0").shuffle(standard)
        assert mine == standard, size


def test_a_seed_deals_the_cards_it_always_dealt() -> None:
    """Pinned: the first hand of seed 2026 under kitchen-table, 4 players (the stock's top five, seat 1's
    Foot's first five, the upcard), as dealt before the shuffle was the engine's own."""
    state = Game(preset("kitchen-table"), 4, seed=2026).state
    assert [C.CODE_OF[card] for card in state.stock[-5:]] == ["5S", "TH", "KS", "8D", "KD"]
    assert [C.CODE_OF[card] for card in state.feet[1][:5]] == ["7D", "7C", "4C", "5D", "AH"]
    assert [C.CODE_OF[card] for card in state.pile] == ["JH"]
