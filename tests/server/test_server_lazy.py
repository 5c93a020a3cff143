"""Tables live in memory only while used: nothing is loaded at start-up, a table is read from storage
(its latest snapshot and the moves after it) when first asked for, and finished or idle tables are
unloaded. A game rebuilt from a snapshot is the game a full replay makes, and plays on the same."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import pytest

from handfoot.engine.serialize import state_to_json
from handfoot.rules import PRESET_NAMES
from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage, StoredTable
from handfoot.server.tables.moves import Accepted
from handfoot.server.tables.rebuild import rebuild
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import Connection, LiveTable
from helpers.server import SeatClient, create_table, running_server, submit

pytest_plugins = ["helpers.services"]


def legal_texts(live: LiveTable, seat: int) -> list[str]:
    """The seat's legal moves as the server lists them (never empty for the seat to move)."""
    return live.legal_for(seat)


def play_random(
    service: TableService, live: LiveTable, tokens: dict[int, str], moves: int, seed: int
) -> None:
    """Play ``moves`` random legal moves through the pipeline (every seat invited)."""
    rng = random.Random(seed)
    for _ in range(moves):
        seat = live.game.to_move
        if seat is None:
            return
        legal = legal_texts(live, seat)
        melds = [t for t in legal if t.startswith(("meld", "pickup"))]
        text = rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(legal)
        assert isinstance(submit(service, live, tokens[seat], live.version, text), Accepted)


def same_game(a: LiveTable, b: LiveTable) -> None:
    assert state_to_json(a.game.state) == state_to_json(b.game.state)
    assert a.game.state == b.game.state  # every field the engine compares, serialized or not
    assert a.game.totals == b.game.totals and a.game.results == b.game.results
    assert (a.game.finished, a.game.winner, a.version) == (b.game.finished, b.game.winner, b.version)
    assert a.legal_for(a.game.to_move) == b.legal_for(b.game.to_move)
    assert a.info() == b.info()
    assert a.record().moves == b.record().moves


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_game_rebuilt_from_its_snapshot_is_the_replayed_game(tmp_path: Path, name: str) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'snap.db'}")
    service = TableService(storage, snapshot_every=7)
    live, tokens = create_table(service, name, {}, None, [])  # the preset's own player count
    for step in range(12):
        play_random(service, live, tokens, 37, seed=step)
        stored = storage.load(live.id)
        assert stored is not None and stored.snapshot is not None
        quick = service.live_from_stored(stored)
        assert quick.broken is None and quick.earlier == tuple(
            t for _s, t in stored.moves[: stored.snapshot[0]]
        )
        full = service.live_from_stored(StoredTable(stored.row, stored.seats, stored.moves, None))
        same_game(quick, full)
        same_game(quick, live)
        if live.game.finished:
            break
        # and both play on the same
        for other in (quick, full):
            other.seats = live.seats
        next_text = legal_texts(live, live.game.to_move)[0]
        quick.game.apply_text(next_text)
        full.game.apply_text(next_text)
        assert state_to_json(quick.game.state) == state_to_json(full.game.state)
    storage.close()


def test_snapshots_written_before_they_held_results_still_load(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'old.db'}")
    service = TableService(storage, snapshot_every=5)
    live, tokens = create_table(service, "family", {}, 2, [])
    play_random(service, live, tokens, 23, seed=1)
    stored = storage.load(live.id)
    assert stored is not None and stored.snapshot is not None
    version, data = stored.snapshot
    old = {k: v for k, v in data.items() if k != "results"}  # what older versions wrote
    rebuilt = rebuild(StoredTable(stored.row, stored.seats, stored.moves, (version, old)))
    assert rebuilt.problem is None and rebuilt.earlier == ()
    assert state_to_json(rebuilt.game.state) == state_to_json(live.game.state)
    broken = dict(old, totals=[1, 2])
    assert "differs from the snapshot" in str(
        rebuild(StoredTable(stored.row, stored.seats, stored.moves, (version, broken))).problem
    )
    storage.close()


def test_tables_are_loaded_when_asked_for_and_unloaded_when_idle(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'lazy.db'}")
    service = TableService(storage, snapshot_every=50)
    live, tokens = create_table(service, "kitchen-table", {}, 2, [])
    play_random(service, live, tokens, 5, seed=2)
    create_table(service, "kitchen-table", {}, 2, [])  # another table, never asked for
    fresh = TableService(storage, snapshot_every=50)  # a new process on the same database
    assert fresh.tables == {}  # nothing read at start-up
    forgotten: list[str] = []
    fresh.unloaders.append(forgotten.append)
    loaded = asyncio.run(fresh.get(live.id))
    assert loaded is not None and loaded.version == 5 and list(fresh.tables) == [live.id]
    # in use (a connection, a bot turn, recent activity): kept
    loaded.connections.append(Connection(lambda m: None, None))
    assert fresh.unload_idle(0.0) == []
    loaded.connections.clear()
    assert fresh.unload_idle(0.0, busy=lambda table_id: table_id == live.id) == []
    assert fresh.unload_idle(3600.0) == []
    assert fresh.unload_idle(0.0) == [live.id] and forgotten == [live.id] and fresh.tables == {}
    again = asyncio.run(fresh.get(live.id))
    assert again is not None and again is not loaded and again.version == 5
    assert fresh.adopt(loaded) is again  # a caller still holding the old one attaches to the new one
    storage.close()


def test_the_server_loads_nothing_at_start_and_serves_any_table_asked_for(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, rate_limit=0)
    with running_server(settings) as url:
        ids = [
            httpx.post(f"{url}/api/tables", json={"preset": "marmot", "public": True}).json()["table"]["id"]
            for _ in range(3)
        ]
    with running_server(settings) as url:
        assert httpx.get(f"{url}/api/tables").json() == []  # nothing in memory yet
        client = SeatClient(url, ids[1])
        assert client.welcome["type"] == "welcome"
        assert [t["id"] for t in httpx.get(f"{url}/api/tables").json()] == [ids[1]]
        assert httpx.get(f"{url}/api/tables/{ids[2]}").json()["id"] == ids[2]
