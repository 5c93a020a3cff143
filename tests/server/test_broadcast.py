"""``live.broadcast``: a move's ``state`` is built and written as JSON once per seat, every spectator
sharing one text, each seat its own view; a ``table`` notice is written once for every connection; the
service's ``Broadcaster`` turns a change into a state or a notice."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from handfoot.server.live.broadcast import Broadcaster, broadcast_state, broadcast_table, state_for
from handfoot.server.store.storage import Storage
from handfoot.server.tables.ports import Change
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import Connection
from handfoot.server.wire.jsonout import Encoded
from helpers.server import create_table, sent_json


def test_spectators_share_one_text_and_each_seat_has_its_own(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'broadcast.db'}")
    try:
        service = TableService(storage, 50)
        live, _tokens = create_table(service, "kitchen-table", {}, 2, [("invite", None), ("invite", None)])
        sent: list[tuple[int | None, dict[str, Any] | Encoded]] = []
        for seat in (0, 1, None, None, None, 0):
            live.connections.append(Connection(lambda m, seat=seat: sent.append((seat, m)), seat))
        broadcast_state(live)
        assert len(sent) == 6 and all(isinstance(m, Encoded) for _seat, m in sent)
        by_seat: dict[int | None, set[int]] = {}
        for seat, message in sent:
            by_seat.setdefault(seat, set()).add(id(message))
        assert {seat: len(ids) for seat, ids in by_seat.items()} == {0: 1, 1: 1, None: 1}  # one text each
        assert len(set().union(*by_seat.values())) == 3
        for seat, message in sent:
            assert isinstance(message, Encoded)
            assert json.loads(message.text) == json.loads(json.dumps(state_for(live, seat)))
        assert json.loads(sent[0][1].text)["view"]["hand"]  # type: ignore[union-attr]  # a seat sees its hand
        assert json.loads(sent[2][1].text)["view"]["hand"] == []  # type: ignore[union-attr]  # a spectator not

        sent.clear()
        broadcast_table(live)
        assert len({id(m) for _seat, m in sent}) == 1 and len(sent) == 6
    finally:
        storage.close()


def test_the_broadcaster_sends_a_state_for_a_move_and_a_table_notice_for_a_summary(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'tell.db'}")
    try:
        service = TableService(storage, 50, notifier=Broadcaster())
        live, _tokens = create_table(service, "kitchen-table", {}, 2, [("invite", None), ("invite", None)])
        sent: list[tuple[int | None, str]] = []
        for seat in (0, None):
            live.connections.append(
                Connection(lambda m, seat=seat: sent.append((seat, sent_json(m)["type"])), seat)
            )

        async def scenario() -> None:
            service.show(live)
            assert sent == [(0, "state"), (None, "state")]
            sent.clear()
            service.tell(live, Change.SUMMARY)
            for _ in range(20):
                await asyncio.sleep(0.01)
                if sent:
                    break
            assert sent == [(0, "table"), (None, "table")]

        asyncio.run(scenario())
    finally:
        storage.close()
