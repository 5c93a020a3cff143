"""Rebuilding a table's game from storage: from its latest snapshot and the moves after it, each played
through ``tables.step.move_game`` like every other move (``store.snapshots`` reads the snapshot back)."""

from __future__ import annotations

from dataclasses import dataclass

from handfoot.engine import Game, IllegalMove, MoveSyntaxError
from handfoot.rules import load_rules
from handfoot.server.store.snapshots import game_from_snapshot, matches
from handfoot.server.store.storage import StoredTable
from handfoot.server.tables.step import move_game


@dataclass
class Rebuilt:
    """A game rebuilt from storage: the game, why the rebuild stopped early (None if it did not), and
    the texts of the stored moves the game's own history does not hold (those before its snapshot)."""

    game: Game
    problem: str | None
    earlier: tuple[str, ...]


def rebuild(stored: StoredTable, *, full: bool = False) -> Rebuilt:
    """The table's game from storage: from its latest snapshot and the moves after it, or (``full``, or a
    snapshot without results) by replaying every move, checked against the snapshot. A move that no
    longer plays, or a replay that differs from the snapshot, stops the rebuild there (``problem``)."""
    row = stored.row
    rules = load_rules(row.rules_source)
    texts = [text for _seat, text in stored.moves]
    snap_version, snap = stored.snapshot if stored.snapshot else (-1, {})
    start = 0
    game = None
    if not full and 0 <= snap_version <= len(texts):
        try:
            game = game_from_snapshot(rules, row.players, row.seed, row.dealer, snap)
        except (KeyError, ValueError, TypeError):  # a snapshot that does not read back: replay instead
            game = None
        start = snap_version if game is not None else 0
    if game is None:
        game = Game(rules, row.players, row.seed, row.dealer)
    for index in range(start, len(texts)):
        if index == snap_version and start == 0 and not matches(game, index, snap):
            return Rebuilt(game, f"the replay differs from the snapshot taken after move {index}", ())
        try:
            move_game(game, index, stored.moves[index][0], texts[index])
        except (IllegalMove, MoveSyntaxError) as exc:
            return Rebuilt(
                game, f"stored move {index} ({texts[index]!r}) no longer plays: {exc}", tuple(texts[:start])
            )
    if snap_version == len(texts) and start == 0 and not matches(game, snap_version, snap):
        return Rebuilt(game, f"the replay differs from the snapshot taken after move {snap_version}", ())
    return Rebuilt(game, None, tuple(texts[:start]))
