"""Several writers on one database: a move index of a table is stored once, whoever races for it.

The storage race runs on SQLite and PostgreSQL; the server race runs two real server instances on one
PostgreSQL database (no fan-out between them, so the second one is stale and must lose cleanly).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx

from handfoot.server.settings import Settings
from handfoot.server.store.storage import MoveConflict, Storage, database_url
from handfoot.server.tables.service import TableService
from helpers.server import SeatClient, create_table, running_server

pytest_plugins = ["helpers.services"]


def test_bare_postgresql_urls_use_psycopg_3() -> None:
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_two_writers_racing_for_one_move_index_store_it_once(database_url: str) -> None:
    writers = [Storage(database_url), Storage(database_url)]
    service = TableService(writers[0], snapshot_every=50)
    live, _tokens = create_table(service, "kitchen-table", {}, 2, [("invite", None), ("invite", None)])
    seat = live.game.to_move
    assert seat is not None
    rounds = 12
    outcomes: list[list[str]] = [[] for _ in range(rounds)]
    barrier = threading.Barrier(2)

    def write(storage: Storage, label: str) -> None:
        for seq in range(rounds):
            barrier.wait(timeout=10)
            try:
                storage.append_move(live.id, seq, seat, f"move {seq} by {label}")
                outcomes[seq].append(label)
            except MoveConflict:
                pass

    threads = [
        threading.Thread(target=write, args=(w, label)) for w, label in zip(writers, "AB", strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    stored = writers[1].moves_since(live.id, 0)
    assert [seq for seq, _seat, _text in stored] == list(range(rounds))
    for seq, _seat, text in stored:
        assert len(outcomes[seq]) == 1  # exactly one writer was told it stored the move
        assert text == f"move {seq} by {outcomes[seq][0]}"
    for storage in writers:
        storage.close()


def created_table(base: str) -> tuple[str, list[str]]:
    response = httpx.post(
        f"{base}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created["table"]["id"], [invite["token"] for invite in created["invites"]]


def test_two_server_processes_racing_for_a_move_store_one_and_resync_the_other(
    tmp_path: Path, postgres_url: str
) -> None:
    def settings(name: str) -> Settings:
        return Settings(data_dir=tmp_path / name, database_url=postgres_url, port=0, bot_delay=0.0)

    with running_server(settings("a")) as base_a, running_server(settings("b")) as base_b:
        table_id, tokens = created_table(base_a)
        # The same seat's token on both instances (two tabs), and the other seat watching from B.
        first = SeatClient(base_a, table_id).state()["view"]["to_move"]
        on_a = SeatClient(base_a, table_id, tokens[first])
        on_b = SeatClient(base_b, table_id, tokens[first])
        other_on_b = SeatClient(base_b, table_id, tokens[1 - first])
        assert on_a.state()["version"] == on_b.state()["version"] == other_on_b.state()["version"] == 0

        on_a.move("draw", 0)
        on_b.move("draw", 0)  # sent at once: the two processes race to store move 0
        for client in (on_a, on_b):
            client.state(1)  # the winner's own move, or the loser's resync to it
            client.barrier()
        refusals = [[m for m in c.received if m["type"] == "refused"] for c in (on_a, on_b)]
        # Exactly one was stored; the loser was refused as stale at the table's new version.
        assert sorted(map(len, refusals)) == [0, 1]
        refusal = (refusals[0] or refusals[1])[0]
        assert refusal["rule"] == "version" and refusal["version"] == 1

        storage = Storage(postgres_url)
        assert [(seq, text) for seq, _seat, text in storage.moves_since(table_id, 0)] == [(0, "draw")]
        storage.close()

        # Both processes now hold version 1: the seat plays on from either without a sync.
        states = [client.latest_state() for client in (on_a, on_b)]
        assert [s["version"] for s in states] == [1, 1]
        assert states[0]["view"] == states[1]["view"]
        assert other_on_b.latest_state()["version"] == 1
        discard = next(t for t in states[1]["legal"] if t.startswith("discard"))
        on_b.move(discard, 1)
        assert on_b.state(2)["last"]["move"] == discard
        summary = httpx.get(f"{base_b}/api/tables/{table_id}").json()
        assert summary["version"] == 2 and summary["broken"] is None


def test_a_table_created_by_one_process_is_served_by_another(tmp_path: Path, postgres_url: str) -> None:
    def settings(name: str) -> Settings:
        return Settings(data_dir=tmp_path / name, database_url=postgres_url, port=0, bot_delay=0.0)

    with running_server(settings("a")) as base_a, running_server(settings("b")) as base_b:
        table_id, tokens = created_table(base_a)
        assert httpx.get(f"{base_b}/api/tables/{table_id}").json()["id"] == table_id
        assert httpx.get(f"{base_b}/api/tables/nosuchtable").status_code == 404
        client = SeatClient(base_b, table_id, tokens[0], "Ann")
        assert client.welcome["type"] == "welcome" and client.welcome["seat"] == 0
        assert client.state()["view"]["seat"] == 0
