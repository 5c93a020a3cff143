"""Trainer hints over the WebSocket: the move the strongest bot would make for the asking seat, and why.

A seat that is to move sends ``{"type": "hint", "version": N}``. The hint is computed by
``handfoot.bots.hint.hint`` from that seat's own reading (``tables.seat_bots.seat_reading``: its ``SeatInfo``
with the public bounds, what any bot of the seat reads) and the legal moves the server hands any bot
(``Game.legal_moves``), never from the hand's full state, in a worker thread so that the event loop
keeps serving other connections. It is sent to the asking connection only; spectators, seats that are
not to move and requests made at an old version are answered with an ``error`` (code ``no_hint``).

The search budget is ``HINT_SECONDS`` of ISMCTS (``HANDFOOT_HINT_SECONDS`` overrides it; ``0`` asks the
heuristic alone, which answers at once). At most ``MAX_CONCURRENT_HINTS`` hints are computed at a time
in one process; a request beyond that waits for its turn.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from dataclasses import dataclass
from typing import Any

from handfoot import cards as C
from handfoot.bots.hint import Hint, hint
from handfoot.bots.ismcts import Budget
from handfoot.engine import Move
from handfoot.engine.views import SeatInfo
from handfoot.server.live.broadcast import send
from handfoot.server.tables.seat_bots import seat_reading
from handfoot.server.tables.table import Connection, LiveTable
from handfoot.server.wire.protocol import HintRequest, error_message

HINT_SECONDS = 0.4
HINT_SECONDS_ENV = "HANDFOOT_HINT_SECONDS"
MAX_CONCURRENT_HINTS = 2
NO_HINT = "no_hint"

# One semaphore per event loop (a test process may run several servers, each on its own loop).
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def hint_budget() -> Budget | None:
    """The search budget of a hint: ``HANDFOOT_HINT_SECONDS`` seconds of ISMCTS (default
    ``HINT_SECONDS``); None (the heuristic alone) when it is 0. A value that is not a number, or is
    negative, falls back to the default."""
    raw = os.environ.get(HINT_SECONDS_ENV, "")
    try:
        seconds = float(raw) if raw else HINT_SECONDS
    except ValueError:
        seconds = HINT_SECONDS
    if seconds < 0:
        seconds = HINT_SECONDS
    return None if seconds == 0 else Budget(iterations=None, seconds=seconds)


@dataclass(frozen=True)
class HintJob:
    """What a hint is computed from, taken under the table's lock: the seat's own reading (with the public
    bounds, as any bot of the seat gets it), the legal moves
    a bot of that seat would be given, and the version they belong to."""

    seat: int
    version: int
    info: SeatInfo
    legal: list[Move]


def prepare(live: LiveTable, seat: int | None, version: int) -> HintJob | str:
    """The job for a hint to ``seat`` at ``version``, or the sentence saying why there is none. Call with
    the table's lock held."""
    if seat is None:
        return "Spectators get no hints: hints are for the player whose turn it is."
    if live.broken:
        return f"This table cannot take moves: {live.broken}."
    game = live.game
    if live.over:  # played to its end, or ended by the host
        return "The game is over."
    if game.to_move != seat:
        return "Hints are given to the player whose turn it is; it is not yours."
    if version != live.version:
        return (
            f"The hint was asked at version {version} but the table is at version {live.version}: "
            "ask again for the new position."
        )
    return HintJob(seat, version, seat_reading(game, seat), game.legal_moves())


def move_cards(move: Move) -> list[list[str]]:
    """The cards of each group of a meld or pickup (card codes), as the client selects them."""
    return [C.codes(group.cards) for group in move.groups]


def hint_message(job: HintJob, found: Hint) -> dict[str, Any]:
    """The ``hint`` message: the version it is for, the move in the notation, the sentence why, and the
    cards of each group it names (empty for draw, ask, yes and no; one card for a discard)."""
    groups = move_cards(found.move)
    if not groups and found.move.card >= 0:
        groups = [[C.CODE_OF[found.move.card]]]
    return {
        "type": "hint",
        "version": job.version,
        "seat": job.seat,
        "move": found.text,
        "reason": found.reason,
        "groups": groups,
    }


def compute(job: HintJob, budget: Budget | None) -> Hint:
    """Run the hint bot on the job's view (blocking; call from a worker thread)."""
    return hint(job.info, job.legal, budget, seed=job.version)


async def answer_hint(live: LiveTable, conn: Connection, request: HintRequest) -> None:
    """Answer a connection's hint request, to that connection only."""
    async with live.lock:
        job = prepare(live, conn.seat, request.version)
    if isinstance(job, str):
        send(live, conn, error_message(NO_HINT, job))
        return
    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        slots = _slots[loop] = asyncio.Semaphore(MAX_CONCURRENT_HINTS)
    async with slots:
        found = await asyncio.to_thread(compute, job, hint_budget())
    send(live, conn, hint_message(job, found))
