"""Pacing over a real server: after a hand ends, the table's bots wait for the people reading its score
(a client that says ``pace`` in its hello and ``ready`` when its person closed the score dialog), at most
``HAND_READ_SECONDS``; a client that does not pace is not waited for."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, TableRow, now, token_hash
from helpers.bots import moves_to_a_hand_end
from helpers.server import SeatClient, running_server, store_game

TOKEN = "seat-zero-token-of-the-pacing-table"


@pytest.mark.parametrize("pace", [True, False], ids=["paced", "not-paced"])
def test_bots_wait_for_the_person_reading_the_score(tmp_path: Path, pace: bool) -> None:
    seed, moves = moves_to_a_hand_end()
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    seats = [SeatRow(0, "human", None, token_hash(TOKEN), name="Pat"), SeatRow(1, "bot", "medium")]
    store_game(settings, TableRow("paced", now(), "kitchen-table", 2, seed, 1), seats, moves[:-1])
    with running_server(settings) as url:
        pat = SeatClient(url, "paced", TOKEN, pace=pace)
        last = len(moves) - 1
        pat.state(last)
        pat.send({"type": "move", "version": last, "move": moves[-1][1]})
        dealt = pat.state(last + 1)
        assert dealt["view"]["hand_index"] == 1 and dealt["view"]["to_move"] == 1
        if not pace:
            pat.state(last + 2)  # nobody reads a score here: the bot plays on at once
            return
        time.sleep(0.5)  # the bot (no delay) would have played by now
        assert pat.latest_state()["version"] == last + 1, "a bot played while the score was being read"
        assert dealt["table"]["reading"] == [0]
        pat.send({"type": "ready", "hand": 0})
        assert pat.state(last + 2)["last"]["seat"] == 1  # closed the score: the bot plays

        # Everyone is told that nobody reads the score any more (a ``table`` notice).
        def told(m: dict[str, Any]) -> bool:
            return m["type"] == "table" and m["table"]["reading"] == []

        assert any(told(m) for m in pat.received) or pat.until(told)


def test_the_host_s_wait_runs_out_and_the_bots_play_on(tmp_path: Path) -> None:
    """The host sets the wait after a hand to 1 second: the person still reading the score is waited for
    that long only (the summary says who reads, and for how long), then the bots play on."""
    seed, moves = moves_to_a_hand_end()
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    seats = [SeatRow(0, "human", None, token_hash(TOKEN), name="Pat"), SeatRow(1, "bot", "medium")]
    row = TableRow("short", now(), "kitchen-table", 2, seed, 1, host_hash=token_hash("the-host-key"))
    store_game(settings, row, seats, moves[:-1])
    with running_server(settings) as url:
        pat = SeatClient(url, "short", TOKEN, pace=True, host="the-host-key")
        last = len(moves) - 1
        pat.state(last)
        pat.send({"type": "host", "action": "pace", "seconds": 1})
        pat.until(lambda m: m["type"] == "table" and m["table"]["read_seconds"] == 1)
        pat.send({"type": "move", "version": last, "move": moves[-1][1]})
        dealt = pat.state(last + 1)
        assert dealt["table"]["reading"] == [0] and 0 < dealt["table"]["reading_left"] <= 1
        # Never closing the score: the bot plays once the second is up.
        assert pat.state(last + 2)["last"]["seat"] == 1
