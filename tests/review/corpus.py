"""The planted-mistake corpus of the review tests: hands built by code, seeded, so every run is the same.

A hand is played by the heuristic in every seat (``HeuristicBot``), except at one decision of seat 0
where a mistake of one ``KINDS`` is planted in its place (the first place in the hand it fits, from
``FROM_MOVE`` moves in); the hand is then played on to its end by the heuristic. ``plant(kind, preset,
seed)`` gives the record and the engine position of the planted step; ``good=True`` plays the same hand
with the heuristic's own move there (the good move the mistake replaced: the pile taken, a natural
discarded, the hand ended, the clean book kept clean), which the review must not call costly.

The kinds:

* ``stock``: drew from the stock where the heuristic took a pile of at least ``BIG_PILE`` cards;
* ``wild``: discarded a wild (the heuristic discarded a natural), the pile small (at most ``SMALL_PILE``);
* ``feed``: discarded a card of a rank the next player's side has on the table, where the next player
  may hold enough of it (as far as seat 0 can know, with at least ``FEED_UNSEEN`` of them unseen) to take
  a pile of at least ``FEED_PILE`` cards (the heuristic discarded something else);
* ``out``: where the heuristic went out this turn, discarded a card instead of anything else;
* ``dirty``: put a wild on a clean book (the heuristic did not).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from handfoot import cards as C
from handfoot.bots.base import legal_for
from handfoot.bots.heuristic import HeuristicBot, Reading
from handfoot.bots.ismcts import heuristic_step
from handfoot.engine.apply import apply_checked
from handfoot.engine.game import Game
from handfoot.engine.legal import legal_ids, move_of_id
from handfoot.engine.moves import Action, Move
from handfoot.engine.state import HandState, Phase
from handfoot.record import Record, record_of
from handfoot.rules import load_rules
from handfoot.sim.tournament import play_chosen

SEAT = 0
FROM_MOVE = 8
BIG_PILE = 8
SMALL_PILE = 5
FEED_PILE = 10
FEED_UNSEEN = 8
KINDS = ("stock", "wild", "feed", "out", "dirty")


@dataclass(frozen=True)
class Planted:
    """A corpus hand: the record, the ``kind`` planted (or its good twin, ``good``), the preset and seed,
    and ``position``, the engine position of the planted step (the good move, for a twin)."""

    kind: str
    preset: str
    seed: int
    good: bool
    record: Record
    position: int

    @property
    def name(self) -> str:
        return f"{'good' if self.good else 'planted'}-{self.kind}-{self.preset}-{self.seed}"


def _held_wilds(state: HandState) -> list[int]:
    return [k for k in (C.JOKER, C.DEUCE) if state.hands[SEAT][k] > 0]


def _discard(legal: list[Move], test: Callable[[int], bool]) -> Move | None:
    return next((m for m in legal if m.action is Action.DISCARD and test(C.KIND_OF[m.card])), None)


def _taken(state: HandState, rank: int) -> bool:
    """Whether the next player (the heuristic, with its real hand) takes the pile after seat 0 discards
    a card of ``rank``."""
    world = state.copy()
    card = next(c for c in range(C.NUM_CARD_IDS) if C.KIND_OF[c] == rank and world.hand_cards[SEAT][c])
    apply_checked(world, Move(Action.DISCARD, card=card))
    pile = len(world.pile)
    heuristic_step(world)
    return len(world.pile) < pile or bool(world.staged)


def _goes_out(state: HandState) -> bool:
    """Whether the heuristic, playing this seat's turn on from ``state``, ends the hand by going out."""
    world = state.copy()
    while world.to_move == SEAT and world.phase is Phase.PLAY and heuristic_step(world):
        pass
    return world.phase is Phase.OVER and world.out_seat == SEAT


def _mistake(kind: str, game: Game, legal: list[Move], chosen: Move, turn_start: bool) -> Move | None:
    """The planted move of ``kind`` in place of the heuristic's ``chosen``, or None where it does not fit."""
    state = game.state
    rules = state.rules
    if kind == "stock":
        taking = chosen.action in (Action.PICKUP, Action.STAGE)
        if state.phase is Phase.DRAW and taking and len(state.pile) >= BIG_PILE:
            return next((m for m in legal if m.action is Action.DRAW), None)
        return None
    if state.phase is not Phase.PLAY:
        return None
    if kind == "wild":
        natural = chosen.action is Action.DISCARD and not C.is_wild(C.KIND_OF[chosen.card])
        if natural and len(state.pile) <= SMALL_PILE and state.hand_sizes[SEAT] > 2 and _held_wilds(state):
            return _discard(legal, C.is_wild)
        return None
    if kind == "feed":
        nxt = (SEAT + 1) % state.players
        owner = state.seating.owner_of[nxt]
        need = rules.pickup_naturals_on_meld

        info = game.seat_info(SEAT)
        caps = info.caps  # what seat 0 knows: the next player may hold enough of it, and likely does
        reading = Reading.of_seat(info)

        def feeds(rank: int) -> bool:
            if C.is_wild(rank) or rank in (C.BLACK_THREE, C.RED_THREE):
                return False
            could = (caps is None or caps[nxt][rank] >= need) and reading.unseen(rank) >= FEED_UNSEEN
            return state.meld_of[owner][rank] >= 0 and could and _taken(state, rank)

        if (
            chosen.action is Action.DISCARD
            and not feeds(C.KIND_OF[chosen.card])
            and len(state.pile) >= FEED_PILE - 1
        ):
            return _discard(legal, feeds)
        return None
    if kind == "out":
        if turn_start and state.hand_sizes[SEAT] >= 2 and not state.feet[SEAT] and _goes_out(state):
            return _discard(legal, lambda rank: not C.is_wild(rank) and rank != C.RED_THREE)
        return None
    if kind == "dirty" and turn_start and _held_wilds(state):
        book = rules.book_size
        for meld in state.melds:
            if meld.owner != state.seating.owner_of[SEAT] or meld.wilds or len(meld.cards) < book:
                continue
            for mid in legal_ids(state):
                move = move_of_id(state, mid)
                if move.action is Action.MELD and len(move.groups) == 1:
                    group = move.groups[0]
                    if group.rank == meld.rank and all(C.is_wild(C.KIND_OF[c]) for c in group.cards):
                        return move
    return None


def plant(kind: str, preset: str, seed: int, good: bool = False) -> Planted | None:
    """Hand 0 of a four-seat ``preset`` game dealt by ``seed``, with a ``kind`` mistake planted for seat 0
    (``good``: the heuristic's own move kept there); None when the hand has no place for it."""
    game = Game(load_rules(preset), 4, seed)
    bot = HeuristicBot()
    rng = random.Random(seed)
    at = -1
    moves = 0
    last_seat, last_phase = -1, Phase.DRAW
    while not game.results:
        state = game.state
        legal = list(legal_for(state, game.legal_ids()))
        move = bot.choose_seat(game.seat_info(state.to_move), legal, rng)
        turn_start = (
            state.to_move == SEAT
            and state.phase is Phase.PLAY
            and (last_seat != SEAT or last_phase is not Phase.PLAY)
        )
        last_seat, last_phase = state.to_move, state.phase
        if at < 0 and state.to_move == SEAT and moves >= FROM_MOVE:
            bad = _mistake(kind, game, legal, move, turn_start)
            if bad is not None:
                at = sum(len(hand) for hand in game.moves)
                if not good:
                    move = bad
        play_chosen(game, legal, move)
        moves += 1
    if at < 0:
        return None
    return Planted(kind, preset, seed, good, record_of(game), at)
