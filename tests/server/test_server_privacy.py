"""Private tables, the host's link and what it may do, seats shown away, and the history a connection
gets on connect (docs/protocol.md: "Private tables and the host", "History")."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.moves import Accepted
from handfoot.server.tables.service import TableService
from helpers.server import SeatClient, create_table, running_server, submit

AWAY = 2.5  # longer than the server takes to tell of a change (at most one table notice a second)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("privacy-data")
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0, away_seconds=AWAY)) as url:
        yield url


def create(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("preset", "kitchen-table")
    body.setdefault("players", 2)
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def key_header(key: str) -> dict[str, str]:
    return {"X-Handfoot-Key": key}


def test_a_table_is_private_unless_its_creator_lists_it(base: str) -> None:
    private = create(base)
    public = create(base, public=True)
    listed = {t["id"] for t in httpx.get(f"{base}/api/tables").json()}
    assert public["table"]["id"] in listed and private["table"]["id"] not in listed
    assert private["table"]["public"] is False and public["table"]["public"] is True
    # The watch link of a private table carries its key after '#'; a public table's needs none.
    assert private["watch"].endswith(f"/watch/{private['table']['id']}#key={private['watch_key']}")
    assert public["watch"].endswith(f"/watch/{public['table']['id']}")
    assert private["host"]["link"].endswith(f"#host={private['host']['key']}")


def test_a_private_table_opens_only_with_one_of_its_links(base: str) -> None:
    created = create(base)
    table_id = created["table"]["id"]
    url = f"{base}/api/tables/{table_id}"
    # Without one of its links a private table answers exactly as a table that does not exist.
    unknown = "nosuchtable"
    gone = httpx.get(f"{base}/api/tables/{unknown}")
    assert gone.status_code == 404 and "mistyped or old" in gone.json()["error"]["message"]
    refused = httpx.get(url)
    assert refused.status_code == 404
    assert refused.json() == {
        "error": {
            **gone.json()["error"],
            "message": gone.json()["error"]["message"].replace(unknown, table_id),
        }
    }
    assert httpx.get(url, headers=key_header("not-a-key-of-it")).status_code == 404
    for key in (created["watch_key"], created["host"]["key"], created["invites"][0]["token"]):
        assert httpx.get(url, headers=key_header(key)).json()["id"] == table_id
    other = create(base)  # a key of another table opens nothing here
    assert httpx.get(url, headers=key_header(other["watch_key"])).status_code == 404
    join = httpx.post(f"{url}/join", json={"token": other["invites"][0]["token"], "name": "Eve"})
    assert join.status_code == 404 and join.json()["error"]["code"] == "no_table"

    # Watching over the WebSocket needs the watch key (or the host key); without, it is no table.
    stranger = SeatClient(base, table_id)
    assert stranger.welcome == {
        "type": "error",
        "code": "no_table",
        "message": f"there is no table {table_id!r}",
    }
    assert SeatClient(base, unknown).welcome == {
        **stranger.welcome,
        "message": f"there is no table {unknown!r}",
    }
    stranger.close()
    wrong_seat = SeatClient(base, table_id, other["invites"][0]["token"])
    assert wrong_seat.welcome["code"] == "no_table"
    wrong_seat.close()
    watcher = SeatClient(base, table_id, key=created["watch_key"])
    assert watcher.welcome["role"] == "spectator" and watcher.welcome["host"] is False
    watcher.close()
    wrong_host = SeatClient(base, table_id, host=other["host"]["key"])
    assert wrong_host.welcome["code"] == "no_table"  # a wrong host key is no link of this table either
    wrong_host.close()
    wrong_host = SeatClient(base, table_id, key=created["watch_key"], host=other["host"]["key"])
    assert wrong_host.welcome["code"] == "bad_host"  # who may see the table is told the host key is wrong
    wrong_host.close()


def test_the_host_hands_a_missing_players_seat_to_a_bot_and_back(base: str) -> None:
    created = create(base)
    table_id = created["table"]["id"]
    tokens = {i["seat"]: i["token"] for i in created["invites"]}
    host = SeatClient(base, table_id, tokens[0], "Ann", host=created["host"]["key"])
    assert host.welcome["host"] is True and host.welcome["seat"] == 0
    bob = SeatClient(base, table_id, tokens[1], "Bob")
    assert bob.welcome["host"] is False
    # Only the host may; a seat that is at the table is not handed over.
    bob.send({"type": "host", "action": "bot", "seat": 0})
    assert bob.until(lambda m: m["type"] == "error")["code"] == "not_host"
    host.send({"type": "host", "action": "bot", "seat": 1})
    refused = host.until(lambda m: m["type"] == "error")
    assert refused["code"] == "host" and "Bob is at the table" in refused["message"]
    bob.close()

    host.send({"type": "host", "action": "bot", "seat": 1, "bot": "easy"})
    handed = host.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["stand_in"] == "easy")
    assert handed["table"]["seats"][1]["kind"] == "human"
    # The bot now plays Bob's seat whenever it is its turn, through the usual pipeline.
    state = host.latest_state()
    for _ in range(60):
        if state["view"]["to_move"] == 0:
            legal = state["legal"]
            move = "draw" if "draw" in legal else next(m for m in legal if m.startswith("discard"))
            host.move(move, state["version"])
        state = host.state()
        if (state["last"] or {}).get("seat") == 1:
            break
    assert state["last"] and state["last"]["seat"] == 1, "the stand-in bot did not play"

    # Bob's own link still shows his seat, and says a bot plays it until the host hands it back.
    bob = SeatClient(base, table_id, tokens[1])
    assert bob.welcome["seat"] == 1
    bob_state = bob.state()
    bob.move("draw", bob_state["version"])
    refusal = bob.until(lambda m: m["type"] == "refused")
    assert refusal["rule"] == "seat" and "host" in refusal["message"]
    host.send({"type": "host", "action": "person", "seat": 1})
    back = host.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["stand_in"] is None)
    assert back["table"]["seats"][1]["connected"] is True
    host.send({"type": "host", "action": "person", "seat": 1})
    assert "already plays" in host.until(lambda m: m["type"] == "error")["message"]
    bob.close()
    host.close()


def test_the_host_renames_seats_and_ends_the_game(base: str) -> None:
    created = create(base, seats=[{"kind": "invite"}, {"kind": "bot"}])
    table_id = created["table"]["id"]
    token = created["invites"][0]["token"]
    host = SeatClient(base, table_id, token, "Ann", host=created["host"]["key"])
    host.send({"type": "host", "action": "rename", "seat": 1, "name": "Grandpa bot"})
    renamed = host.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["name"] == "Grandpa bot")
    assert renamed["table"]["seats"][1]["kind"] == "bot"
    host.send({"type": "host", "action": "rename", "seat": 7, "name": "X"})
    assert "seat 7 does not exist; allowed: 0 to 1" in host.until(lambda m: m["type"] == "error")["message"]
    host.send({"type": "host", "action": "bot", "seat": 1})
    assert "bot's own seat" in host.until(lambda m: m["type"] == "error")["message"]
    host.send({"type": "host", "action": "end"})
    ended = host.until(lambda m: m["type"] == "state" and m["table"]["finished"])
    assert ended["table"]["ended"] == "host" and ended["legal"] == [] and ended["table"]["to_move"] is None
    assert ended["table"]["winner"] is None  # no hand was finished
    host.move("draw", ended["version"])
    refusal = host.until(lambda m: m["type"] == "refused")
    assert refusal["rule"] == "game_end" and refusal["message"] == "The host ended the game."
    # An ended game can be downloaded and replayed (with a link's key: the table is private).
    record = httpx.get(f"{base}/api/tables/{table_id}/record", headers=key_header(token))
    assert record.status_code == 200 and len(record.json()["moves"]) == ended["version"]
    assert record.json()["names"] == ["Ann", "Grandpa bot"]  # the record names the players (replay says so)
    assert httpx.get(f"{base}/api/tables/{table_id}/replay").status_code == 404
    host.close()


def test_a_seat_gone_past_the_away_time_is_shown_away_to_everyone(base: str) -> None:
    created = create(base)
    table_id = created["table"]["id"]
    tokens = {i["seat"]: i["token"] for i in created["invites"]}
    ann = SeatClient(base, table_id, tokens[0], "Ann")
    bob = SeatClient(base, table_id, tokens[1], "Bob")
    assert ann.latest_state()["table"]["seats"][1]["away"] is False
    closed = time.monotonic()
    bob.close()
    left = ann.until(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"])
    assert left["table"]["seats"][1]["away"] is False  # gone, but not for long yet
    away = ann.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["away"], timeout=AWAY + 5)
    assert time.monotonic() - closed >= AWAY - 0.2 and away["table"]["seats"][1]["name"] == "Bob"
    bob = SeatClient(base, table_id, tokens[1])
    back = ann.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["connected"])
    assert back["table"]["seats"][1]["away"] is False
    bob.close()
    ann.close()


def test_a_connection_gets_the_recent_history_and_melds_are_named(base: str) -> None:
    created = create(base, public=True)
    table_id = created["table"]["id"]
    tokens = {i["seat"]: i["token"] for i in created["invites"]}
    ann = SeatClient(base, table_id, tokens[0], "Ann")
    bob = SeatClient(base, table_id, tokens[1], "Bob")
    assert ann.welcome["history"] == []
    played = []
    for _ in range(6):
        state = ann.latest_state()
        seat = state["view"]["to_move"]
        client = ann if seat == 0 else bob
        legal = client.latest_state()["legal"]
        move = "draw" if "draw" in legal else next(m for m in legal if m.startswith("discard"))
        client.move(move, state["version"])
        played.append(ann.state(state["version"] + 1)["last"])
    watcher = SeatClient(base, table_id)
    assert watcher.welcome["history"] == played
    assert [e["version"] for e in watcher.welcome["history"]] == list(range(1, 7))
    watcher.close()
    ann.close()
    bob.close()


def test_a_database_from_before_privacy_is_upgraded_and_its_tables_stay_open(tmp_path: Path) -> None:
    """Tables stored before tables could be private have no keys: they read back public, with no host,
    and the new columns are added in place."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE hf_tables (id VARCHAR(32) PRIMARY KEY, created_at VARCHAR(40) NOT NULL,
                rules_source TEXT NOT NULL, players INTEGER NOT NULL, seed BIGINT NOT NULL,
                dealer INTEGER NOT NULL, finished BOOLEAN NOT NULL);
            CREATE TABLE hf_seats (table_id VARCHAR(32), seat INTEGER, kind VARCHAR(16) NOT NULL,
                bot VARCHAR(64), token_hash VARCHAR(64), name VARCHAR(64), PRIMARY KEY (table_id, seat));
            INSERT INTO hf_tables
                VALUES ('oldtable', '2025-01-01T00:00:00+00:00', '"kitchen-table"', 2, 7, 0, 0);
            INSERT INTO hf_seats VALUES ('oldtable', 0, 'human', NULL, 'ab', 'Ann');
            INSERT INTO hf_seats VALUES ('oldtable', 1, 'bot', 'easy', NULL, NULL);
            """
        )
    storage = Storage(f"sqlite:///{path}")
    try:
        stored = storage.load("oldtable")
        assert stored is not None
        assert stored.row.public is True and stored.row.host_hash is None and stored.row.ended is None
        assert [s.stand_in for s in stored.seats] == [None, None]
        storage.set_stand_in("oldtable", 0, "easy")
        reloaded = storage.load("oldtable")
        assert reloaded is not None and reloaded.seats[0].stand_in == "easy"
    finally:
        storage.close()


def test_the_history_of_a_table_loaded_from_its_snapshot_is_the_one_it_had(tmp_path: Path) -> None:
    """A table read back from storage starts from its latest snapshot; its history is rebuilt from the
    stored moves when first asked for, the same entries the live table had."""
    storage = Storage(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        service = TableService(storage, snapshot_every=5)
        live, tokens = create_table(service, "kitchen-table", {}, 2, [])
        for _ in range(13):
            seat = live.game.to_move
            assert seat is not None
            legal = live.legal_for(seat)
            text = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
            played = submit(service, live, tokens[seat], live.version, text)
            assert isinstance(played, Accepted)
        stored = storage.load(live.id)
        assert stored is not None and stored.snapshot is not None and stored.snapshot[0] == 10
        loaded = service.live_from_stored(stored)
        assert loaded.history is None  # not built until asked for
        assert live.history is not None
        history = list(asyncio.run(service.history_of(loaded)))
        assert history == list(live.history)
        assert [e["version"] for e in history] == list(range(1, 14))
    finally:
        storage.close()
