"""What the table domain needs from the world, as two small interfaces: where tables are stored
(``TableStorage``) and who tells a table's connections of a change (``Notifier``); and what it reads of
a host's request (``HostRequest``, which the wire's ``HostAction`` message is).

The domain depends on these alone; start-up (``process.lifespan``) hands the service the real ones
(``store.storage.Storage`` and ``live.broadcast.Broadcaster``) and tests may hand it fakes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

if TYPE_CHECKING:
    from handfoot.server.store.storage import SeatRow, StoredTable, TableRow
    from handfoot.server.tables.table import Connection, LiveTable

P = ParamSpec("P")
R = TypeVar("R")


class Change(enum.Enum):
    """What a change to a table means for its connections."""

    STATE = "state"  # each connection its seat's new state (a move, a reload, who plays, the game ended)
    SUMMARY = "summary"  # each connection the table's public summary, soon (who came, left, is ready...)


class Notifier(Protocol):
    """Tells a table's connections of a change (the one way anything reaches them but a reply to the
    connection that asked). Called with the table's lock held or not; returns at once, never waits."""

    def tell(self, live: LiveTable, change: Change) -> None:
        """Queue each of ``live``'s connections what ``change`` means for it."""

    def revoke(self, live: LiveTable, gone: list[Connection]) -> None:
        """Close connections that are no longer ``live``'s (the link they were opened with opens nothing
        now), telling each why."""


class Silent:
    """A notifier that tells nobody (a service with no connections: tools, tests)."""

    def tell(self, live: LiveTable, change: Change) -> None:
        """Tell nobody."""

    def revoke(self, live: LiveTable, gone: list[Connection]) -> None:
        """Close nothing."""


class HostRequest(Protocol):
    """A host's request as the domain reads it (``tables.host``): the action and what it names."""

    @property
    def action(self) -> str:
        """``bot``, ``person``, ``rename``, ``end``, ``invite``, ``start`` or ``pace``."""
        ...

    @property
    def seat(self) -> int | None:
        """The seat the action is about, if any."""
        ...

    @property
    def bot(self) -> str | None:
        """The bot's name for ``bot`` and ``start`` (None: the default bot)."""
        ...

    @property
    def name(self) -> str | None:
        """The display name for ``rename``."""
        ...

    @property
    def seconds(self) -> int | None:
        """The seconds for ``pace``."""
        ...


class TableStorage(Protocol):
    """Where tables are stored: one method per change, each one transaction, run through ``run`` (off
    the event loop). Failures raise ``StorageError`` (``MoveConflict`` for a move already stored,
    ``StorageUnavailable`` when the database does not answer)."""

    async def run(self, method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Await ``method(*args, **kwargs)``, one of this storage's methods."""
        ...

    def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table and its seats."""

    def append_move(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: str,
        *,
        finished: bool = False,
        snapshot: dict[str, Any] | None = None,
    ) -> None:
        """Store move number ``seq`` (0-based), with a snapshot after it if given."""

    def load(self, table_id: str) -> StoredTable | None:
        """A stored table with its seats, latest snapshot and moves, or None."""

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version (number of moves) of each table."""
        ...

    def moves_since(self, table_id: str, start: int) -> list[tuple[int, int, str]]:
        """The stored moves ``(seq, seat, move)`` of a table from ``start`` on."""
        ...

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        """Store a seat's display name."""

    def set_stand_in(self, table_id: str, seat: int, bot: str | None) -> None:
        """Store the bot standing in for a seat (None: its person plays it)."""

    def set_token(self, table_id: str, seat: int, digest: str) -> None:
        """Store the hash of a seat's new invitation token."""

    def set_ended(self, table_id: str, ended: str) -> None:
        """Store who or what ended the game."""

    def set_read_seconds(self, table_id: str, seconds: int) -> None:
        """Store how long the table waits, after a hand, for people reading its score."""
