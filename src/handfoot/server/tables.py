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
from handfoot.server.config import DEFAULT_AWAY_SECONDS
from handfoot.server.history import History, new_history, replay_history
from handfoot.server.snapshots import rebuild
from handfoot.server.storage import SeatRow, Storage, StoredTable, TableRow, now, token_hash

log = logging.getLogger("handfoot.server")

HUMAN = "human"
BOT = "bot"
ENDED_BY_HOST = "host"


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
    this process). ``name`` is the display name, None until a human joins. ``stand_in`` names the bot
    the host handed a human seat to while its player is away (None: the person plays it)."""

    index: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str
    stand_in: str | None = None

    @property
    def bot_plays(self) -> str | None:
        """The bot that plays this seat now (its own bot, or a stand-in), or None when a person does."""
        return self.bot if self.kind == BOT else self.stand_in


@dataclass(eq=False)
class Connection:
    """One open client connection: how to send it a JSON message, its seat (None: a spectator), and
    whether it holds the table's host key."""

    send: Callable[[dict[str, Any]], Awaitable[None]]
    seat: int | None
    host: bool = False


@dataclass(eq=False)
class LiveTable:
    """A table in memory. ``game`` is authoritative; ``version`` counts its stored moves. ``broken`` says
    why a table can no longer take moves (its stored moves no longer replay), else None.

    A table is private unless ``public``: only its links open it (a seat token, the watch key or the
    host key, each known here only by its SHA-256). ``ended`` is set when the host ended the game.
    ``history`` holds the public entries of the last moves; ``left_at`` when each human seat's last
    connection closed (``time.monotonic``), to show it away after ``away_after`` seconds."""

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
    public: bool = True
    watch_hash: str | None = None
    host_hash: str | None = None
    ended: str | None = None
    history: History | None = field(default_factory=new_history)  # None: not built since loading
    left_at: dict[int, float] = field(default_factory=dict)
    away_after: float = DEFAULT_AWAY_SECONDS

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.game.players

    @property
    def seating(self) -> Seating:
        """Sides and meld owners of the seats."""
        return self.game.state.seating

    @property
    def over(self) -> bool:
        """True once the game is over: its rules ended it, or the host did."""
        return self.game.finished or self.ended is not None

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose secret token this is (a person's, or the bot's playing it), or None (no token,
        or not one of this table's)."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if secrets.compare_digest(seat.token_hash, digest):
                return seat.index
        for index, bot_token in self.bot_tokens.items():
            if secrets.compare_digest(token_hash(bot_token), digest):
                return index
        return None

    def is_bot_token(self, token: str | None) -> bool:
        """True if ``token`` is the token of a bot playing a seat here (its own, or a stand-in)."""
        if not token:
            return False
        digest = token_hash(token)
        return any(secrets.compare_digest(token_hash(t), digest) for t in self.bot_tokens.values())

    def is_host(self, key: str | None) -> bool:
        """True if ``key`` is this table's host key."""
        return _matches(key, self.host_hash)

    def may_see(self, key: str | None) -> bool:
        """True if whoever holds ``key`` may see the table: anyone for a public table, else only the
        holders of one of its links (a human seat's token, the watch key or the host key)."""
        if self.public or self.is_host(key) or _matches(key, self.watch_hash):
            return True
        return any(s.kind == HUMAN and _matches(key, s.token_hash) for s in self.seats)

    def connected_seats(self) -> set[int]:
        """The seats with at least one open connection."""
        return {c.seat for c in self.connections if c.seat is not None}

    def is_away(self, seat: int, now_: float | None = None) -> bool:
        """True if a person sat at ``seat`` and has had no connection for ``away_after`` seconds."""
        s = self.seats[seat]
        if s.kind != HUMAN or s.name is None or seat in self.connected_seats():
            return False
        left = self.left_at.get(seat)
        return left is not None and (time.monotonic() if now_ is None else now_) - left >= self.away_after

    def view_for(self, seat: int | None) -> View:
        """The seat's own view of the hand in play, or the public view for None."""
        state = self.game.state
        return spectator_view(state) if seat is None else view(state, seat)

    def legal_for(self, seat: int | None) -> list[str]:
        """The text of every legal atomic move, for the seat to move only (else empty)."""
        if seat is None or self.broken or self.ended or self.game.to_move != seat:
            return []
        return [str(move) for move in self.game.legal_moves()]

    def info(self) -> dict[str, Any]:
        """The table's public summary: no token, seed, deal or hidden card."""
        game = self.game
        connected = self.connected_seats()
        moment = time.monotonic()
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
                    "away": self.is_away(s.index, moment),
                    "stand_in": s.stand_in,
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
            "to_move": None if self.ended else game.to_move,
            "finished": self.over,
            "winner": self.winner,
            "ended": self.ended,
            "public": self.public,
            "broken": self.broken,
        }

    @property
    def winner(self) -> int | None:
        """The winning side: the rules' winner, or, for a game the host ended, the side ahead on the
        totals of the hands played (None on a tie, before any hand ended, or while playing)."""
        if self.ended is None:
            return self.game.winner
        totals = list(self.game.totals)
        if not self.game.results or totals.count(max(totals)) > 1:
            return None
        return totals.index(max(totals))

    def record(self) -> Record:
        """The game as a record (``handfoot replay`` accepts its JSON)."""
        record = record_of(self.game, self.rules_source)
        return replace(record, moves=self.earlier + record.moves) if self.earlier else record


def _matches(key: str | None, digest: str | None) -> bool:
    """True if ``key`` is the secret stored as ``digest`` (both present)."""
    return bool(key and digest) and secrets.compare_digest(token_hash(key or ""), digest or "")


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

    ``listeners`` are called with a table after each accepted move and when a table is created or
    loaded (the bot runner listens, to move for bots whose turn it is). ``announcers`` are awaited with
    a table's id and new version after each move this process stores (the fan-out to other processes).
    """

    def __init__(
        self, storage: Storage, snapshot_every: int, away_after: float = DEFAULT_AWAY_SECONDS
    ) -> None:
        self.storage = storage
        self.snapshot_every = snapshot_every
        self.away_after = away_after
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
            history=None if stored.moves else new_history(),  # built when first asked for
            left_at={s.seat: loaded_at for s in stored.seats if s.kind == HUMAN},
            away_after=self.away_after,
        )

    def history_of(self, live: LiveTable) -> History:
        """The public entries of ``live``'s last moves (built from its stored moves the first time it is
        asked for after loading: a table is rebuilt from its snapshot, not by replaying every move)."""
        if live.history is None:
            stored = self.storage.load(live.id)
            moves = stored.moves[: live.version] if stored is not None else []
            live.history = replay_history(live.rules_source, live.players, live.seed, live.dealer, moves)
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

    def reload(self, live: LiveTable) -> None:
        """Put a table's game back to what storage holds (after a failed write)."""
        stored = self.storage.load(live.id)
        if stored is None:
            live.broken = "the table is no longer in storage"
            return
        rebuilt = rebuild(stored)
        live.game, live.broken, live.earlier = rebuilt.game, rebuilt.problem, rebuilt.earlier
        live.history = None  # rebuilt from storage when next asked for
        live.version = len(stored.moves)

    # --- creating and joining
    def create(
        self,
        preset: str,
        options: dict[str, Any],
        players: int | None,
        seats: Sequence[tuple[str, str | None]],
    ) -> tuple[LiveTable, dict[int, str]]:
        """``open_table`` for a private table; returns the table and the token of every invited seat."""
        made = self.open_table(preset, options, players, seats)
        return made.live, made.tokens

    def open_table(
        self,
        preset: str,
        options: dict[str, Any],
        players: int | None,
        seats: Sequence[tuple[str, str | None]],
        public: bool = False,
    ) -> NewTable:
        """Create and store a table: ``preset`` plus option ``options``, ``players`` seats (the rules'
        default if None), each seat ``("invite", None)`` or ``("bot", name)`` (bot names already checked);
        private unless ``public`` (listed in the lobby, watched without a key).

        Returns the table with the secret token of every invited seat, its watch key and its host key.
        Raises LobbyError for an unknown preset, options that do not validate (the RuleError's message),
        a player count the rules do not allow, or a seat list of the wrong length.
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
            created_at=now(),
            rules_source=source,
            players=count,
            seed=secrets.randbits(62),
            dealer=secrets.randbelow(count),
            public=public,
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
        self.storage.create_table(row, rows)
        live = self.live_from_stored(StoredTable(row, rows))
        self.tables[table_id] = live
        self.notify(live)
        return NewTable(live, tokens, watch_key, host_key)

    def join(self, live: LiveTable, seat: int, name: str) -> None:
        """Give a human seat its display name (joining again just renames it)."""
        if live.seats[seat].kind != HUMAN:
            raise LobbyError(f"seat {seat} is played by a bot")
        self.storage.set_name(live.id, seat, name)
        live.seats[seat].name = name


def rules_mapping(live: LiveTable) -> dict[str, Any]:
    """Every option of a table's rules, as JSON values."""
    return rules_to_mapping(live.game.rules)
