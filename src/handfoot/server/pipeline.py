"""The one path every move takes, from a person or a bot:

seat token -> game over? -> this seat's turn? -> stale version? -> verify -> apply -> persist -> send
each seat its own view (spectators the public view).

``submit`` is the synchronous core (everything up to persisting); ``play`` does the same under the
table's lock, storing the move from a worker thread, and then broadcasts. A refusal changes nothing
and is returned to the caller, who sends it to the sender only.

While a move is being stored its table is already at the new version in memory, but nothing is sent
until the write is done (and a failed write puts the table back to what storage holds).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from handfoot.engine import Event, IllegalMove, MoveSyntaxError, move_text, parse_move
from handfoot.record import NOTATION_RULE
from handfoot.server.fanout import broadcast_state
from handfoot.server.history import meld_keys, move_entry
from handfoot.server.snapshots import snapshot_of
from handfoot.server.storage import MoveConflict, StorageError
from handfoot.server.tables import LiveTable, TableService

log = logging.getLogger("handfoot.server")

# The ``rule`` of refusals made before the engine is asked.
SEAT_RULE = "seat"
GAME_OVER_RULE = "game_end"
TURN_RULE = "turn"
VERSION_RULE = "version"
SERVER_RULE = "server"


@dataclass(frozen=True)
class Accepted:
    """A move played and stored: by ``seat``, in canonical notation, making the table ``version``."""

    seat: int
    version: int
    move: str
    events: tuple[Event, ...]
    entry: dict[str, Any]  # the move's public history entry (``last`` of the next state)


@dataclass(frozen=True)
class Refused:
    """A move not played: the rule it breaks, a sentence for the player, and the table's version."""

    rule: str
    message: str
    version: int
    move: str
    resync: bool = False  # the table was reloaded: every connection needs its new state


@dataclass(frozen=True)
class Played:
    """A move checked and played in memory (the table's version already counts it), not yet stored."""

    seat: int
    version: int  # the table's version with this move
    move: str
    text: str  # as the sender wrote it
    events: tuple[Event, ...]
    finished: bool
    snapshot: dict[str, Any] | None
    entry: dict[str, Any]


def check_and_play(
    service: TableService, live: LiveTable, token: str | None, version: int, text: str
) -> Played | Refused:
    """Check one move at ``live`` and play it in memory. Call with the table's lock held, and store the
    result (``store`` or ``store_async``) before releasing it.

    Refuses (changing nothing) a token that is not one of the table's seats, a move once the game is over
    or while the table is broken, a seat that is not to move, a ``version`` other than the table's, text
    that is not in the notation, and a move the rules forbid.
    """

    def refuse(rule: str, message: str) -> Refused:
        return Refused(rule, message, live.version, text)

    seat = live.seat_of_token(token)
    if seat is None:
        if token is None:
            return refuse(SEAT_RULE, "Spectators cannot move: open a seat's invitation link to play.")
        return refuse(SEAT_RULE, "This seat token does not belong to this table.")
    game = live.game
    if live.broken:
        return refuse(SERVER_RULE, f"This table cannot take moves: {live.broken}.")
    if live.ended:
        return refuse(GAME_OVER_RULE, "The host ended the game.")
    if game.finished:
        return refuse(GAME_OVER_RULE, "The game is over.")
    if live.seats[seat].stand_in and not live.is_bot_token(token):
        return refuse(SEAT_RULE, "A bot is playing your seat for now: ask the host to hand it back to you.")
    if game.to_move != seat:
        mover = game.to_move
        who = (live.seats[mover].name or f"seat {mover + 1}") if mover is not None else "nobody"
        return refuse(TURN_RULE, f"It is not your turn: {who} is to move.")
    if version != live.version:
        return refuse(
            VERSION_RULE,
            f"The move was made at version {version} but the table is at version {live.version}: "
            "look at the new position and move again.",
        )
    try:
        move = parse_move(text)
        game.verify(move)
    except MoveSyntaxError as exc:
        return refuse(NOTATION_RULE, str(exc))
    except IllegalMove as exc:
        return refuse(exc.rule, exc.message)
    canonical = move_text(move)
    hand_before = game.hand_index
    state_before, melds_before = game.state, meld_keys(game.state)
    events = game.apply(move)
    live.version += 1
    snapshot = None
    if live.version % service.snapshot_every == 0 or game.finished or game.hand_index != hand_before:
        snapshot = snapshot_of(game, live.version)
    entry = move_entry(state_before, melds_before, seat, live.version, canonical, events)
    return Played(seat, live.version, canonical, text, tuple(events), game.finished, snapshot, entry)


def _write(service: TableService, live: LiveTable, played: Played) -> None:
    """Store a played move (raises StorageError or MoveConflict)."""
    service.storage.append_move(
        live.id,
        played.version - 1,
        played.seat,
        played.move,
        finished=played.finished,
        snapshot=played.snapshot,
    )


def _stored(
    service: TableService, live: LiveTable, played: Played, error: StorageError | None
) -> Accepted | Refused:
    """The outcome once the write of ``played`` is done (``error``: it failed, and the table is put back
    to what storage holds)."""
    if error is None:
        return Accepted(played.seat, played.version, played.move, played.events, played.entry)
    service.reload(live)
    if isinstance(error, MoveConflict):
        log.info("%s", error)
        live.last = None
        return Refused(
            VERSION_RULE,
            "Another move was stored first: look at the new position and move again.",
            live.version,
            played.text,
            resync=True,
        )
    log.error("%s", error)
    return Refused(
        SERVER_RULE,
        "The server could not store the move; nothing was played. Try again.",
        live.version,
        played.text,
    )


def store(service: TableService, live: LiveTable, played: Played) -> Accepted | Refused:
    """Store a played move, in this thread."""
    try:
        _write(service, live, played)
    except StorageError as exc:
        return _stored(service, live, played, exc)
    return _stored(service, live, played, None)


async def store_async(service: TableService, live: LiveTable, played: Played) -> Accepted | Refused:
    """Store a played move from the storage's writer threads, so that the event loop serves other tables
    while the database commits (a PostgreSQL commit waits for its log to reach the disk)."""
    try:
        pool = service.storage.writers
        await asyncio.get_running_loop().run_in_executor(pool, _write, service, live, played)
    except StorageError as exc:
        return _stored(service, live, played, exc)
    return _stored(service, live, played, None)


def submit(
    service: TableService, live: LiveTable, token: str | None, version: int, text: str
) -> Accepted | Refused:
    """Check and play one move at ``live``, and store it. Call with the table's lock held.

    Refuses as ``check_and_play`` does. A move that was played but could not be stored is undone by
    reloading the table from storage and refused with rule ``server``; one that another process stored
    a move for first (``MoveConflict``) is undone the same way and refused with rule ``version``, as a
    stale move.
    """
    played = check_and_play(service, live, token, version, text)
    return played if isinstance(played, Refused) else store(service, live, played)


async def play(
    service: TableService, live: LiveTable, token: str | None, version: int, text: str
) -> Accepted | Refused:
    """Run ``submit`` under the table's lock; on success send every connection its new state, then tell
    the other processes (fan-out) and the service's listeners (bots). A move that lost a race to
    another process sends every connection the reloaded state. Returns the outcome for the caller to
    report to the sender."""
    async with live.lock:
        played = check_and_play(service, live, token, version, text)
        outcome = played if isinstance(played, Refused) else await store_async(service, live, played)
        if isinstance(outcome, Accepted):
            live.last = outcome.entry
            if live.history is not None:
                live.history.append(outcome.entry)
            await broadcast_state(live)
        elif outcome.resync:
            await broadcast_state(live)
    if isinstance(outcome, Accepted):
        await service.announce(live)
        service.notify(live)
    return outcome
