"""Bots playing their seats server-side, through the same path as everyone's moves (``tables.moves.play``).

After every change to a table (created, loaded, a move accepted here or caught up from another process)
the runner checks whether a bot is to move there; if so, and if this process holds the table's bot
lease (``cluster.leases``: with several processes, one runs a table's bots, and another takes over within
``LEASE_SECONDS`` of its dying), it waits ``delay`` seconds (a human-like pause; zero in tests), asks the
bot for a move from its seat's *view*, and submits it with the seat's token and the version it looked at.

Bots think in the runner's own threads (``BOT_THREADS``), one turn per table at a time, queued fairly
(``bots.queue.FairQueue``): round-robin over the addresses that created the tables, so twenty tables of
slow bots from one address get the threads as often as one table from another; and the bots of tables
where a person plays (who waits for them) go before those of tables of bots alone, or of bots and
programs (``someone_waits``), on a thread kept for them, while the others' searches pause. A table of
slow bots cannot take the threads that hints, storage and catching up use, nor hold any table's lock
while it thinks.

Bots play only while someone looks: once a table has had no connection (and no read of its summary)
for ``UNWATCHED_SECONDS``, its bots stop (the table is *put away*: nothing is lost, every move is
stored, and the sweep later takes it out of memory); they carry on when someone opens the table again
(``seen``). ``bot_tables`` counts the tables of bots alone that play, per creating address, for the
caps on creating more (``limits.MAX_BOT_TABLES_PER_ADDRESS``, ``limits.MAX_BOT_TABLES``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from handfoot.engine import move_text
from handfoot.server.bots.queue import FairQueue
from handfoot.server.cluster.leases import BotLeases, LocalLeases
from handfoot.server.limits import Limiters
from handfoot.server.tables.moves import GAME_OVER_RULE, SERVER_RULE, Accepted, play
from handfoot.server.tables.seat_bots import SeatBot, seat_bot, seat_reading
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable

log = logging.getLogger("handfoot.server")

MAX_FAILURES = 3
# Threads bots think in: all cores but one (for the event loop), at least one.
BOT_THREADS = max(1, (os.cpu_count() or 2) - 1)
# A table nobody has looked at for this long is put away: its bots stop until someone opens it again.
UNWATCHED_SECONDS = 120.0


def bots_alone(live: LiveTable) -> bool:
    """True if bots play every seat of ``live`` (its own bots, or stand-ins the host handed seats to)."""
    return all(seat.bot_plays is not None for seat in live.seats)


def someone_waits(live: LiveTable) -> bool:
    """True if a person may be waiting for ``live``'s bots: it has a person's seat (not handed to a
    bot) that is not played by programs alone (``handfoot bot connect``: every connection of the seat
    said ``program`` in its hello). A seat nobody is connected to counts as a person's."""
    for index, seat in enumerate(live.seats):
        if seat.bot_plays is not None:
            continue
        mine = [c for c in live.connections if c.seat == index]
        if not mine or not all(c.program for c in mine):
            return True
    return False


class BotRunner:
    """Runs at most one bot task per table. ``attach`` makes it listen to a TableService."""

    def __init__(
        self,
        service: TableService,
        delay: float,
        leases: BotLeases | None = None,
        threads: int = BOT_THREADS,
        unwatched_seconds: float = UNWATCHED_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.delay = delay
        self.leases = leases if leases is not None else LocalLeases("this-process")
        # One thread more than ``threads``, kept for the bots of tables where someone waits.
        self.pool = ThreadPoolExecutor(threads + 1, thread_name_prefix="handfoot-bot")
        self.queue = FairQueue(self.pool, threads, reserve=1)
        self.unwatched_seconds = unwatched_seconds
        self.clock = clock
        self.owners: dict[str, str] = {}  # table id -> the address that created (or woke) it
        self.seen_at: dict[str, float] = {}  # table id -> when someone last looked at it
        self.put_away: set[str] = set()  # tables whose bots stopped: nobody looks
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.failures: dict[str, int] = {}
        self.bots: dict[tuple[str, int, str], SeatBot] = {}
        self.rngs: dict[str, random.Random] = {}
        self.waking: dict[str, asyncio.TimerHandle] = {}  # a look again once people read a hand's score
        self.stopped = False

    def attach(self) -> None:
        """Listen to the service: every table change may start a bot's turn."""
        self.service.listeners.append(self.poke)

    def bot_to_move(self, live: LiveTable) -> int | None:
        """The seat of the bot that is to move at ``live`` (a bot's seat, or a person's the host handed to
        a bot), or None."""
        seat = live.game.to_move
        if seat is None or live.broken or live.stale or live.ended or live.seats[seat].bot_plays is None:
            return None  # a stale table is poked again once it is read from storage again
        if live.waiting_for():
            return None  # the first hand waits for the invited people (poked when one arrives)
        return seat

    def owner(self, table_id: str) -> str:
        """Whom a table's bot decisions are queued under: the address that created it, else (a table
        loaded from storage) the first address that opened it here, else the table itself."""
        return self.owners.get(table_id, f"table {table_id}")

    def own(self, table_id: str, address: str) -> None:
        """Record the address a table's bots are queued under, unless it has one already."""
        self.owners.setdefault(table_id, address)

    def seen(self, live: LiveTable, address: str | None = None) -> None:
        """Someone looked at ``live`` (``address``, if known, owns it unless another does): a table put
        away plays again."""
        self.seen_at[live.id] = self.clock()
        if address is not None:
            self.own(live.id, address)
        if live.id in self.put_away:
            self.put_away.discard(live.id)
            log.info("table %s: someone is back; its bots play again", live.id)
        self.poke(live)

    def watched(self, live: LiveTable) -> bool:
        """True if someone has a connection to ``live`` or looked at it in the last
        ``unwatched_seconds`` (counted from when the runner first saw the table)."""
        now = self.clock()
        if live.connections:
            self.seen_at[live.id] = now
            return True
        return now - self.seen_at.setdefault(live.id, now) < self.unwatched_seconds

    def bot_tables(self) -> dict[str, int]:
        """How many tables of bots alone are playing (in memory, not over, not put away), per owner."""
        counts: dict[str, int] = {}
        for live in self.service.tables.values():
            if live.id not in self.put_away and not live.over and not live.broken and bots_alone(live):
                counts[self.owner(live.id)] = counts.get(self.owner(live.id), 0) + 1
        return counts

    def poke(self, live: LiveTable) -> None:
        """Start the table's bot task if a bot is to move and none is running (needs a running loop). While
        people read a finished hand's score (``LiveTable.hand_end_wait``) no bot plays: the table is looked
        at again when their time is up, or when each closed the score (``ready``, which notifies)."""
        if self.stopped or live.id in self.tasks:
            return
        wait = live.hand_end_wait(time.monotonic())
        if wait > 0:
            if live.id not in self.waking:
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:
                    return
                self.waking[live.id] = loop.call_later(wait, self._wake, live)
            return
        if self.bot_to_move(live) is None:
            return
        if live.id in self.put_away:
            return
        if self.failures.get(live.id, 0) >= MAX_FAILURES:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.tasks[live.id] = loop.create_task(self._turn(live))

    def _wake(self, live: LiveTable) -> None:
        self.waking.pop(live.id, None)
        self.poke(live)

    async def _turn(self, live: LiveTable) -> None:
        try:
            if not self.watched(live):
                self.put_away.add(live.id)
                log.info("table %s put away: nobody has looked for %.0f s", live.id, self.unwatched_seconds)
                return
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
        if live.id not in self.put_away:
            self.poke(live)

    async def _move(self, live: LiveTable) -> None:
        seat = self.bot_to_move(live)
        if seat is None:
            return
        key = (live.id, seat, live.seats[seat].bot_plays or "")
        if key not in self.bots:
            self.bots[key] = seat_bot(key[2])
        rng = self.rngs.setdefault(live.id, random.Random(secrets.randbits(64)))
        version = live.version
        legal = live.game.legal_moves()
        reading = seat_reading(live.game, seat)
        # A searching bot may think for a while: off the event loop, in the bots' own threads (queued
        # fairly with every other table's; a person's table first), on a reading and a list that are its own.
        choose = partial(self.bots[key].choose_seat, reading, legal, rng)
        move = await self.queue.run(self.owner(live.id), choose, urgent=someone_waits(live))
        if live.version != version or self.bot_to_move(live) != seat or seat not in live.bot_tokens:
            return  # the table moved on, or the host handed the seat back meanwhile
        if not await self.leases.acquire(live.id):
            return
        outcome = await play(self.service, live, live.bot_tokens[seat], version, move_text(move))
        if isinstance(outcome, Accepted):
            self.failures.pop(live.id, None)
            return
        if outcome.rule == SERVER_RULE:
            return  # not the bot's doing: the table is stale, and its bots are poked once it is read again
        if outcome.rule == GAME_OVER_RULE:
            return  # the game ended meanwhile (the host, or its length)
        if outcome.rule != "version":
            log.warning(
                "the bot at table %s seat %d was refused %r: %s", live.id, seat, outcome.move, outcome.message
            )
            self.failures[live.id] = self.failures.get(live.id, 0) + 1
            if live.version == version:
                await play(self.service, live, live.bot_tokens[seat], version, move_text(legal[0]))

    def forget(self, table_id: str) -> None:
        """Drop what the runner keeps for a table that was unloaded (its bots, random source, failures)."""
        for key in [key for key in self.bots if key[0] == table_id]:
            del self.bots[key]
        self.rngs.pop(table_id, None)
        self.failures.pop(table_id, None)
        handle = self.waking.pop(table_id, None)
        if handle is not None:
            handle.cancel()
        self.seen_at.pop(table_id, None)
        self.put_away.discard(table_id)
        owner = self.owners.pop(table_id, None)
        if owner is not None and owner not in self.owners.values():
            self.queue.forget(owner)

    async def stop(self) -> None:
        """Cancel every bot task and wait for them to end."""
        self.stopped = True
        for handle in self.waking.values():
            handle.cancel()
        self.waking.clear()
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)
        await self.leases.close()


def bot_table_refusal(runner: BotRunner, limits: Limiters, client: str) -> str | None:
    """Why ``client`` may not start another table of bots alone now (None: it may): at most
    ``limits.bot_tables_per_address`` of them playing from one address, ``limits.bot_tables`` in all."""
    playing = runner.bot_tables()
    mine = playing.get(client, 0)
    if limits.bot_tables_per_address is not None and mine >= limits.bot_tables_per_address:
        return (
            f"too many tables of bots alone playing from your address: at most "
            f"{limits.bot_tables_per_address} at once ({mine} play now); wait for one to finish, or "
            "seat a person"
        )
    if limits.bot_tables is not None and sum(playing.values()) >= limits.bot_tables:
        return (
            f"this server plays as many tables of bots alone as it can ({limits.bot_tables}); "
            "try again later, or seat a person"
        )
    return None
