"""A table's public history: one entry per move (who made it, its text and its public events), the same
description a ``state`` message carries in ``last``.

Nothing is stored for it: the entries are built when a move is played, and rebuilt by replaying the
stored moves (``replay_history``) the first time they are asked for after a table is loaded. Each table
keeps its last ``HISTORY_KEEP`` entries, and a connection is sent them in its ``welcome``, so "what
happened" survives a reload or a rejoin.

A ``melded`` event is told apart from the others by two fields: ``rank``, the rank letter of the meld
the cards went onto (``W`` for a meld of wilds), and ``added``, true when that meld was already on the
table (the cards were added to it) and false when the move started it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from handfoot import cards as C
from handfoot.engine import Event, Game, HandState, IllegalMove, MoveSyntaxError, parse_move
from handfoot.engine.events import EventType
from handfoot.rules import load_rules
from handfoot.server.protocol import event_json

HISTORY_KEEP = 100

History = deque[dict[str, Any]]


def new_history() -> History:
    """An empty history holding at most the last ``HISTORY_KEEP`` entries."""
    return deque(maxlen=HISTORY_KEEP)


def meld_keys(state: HandState) -> frozenset[tuple[int, int]]:
    """The (owner, rank) of every meld on the table: taken before a move, to tell a meld started by it
    from one it added to."""
    return frozenset((m.owner, m.rank) for m in state.melds)


def move_entry(
    state_before: HandState,
    before: frozenset[tuple[int, int]],
    seat: int,
    version: int,
    move: str,
    events: Sequence[Event],
) -> dict[str, Any]:
    """The public entry of ``move`` (canonical notation) played by ``seat`` and making ``version``:
    ``{"seat", "version", "move", "events"}``. ``state_before`` and ``before`` (``meld_keys`` of it) are
    the hand as it was before the move; the move's ``melded`` events get ``rank`` and ``added``."""
    owner = state_before.seating.owner_of[seat]
    ranks: list[int] = []
    if move.startswith(("meld", "pickup")):
        groups = parse_move(move).groups
        ranks = [g.rank for g in groups]
    out = []
    melded = 0
    for event in events:
        data = event_json(event)
        if event.type is EventType.MELDED:
            rank = ranks[melded] if melded < len(ranks) else C.KIND_OF[event.cards[0]]
            if melded == 0 and move.startswith("pickup"):
                rank = C.KIND_OF[event.cards[0]]  # the pile's top card names the first group's rank
            melded += 1
            data["rank"] = C.RANK_LETTER[rank]
            data["added"] = (owner, rank) in before
        out.append(data)
    return {"seat": seat, "version": version, "move": move, "events": out}


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
            if index < keep_from:
                game.apply_text(text)
                continue
            state, before = game.state, meld_keys(game.state)
            events = game.apply_text(text)
        except (IllegalMove, MoveSyntaxError):
            break
        history.append(move_entry(state, before, seat, index + 1, text, events))
    return history
