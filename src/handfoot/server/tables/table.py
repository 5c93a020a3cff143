"""A table in play: its ``Game``, seats (known by the hashes of their secrets), version, lock, the
connections that watch it, presence and pacing, and the public summaries the lobby and clients read.

A table's *version* is the number of moves played at it; every accepted move adds one. The service that
creates, finds, loads and unloads tables is ``tables.service``; the one way a table moves is
``tables.moves``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from handfoot.engine import (
    Game,
    Seating,
    View,
    spectator_view,
    view,
)
from handfoot.engine.offers import SeatOffers, seat_offers
from handfoot.engine.outlook import Outlook, outlook
from handfoot.record import Record, hand_json, record_of
from handfoot.rules import rules_to_mapping
from handfoot.server.settings import DEFAULT_AWAY_SECONDS
from handfoot.server.store.storage import (
    token_hash,
)
from handfoot.server.wire.jsonout import Encoded
from handfoot.wording import sentence_list

log = logging.getLogger("handfoot.server")

# The public entries of a table's last moves (``tables.history``): at most this many are kept.
HISTORY_KEEP = 100

History = deque[dict[str, Any]]


def new_history() -> History:
    """An empty history holding at most the last ``HISTORY_KEEP`` entries."""
    return deque(maxlen=HISTORY_KEEP)


HUMAN = "human"
BOT = "bot"
# At most this long after a hand ended the table's bots wait for the people reading its score, unless the
# host set another time (``LiveTable.read_seconds``, at most ``settings.MAX_READ_SECONDS``).
HAND_READ_SECONDS = 90.0
ENDED_BY_HOST = "host"


# Table ids are ``secrets.token_urlsafe`` text; the column holds up to 32 characters.
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_table_id(text: str) -> bool:
    """True if ``text`` could be a table id (URL-safe base64 characters, 1 to 32 of them). Anything else,
    a NUL byte say, is no table and is answered as one without asking the database."""
    return _TABLE_ID.fullmatch(text) is not None


class LobbyError(ValueError):
    """A table that cannot be created or joined as asked; the message says why and what is allowed."""


class TableUnreadable(Exception):
    """A stored table that cannot be opened (its rules are refused today, or its rows do not read back);
    the message names the table and says why. Nothing else is affected."""


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

    send: Callable[[dict[str, Any] | Encoded], None]
    seat: int | None
    host: bool = False
    # The client said (hello's ``pace``) it shows each finished hand's score and says ``ready`` after.
    paces: bool = False
    # The client said (hello's ``program``) it is a program playing the seat, not a person.
    program: bool = False


@dataclass(eq=False)
class LiveTable:
    """A table in memory. ``game`` is authoritative; ``version`` counts its stored moves. ``broken`` says
    why a table can no longer take moves (its stored moves no longer replay), else None.

    A table is private unless ``public``: only its links open it (a seat token, the watch key or the
    host key, each known here only by its SHA-256). ``ended`` is set when the host ended the game.
    ``history`` holds the public entries of the last moves; ``left_at`` when each human seat's last
    connection closed (``time.monotonic``), to show it away after ``away_after`` seconds. ``stale``
    says a write to the table failed: it takes no move until it is read from storage again."""

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
    notice_pending: bool = False  # a ``table`` notice is scheduled (live.broadcast.notice_table)
    notice_at: float = -1e9  # when the last one was sent (event-loop time)
    public: bool = True
    watch_hash: str | None = None
    host_hash: str | None = None
    ended: str | None = None
    history: History | None = field(default_factory=new_history)  # None: not built since loading
    left_at: dict[int, float] = field(default_factory=dict)
    # Pacing (``hand_end_wait``): finished hands counted when last looked at (-1: not yet), the seats whose
    # person is still reading the last hand's score, and until when the bots wait for them; how long they
    # wait at most (the host sets it).
    hands_seen: int = -1
    read_seconds: float = HAND_READ_SECONDS
    waits: bool = False  # the first hand waits for the invited people (``waiting_for``)
    reading: set[int] = field(default_factory=set)
    reading_until: float = 0.0
    away_after: float = DEFAULT_AWAY_SECONDS
    stale: bool = False
    retry_at: float = 0.0  # a stale table is not read again before this (time.monotonic)

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

    def hand_end_wait(self, now_: float) -> float:
        """Seconds the table's bots still wait before playing on after a hand ended: while a person at a
        seat whose client paces (hello's ``pace``) has not closed the hand's score dialog (``ready``), for
        at most ``read_seconds`` after the hand ended; 0 when nobody is reading. A newly ended hand is
        noted here (the seats connected then are the readers); a table just loaded waits for nobody."""
        hands = len(self.game.results)
        if hands != self.hands_seen:
            first = self.hands_seen < 0
            self.hands_seen = hands
            pacing = {c.seat for c in self.connections if c.paces and c.seat is not None}
            self.reading = set() if first else {s for s in pacing if self.seats[s].bot_plays is None}
            self.reading_until = now_ + self.read_seconds
        still = self.reading & {c.seat for c in self.connections if c.paces}
        if not still or self.over or now_ >= self.reading_until:
            return 0.0
        return self.reading_until - now_

    def reading_now(self, now_: float) -> tuple[list[int], float]:
        """The seats whose person still reads the last hand's score and the seconds the table still waits
        for them (``hand_end_wait``), or ``([], 0.0)`` when it waits for nobody."""
        wait = self.hand_end_wait(now_)
        if wait <= 0:
            return [], 0.0
        return sorted(self.reading & {c.seat for c in self.connections if c.paces}), wait

    def waiting_for(self) -> list[int]:
        """The invited people the first hand waits for, at a table created to wait (``waits``: the lobby's
        tables): before the first move, every person's seat whose player has neither sat down (given a
        name) nor opened their link here, unless the host gave it to a bot. While this is not empty no bot
        plays (``bots.runner``) and a person's move from a connection is refused (``live.socket``,
        ``waiting_refusal``); scripts calling ``tables.moves`` directly are not held. Like pacing, it is
        kept by each process for its own connections."""
        if not self.waits or self.version or self.over:
            return []
        here = self.connected_seats()
        return [
            s.index
            for s in self.seats
            if s.kind == HUMAN and s.stand_in is None and s.name is None and s.index not in here
        ]

    def waiting_refusal(self) -> str | None:
        """Why a person's move is not taken yet, while the first hand waits for invited people (None when
        it waits for nobody)."""
        waiting = self.waiting_for()
        if not waiting:
            return None
        names = sentence_list(self.seats[s].name or f"seat {s + 1}" for s in waiting)
        return (
            f"The game starts when everyone invited is here: waiting for {names}. "
            "The host can start now, with bots in the empty seats."
        )

    def note_ready(self, seat: int, hand: int) -> None:
        """The person at ``seat`` closed the score dialog of finished hand ``hand`` (0-based)."""
        if hand == len(self.game.results) - 1:
            self.reading.discard(seat)

    def view_for(self, seat: int | None) -> View:
        """The seat's own view of the hand in play, or the public view for None."""
        state = self.game.state
        return spectator_view(state) if seat is None else view(state, seat)

    def outlook_for(self, seat: int | None) -> Outlook:
        """The seat's outlook on the hand in play (the public one for None): ``engine.outlook``."""
        return outlook(self.game.state, seat)

    def offers_for(self, seat: int | None) -> SeatOffers | None:
        """The seat's offers (``engine.offers``) while it is to move, else None (spectators too)."""
        if seat is None or self.broken or self.ended or self.game.to_move != seat:
            return None
        return seat_offers(self.game.state)

    def legal_for(self, seat: int | None) -> list[str]:
        """The text of every legal atomic move, for the seat to move only (else empty)."""
        if seat is None or self.broken or self.ended or self.game.to_move != seat:
            return []
        return [str(move) for move in self.game.legal_moves()]

    def summary(self) -> dict[str, Any]:
        """The table's short public summary, as the lobby lists it: ``info`` without the rules' source
        and the finished hands' score lines (``hands_done`` counts them)."""
        game = self.game
        connected = self.connected_seats()
        moment = time.monotonic()
        reading, reading_left = self.reading_now(moment)
        return {
            "id": self.id,
            "created_at": self.created_at,
            "rules": game.rules.name,
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
            "hands_done": len(game.results),
            "totals": list(game.totals),
            "to_move": None if self.ended else game.to_move,
            "finished": self.over,
            "winner": self.winner,
            "ended": self.ended,
            "public": self.public,
            "broken": self.broken,
            "waiting_for": self.waiting_for(),
            "read_seconds": round(self.read_seconds),
            "reading": reading,
            "reading_left": round(reading_left, 1),
        }

    def info(self) -> dict[str, Any]:
        """The table's public summary: no token, seed, deal or hidden card. ``summary`` with the rules'
        source and each finished hand's scores and score lines."""
        game = self.game
        summary = self.summary()
        del summary["hands_done"]
        hands = [hand_json(game, index) for index in range(len(game.results))]
        head = {key: summary[key] for key in ("id", "created_at", "rules")}
        return {**head, "rules_source": self.rules_source, **summary, "hands": hands}

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
        record = record_of(self.game, self.rules_source, [seat.name for seat in self.seats])
        return replace(record, moves=self.earlier + record.moves) if self.earlier else record


def _matches(key: str | None, digest: str | None) -> bool:
    """True if ``key`` is the secret stored as ``digest`` (both present)."""
    return bool(key and digest) and secrets.compare_digest(token_hash(key or ""), digest or "")


def rules_mapping(live: LiveTable) -> dict[str, Any]:
    """Every option of a table's rules, as JSON values."""
    return rules_to_mapping(live.game.rules)
