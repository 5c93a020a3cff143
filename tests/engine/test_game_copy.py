"""``Game.copy``: the server plays each move on a copy and keeps the copy only once the move is stored
(docs/cluster.md, "Nothing lost"), so a copy must be independent of its original in every part a move
changes, across hand ends and the end of the game."""

from __future__ import annotations

import random

import pytest

from handfoot.engine import Game, Move
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
            copy = game.copy()
            copy.apply(move)
            assert fingerprint(game) == before
            game.apply(move)
            assert fingerprint(copy) == fingerprint(game)
            steps += 1
        assert game.finished, "the games reach their end (hand ends and the game's end are copied too)"
