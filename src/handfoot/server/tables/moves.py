"""The one path every new move takes, from a person or a bot (a host's stand-in included):

seat token -> table broken or stale? -> game over? -> stand-in? -> this seat's turn? -> stale version? ->
notation -> judge and apply on a copy -> snapshot and encode -> store -> commit to memory -> tell the
table's connections through the service's notifier (the live side queues each seat its own view), its
announcers (the bus queues the news for other processes) and listeners (bots). Telling them never
waits: the only waits on the way are for the table's lock and for the database.

The move itself is read, judged (once, by the engine) and played on a copy of the table's game by
``tables.step.move_game``, the one way a table's game moves on every path (catching up, rebuilding,
history and replays use it too), and made the table's by ``tables.step.advance`` once stored.

``check_and_play`` plays the move on a copy of the table's game; ``play`` stores it from the storage's
writer threads under the table's lock, and only once it is stored makes the copy the table's game and
tells the connections. A refusal changes nothing and is returned to the caller, who sends it to the sender
only.

So memory never runs ahead of storage: any failure between playing and storing (encoding the snapshot,
the database refusing or not answering) refuses the move with rule ``server`` and leaves the table
exactly as it was. As a failed write may still have reached the database, the table is then marked
stale (``TableService.mark_stale``): it is read from storage again before its next move, and the
service keeps trying that by itself until the database answers.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from handfoot.engine import Game, IllegalMove, MoveSyntaxError, parse_move
from handfoot.record import NOTATION_RULE
from handfoot.server.store.snapshots import snapshot_of
from handfoot.server.store.storage import MoveConflict, StorageError, StorageUnavailable
from handfoot.server.tables.service import TableService
from handfoot.server.tables.step import Moved, advance, move_game
from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.jsonout import json_text

log = logging.getLogger("handfoot.server")

# The ``rule`` of refusals made before the engine is asked.
SEAT_RULE = "seat"
GAME_OVER_RULE = "game_end"
TURN_RULE = "turn"
VERSION_RULE = "version"
SERVER_RULE = "server"
WAITING_RULE = "waiting"  # the first hand waits for the invited people (said by ``ws``, before the pipeline)


# A move played and stored: what it was (``step.Moved``: the seat, the canonical notation, the table's new
# version, its events and public history entry), now the table's.
Accepted = Moved


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
    """A move checked and played on a copy of the table's game (``game``), not yet stored: the table
    itself is unchanged until ``commit``."""

    moved: Moved
    text: str  # as the sender wrote it
    snapshot: dict[str, Any] | None
    game: Game

    @property
    def finished(self) -> bool:
        """The move ended the game."""
        return self.game.finished

    @property
    def seat(self) -> int:
        """The seat that made the move."""
        return self.moved.seat

    @property
    def version(self) -> int:
        """The table's version with this move."""
        return self.moved.version

    @property
    def move(self) -> str:
        """The move in canonical notation."""
        return self.moved.move


UNSTORED = "The server could not store the move; nothing was played. Try again in a moment."
UNAVAILABLE = "The server cannot reach its database just now; nothing was played. Try again in a moment."


def check_and_play(
    service: TableService, live: LiveTable, token: str | None, version: int, text: str
) -> Played | Refused:
    """Check one move at ``live`` and play it on a copy of the table's game; the table is unchanged.
    Call with the table's lock held, then store the result (``store`` or ``store_async``) and, once it
    is stored, ``commit`` it before releasing the lock.

    Refuses (changing nothing) a token that is not one of the table's seats, a move once the game is over
    or while the table is broken or stale, a seat that is not to move, a ``version`` other than the
    table's, text that is not in the notation, a move the rules forbid, and (rule ``server``) a move whose
    result cannot be recorded.
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
    if live.stale:
        return refuse(SERVER_RULE, UNAVAILABLE)
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
    except MoveSyntaxError as exc:
        return refuse(NOTATION_RULE, exc.sentence())  # the notation's own words, as a sentence
    fork = game.copy()
    try:
        moved = move_game(fork, live.version, seat, move)  # judged once, by the engine, on the copy
    except IllegalMove as exc:
        return refuse(exc.rule, exc.message)
    except Exception:
        log.exception("table %s: move %r cannot be played", live.id, text)
        return refuse(SERVER_RULE, UNSTORED)
    after = moved.version
    try:
        snapshot = None
        if after % service.snapshot_every == 0 or fork.finished or fork.hand_index != game.hand_index:
            snapshot = snapshot_of(fork, after)
        json_text(moved.entry)  # everything sent about the move must encode, before anything is stored
    except Exception:
        log.exception("table %s: move %r played but cannot be recorded", live.id, moved.move)
        return refuse(SERVER_RULE, UNSTORED)
    return Played(moved, text, snapshot, fork)


def commit(live: LiveTable, played: Played) -> Accepted:
    """Make a stored move the table's: its game becomes the copy the move was played on."""
    advance(live, played.game, played.moved)
    return played.moved


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


def _refused_write(live: LiveTable, played: Played, error: StorageError) -> Refused:
    """The refusal of a move whose write failed, at the table's version (a MoveConflict's caller has read
    the table again first, so the loser of a race sees the version the winner made)."""
    if isinstance(error, MoveConflict):
        log.info("%s", error)
        return Refused(
            VERSION_RULE,
            "Another move was stored first: look at the new position and move again.",
            live.version,
            played.text,
            resync=True,
        )
    log.error("table %s: %s", live.id, error)
    message = UNAVAILABLE if isinstance(error, StorageUnavailable) else UNSTORED
    return Refused(SERVER_RULE, message, live.version, played.text)


async def store_async(service: TableService, live: LiveTable, played: Played) -> Accepted | Refused:
    """Store a played move from the storage's writer threads, so that the event loop serves other tables
    while the database commits, and commit it once stored. A failed write leaves the table unchanged:
    lost to another process (MoveConflict), the table is read from storage again at once; otherwise it
    is marked stale (the write may have taken all the same) and read again when the database answers."""
    try:
        await service.storage.run(_write, service, live, played)
    except StorageError as exc:
        if isinstance(exc, MoveConflict):
            await service.refresh(live)  # or, when the database does not answer, once it does
        else:
            service.mark_stale(live)
        return _refused_write(live, played, exc)  # at the version the table is at now
    return commit(live, played)


async def play(
    service: TableService, live: LiveTable, token: str | None, version: int, text: str
) -> Accepted | Refused:
    """Check, play, store and commit one move under the table's lock; on success tell the table's
    connections (``TableService.show``: each is sent its new state), then the other processes (fan-out)
    and the service's listeners (bots). A stale table is read from storage first (the connections are
    told if that changed it). A move that lost a race to another process tells them the reloaded state.
    Returns the outcome for the caller to report to the sender."""
    async with live.lock:
        if live.stale:
            before = live.version
            if await service.refresh(live) and live.version != before:
                service.show(live)
        played = check_and_play(service, live, token, version, text)
        outcome = played if isinstance(played, Refused) else await store_async(service, live, played)
        if isinstance(outcome, Accepted) or outcome.resync:
            service.show(live)
    if isinstance(outcome, Accepted):
        service.announce(live)
        service.notify(live)
    return outcome
