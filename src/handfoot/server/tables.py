"""Tables in play: each one a ``Game`` with its seats, version, connections and lock, and the service that
creates them, finds them and rebuilds them from storage.

A table's *version* is the number of moves played at it; every accepted move adds one. Tables are
loaded from storage when first asked for (from their latest snapshot and the moves after it,
``server.snapshots``), not at start-up, and ``unload_idle`` forgets finished and idle ones again.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from handfoot.engine import (
    Game,
    Seating,
    View,
    score_lines,
    spectator_view,
    view,
)
from handfoot.record import Record, record_of
from handfoot.rules import PRESET_NAMES, RuleError, load_rules, rules_to_mapping
from handfoot.server.snapshots import rebuild
from handfoot.server.storage import SeatRow, Storage, StoredTable, TableRow, now, token_hash

log = logging.getLogger("handfoot.server")

HUMAN = "human"
BOT = "bot"


# Table ids are ``secrets.token_urlsafe`` text; the column holds up to 32 characters.
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_table_id(text: str) -> bool:
    """True if ``text`` could be a table id (URL-safe base64 characters, 1 to 32 of them). Anything else,
    a NUL byte say, is no table and is answered as one without asking the database."""
    return _TABLE_ID.fullmatch(text) is not None


class LobbyError(ValueError):
    """A table that cannot be created or joined as asked; the message says why and what is allowed."""


@dataclass
class Seat:
    """One seat: a human (known by the hash of its secret token) or a bot (with a token that lives only in
    this process). ``name`` is the display name, None until a human joins."""

    index: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str


@dataclass(eq=False)
class Connection:
    """One open client connection: how to send it a JSON message, and its seat (None: a spectator)."""

    send: Callable[[dict[str, Any]], Awaitable[None]]
    seat: int | None


@dataclass(eq=False)
class LiveTable:
    """A table in memory. ``game`` is authoritative; ``version`` counts its stored moves. ``broken`` says
    why a table can no longer take moves (its stored moves no longer replay), else None."""

    id: str
    created_at: str
    rules_source: str | dict[str, Any]
    seed: int
    dealer: int
    game: Game
    seats: list[Seat]
    version: int = 0
    broken: str | None = None
    last: dict[str, Any] | None = None
    connections: list[Connection] = field(default_factory=list)
    bot_tokens: dict[int, str] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    earlier: tuple[str, ...] = ()  # stored moves before the snapshot the game was rebuilt from
    touched: float = field(default_factory=time.monotonic)  # last move, arrival or departure
    notice_pending: bool = False  # a ``table`` notice is scheduled (fanout.notice_table)
    notice_at: float = -1e9  # when the last one was sent (event-loop time)

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.game.players

    @property
    def seating(self) -> Seating:
        """Sides and meld owners of the seats."""
        return self.game.state.seating

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose secret token this is, or None (no token, or not one of this table's)."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if secrets.compare_digest(seat.token_hash, digest):
                return seat.index
        return None

    def view_for(self, seat: int | None) -> View:
        """The seat's own view of the hand in play, or the public view for None."""
        state = self.game.state
        return spectator_view(state) if seat is None else view(state, seat)

    def legal_for(self, seat: int | None) -> list[str]:
        """The text of every legal atomic move, for the seat to move only (else empty)."""
        if seat is None or self.broken or self.game.to_move != seat:
            return []
        return [str(move) for move in self.game.legal_moves()]

    def info(self) -> dict[str, Any]:
        """The table's public summary: no token, seed, deal or hidden card."""
        game = self.game
        connected = {c.seat for c in self.connections if c.seat is not None}
        return {
            "id": self.id,
            "created_at": self.created_at,
            "rules": game.rules.name,
            "rules_source": self.rules_source,
            "players": self.players,
            "seats": [
                {
                    "seat": s.index,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "joined": s.kind == BOT or s.name is not None,
                    "connected": s.kind == BOT or s.index in connected,
                    "side": self.seating.side_of[s.index],
                }
                for s in self.seats
            ],
            "spectators": sum(1 for c in self.connections if c.seat is None),
            "version": self.version,
            "hand_index": game.hand_index,
            "hands": [
                {
                    "scores": list(r.scores),
                    "went_out": r.went_out,
                    "reason": r.reason,
                    "lines": [
                        [
                            {"label": ln.label, "count": ln.count, "points": ln.points}
                            for ln in score_lines(game.rules.for_hand(index), t)
                        ]
                        for t in r.tallies
                    ],
                }
                for index, r in enumerate(game.results)
            ],
            "totals": list(game.totals),
            "to_move": game.to_move,
            "finished": game.finished,
            "winner": game.winner,
            "broken": self.broken,
        }

    def record(self) -> Record:
        """The game as a record (``handfoot replay`` accepts its JSON)."""
        record = record_of(self.game, self.rules_source)
        return replace(record, moves=self.earlier + record.moves) if self.earlier else record


def _fresh_token() -> str:
    return secrets.token_urlsafe(24)


class TableService:
    """Every table of this server: creating, joining and finding them, and loading them from storage.

    ``listeners`` are called with a table after each accepted move and when a table is created or
    loaded (the bot runner listens, to move for bots whose turn it is). ``announcers`` are awaited with
    a table's id and new version after each move this process stores (the fan-out to other processes).
    """

    def __init__(self, storage: Storage, snapshot_every: int) -> None:
        self.storage = storage
        self.snapshot_every = snapshot_every
        self.tables: dict[str, LiveTable] = {}
        self.listeners: list[Callable[[LiveTable], None]] = []
        self.announcers: list[Callable[[str, int], Awaitable[None]]] = []
        self.unloaders: list[Callable[[str], None]] = []

    def notify(self, live: LiveTable) -> None:
        """Tell every listener that ``live`` changed."""
        live.touched = time.monotonic()
        for listener in self.listeners:
            listener(live)

    async def announce(self, live: LiveTable) -> None:
        """Tell every announcer that ``live`` reached its current version."""
        for announcer in self.announcers:
            await announcer(live.id, live.version)

    def get(self, table_id: str) -> LiveTable | None:
        """The table with this id (read from storage if another process created it), or None (also for
        text that cannot be a table id, which never reaches the database)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        return self.load(table_id)

    def load(self, table_id: str) -> LiveTable | None:
        """Read a table that is not in memory from storage (from its latest snapshot and the moves after
        it) and keep it; None if there is no such table. Tables are loaded only when asked for."""
        if not is_table_id(table_id):
            return None
        stored = self.storage.load(table_id)
        if stored is None or table_id in self.tables:
            return self.tables.get(table_id)
        try:
            live = self.live_from_stored(stored)
        except RuleError as exc:
            log.error("table %s has rules that no longer load: %s", table_id, exc)
            return None
        self.tables[table_id] = live
        self.notify(live)
        return live

    # --- loading
    def live_from_stored(self, stored: StoredTable) -> LiveTable:
        """A LiveTable rebuilt from storage by replaying its moves (``broken`` set if that fails)."""
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
            seats.append(Seat(s.seat, s.kind, s.bot, s.name, digest))
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
        )

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

    def reload(self, live: LiveTable) -> None:
        """Put a table's game back to what storage holds (after a failed write)."""
        stored = self.storage.load(live.id)
        if stored is None:
            live.broken = "the table is no longer in storage"
            return
        rebuilt = rebuild(stored)
        live.game, live.broken, live.earlier = rebuilt.game, rebuilt.problem, rebuilt.earlier
        live.version = len(stored.moves)

    # --- creating and joining
    def create(
        self,
        preset: str,
        options: dict[str, Any],
        players: int | None,
        seats: Sequence[tuple[str, str | None]],
    ) -> tuple[LiveTable, dict[int, str]]:
        """Create and store a table: ``preset`` plus option ``options``, ``players`` seats (the rules'
        default if None), each seat ``("invite", None)`` or ``("bot", name)`` (bot names already checked).

        Returns the table and the secret token of every invited seat. Raises LobbyError for an unknown
        preset, options that do not validate (the RuleError's message), a player count the rules do not
        allow, or a seat list of the wrong length.
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
        row = TableRow(
            id=table_id,
            created_at=now(),
            rules_source=source,
            players=count,
            seed=secrets.randbits(62),
            dealer=secrets.randbelow(count),
        )
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for index, (kind, bot) in enumerate(seats):
            if kind == "bot":
                rows.append(SeatRow(index, BOT, bot))
            else:
                tokens[index] = _fresh_token()
                rows.append(SeatRow(index, HUMAN, None, token_hash(tokens[index])))
        self.storage.create_table(row, rows)
        live = self.live_from_stored(StoredTable(row, rows))
        self.tables[table_id] = live
        self.notify(live)
        return live, tokens

    def join(self, live: LiveTable, seat: int, name: str) -> None:
        """Give a human seat its display name (joining again just renames it)."""
        if live.seats[seat].kind != HUMAN:
            raise LobbyError(f"seat {seat} is played by a bot")
        self.storage.set_name(live.id, seat, name)
        live.seats[seat].name = name


def rules_mapping(live: LiveTable) -> dict[str, Any]:
    """Every option of a table's rules, as JSON values."""
    return rules_to_mapping(live.game.rules)
