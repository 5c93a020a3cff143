"""Shared helpers for the random-play, view and meld tests (and the engine benchmark).

- ``RandomPlayer``: random play with a sensible turn structure (openings and melds preferred, wilds
  kept, partners mostly say yes) so that hands reach the Foot, books and going out.
- ``shoe_counts`` / ``card_counts``: every card id of a hand, as the shoe holds it and as the state
  places it (hands, feet, stock, pile, melds, laid red 3s).
- ``play_to``: a game played at random for a number of moves, for tests that want varied positions.

Test modules import these with ``from conftest import ...`` (``tests/`` is on ``sys.path`` under
pytest's default import mode); ``benchmarks/bench_engine.py`` loads this file by path so the benchmark
plays the same random policy.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain

from handfoot import cards as C
from handfoot.engine import Game, HandState, Move, Phase, black_three_book_moves, opening_moves
from handfoot.engine.moves import ASK_ID, DECODED, DISCARD_BASE, DRAW_ID, NEW_BASE, NO_ID, YES_ID

# Meld ids that lay a natural card, and discard ids of a natural card (the player's preferences).
NATURAL_MELD_IDS = frozenset(
    mid for mid, decoded in enumerate(DECODED) if mid >= NEW_BASE and decoded is not None and decoded.naturals
)
PLAIN_DISCARD_IDS = frozenset(DISCARD_BASE + kind for kind in range(C.NUM_KINDS) if not C.is_wild(kind))
ANSWER_PHASE, DRAW_PHASE = Phase.ANSWER, Phase.DRAW  # bound once: cheaper than Phase.ANSWER on Python 3.11


def shoe_counts(state: HandState) -> list[int]:
    """Copies of each card id in the shoe this hand was dealt from."""
    rules = state.rules
    return C.shoe_counts(rules.decks_for(state.players), rules.jokers_per_deck)


def card_counts(state: HandState) -> list[int]:
    """Copies of each card id wherever the state keeps them: hands, feet, stock, pile, melds, red 3s."""
    placed = Counter(
        chain(state.stock, state.pile, *state.feet, *(m.cards for m in state.melds), *state.red_threes)
    )
    held = list(map(sum, zip(*state.hand_cards, strict=True)))
    return [held[card] + placed[card] for card in range(C.NUM_CARD_IDS)]


class RandomPlayer:
    """A random player with a sensible turn: open when it can, take the pile often, meld most of the
    time (natural groups first), sometimes ask to go out, and discard a non-wild when it can."""

    def __init__(
        self,
        rng: random.Random,
        *,
        open_rate: float = 0.85,
        pickup_rate: float = 0.75,
        meld_rate: float = 0.9,
        ask_rate: float = 0.4,
        yes_rate: float = 0.8,
    ) -> None:
        self.rng = rng
        self.open_rate = open_rate
        self.pickup_rate = pickup_rate
        self.meld_rate = meld_rate
        self.ask_rate = ask_rate
        self.yes_rate = yes_rate

    def choose(self, state: HandState, ids: list[int]) -> int | Move:
        """An atomic move id from ``ids`` (the legal ids now), or a compound opening Move."""
        rng = self.rng
        phase = state.phase
        if phase is ANSWER_PHASE:
            return YES_ID if rng.random() < self.yes_rate else NO_ID
        if phase is DRAW_PHASE:
            openings = opening_moves(state)
            if openings and (rng.random() < self.open_rate or not ids):
                return rng.choice(openings)
            pickups = [mid for mid in ids if mid != DRAW_ID]
            if pickups and (rng.random() < self.pickup_rate or DRAW_ID not in ids):
                return rng.choice(pickups)
            return DRAW_ID
        openings = opening_moves(state) + black_three_book_moves(state)
        if openings and (rng.random() < self.open_rate or not ids):
            return rng.choice(openings)
        melds = [mid for mid in ids if mid >= NEW_BASE]
        if melds and rng.random() < self.meld_rate:
            natural = [mid for mid in melds if mid in NATURAL_MELD_IDS]
            return rng.choice(natural if natural and rng.random() < 0.75 else melds)
        if ASK_ID in ids and rng.random() < self.ask_rate:
            return ASK_ID
        discards = [mid for mid in ids if DISCARD_BASE <= mid < ASK_ID]
        plain = [mid for mid in discards if mid in PLAIN_DISCARD_IDS]
        if plain and rng.random() < 0.9:
            return rng.choice(plain)
        return rng.choice(discards or ids)


def play_move(game: Game, choice: int | Move) -> None:
    """Play what ``RandomPlayer.choose`` returned."""
    if isinstance(choice, Move):
        game.apply(choice)
    else:
        game.apply_id(choice)


def play_to(rules_name: str, players: int, seed: int, moves: int) -> Game:
    """A game under a preset played at random for ``moves`` moves (or until it ends)."""
    from handfoot.rules import preset

    game = Game(preset(rules_name), players, seed)
    player = RandomPlayer(random.Random(seed))
    for _ in range(moves):
        if game.finished:
            break
        play_move(game, player.choose(game.state, game.legal_ids()))
    return game
