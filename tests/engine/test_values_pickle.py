"""The engine's values pickle and copy as themselves in both builds: a seat's ``View`` (and its ``SeatView``
and ``MeldView`` parts), a table's ``Meld`` and a hand's ``ScoreLine``. Compiled with mypyc, a class is
made only through its constructor, so each of them says how (``__reduce__``); these tests run in the
compiled tests too (``make test-compiled``)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

from handfoot.engine import Game, ScoreLine, score_lines, view
from handfoot.engine.state import Meld
from handfoot.engine.views import SPECTATOR, MeldView, SeatView, View
from handfoot.rules import preset
from helpers.play import RandomPlayer, play_move


def round_trips(value: Any) -> list[Any]:
    """``value`` pickled and read back, and deep-copied."""
    return [pickle.loads(pickle.dumps(value)), copy.deepcopy(value)]


def played_until(game: Game, melds: int, seed: int) -> None:
    """Play ``game`` at random until its table holds ``melds`` melds (within the first hand)."""
    mover = RandomPlayer(random.Random(seed))
    while len(game.state.melds) < melds:
        assert not game.results, "the first hand ended before its table had the melds wanted"
        play_move(game, mover.choose(game.state, game.legal_ids()))


def test_views_of_every_seat_and_a_spectator_pickle_and_copy_as_themselves() -> None:
    game = Game(preset("kitchen-table"), 4, seed=3)
    played_until(game, 4, seed=3)
    for seat in (*range(4), SPECTATOR):
        seen = view(game.state, seat)
        assert seen.melds and seen.seats
        for again in round_trips(seen):
            assert type(again) is View and again == seen
            assert all(type(part) is SeatView for part in again.seats)
            assert all(type(part) is MeldView for part in again.melds)


def test_a_view_rebuilt_from_its_reduction_keeps_every_field_in_order() -> None:
    """``View.__reduce__`` names each field, in the order the constructor takes them: a field added to
    View and left out of it fails here."""
    game = Game(preset("marmot"), 4, seed=8)
    played_until(game, 2, seed=8)
    seen = view(game.state, game.state.to_move)
    rebuild, args = seen.__reduce__()
    assert rebuild is View
    assert args == tuple(getattr(seen, field.name) for field in dataclasses.fields(View))


def test_melds_pickle_and_copy_as_themselves_with_their_own_cards() -> None:
    game = Game(preset("family"), 3, seed=5)
    played_until(game, 3, seed=5)
    for meld in game.state.melds:
        for again in round_trips(meld):
            assert type(again) is Meld and again == meld
            assert again.cards is not meld.cards  # a copy's cards are its own


def test_score_lines_pickle_and_copy_as_themselves() -> None:
    game = Game(preset("kitchen-table"), 4, seed=2)
    mover = RandomPlayer(random.Random(2))
    while not game.results:
        play_move(game, mover.choose(game.state, game.legal_ids()))
    lines = [line for tally in game.results[0].tallies for line in score_lines(game.rules, tally)]
    assert lines
    for again in round_trips(lines):
        assert all(type(line) is ScoreLine for line in again) and again == lines
