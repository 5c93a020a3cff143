"""Shared helpers for the random-play, view and meld tests (and the engine benchmark).

- ``RandomPlayer``: random play with a sensible turn structure (openings and melds preferred, wilds
  kept, partners mostly say yes) so that hands reach the Foot, books and going out.
- ``shoe_counts`` / ``card_counts``: every card id of a hand, as the shoe holds it and as the state
  places it (hands, feet, stock, pile, melds, laid red 3s).
- ``play_to``: a game played at random for a number of moves, for tests that want varied positions.

Test modules import these with ``from helpers.play import ...`` (pyproject.toml's pytest
``pythonpath`` puts ``tests/`` on ``sys.path``); ``benchmarks/bench_engine.py`` loads this file by path
so the benchmark plays the same random policy.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import TypeVar

from handfoot import cards as C
from handfoot.bots.plan import whole_openings
from handfoot.engine import Game, HandState, Move, Phase, steps_of
from handfoot.engine.moves import (
    ASK_ID,
    CANCEL_ID,
    COMMIT_ID,
    DECODED,
    DISCARD_BASE,
    DRAW_ID,
    LAY_RED_THREE_ID,
    NEW_BASE,
    NO_ID,
    PICKUP_DEUCE_ID,
    SPLIT_DRAW_ID,
    STAGE_NEW_BASE,
    YES_ID,
    move_id,
)

# Meld ids that lay a natural card, and discard ids of a natural card (the player's preferences).
NATURAL_MELD_IDS = frozenset(
    mid
    for mid, decoded in enumerate(DECODED)
    if NEW_BASE <= mid < LAY_RED_THREE_ID and decoded is not None and decoded.naturals
)
PLAIN_DISCARD_IDS = frozenset(DISCARD_BASE + kind for kind in range(C.NUM_KINDS) if not C.is_wild(kind))
# Their tests of membership, bound once: ``filter`` with them lists the same ids as a comprehension, quicker.
IS_NATURAL_MELD = NATURAL_MELD_IDS.__contains__
IS_PLAIN_DISCARD = PLAIN_DISCARD_IDS.__contains__
ANSWER_PHASE, DRAW_PHASE = Phase.ANSWER, Phase.DRAW  # bound once: cheaper than Phase.ANSWER on Python 3.11
T = TypeVar("T")


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)``, the same item from the same draws, written out: an index drawn by rejection
    from ``getrandbits`` of the count's bit length (as ``Random._randbelow`` draws it), without the two
    Python-level calls ``Random.choice`` makes; the player chooses at most decisions."""
    count = len(items)
    if not count:
        raise IndexError("cannot choose from an empty sequence")
    bits = count.bit_length()
    index = rng.getrandbits(bits)
    while index >= count:
        index = rng.getrandbits(bits)
    return items[index]


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
        self.pending: list[Move] = []  # the steps still to play of an opening begun
        self.pending_at: tuple[HandState | None, int] = (None, -1)  # where the next of them is due

    def choose(self, state: HandState, ids: list[int]) -> int | Move:
        """An id from ``ids`` (the legal ids now), or the next step (a Move) of an opening it planned."""
        rng = self.rng
        phase = state.phase
        if phase is ANSWER_PHASE:
            return YES_ID if rng.random() < self.yes_rate else NO_ID
        pending = self.pending
        if pending:
            step = pending.pop(0)
            if self.pending_at == (state, state.move_count) and move_id(step) in ids:
                self.pending_at = (state, state.move_count + 1)
                return step
            pending.clear()
        if state.staged:  # a plan that no longer fits (the Foot came up while staging): take it back,
            if CANCEL_ID in ids:  # or, where it cannot be taken back again, go on with an offered step
                return CANCEL_ID
            finishing = [mid for mid in ids if mid < STAGE_NEW_BASE or mid == COMMIT_ID]
            return choice(rng, finishing or ids)
        # ``ids`` is sorted, so each kind of move is a slice of it (found by bisection, not a scan)
        lo, hi = bisect_left(ids, STAGE_NEW_BASE), bisect_right(ids, CANCEL_ID)
        stages = lo < hi
        plain = ids[:lo] + ids[hi:] if stages else ids
        if stages:
            openings = whole_openings(state)  # the bots' planning
            if openings and (rng.random() < self.open_rate or not plain):
                steps = steps_of(state, choice(rng, openings)) or []
                if steps:
                    self.pending = steps[1:]
                    self.pending_at = (state, state.move_count + 1)
                    return steps[0]
        if phase is DRAW_PHASE:
            pickups = plain[bisect_right(plain, DRAW_ID) : bisect_right(plain, PICKUP_DEUCE_ID)]
            if pickups and (rng.random() < self.pickup_rate or DRAW_ID not in plain):
                return choice(rng, pickups)
            if SPLIT_DRAW_ID in plain and rng.random() < 0.5:
                return SPLIT_DRAW_ID
            return DRAW_ID if DRAW_ID in plain else choice(rng, ids)
        melds = plain[bisect_left(plain, NEW_BASE) : bisect_right(plain, LAY_RED_THREE_ID)]
        if melds and rng.random() < self.meld_rate:
            natural = list(filter(IS_NATURAL_MELD, melds))
            return choice(rng, natural if natural and rng.random() < 0.75 else melds)
        if ASK_ID in plain and rng.random() < self.ask_rate:
            return ASK_ID
        discards = plain[bisect_left(plain, DISCARD_BASE) : bisect_left(plain, ASK_ID)]
        clean = list(filter(IS_PLAIN_DISCARD, discards))
        if clean and rng.random() < 0.9:
            return choice(rng, clean)
        return choice(rng, discards or plain or ids)


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
