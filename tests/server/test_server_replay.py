"""The replay endpoints of a finished game: the list of steps, the public view at each step (checked
against an independent replay of the record), the hand's end with the cards left, and the refusals
(a game not over yet, a step that does not exist, an unknown table)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.engine import spectator_view
from handfoot.record import Record, parse_record, replay
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, TableRow, now
from handfoot.server.wire.protocol import view_json
from helpers.server import ONE_HAND, planted_game_moves, running_server, store_planted_game


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("replay-data")
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0)) as url:
        yield url


def finished_bot_game(base: str, hands: int) -> str:
    """The id of a two-player game between bots, played to its end."""
    body = {
        "preset": "kitchen-table",
        "options": {"game_end": "hands", "hands_per_game": hands},
        "players": 2,
        "seats": [{"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "medium"}],
        "public": True,
    }
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    table_id: str = response.json()["table"]["id"]
    deadline = time.monotonic() + 40
    while not httpx.get(f"{base}/api/tables/{table_id}").json()["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    return table_id


@pytest.fixture(scope="module")
def game(base: str) -> dict[str, Any]:
    """A finished two-hand game: its id, record, summary and replay listing."""
    table_id = finished_bot_game(base, 2)
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    listing = httpx.get(f"{base}/api/tables/{table_id}/replay")
    assert listing.status_code == 200, listing.text
    return {"id": table_id, "record": record, "listing": listing.json()}


def step(base: str, table_id: str, index: int) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/tables/{table_id}/replay/{index}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_listing_has_a_step_per_move(game: dict[str, Any]) -> None:
    steps = game["listing"]["steps"]
    moves = game["record"]["moves"]
    assert len(steps) == len(moves) + 1
    assert steps[0] == {"step": 0, "hand_index": 0, "seat": None, "move": None, "hand_end": False}
    assert [s["move"] for s in steps[1:]] == moves
    assert [s["step"] for s in steps] == list(range(len(steps)))
    ends = [s["step"] for s in steps if s["hand_end"]]
    assert len(ends) == 2 and ends[-1] == len(moves)
    assert game["listing"]["table"]["finished"] is True
    assert game["listing"]["seating"]["side_of"] == [0, 1]


def test_each_step_is_the_public_view_after_its_moves(base: str, game: dict[str, Any]) -> None:
    """Sampled steps match a replay of the record to that point, seen as a spectator: no hand, and the
    seat, move and events of the move that made it."""
    record = parse_record(game["record"])
    steps = game["listing"]["steps"]
    ends = {s["step"] for s in steps if s["hand_end"]}
    picks = sorted({0, 1, 2, 3, len(steps) // 3, len(steps) // 2, len(steps) - 2} - ends)
    for index in picks:
        got = step(base, game["id"], index)
        played, error = replay(record, index)
        assert error is None
        assert got["view"] == view_json(spectator_view(played.state)), index
        assert got["view"]["hand"] == [] and got["view"]["seat"] is None
        assert got["steps"] == len(steps) and got["step"] == index
        assert got["totals"] == list(played.totals)
        assert got["hand_end"] is None
        if index:
            assert got["move"] == record.moves[index - 1] and got["seat"] in (0, 1)
            # every move but a staging step (its cards stay in the hand: no public event) has events
            assert got["events"] or got["move"].startswith("stage"), index
            assert all("cards" in e and "type" in e for e in got["events"])
            # A draw names no card: its event only counts them.
            if got["move"] == "draw":
                drew = [e for e in got["events"] if e["type"] == "drew"]
                assert drew and drew[0]["cards"] == [] and drew[0]["amount"] > 0


def test_a_hand_end_step_shows_the_hand_as_it_ended(base: str, game: dict[str, Any]) -> None:
    summary = game["listing"]["table"]
    steps = game["listing"]["steps"]
    ends = [s["step"] for s in steps if s["hand_end"]]
    for hand, index in enumerate(ends):
        got = step(base, game["id"], index)
        end = got["hand_end"]
        assert end["hand_index"] == hand == got["hand_index"]
        assert end["scores"] == summary["hands"][hand]["scores"]
        assert end["lines"] == summary["hands"][hand]["lines"]
        assert got["view"]["phase"] == "over" and got["view"]["hand"] == []
        assert got["hands_done"] == hand + 1
        left = end["cards_left"]
        assert len(left) == 2
        for seat, cards in enumerate(left):
            seen = got["view"]["seats"][seat]
            assert len(cards["hand"]) == seen["hand_count"]
            assert len(cards["foot"]) == (0 if seen["in_foot"] else seen["foot_count"])
    assert step(base, game["id"], ends[-1])["totals"] == summary["totals"]
    # The step after the first hand's end is in the second hand.
    assert step(base, game["id"], ends[0] + 1)["hand_index"] == 1


def test_refusals(base: str, game: dict[str, Any]) -> None:
    created = httpx.post(
        f"{base}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True}
    ).json()
    table_id = created["table"]["id"]
    for path in (f"/api/tables/{table_id}/replay", f"/api/tables/{table_id}/replay/0"):
        response = httpx.get(base + path)
        assert response.status_code == 409 and response.json()["error"]["code"] == "not_finished"
    response = httpx.get(f"{base}/api/tables/nosuchtable/replay")
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_table"
    count = len(game["listing"]["steps"])
    for bad in (count, 10**6):
        response = httpx.get(f"{base}/api/tables/{game['id']}/replay/{bad}")
        assert response.status_code == 404 and response.json()["error"]["code"] == "no_step"
        assert f"0 to {count - 1}" in response.json()["error"]["message"]
    response = httpx.get(f"{base}/api/tables/{game['id']}/replay/-1")
    assert response.status_code == 404
    response = httpx.get(f"{base}/api/tables/{game['id']}/replay/first")
    assert response.status_code == 422


def test_a_game_with_lay_downs_sent_whole_replays_to_its_last_step(tmp_path: Path) -> None:
    """A lay-down of several groups sent at once (``meld A | B``) is one message and one table version,
    and several steps of the game's record. The replay has a step per record move, and the last one (the
    hand's end) is served although it is past the table's version (it was refused as "no such step",
    so the replay page's Last button showed an error at the end of such a game)."""
    _record, sent, game = planted_game_moves()
    assert any("|" in text for text in sent)
    steps = sum(len(hand) for hand in game.moves)
    assert steps > len(sent)  # the whole lay-downs were played as their steps
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    table_id = "whole-lay-downs"

    def row(record: Record) -> TableRow:
        return TableRow(table_id, now(), ONE_HAND, record.players, record.seed, record.dealer)

    store_planted_game(settings, row, [SeatRow(seat, "human", None, None, f"P{seat}") for seat in range(4)])
    with running_server(settings) as base:
        summary = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert summary["finished"] is True and summary["version"] == len(sent)
        listing = httpx.get(f"{base}/api/tables/{table_id}/replay").json()
        assert len(listing["steps"]) == steps + 1
        last = step(base, table_id, steps)
        assert last["hand_end"] is not None and last["hand_end"]["hand_index"] == 0
        response = httpx.get(f"{base}/api/tables/{table_id}/replay/{steps + 1}")
        assert response.status_code == 404 and f"0 to {steps}" in response.json()["error"]["message"]
