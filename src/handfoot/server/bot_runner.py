"""Bots playing their seats server-side, through the same pipeline as everyone else.

After every change to a table (created, loaded, a move accepted here or caught up from another process)
the runner checks whether a bot is to move there; if so, and if this process holds the table's bot
lease (``leases``: with several processes, one runs a table's bots, and another takes over within
``LEASE_SECONDS`` of its dying), it waits ``delay`` seconds (a human-like pause; zero in tests), asks the
bot for a move from its seat's *view*, and submits it with the seat's token and the version it looked at.

Bots think in the runner's own threads (``BOT_THREADS``), one turn per table at a time, first come first
served: a table full of slow bots waits its turn there and cannot take the threads that hints, storage
and catching up use, nor hold any table's lock while it thinks.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
from concurrent.futures import ThreadPoolExecutor

from handfoot.engine import move_text
from handfoot.server.leases import BotLeases, LocalLeases
from handfoot.server.pipeline import Accepted, play
from handfoot.server.seat_bots import SeatBot, legal_moves, make_bot
from handfoot.server.tables import LiveTable, TableService

log = logging.getLogger("handfoot.server")

MAX_FAILURES = 3
# Threads bots think in: all cores but one (for the event loop), at least one.
BOT_THREADS = max(1, (os.cpu_count() or 2) - 1)


class BotRunner:
    """Runs at most one bot task per table. ``attach`` makes it listen to a TableService."""

    def __init__(
        self,
        service: TableService,
        delay: float,
        leases: BotLeases | None = None,
        threads: int = BOT_THREADS,
    ) -> None:
        self.service = service
        self.delay = delay
        self.leases = leases if leases is not None else LocalLeases("this-process")
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="handfoot-bot")
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.failures: dict[str, int] = {}
        self.bots: dict[tuple[str, int, str], SeatBot] = {}
        self.rngs: dict[str, random.Random] = {}
        self.stopped = False

    def attach(self) -> None:
        """Listen to the service: every table change may start a bot's turn."""
        self.service.listeners.append(self.poke)

    def bot_to_move(self, live: LiveTable) -> int | None:
        """The seat of the bot that is to move at ``live`` (a bot's seat, or a person's the host handed to
        a bot), or None."""
        seat = live.game.to_move
        if seat is None or live.broken or live.ended or live.seats[seat].bot_plays is None:
            return None
        return seat

    def poke(self, live: LiveTable) -> None:
        """Start the table's bot task if a bot is to move and none is running (needs a running loop)."""
        if self.stopped or live.id in self.tasks or self.bot_to_move(live) is None:
            return
        if self.failures.get(live.id, 0) >= MAX_FAILURES:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.tasks[live.id] = loop.create_task(self._turn(live))

    async def _turn(self, live: LiveTable) -> None:
        try:
            if await self.leases.acquire(live.id):
                await asyncio.sleep(self.delay)
                await self._move(live)
            else:
                # Another process runs this table's bots. Look again in half a lease: if that process
                # died, the turn is taken over at most one and a half leases after its last renewal.
                await asyncio.sleep(self.leases.seconds / 2)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot at table %s failed", live.id)
            self.failures[live.id] = self.failures.get(live.id, 0) + 1
        finally:
            self.tasks.pop(live.id, None)
        self.poke(live)

    async def _move(self, live: LiveTable) -> None:
        seat = self.bot_to_move(live)
        if seat is None:
            return
        key = (live.id, seat, live.seats[seat].bot_plays or "")
        if key not in self.bots:
            self.bots[key] = make_bot(key[2])
        rng = self.rngs.setdefault(live.id, random.Random(secrets.randbits(64)))
        version = live.version
        legal = legal_moves(live.game.state)
        seat_view = live.view_for(seat)
        # A searching bot may think for a while: off the event loop, in the bots' own threads, on a view and
        # a list that are its own.
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(self.pool, self.bots[key].choose, seat_view, legal, rng)
        if live.version != version or self.bot_to_move(live) != seat or seat not in live.bot_tokens:
            return  # the table moved on, or the host handed the seat back meanwhile
        if not await self.leases.acquire(live.id):
            return
        outcome = await play(self.service, live, live.bot_tokens[seat], version, move_text(move))
        if isinstance(outcome, Accepted):
            self.failures.pop(live.id, None)
            return
        if outcome.rule != "version":
            log.warning(
                "the bot at table %s seat %d was refused %r: %s", live.id, seat, outcome.move, outcome.message
            )
            self.failures[live.id] = self.failures.get(live.id, 0) + 1
            if legal and live.version == version:
                await play(self.service, live, live.bot_tokens[seat], version, move_text(legal[0]))

    def forget(self, table_id: str) -> None:
        """Drop what the runner keeps for a table that was unloaded (its bots, random source, failures)."""
        for key in [key for key in self.bots if key[0] == table_id]:
            del self.bots[key]
        self.rngs.pop(table_id, None)
        self.failures.pop(table_id, None)

    async def stop(self) -> None:
        """Cancel every bot task and wait for them to end."""
        self.stopped = True
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)
        await self.leases.close()
