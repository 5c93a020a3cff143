"""Durability: stop the server, start a new one on the same database; every table and move is there,
play continues, and a bot whose turn it was resumes. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.service import TableService
from helpers.server import SeatClient, create_table, running_server

pytest_plugins = ["helpers.services"]


def play_turns(client: SeatClient, state: dict[str, Any], seat: int, moves: int) -> dict[str, Any]:
    """Play ``moves`` moves for ``seat`` (draw, then a discard) while it is that seat's turn."""
    for _ in range(moves):
        assert state["view"]["to_move"] == seat
        legal = state["legal"]
        choice = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
        client.move(choice, state["version"])
        state = client.state(state["version"] + 1)
    return state


def test_tables_and_moves_survive_a_restart(tmp_path: Path, database_url: str) -> None:
    settings = Settings(data_dir=tmp_path, database_url=database_url, port=0, bot_delay=0.0, snapshot_every=3)
    with running_server(settings) as base:
        created = httpx.post(
            f"{base}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True}
        ).json()
        table_id = created["table"]["id"]
        tokens = [invite["token"] for invite in created["invites"]]
        clients = [SeatClient(base, table_id, tokens[seat], f"P{seat}") for seat in (0, 1)]
        state = clients[0].state(0)
        for _ in range(3):  # three whole turns, alternating seats
            seat = state["view"]["to_move"]
            mover = clients[seat]
            state = play_turns(mover, mover.latest_state(), seat, 2)
        hands = [c.latest_state()["view"]["hand"] for c in clients]
        version = state["version"]
        assert version == 6
        for client in clients:
            client.close()

    with running_server(settings) as base:
        summary = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert summary["version"] == version and summary["broken"] is None
        assert [s["name"] for s in summary["seats"]] == ["P0", "P1"]
        clients = [SeatClient(base, table_id, tokens[seat]) for seat in (0, 1)]
        states = [c.state() for c in clients]
        assert [s["view"]["hand"] for s in states] == hands
        assert all(s["version"] == version for s in states)
        seat = states[0]["view"]["to_move"]
        play_turns(clients[seat], states[seat], seat, 1)
        assert clients[1 - seat].state(version + 1)["last"]["seat"] == seat


def test_a_bot_whose_turn_it_was_resumes_after_a_restart(tmp_path: Path, database_url: str) -> None:
    slow = Settings(data_dir=tmp_path, database_url=database_url, port=0, bot_delay=60.0)
    with running_server(slow) as base:
        created = httpx.post(
            f"{base}/api/tables",
            json={
                "preset": "kitchen-table",
                "players": 2,
                "seats": [{"kind": "invite"}, {"kind": "bot"}],
                "public": True,
            },
        ).json()
        table_id = created["table"]["id"]
        token = created["invites"][0]["token"]
        human = SeatClient(base, table_id, token)
        state = human.state()
        if state["view"]["to_move"] == 0:
            state = play_turns(human, state, 0, 2)
        assert state["view"]["to_move"] == 1  # the bot's turn; it waits a minute, the server stops first
        stopped_at = state["version"]
        human.close()

    with running_server(
        Settings(data_dir=tmp_path, database_url=database_url, port=0, bot_delay=0.0)
    ) as base:
        human = SeatClient(base, table_id, token)
        resumed = human.until(lambda m: m["type"] == "state" and m["view"]["to_move"] == 0)
        assert resumed["version"] > stopped_at
        assert resumed["last"] is None or resumed["last"]["seat"] == 1


def test_a_table_whose_moves_no_longer_replay_is_marked_broken(database_url: str) -> None:
    storage = Storage(database_url)
    service = TableService(storage, snapshot_every=2)
    live, _tokens = create_table(service, "kitchen-table", {}, 2, [("invite", None), ("invite", None)])
    seat = live.game.to_move
    assert seat is not None
    storage.append_move(live.id, 0, seat, "discard JK")  # stored behind the pipeline's back: illegal
    stored = storage.load(live.id)
    assert stored is not None
    rebuilt = service.live_from_stored(stored)
    assert rebuilt.broken is not None and "no longer plays" in rebuilt.broken
    storage.close()
