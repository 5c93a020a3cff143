"""The one way a table's game moves from version N to N+1, for every path: a person's move, a bot's (a
host's stand-in included), catching up with a move another process stored, rebuilding a table from its
snapshot and stored moves, its public history, and the replay pages.

``move_game`` reads the move (once: text is parsed here, a parsed ``Move`` is taken as it is), has the
engine judge and play it (once: ``Game.apply`` refuses an illegal move and changes nothing) and describes
it: its canonical text, the events it caused and its public history entry (with the rule ``facts`` the
move brought up: ``rule_facts``). ``advance`` then makes a
played move the table's in memory (its game, version, ``last`` and history). Storing a new move comes
between the two, in ``tables.moves``; a move caught up or rebuilt is stored already.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from handfoot import cards as C
from handfoot.engine import Event, EventType, Game, Move, move_text, parse_move
from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.protocol import event_json


@dataclass(frozen=True)
class Moved:
    """A move played on a game: by ``seat``, in canonical notation, making ``version``, with the events it
    caused and its public history entry (``last`` of the next ``state`` message)."""

    seat: int
    version: int
    move: str
    events: tuple[Event, ...]
    entry: dict[str, Any]


def rule_facts(events: Sequence[Event], owner_of: Sequence[int], down: Sequence[bool] | None) -> list[str]:
    """The rule facts (keys of ``rules.lessons.LESSONS``) a move's ``events`` bring up, in the order they
    happened, each once: ``pile_frozen`` (a black 3 discarded), ``red_three`` (a red 3 laid down),
    ``opening`` (cards melded by a meld owner, ``owner_of[seat]``, that was not ``down`` before the
    move: its opening; ``down`` is the state's, copied before the move), ``took_pile`` and ``went_out``.
    ``down`` None: no opening is told. Only the hand the move was played in: a move that ends a hand
    deals the next, and what its deal brings (a red 3 laid at once) is not told. The table page explains
    a rule the first time it matters from these, without knowing any rule itself."""
    facts: list[str] = []
    opened = set() if down is None else {owner for owner, is_down in enumerate(down) if is_down}
    for event in events:
        if event.type is EventType.NEW_HAND:
            break
        fact = ""
        if event.type is EventType.DISCARDED and any(C.KIND_OF[c] == C.BLACK_THREE for c in event.cards):
            fact = "pile_frozen"
        elif event.type in (EventType.RED_THREE, EventType.TOOK_PILE, EventType.WENT_OUT):
            fact = event.type.value
        elif event.type is EventType.MELDED and down is not None:
            owner = owner_of[event.seat]
            if owner not in opened:
                opened.add(owner)
                fact = "opening"
        if fact and fact not in facts:
            facts.append(fact)
    return facts


def move_entry(
    seat: int, version: int, move: str, events: Sequence[Event], facts: Sequence[str] = ()
) -> dict[str, Any]:
    """The public entry of ``move`` (canonical notation) played by ``seat`` and making ``version``:
    ``{"seat", "version", "move", "events", "facts"}``, the events as ``event_json`` writes them (they
    carry each meld's rank and whether it was begun) and the rule ``facts`` they brought up
    (``rule_facts``). A staging step is entered as ``stage`` alone: the staged cards stay in the hand,
    seen by their holder alone."""
    if move.startswith("stage"):
        move = "stage"
    return {
        "seat": seat,
        "version": version,
        "move": move,
        "events": [event_json(e) for e in events],
        "facts": list(facts),
    }


def move_game(game: Game, version: int, seat: int, move: Move | str) -> Moved:
    """Play ``move`` by ``seat`` on ``game`` (in place), which is at ``version``. Raises MoveSyntaxError
    for text that is not in the notation and IllegalMove for a move the rules refuse; either way ``game``
    is unchanged."""
    parsed = parse_move(move) if isinstance(move, str) else move
    state = game.state
    owner_of = state.seating.owner_of
    down = list(state.down)  # the state is played in place: which owners had opened before the move
    events = game.apply_written(parsed)
    text = move_text(parsed)
    after = version + 1
    facts = rule_facts(events, owner_of, down)
    return Moved(seat, after, text, tuple(events), move_entry(seat, after, text, events, facts))


def advance(live: LiveTable, game: Game, moved: Moved) -> None:
    """Make ``moved`` the table's: ``game`` (the one it was played on) becomes its game, its version,
    ``last`` and history follow. Call with the table's lock held, once the move is stored."""
    live.game = game
    live.version = moved.version
    live.last = moved.entry
    if live.history is not None:
        live.history.append(moved.entry)
