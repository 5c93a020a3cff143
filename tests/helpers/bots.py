"""Helpers of the bot tests that other folders share.

- ``reachable``: every object reachable from some roots, for the tests that check nothing hidden is
  within a bot's reach (tests/bots/test_bots.py, tests/engine/test_seat_info.py).
- ``moves_to_a_hand_end``: medium bots' moves up to the end of a first hand, for the pacing tests
  (tests/server/test_server_pacing.py, tests/browser/test_browser_host.py).
"""

from __future__ import annotations

import gc
import random
import types
from typing import Any

import pytest

from handfoot.bots import legal_for, make_bot
from handfoot.engine import Game, move_text
from handfoot.rules import load_rules


def reachable(*roots: object) -> list[object]:
    """Every object reachable from ``roots`` through references (modules, classes and functions aside)."""
    seen: set[int] = set()
    out: list[object] = []
    stack: list[Any] = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def moves_to_a_hand_end() -> tuple[int, list[tuple[int, str]]]:
    """A seed and the moves of medium bots in a two-player kitchen-table game up to the move of seat 0
    that ends the first hand, after which seat 1 (a bot at the table) is the first to play."""
    rules = load_rules("kitchen-table")
    for seed in range(60):
        game = Game(rules, 2, seed, 1)
        bots = [make_bot("medium"), make_bot("medium")]
        rng = random.Random(seed)
        moves: list[tuple[int, str]] = []
        while not game.results and len(moves) < 800:
            s = game.state
            seat = s.to_move
            move = bots[seat].choose_seat(game.seat_info(seat), legal_for(s, game.legal_ids()), rng)
            moves.append((seat, move_text(move)))
            game.apply(move)
        if game.results and moves[-1][0] == 0 and not game.finished and game.state.to_move == 1:
            return seed, moves
    pytest.fail("no seed in 0..59 ends a hand with seat 0's move and seat 1 to play next")
