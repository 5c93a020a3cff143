"""``tables.ports``: the table service runs on whatever storage and notifier it is handed. With an
in-memory storage and a notifier that only records, a move is told to the connections once, as a new
state, and only after it was stored; a join is told as a summary; a write the storage refuses changes
nothing in memory and tells nobody; a new invitation closes the connections made with the old link."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from handfoot.server.store.storage import SeatRow, StorageUnavailable, StoredTable, TableRow
from handfoot.server.tables.host import apply_host_action
from handfoot.server.tables.moves import SERVER_RULE, Accepted, Refused, play
from handfoot.server.tables.ports import Change, TableStorage
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import Connection, LiveTable
from handfoot.server.wire.protocol import HostAction

P = ParamSpec("P")
R = TypeVar("R")


class MemoryStorage:
    """A storage holding its tables in a dict; ``down`` makes every call fail as a lost database does."""

    def __init__(self) -> None:
        self.tables: dict[str, StoredTable] = {}
        self.names: dict[tuple[str, int], str] = {}
        self.tokens: dict[tuple[str, int], str] = {}
        self.down = False

    async def run(self, method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        if self.down:
            raise StorageUnavailable("the database did not answer")
        return method(*args, **kwargs)

    def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        self.tables[row.id] = StoredTable(row, list(seats))

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
        stored = self.tables[table_id]
        assert len(stored.moves) == seq
        stored.moves.append((seat, move))

    def load(self, table_id: str) -> StoredTable | None:
        return self.tables.get(table_id)

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        return {t: len(self.tables[t].moves) for t in table_ids if t in self.tables}

    def moves_since(self, table_id: str, start: int) -> list[tuple[int, int, str]]:
        moves = self.tables[table_id].moves
        return [(seq, seat, move) for seq, (seat, move) in enumerate(moves) if seq >= start]

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        self.names[table_id, seat] = name

    def set_stand_in(self, table_id: str, seat: int, bot: str | None) -> None:
        raise NotImplementedError

    def set_token(self, table_id: str, seat: int, digest: str) -> None:
        self.tokens[table_id, seat] = digest

    def set_ended(self, table_id: str, ended: str) -> None:
        raise NotImplementedError

    def set_read_seconds(self, table_id: str, seconds: int) -> None:
        raise NotImplementedError


class Recorder:
    """A notifier that writes down each change it is told, with the moves stored at that moment."""

    def __init__(self, storage: MemoryStorage) -> None:
        self.storage = storage
        self.told: list[tuple[str, Change, int]] = []
        self.revoked: list[Connection] = []

    def tell(self, live: LiveTable, change: Change) -> None:
        stored = self.storage.tables[live.id]
        self.told.append((live.id, change, len(stored.moves)))

    def revoke(self, live: LiveTable, gone: list[Connection]) -> None:
        self.revoked.extend(gone)


def _service() -> tuple[TableService, MemoryStorage, Recorder]:
    storage = MemoryStorage()
    recorder = Recorder(storage)
    checked: TableStorage = storage  # the fake satisfies the interface the domain asks for
    return TableService(checked, snapshot_every=50, notifier=recorder), storage, recorder


async def _open(service: TableService) -> tuple[LiveTable, dict[int, str]]:
    made = await service.open_table("kitchen-table", {}, 2, [("invite", None), ("invite", None)])
    return made.live, made.tokens


def test_a_move_is_told_once_as_a_state_after_it_is_stored() -> None:
    async def scenario() -> None:
        service, storage, recorder = _service()
        live, tokens = await _open(service)
        seat = live.game.to_move
        assert seat is not None
        outcome = await play(service, live, tokens[seat], 0, live.legal_for(seat)[0])
        assert isinstance(outcome, Accepted) and live.version == 1
        assert storage.tables[live.id].moves == [(seat, outcome.move)]
        assert recorder.told == [(live.id, Change.STATE, 1)]  # told once, the move already stored

    asyncio.run(scenario())


def test_a_refused_write_changes_nothing_and_tells_nobody() -> None:
    async def scenario() -> None:
        service, storage, recorder = _service()
        live, tokens = await _open(service)
        seat = live.game.to_move
        assert seat is not None
        game, seen = live.game, live.view_for(seat)
        storage.down = True
        try:
            outcome = await play(service, live, tokens[seat], 0, live.legal_for(seat)[0])
            assert isinstance(outcome, Refused) and outcome.rule == SERVER_RULE
            assert live.version == 0 and live.stale
            assert live.game is game and live.view_for(seat) == seen  # memory as it was
            assert storage.tables[live.id].moves == [] and recorder.told == []
        finally:
            await service.stop()

    asyncio.run(scenario())


def test_a_join_is_told_as_a_summary_once_stored_and_a_refused_one_is_not() -> None:
    async def scenario() -> None:
        service, storage, recorder = _service()
        live, _tokens = await _open(service)
        await service.join(live, 1, "Ada")
        assert storage.names == {(live.id, 1): "Ada"} and live.seats[1].name == "Ada"
        assert recorder.told == [(live.id, Change.SUMMARY, 0)]
        recorder.told.clear()
        storage.down = True
        try:
            await service.join(live, 1, "Bea")
        except StorageUnavailable:
            pass
        else:
            raise AssertionError("a join the storage refused was taken")
        finally:
            await service.stop()
        assert live.seats[1].name == "Ada" and recorder.told == []  # memory as it was

    asyncio.run(scenario())


def test_a_new_invitation_is_stored_then_closes_the_old_links_connections() -> None:
    async def scenario() -> None:
        service, storage, recorder = _service()
        live, tokens = await _open(service)
        old, other = Connection(lambda _m: None, 1), Connection(lambda _m: None, 0)
        live.connections.extend([old, other])
        token = await apply_host_action(service, live, HostAction(type="host", action="invite", seat=1))
        assert token is not None and live.seat_of_token(tokens[1]) is None
        assert storage.tokens[live.id, 1] == live.seats[1].token_hash
        assert live.connections == [other] and recorder.revoked == [old]
        assert recorder.told == [(live.id, Change.SUMMARY, 0)]

    asyncio.run(scenario())
