"""The service that holds every table of this server: creating, joining and finding them, loading them
from storage when first asked for, unloading idle ones, and reading a stale one again.

Memory never runs ahead of storage: a change is stored first and only then made in memory. When a write
fails its outcome may be unknown (the database may have taken it and then not answered), so the table is
marked ``stale``: it takes no move until it has been read from storage again, which the service retries
by itself (``mark_stale``) until the database answers. Every database call is awaited through
``Storage.run``, off the event loop.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from handfoot.rules import PRESET_NAMES, RuleError, load_rules
from handfoot.server.settings import DEFAULT_AWAY_SECONDS
from handfoot.server.store.storage import (
    SeatRow,
    StorageError,
    StoredTable,
    TableRow,
    UnreadableRow,
    now,
    token_hash,
)
from handfoot.server.tables.history import replay_history
from handfoot.server.tables.ports import Change, Notifier, Silent, TableStorage
from handfoot.server.tables.rebuild import rebuild
from handfoot.server.tables.table import (
    BOT,
    HAND_READ_SECONDS,
    HUMAN,
    Connection,
    History,
    LiveTable,
    LobbyError,
    Seat,
    TableUnreadable,
    is_table_id,
    new_history,
)

log = logging.getLogger("handfoot.server")

# How long a stale table waits before each attempt to read it from storage again (the last repeats).
RECOVER_SECONDS = (0.25, 0.5, 1.0)
# Tables known not to open, remembered (at most this many) so asking again costs no database call.
MAX_UNREADABLE = 1024


@dataclass(frozen=True)
class NewTable:
    """A table just created, with its secrets (given once, never stored in clear): the token of each
    invited seat, the watch key and the host key."""

    live: LiveTable
    tokens: dict[int, str]
    watch_key: str
    host_key: str


def _fresh_token() -> str:
    return secrets.token_urlsafe(24)


class TableService:
    """Every table of this server: creating, joining and finding them, and loading them from storage.

    It is handed its tools at start-up: ``storage`` (where tables are stored) and ``notifier`` (the
    one way a table's connections are told of a change, ``tell``; by default nobody is told).
    ``listeners`` are called with a table after each accepted move and when a table is created or
    loaded (the bot runner listens, to move for bots whose turn it is). ``announcers`` are called with
    a table's id and new version after each move this process stores (the fan-out to other processes
    queues it). The domain knows them only as plain callables and never waits for them: none of them
    sends anything itself, they queue what their own tasks send.
    """

    def __init__(
        self,
        storage: TableStorage,
        snapshot_every: int,
        away_after: float = DEFAULT_AWAY_SECONDS,
        notifier: Notifier | None = None,
    ) -> None:
        self.storage = storage
        self.snapshot_every = snapshot_every
        self.away_after = away_after
        self.notifier: Notifier = Silent() if notifier is None else notifier
        self.tables: dict[str, LiveTable] = {}
        self.listeners: list[Callable[[LiveTable], None]] = []
        self.announcers: list[Callable[[str, int], None]] = []
        self.unloaders: list[Callable[[str], None]] = []
        self.recovering: dict[str, asyncio.Task[None]] = {}
        self.unreadable: OrderedDict[str, str] = OrderedDict()

    def notify(self, live: LiveTable) -> None:
        """Tell every listener that ``live`` changed."""
        live.touched = time.monotonic()
        for listener in self.listeners:
            listener(live)

    def tell(self, live: LiveTable, change: Change) -> None:
        """Tell ``live``'s connections of a change already made (and stored): the one way anything about
        a table reaches its connections, but the replies to the one that asked. Returns at once."""
        self.notifier.tell(live, change)

    def revoke(self, live: LiveTable, gone: list[Connection]) -> None:
        """Close connections just removed from ``live`` (their link was voided), telling each why."""
        self.notifier.revoke(live, gone)

    def show(self, live: LiveTable) -> None:
        """Send each of ``live``'s connections its new state (call with its lock held, so states leave
        in version order; returns at once)."""
        self.tell(live, Change.STATE)

    def announce(self, live: LiveTable) -> None:
        """Tell every announcer that ``live`` reached its current version (returns at once)."""
        for announcer in self.announcers:
            announcer(live.id, live.version)

    async def get(self, table_id: str) -> LiveTable | None:
        """The table with this id (read from storage if another process created it), or None (also for
        text that cannot be a table id, which never reaches the database). Raises TableUnreadable for a
        stored table that cannot be opened, StorageError when the database does not answer."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        return await self.load(table_id)

    async def load(self, table_id: str) -> LiveTable | None:
        """Read a table that is not in memory from storage (from its latest snapshot and the moves after
        it) and keep it; None if there is no such table. Tables are loaded only when asked for. Raises as
        ``get`` does."""
        if not is_table_id(table_id):
            return None
        if table_id in self.unreadable:
            raise TableUnreadable(self.unreadable[table_id])
        try:
            stored = await self.storage.run(self.storage.load, table_id)
            if stored is None or table_id in self.tables:
                return self.tables.get(table_id)
            live = await asyncio.to_thread(self.live_from_stored, stored)
        except (RuleError, UnreadableRow) as exc:
            why = f"its rules are refused: {exc}" if isinstance(exc, RuleError) else str(exc)
            message = f"table {table_id} cannot be opened: {why}"
            log.error("%s", message)
            self.unreadable[table_id] = message
            while len(self.unreadable) > MAX_UNREADABLE:
                self.unreadable.popitem(last=False)
            raise TableUnreadable(message) from None
        live = self.tables.setdefault(table_id, live)  # another request may have loaded it meanwhile
        self.notify(live)
        return live

    # --- loading
    def live_from_stored(self, stored: StoredTable) -> LiveTable:
        """A LiveTable rebuilt from storage by replaying its moves (``broken`` set if that fails).
        Raises RuleError if the table's rules are refused today."""
        rebuilt = rebuild(stored)
        game, problem = rebuilt.game, rebuilt.problem
        row = stored.row
        bot_tokens: dict[int, str] = {}
        seats = []
        for s in stored.seats:
            digest = s.token_hash or ""
            if s.kind == BOT:
                bot_tokens[s.seat] = _fresh_token()
                digest = token_hash(bot_tokens[s.seat])
            elif s.stand_in:
                bot_tokens[s.seat] = _fresh_token()
            seats.append(Seat(s.seat, s.kind, s.bot, s.name, digest, s.stand_in))
        loaded_at = time.monotonic()
        if problem:
            log.error("table %s cannot be rebuilt: %s", row.id, problem)
        return LiveTable(
            id=row.id,
            created_at=row.created_at,
            rules_source=row.rules_source,
            seed=row.seed,
            dealer=row.dealer,
            game=game,
            seats=seats,
            version=len(stored.moves),
            broken=problem,
            bot_tokens=bot_tokens,
            earlier=rebuilt.earlier,
            public=row.public,
            watch_hash=row.watch_hash,
            host_hash=row.host_hash,
            ended=row.ended,
            read_seconds=HAND_READ_SECONDS if row.read_seconds is None else float(row.read_seconds),
            waits=row.waits,
            history=None if stored.moves else new_history(),  # built when first asked for
            left_at={s.seat: loaded_at for s in stored.seats if s.kind == HUMAN},
            away_after=self.away_after,
        )

    async def history_of(self, live: LiveTable) -> History:
        """The public entries of ``live``'s last moves (built from its stored moves the first time it is
        asked for after loading: a table is rebuilt from its snapshot, not by replaying every move).
        Raises StorageError when the database does not answer."""
        if live.history is None:
            version = live.version
            stored = await self.storage.run(self.storage.load, live.id)
            moves = stored.moves[:version] if stored is not None else []
            history = await asyncio.to_thread(
                replay_history, live.rules_source, live.players, live.seed, live.dealer, moves
            )
            if live.history is None and live.version == version:
                live.history = history
            return history
        return live.history

    def adopt(self, live: LiveTable) -> LiveTable:
        """The instance of ``live``'s table this service holds, keeping ``live`` if it holds none (it was
        unloaded while a caller held it). Call with ``live``'s lock held before attaching to it."""
        held = self.tables.setdefault(live.id, live)
        return held

    def unload_idle(self, idle_seconds: float, busy: Callable[[str], bool] = lambda _id: False) -> list[str]:
        """Forget the tables nobody uses: no connection, not locked, not ``busy`` (a bot turn in
        progress), and finished or untouched for ``idle_seconds``. They are read from storage again when
        asked for. Tells every ``unloaders`` listener each id; returns them."""
        now = time.monotonic()
        gone = [
            live.id
            for live in self.tables.values()
            if not live.connections
            and not live.lock.locked()
            and not busy(live.id)
            and (live.game.finished or now - live.touched >= idle_seconds)
        ]
        for table_id in gone:
            del self.tables[table_id]
            for unloaded in self.unloaders:
                unloaded(table_id)
        return gone

    # --- after a failed write
    async def refresh(self, live: LiveTable) -> bool:
        """Put a table back to what storage holds: its game, version, seats' names and stand-ins and
        whether the host ended it (call with the table's lock held). True once done (``stale`` cleared);
        False, leaving the table as it is and ``stale``, when the database does not answer (or did not
        answer the last attempt, made less than ``RECOVER_SECONDS[0] / 2`` ago: clients retrying a refused
        move do not each make the database refuse them again); the table is then read again by itself
        when the database answers (``mark_stale``)."""
        if live.stale and time.monotonic() < live.retry_at:
            return False
        try:
            stored = await self.storage.run(self.storage.load, live.id)
            if stored is not None:
                rebuilt = await asyncio.to_thread(rebuild, stored)
        except (StorageError, RuleError) as exc:
            log.warning("table %s cannot be read again yet: %s", live.id, exc)
            live.retry_at = time.monotonic() + RECOVER_SECONDS[0] / 2
            self.mark_stale(live)  # read again by itself once the database answers
            return False
        live.stale = False
        if stored is None:
            live.broken = "the table is no longer in storage"
            return True
        live.game, live.broken, live.earlier = rebuilt.game, rebuilt.problem, rebuilt.earlier
        if live.version != len(stored.moves):
            live.history = None  # rebuilt from storage when next asked for
            live.last = None
        live.version = len(stored.moves)
        live.ended = stored.row.ended
        if stored.row.read_seconds is not None:
            live.read_seconds = float(stored.row.read_seconds)
        for row in stored.seats:
            seat = live.seats[row.seat]
            seat.name = row.name
            if row.kind == HUMAN and seat.stand_in != row.stand_in:
                seat.stand_in = row.stand_in
                if row.stand_in is None:
                    live.bot_tokens.pop(row.seat, None)
                else:
                    live.bot_tokens[row.seat] = _fresh_token()
        return True

    def mark_stale(self, live: LiveTable) -> None:
        """Note that a write to ``live`` failed (its outcome may be unknown): the table takes no move
        until it is read from storage again, and the service tries that by itself, waiting
        ``RECOVER_SECONDS`` between attempts, until the database answers (needs a running loop)."""
        live.stale = True
        if live.id not in self.recovering:
            task = asyncio.get_running_loop().create_task(
                self._recover(live), name=f"handfoot-recover-{live.id}"
            )
            self.recovering[live.id] = task

    async def _recover(self, live: LiveTable) -> None:
        """Read a stale table from storage again, until it is done (then tell its connections and the
        listeners) or the table is no longer held."""
        try:
            for attempt in itertools.count():
                await asyncio.sleep(RECOVER_SECONDS[min(attempt, len(RECOVER_SECONDS) - 1)])
                if not live.stale or self.tables.get(live.id) is not live:
                    return
                async with live.lock:
                    if not live.stale:
                        return
                    if not await self.refresh(live):
                        continue
                    self.show(live)
                log.info("table %s was read from storage again", live.id)
                self.notify(live)
                return
        finally:
            self.recovering.pop(live.id, None)

    async def stop(self) -> None:
        """Stop the recoveries in progress (at shutdown)."""
        tasks = list(self.recovering.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- creating and joining
    async def open_table(
        self,
        preset: str,
        options: dict[str, Any],
        players: int | None,
        seats: Sequence[tuple[str, str | None]],
        public: bool = False,
        waits: bool = False,
    ) -> NewTable:
        """Create and store a table: ``preset`` plus option ``options``, ``players`` seats (the rules'
        default if None), each seat ``("invite", None)`` or ``("bot", name)`` (bot names already checked);
        private unless ``public`` (listed in the lobby, watched without a key); with ``waits``, its first
        hand waits for the invited people (``LiveTable.waiting_for``).

        Returns the table with the secret token of every invited seat, its watch key and its host key.
        Raises LobbyError as ``new_table`` does, and StorageError when the table could not be stored
        (then no table is kept).
        """
        made, row, rows = self.new_table(preset, options, players, seats, public, waits)
        await self.storage.run(self.storage.create_table, row, rows)
        return self.keep(made)

    def keep(self, made: NewTable) -> NewTable:
        """Hold a table just stored, and tell the listeners."""
        self.tables[made.live.id] = made.live
        self.notify(made.live)
        return made

    def new_table(
        self,
        preset: str,
        options: dict[str, Any],
        players: int | None,
        seats: Sequence[tuple[str, str | None]],
        public: bool = False,
        waits: bool = False,
    ) -> tuple[NewTable, TableRow, list[SeatRow]]:
        """A new table as ``open_table`` describes it, with the rows that store it (nothing is stored or
        kept yet). Raises LobbyError for an unknown preset, options that do not validate (the
        RuleError's message), a player count the rules do not allow, or a seat list of the wrong length.
        """
        if preset not in PRESET_NAMES:
            raise LobbyError(f"preset {preset!r} does not exist; allowed: {', '.join(PRESET_NAMES)}")
        if "extends" in options:
            raise LobbyError("options cannot hold 'extends': the preset field names the rules to start from")
        source: str | dict[str, Any] = {"extends": preset, **options} if options else preset
        try:
            rules = load_rules(source)
        except RuleError as exc:
            raise LobbyError(str(exc)) from None
        count = rules.default_players if players is None else players
        if count not in rules.players_allowed:
            allowed = ", ".join(map(str, rules.players_allowed))
            raise LobbyError(f"players is {count}; {rules.name} allows {allowed}")
        if not seats:
            seats = [("invite", None)] * count
        if len(seats) != count:
            raise LobbyError(
                f"seats lists {len(seats)} seats; a table of {count} players needs exactly {count}"
            )
        table_id = secrets.token_urlsafe(8)
        watch_key, host_key = _fresh_token(), _fresh_token()
        row = TableRow(
            id=table_id,
            created_at=now("microseconds"),
            rules_source=source,
            players=count,
            seed=secrets.randbits(62),
            dealer=secrets.randbelow(count),
            public=public,
            waits=waits,
            watch_hash=token_hash(watch_key),
            host_hash=token_hash(host_key),
        )
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for index, (kind, bot) in enumerate(seats):
            if kind == "bot":
                rows.append(SeatRow(index, BOT, bot))
            else:
                tokens[index] = _fresh_token()
                rows.append(SeatRow(index, HUMAN, None, token_hash(tokens[index])))
        live = self.live_from_stored(StoredTable(row, rows))
        return NewTable(live, tokens, watch_key, host_key), row, rows

    async def write(self, live: LiveTable, method: Callable[..., None], *args: Any) -> None:
        """Store a change to ``live`` (``method`` is a Storage method, given the table's id and
        ``args``) before the caller makes it in memory. Raises StorageError if it fails, after marking
        the table stale (the change may have been stored all the same)."""
        try:
            await self.storage.run(method, live.id, *args)
        except StorageError:
            self.mark_stale(live)
            raise

    async def join(self, live: LiveTable, seat: int, name: str) -> None:
        """Give a human seat its display name (joining again just renames it; call with the table's lock
        held) and, once stored, tell the table's connections its new summary. Raises LobbyError for a
        bot's seat, StorageError when the name could not be stored (nothing changed, nobody told)."""
        if live.seats[seat].kind != HUMAN:
            raise LobbyError(f"seat {seat} is played by a bot")
        await self.write(live, self.storage.set_name, seat, name)
        live.seats[seat].name = name
        self.tell(live, Change.SUMMARY)

    def ready(self, live: LiveTable, seat: int, hand: int) -> None:
        """The person at ``seat`` has read the score of finished hand ``hand`` (0-based): note it (kept
        in memory only), tell the table's connections (their score dialogs say who still reads it) and
        the listeners (the next hand may have waited for it)."""
        live.note_ready(seat, hand)
        self.tell(live, Change.SUMMARY)
        self.notify(live)
