"""A table's public history: one entry per move (who made it, its text and its public events), the same
description a ``state`` message carries in ``last``.

Nothing is stored for it: the entries are built when a move is played (``tables.step.move_game``), and
rebuilt by replaying the stored moves through the same function (``replay_history``) the first time they
are asked for after a table is loaded. Each table keeps its last ``HISTORY_KEEP`` entries, and a
connection is sent them in its ``welcome``, so "what happened" survives a reload or a rejoin.

Each entry's events are the engine's, as ``wire.protocol.event_json`` writes them: a ``melded`` event
names ``rank``, the rank letter of the meld the cards went onto (``W`` for a meld of wilds), and
``added``, true when the cards went onto a meld already on the table and false when they began one; a
``book`` event names the book closed; ``hand_over`` says why the hand ended. Nothing is worked out again
from the move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handfoot.engine import Game, IllegalMove, MoveSyntaxError
from handfoot.rules import load_rules
from handfoot.server.tables.step import move_game
from handfoot.server.tables.table import HISTORY_KEEP, History, new_history


def replay_history(
    rules_source: str | dict[str, Any], players: int, seed: int, dealer: int, moves: Sequence[tuple[int, str]]
) -> History:
    """The history of a stored game: its ``moves`` (seat, text) replayed from the first deal, keeping the
    entries of the last ``HISTORY_KEEP``. A move that no longer plays ends it there (the table reports
    itself broken elsewhere)."""
    game = Game(load_rules(rules_source), players, seed, dealer)
    history = new_history()
    keep_from = len(moves) - HISTORY_KEEP
    for index, (seat, text) in enumerate(moves):
        try:
            moved = move_game(game, index, seat, text)
        except (IllegalMove, MoveSyntaxError):
            break
        if index >= keep_from:
            history.append(moved.entry)
    return history
