"""The application's lifespan: at start-up open storage (bringing its schema up to date), make the table
service, the bus to other processes, the bot runner and the game-length watch, and wire them together;
while it runs unload idle tables (and, when processes share the database, check the tables against it);
at shutdown stop all of that in reverse."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress

from fastapi import FastAPI

from handfoot.server.bots.runner import BotRunner
from handfoot.server.cluster.bus import make_fanout
from handfoot.server.cluster.follow import catch_up_all, check_stale, heard
from handfoot.server.cluster.leases import make_leases
from handfoot.server.limits import Limiters
from handfoot.server.live.broadcast import Broadcaster
from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.game_length import GameLength
from handfoot.server.tables.reviews import ReviewService
from handfoot.server.tables.service import TableService

log = logging.getLogger("handfoot.server")

SWEEP_SECONDS = 60.0  # how often finished and idle tables are unloaded


async def sweep(service: TableService, runner: BotRunner, idle_seconds: float, limits: Limiters) -> None:
    """Every ``SWEEP_SECONDS``, unload the tables nobody has used for ``idle_seconds`` (and finished
    ones nobody is looking at, and those put away: nobody looked for a while); they are read from
    storage again when asked for. Logs the wrong keys tried since the last sweep, if any."""
    guessed = refused = 0
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        gone = service.unload_idle(idle_seconds, busy=lambda table_id: table_id in runner.tasks)
        if gone:
            log.info("unloaded %d idle tables (%d in memory)", len(gone), len(service.tables))
        if limits.guessed > guessed or limits.guesses_refused > refused:
            log.warning(
                "%d wrong table links or keys tried, %d refused unread for guessing too often (%d and %d "
                "since the start)",
                limits.guessed - guessed,
                limits.guesses_refused - refused,
                limits.guessed,
                limits.guesses_refused,
            )
            guessed, refused = limits.guessed, limits.guesses_refused


def lifespan_for(
    settings: Settings, limits: Limiters
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The lifespan of an application serving ``settings`` (it sets ``app.state.service``, ``runner``
    and ``reviews``, which the routes' dependencies read)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.prepare()
        storage = Storage(settings.db_url)
        service = TableService(storage, settings.snapshot_every, settings.away_seconds, Broadcaster())
        fanout = make_fanout(settings.redis_url)
        runner = BotRunner(service, settings.bot_delay, make_leases(settings.redis_url, fanout.origin))
        runner.attach()
        service.unloaders.append(runner.forget)
        GameLength(service).attach()
        log.info("tables are loaded from %s when first asked for", settings.db_url)
        await fanout.start(
            lambda table_id, version: heard(service, table_id, version), lambda: catch_up_all(service)
        )
        service.announcers.append(fanout.publish)
        app.state.service = service
        app.state.runner = runner
        app.state.reviews = ReviewService()
        loop = asyncio.get_running_loop()
        background = [
            loop.create_task(sweep(service, runner, settings.idle_seconds, limits), name="handfoot-unload")
        ]
        if settings.redis_url:  # other processes store moves too
            background.append(loop.create_task(check_stale(service), name="handfoot-check"))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
            await app.state.reviews.close()
            await fanout.close()
            await runner.stop()
            await service.stop()
            storage.close()

    return lifespan
