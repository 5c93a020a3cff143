"""``Game.copy``: the server plays each move on a copy and keeps the copy only once the move is stored
(docs/cluster.md, "Nothing lost"), so a copy must be independent of its original in every part a move
changes, across hand ends and the end of the game."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from handfoot.engine import Game, Move
from handfoot.engine.facts import UNKNOWN
from handfoot.engine.serialize import state_to_json
from handfoot.rules import PRESET_NAMES, load_rules
from helpers.play import RandomPlayer


def fingerprint(game: Game) -> tuple[object, ...]:
    """Everything a move can change, as values."""
    return (
        state_to_json(game.state),
        game.history,
        list(game.totals),
        list(game.results),
        game.finished,
        game.winner,
        game.facts.snapshot(),
        game.legal_ids(),
    )


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_moves_on_a_copy_leave_the_original_as_it_was(preset: str) -> None:
    """At every step of two short games: a move played on a copy changes nothing of the original, and the
    copy then plays on exactly as the original does."""
    rules = load_rules({"extends": preset, "game_end": "hands", "hands_per_game": 2})
    for seed in (1, 2):
        player = RandomPlayer(random.Random(seed))
        game = Game(rules, None, seed, 0)
        steps = 0
        while not game.finished and steps < 5000:
            chosen = player.choose(game.state, game.legal_ids())
            move = chosen if isinstance(chosen, Move) else game.move_of_id(chosen)
            before = fingerprint(game)
            copied = game.copy()
            copied.apply(move)
            assert fingerprint(game) == before
            game.apply(move)
            assert fingerprint(copied) == fingerprint(game)
            steps += 1
        assert game.finished, "the games reach their end (hand ends and the game's end are copied too)"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_game_deep_copied_or_pickled_is_the_same_game_and_plays_on_alike(preset: str) -> None:
    """``copy.deepcopy`` (``Game.copy``) and ``pickle`` (the game's parts, rebuilt through its constructor)
    give the same game, which then plays on as the original does, across a hand's end, in the pure and the
    compiled build alike (compiled with mypyc a class is made only through its constructor: ``make
    test-compiled`` runs this)."""
    rules = load_rules({"extends": preset, "game_end": "hands", "hands_per_game": 2})
    game = Game(rules, None, 7, 1)
    player = RandomPlayer(random.Random(7))
    checked = 0
    twins: list[Game] = []
    while not game.finished:
        if game.state.move_count % 37 == 0 or (game.results and checked < 3):
            twins = [copy.deepcopy(game), pickle.loads(pickle.dumps(game))]
            for twin in twins:
                assert fingerprint(twin) == fingerprint(game) and twin is not game
                assert twin.state is not game.state and twin.state == game.state
            checked += 1
        chosen = player.choose(game.state, game.legal_ids())
        move = chosen if isinstance(chosen, Move) else game.move_of_id(chosen)
        game.apply(move)
        for twin in twins:  # the latest twins play the same move on
            twin.apply(move)
            assert fingerprint(twin) == fingerprint(game)
    assert checked > 5
    state = game.state
    for again in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert again == state and again is not state


def test_a_game_given_its_state_from_outside_pickles_as_it_is() -> None:
    """A Game whose hand was set from outside (as the server rebuilds one from a snapshot: the state
    given, the moves starting there) comes back from pickle as it is, not as its seed would deal it."""
    rules = load_rules("kitchen-table")
    played = Game(rules, 4, 11, 0)
    player = RandomPlayer(random.Random(11))
    for _ in range(40):
        chosen = player.choose(played.state, played.legal_ids())
        played.apply(chosen if isinstance(chosen, Move) else played.move_of_id(chosen))
    rebuilt = Game(rules, 4, 11, 0)
    rebuilt.state = played.state.copy()
    rebuilt.moves = [[]]
    for moves_after in (0, 1):
        if moves_after:
            chosen = player.choose(rebuilt.state, rebuilt.legal_ids())
            rebuilt.apply(chosen if isinstance(chosen, Move) else rebuilt.move_of_id(chosen))
        again = pickle.loads(pickle.dumps(rebuilt))
        assert fingerprint(again) == fingerprint(rebuilt)
        assert again.state.move_count == rebuilt.state.move_count >= 40


def test_a_hand_state_pickles_with_its_very_rules_unchecked() -> None:
    """The rule set travels as itself beside the state: one made by hand outside the checked ranges
    still comes back, equal."""
    rules = dataclasses.replace(load_rules("kitchen-table"), go_out_books=-3)
    state = Game(rules, 4, 3, 0).state
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.rules == rules and again.rules.go_out_books == -3


def test_the_hands_public_bounds_survive_a_copy_and_a_pickle() -> None:
    """Once a seat's holding is bounded (it drew beside a pile it could have taken), the bounds come back
    the same from ``copy.deepcopy`` and ``pickle`` of the facts and of the game."""
    game = Game(load_rules("kitchen-table"), 4, 1, 0)
    player = RandomPlayer(random.Random(1))
    while not any(most < UNKNOWN for row in game.facts.snapshot() for most in row):
        assert not game.results, "a bound within the first hand"
        chosen = player.choose(game.state, game.legal_ids())
        game.apply(chosen if isinstance(chosen, Move) else game.move_of_id(chosen))
    facts = game.facts
    for again in (copy.deepcopy(facts), pickle.loads(pickle.dumps(facts))):
        assert again.snapshot() == facts.snapshot() and again is not facts
    for twin in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin.facts.snapshot() == facts.snapshot()
