"""Following the other processes that serve the same database: catching a table up to the moves they
stored (when the bus announces one, when the bus came back, and every ``CHECK_SECONDS`` against the
database itself).
"""

from __future__ import annotations

import asyncio
import logging

from handfoot.engine import IllegalMove, MoveSyntaxError
from handfoot.server.store.storage import StorageError
from handfoot.server.tables.service import TableService
from handfoot.server.tables.step import advance, move_game
from handfoot.server.tables.table import LiveTable

log = logging.getLogger("handfoot.server")


async def catch_up(service: TableService, table_id: str, version: int | None = None) -> int:
    """Bring this process's copy of a table up to what the database holds and send each of its
    connections its new state. Returns how many moves were played.

    ``version`` is the version another process announced: nothing is read if the table is already
    there. A table this process has not loaded is left alone (it is read from the database when someone
    asks for it here). A stale table is read from storage again instead. The service's listeners are
    told of a table that moved (the bot runner: if a bot is to move, the process holding the table's bot
    lease runs it, and another takes over if it dies). Raises StorageError when the database does not
    answer (the table is then unchanged).
    """
    live = service.tables.get(table_id)
    if live is None:
        return 0
    async with live.lock:
        if live.broken or (version is not None and version <= live.version and not live.stale):
            return 0
        before = live.version
        if live.stale:
            if not await service.refresh(live):
                return 0
            service.show(live)
            played = live.version - before
        else:
            played = await _play_stored(service, live)
    if played or live.version != before:
        service.notify(live)
    return played


async def _play_stored(service: TableService, live: LiveTable) -> int:
    """Play the moves stored for ``live`` beyond its version (with its lock held) and send every
    connection its state; a move that does not follow or does not play puts the table back to what
    storage holds instead. Returns how many moves were played."""
    moves = await service.storage.run(service.storage.moves_since, live.id, live.version)
    played = 0
    reloaded = False
    for seq, seat, text in moves:
        if seq != live.version:
            log.error("table %s: stored move %d follows version %d; reloading", live.id, seq, live.version)
            reloaded = True
            break
        try:
            moved = move_game(live.game, live.version, seat, text)
        except (IllegalMove, MoveSyntaxError) as exc:
            log.error("table %s: stored move %d (%r) does not play here: %s", live.id, seq, text, exc)
            reloaded = True
            break
        advance(live, live.game, moved)
        played += 1
    if reloaded:
        await service.refresh(live)  # when the database does not answer, read again once it does
    if played or reloaded:
        service.show(live)
    return played


CHECK_SECONDS = 5.0  # how often a process sharing its database checks its tables against it


async def catch_up_stale(service: TableService) -> int:
    """Catch up every table this process holds whose version differs from the database's: behind it
    (an announcement that never came: its process died between storing the move and publishing it, or
    Redis was away), or ahead of it (a table stored moves only once they are stored, so this happens
    only if the database lost moves: the table is read from storage again). One query for all of them;
    returns how many tables differed."""
    ids = list(service.tables)
    if not ids:
        return 0
    stored = await service.storage.run(service.storage.versions, ids)
    differ = [t for t in ids if t in service.tables and stored.get(t, 0) != service.tables[t].version]
    for table_id in differ:
        live = service.tables.get(table_id)
        if live is not None and stored.get(table_id, 0) < live.version:
            async with live.lock:
                if await service.refresh(live):
                    service.show(live)
            continue
        await catch_up(service, table_id)
    return len(differ)


async def check_stale(service: TableService, every: float = CHECK_SECONDS) -> None:
    """Run ``catch_up_stale`` every ``every`` seconds, for ever (the app runs it when processes share a
    database)."""
    while True:
        await asyncio.sleep(every)
        try:
            behind = await catch_up_stale(service)
        except StorageError as exc:
            log.warning("checking the tables against the database failed: %s", exc)
            continue
        except Exception:
            log.exception("checking the tables against the database failed")
            continue
        if behind:
            log.info("caught up %d tables whose announcements never came", behind)


async def heard(service: TableService, table_id: str, version: int) -> None:
    """``catch_up`` for an advance another process announced. When the database does not answer, the
    table is marked stale: it is read again as soon as the database answers (``mark_stale``), not only
    at the next check of every table."""
    try:
        await catch_up(service, table_id, version)
    except StorageError as exc:
        log.warning("catching up table %s failed: %s", table_id, exc)
        live = service.tables.get(table_id)
        if live is not None:
            service.mark_stale(live)


async def catch_up_all(service: TableService) -> None:
    """Catch up every table this process holds (after advances may have been missed)."""
    for table_id in list(service.tables):
        try:
            await catch_up(service, table_id)
        except StorageError as exc:
            log.warning("catching up table %s failed: %s", table_id, exc)
