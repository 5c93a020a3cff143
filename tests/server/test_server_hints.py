"""Trainer hints over real WebSockets: a seat to move asks ``{"type": "hint", "version": N}`` and gets
the move the hint bot suggests from its own view, with a sentence why; nobody else hears of it, and
spectators, seats not to move, old versions and malformed requests are refused."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.engine import move_id, parse_move
from handfoot.server.live.hints import HintJob, prepare
from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import ENDED_BY_HOST
from helpers.server import SeatClient, create_table, running_server


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("hint-data")
    # Faster than people play, from one address: rate limits are off here (test_server_abuse tests them).
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0, rate_limit=0)) as url:
        yield url


def table_of_two(base: str) -> tuple[str, dict[int, SeatClient], SeatClient]:
    """A two-player table with both seats taken over WebSockets, and a spectator."""
    response = httpx.post(
        f"{base}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    table_id = created["table"]["id"]
    seats = {
        invite["seat"]: SeatClient(base, table_id, invite["token"], f"P{invite['seat']}")
        for invite in created["invites"]
    }
    return table_id, seats, SeatClient(base, table_id)


def current(client: SeatClient) -> dict[str, Any]:
    return client.latest_state()


def ask(client: SeatClient, version: int) -> dict[str, Any]:
    """Ask for a hint and return the answer (a ``hint`` or an ``error``)."""
    client.send({"type": "hint", "version": version})
    return client.until(lambda m: m["type"] in ("hint", "error"), timeout=20)


def test_the_seat_to_move_gets_a_hint_and_nobody_else_hears_of_it(base: str) -> None:
    _table_id, seats, spectator = table_of_two(base)
    state = current(seats[0])
    mover = state["view"]["to_move"]
    other = 1 - mover
    mine = current(seats[mover])
    answer = ask(seats[mover], mine["version"])
    assert answer["type"] == "hint", answer
    assert answer["version"] == mine["version"] and answer["seat"] == mover
    assert answer["move"].split()[0] in ("draw", "pickup")  # a turn starts with one or the other
    assert len(answer["reason"]) > 10 and answer["reason"][0].isupper()
    # The hint names only cards of the asking seat's own hand.
    named = Counter(card for group in answer["groups"] for card in group)
    assert not named - Counter(mine["view"]["hand"])
    for client in (seats[other], spectator):
        assert not [m for m in client.barrier() if m["type"] == "hint"]


def test_spectators_seats_not_to_move_and_old_versions_are_refused(base: str) -> None:
    _table_id, seats, spectator = table_of_two(base)
    state = current(seats[0])
    mover = state["view"]["to_move"]
    version = state["version"]
    refused = ask(spectator, version)
    assert refused["type"] == "error" and refused["code"] == "no_hint"
    assert "Spectators" in refused["message"]
    refused = ask(seats[1 - mover], version)
    assert refused["code"] == "no_hint" and "not yours" in refused["message"]
    refused = ask(seats[mover], version + 3)
    assert refused["code"] == "no_hint" and f"version {version + 3}" in refused["message"]
    # Nothing was played or sent to anyone else.
    assert current(seats[mover])["version"] == version
    assert not [m for m in seats[1 - mover].barrier() if m["type"] == "hint"]


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "hint"}',
        '{"type": "hint", "version": -1}',
        '{"type": "hint", "version": "0"}',
        '{"type": "hint", "version": 0, "seat": 1}',
        '{"type": "hint", "version": 1.5}',
    ],
)
def test_malformed_hint_requests_are_refused(base: str, message: str) -> None:
    _table_id, seats, _spectator = table_of_two(base)
    mover = current(seats[0])["view"]["to_move"]
    seats[mover].send(message)
    error = seats[mover].until(lambda m: m["type"] in ("error", "hint"))
    assert error["type"] == "error" and error["code"] == "bad_message", error
    assert error["message"].startswith("hint:")
    # The connection stays open and still answers.
    assert current(seats[mover])["version"] == 0


def test_every_hint_is_a_move_the_server_plays(base: str) -> None:
    """Follow the hints of both seats for twenty moves: each one is accepted as it is (openings of
    several groups and pickups included), and each atomic one is in the seat's legal list."""
    _table_id, seats, _spectator = table_of_two(base)
    actions: Counter[str] = Counter()
    for _ in range(20):
        state = current(seats[0])
        mover = state["view"]["to_move"]
        mine = current(seats[mover])
        answer = ask(seats[mover], mine["version"])
        assert answer["type"] == "hint", answer
        move = answer["move"]
        if move_id(parse_move(move)) >= 0:  # atomic: listed; openings and longer groups are compound
            assert move in mine["legal"], (move, mine["legal"])
        actions[move.split()[0]] += 1
        seats[mover].move(move, mine["version"])
        reply = seats[mover].until(lambda m: m["type"] in ("state", "refused"))
        assert reply["type"] == "state" and reply["version"] == mine["version"] + 1, reply
        assert reply["last"]["move"] == move
    assert actions["discard"] >= 3 and actions["draw"] + actions["pickup"] >= 3, actions


def test_no_hint_once_the_host_ended_the_game(tmp_path: Path) -> None:
    """A game the host (or the length limit) ended takes no move, so its seat shown to move gets no hint
    either (the hint would be a move nobody can play)."""
    service = TableService(Storage(f"sqlite:///{tmp_path / 'hints.db'}"), snapshot_every=50)
    live, _tokens = create_table(service, "kitchen-table", {}, 2, [("invite", None)] * 2)
    seat = live.game.to_move
    assert isinstance(prepare(live, seat, live.version), HintJob)
    live.ended = ENDED_BY_HOST
    assert prepare(live, seat, live.version) == "The game is over."
    service.storage.close()
