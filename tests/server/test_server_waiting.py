"""Before the first hand, a table created to wait (the lobby's) waits for the people invited to it: nobody
moves and no bot plays until each invited seat has someone at it (a name given, or its link open), or
the host starts without them (``start``: bots play the empty seats). After a hand, the host sets how
long the table waits for the people reading its score (``pace``), stored with the table."""

from __future__ import annotations

import time
from pathlib import Path

from handfoot.engine import Game
from handfoot.rules import load_rules
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, TableRow, now, token_hash
from helpers.server import SeatClient, running_server

ANN = "ann-token-of-the-waiting-table"
BEN = "ben-token-of-the-waiting-table"
HOST = "host-key-of-the-waiting-table"
SEED, DEALER = 5, 1


def _table(settings: Settings, table_id: str, waits: bool = True) -> None:
    """Four seats of kitchen-table: Ann (seat 0, sat down), an invited person not yet here (seat 1) and two
    medium bots; seat 2, a bot, plays first. ``waits``: created to wait for the invited (as the lobby's)."""
    assert Game(load_rules("kitchen-table"), 4, SEED, DEALER).state.to_move == 2
    storage = Storage(settings.db_url)
    try:
        seats = [
            SeatRow(0, "human", None, token_hash(ANN), name="Ann"),
            SeatRow(1, "human", None, token_hash(BEN)),
            SeatRow(2, "bot", "medium"),
            SeatRow(3, "bot", "medium"),
        ]
        row = TableRow(
            table_id, now(), "kitchen-table", 4, SEED, DEALER, host_hash=token_hash(HOST), waits=waits
        )
        storage.create_table(row, seats)
    finally:
        storage.close()


def _settings(tmp_path: Path) -> Settings:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    settings.prepare()
    return settings


def test_the_first_hand_waits_until_the_host_starts_it_with_bots(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    _table(settings, "waits")
    with running_server(settings) as url:
        ann = SeatClient(url, "waits", ANN, host=HOST)
        state = ann.state(0)
        assert state["table"]["waiting_for"] == [1]
        time.sleep(0.5)  # the bot to play first (no delay) would have played by now
        assert ann.latest_state()["version"] == 0, "a bot played before the invited player came"
        ann.send({"type": "host", "action": "start", "bot": "random"})
        started = ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["stand_in"] == "random")
        assert started["table"]["waiting_for"] == []
        assert ann.state(1)["last"]["seat"] == 2  # the bots play on
        ann.send({"type": "host", "action": "start"})
        refused = ann.until(lambda m: m["type"] == "error")
        assert refused["code"] == "host" and "waits for nobody" in refused["message"]


def test_a_move_while_waiting_is_refused_and_the_arrival_starts_the_game(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    _table(settings, "arrives")
    with running_server(settings) as url:
        ann = SeatClient(url, "arrives", ANN, host=HOST)
        ann.state(0)
        ann.move("draw", 0)  # not Ann's turn, but the wait is said first
        refused = ann.until(lambda m: m["type"] == "refused")
        assert refused["rule"] == "waiting"
        assert "waiting for seat 2" in refused["message"] and "host can start" in refused["message"]
        ben = SeatClient(url, "arrives", BEN)  # Ben opens his link: everyone invited is here
        assert ben.state()["table"]["waiting_for"] == []
        assert ben.state(1)["last"]["seat"] == 2


def test_a_table_not_created_to_wait_waits_for_nobody(tmp_path: Path) -> None:
    """Only a table created to wait (``wait_for_players``, as the lobby page asks) waits: one made by a
    script playing its seats through the protocol goes on at once."""
    settings = _settings(tmp_path)
    _table(settings, "no-host", waits=False)
    with running_server(settings) as url:
        ann = SeatClient(url, "no-host", ANN)
        assert ann.state(0)["table"]["waiting_for"] == []
        assert ann.state(1)["last"]["seat"] == 2  # the bot plays first


def test_the_host_sets_the_wait_after_a_hand_and_it_is_stored(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    _table(settings, "paced")
    with running_server(settings) as url:
        ann = SeatClient(url, "paced", ANN, host=HOST)
        assert ann.state(0)["table"]["read_seconds"] == 90
        ann.send({"type": "host", "action": "pace", "seconds": 20})
        notice = ann.until(lambda m: m["type"] == "table" and m["table"]["read_seconds"] == 20)
        assert notice["table"]["reading"] == []
        ann.send({"type": "host", "action": "pace", "seconds": 601})
        assert ann.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    storage = Storage(settings.db_url)
    try:
        stored = storage.load("paced")
        assert stored is not None and stored.row.read_seconds == 20
    finally:
        storage.close()
    with running_server(settings) as url:  # read back after a restart
        assert SeatClient(url, "paced", ANN).state()["table"]["read_seconds"] == 20
