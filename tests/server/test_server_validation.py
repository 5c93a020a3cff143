"""Bad input from a client, over WebSocket and HTTP, gets a clear error and changes nothing; the lobby's
rules catalogue lists every option with its help; settings come from the environment."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from handfoot.rules import OPTION_NAMES, PRESET_NAMES
from handfoot.server.settings import Settings, SettingsError, load_settings
from helpers.server import SeatClient, running_server


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("validation-data")
    # Faster than people play, from one address: rate limits are off here (test_server_abuse tests them).
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0, rate_limit=0)) as url:
        yield url


def create(base: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/api/tables", json=body)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "shout"}', '"type" is'),
        ('{"version": 0}', '"type" is None'),
        ('{"type": "move", "move": "draw"}', "version: Field required"),
        ('{"type": "move", "version": "0", "move": "draw"}', "version: Input should be a valid integer"),
        (
            '{"type": "move", "version": -1, "move": "draw"}',
            "version: Input should be greater than or equal to 0",
        ),
        ('{"type": "move", "version": 0, "move": ""}', "move: String should have at least 1 character"),
        ('{"type": "move", "version": 0, "move": "draw", "seat": 1}', "seat: unknown field"),
        ('{"type": "sync", "extra": true}', "extra: unknown field"),
        ('{"type": "hello"}', "hello is only the first message"),
        ('{"type": "move", "version": 0, "move": "' + "x" * 9000 + '"}', "at most 8192 characters"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(base: str, raw: str, says: str) -> None:
    created = create(base, {"preset": "kitchen-table", "players": 2}).json()
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    clients = [SeatClient(base, table_id, token) for token in tokens]
    mover = clients[clients[0].state(0)["view"]["to_move"]]
    mover.send(raw)
    error = mover.until(lambda m: m["type"] == "error")
    assert error["code"] == "bad_message" and says in error["message"], error
    assert mover.latest_state()["version"] == 0  # the connection is still open, and nothing moved
    mover.move("draw", 0)
    assert mover.state(1)["last"]["move"] == "draw"


def test_binary_frames_are_refused(base: str) -> None:
    created = create(base, {"preset": "kitchen-table", "players": 2}).json()
    client = SeatClient(base, created["table"]["id"], created["invites"][0]["token"])
    client.ws.send(b"\x00\x01")
    assert "binary" in client.until(lambda m: m["type"] == "error")["message"]


def test_bad_hello_closes_with_a_reason(base: str) -> None:
    created = create(base, {"preset": "kitchen-table", "players": 2}).json()
    table_id = created["table"]["id"]
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    for hello, says in [
        ('{"type": "hello", "protocol": 9}', "protocol 1"),
        ('{"type": "hello", "token": "short"}', "token: String should have at least 8 characters"),
        ('{"type": "hello", "name": "Eve"}', "spectator does not give a name"),
        (
            '{"type": "hello", "token": "' + created["invites"][0]["token"] + '", "name": "   "}',
            "a name has 1 to 32 characters",
        ),
    ]:
        with connect(url) as ws:
            ws.send(hello)
            message = json.loads(ws.recv(timeout=5))
            assert message["type"] == "error" and says in message["message"], message


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"preset": "grandma"}, 422, "preset 'grandma' does not exist; allowed: kitchen-table"),
        ({"preset": "kitchen-table", "options": {"hand_size": 0}}, 422, "rule option hand_size: 0 is"),
        ({"preset": "kitchen-table", "options": {"no_such_option": 1}}, 422, "unknown option"),
        ({"preset": "kitchen-table", "options": {"extends": "family"}}, 422, "cannot hold 'extends'"),
        ({"preset": "in-laws", "players": 3}, 422, "players is 3; in-laws allows 4"),
        ({"preset": "marmot", "players": 11}, 422, "players is 11; marmot allows 2, 3, 4, 5, 6, 7, 8, 9, 10"),
        ({"preset": "kitchen-table", "players": 2, "seats": [{"kind": "invite"}]}, 422, "exactly 2"),
        ({"preset": "kitchen-table", "seats": [{"kind": "robot"}]}, 422, "seats[0].kind"),
        (
            {"preset": "kitchen-table", "seats": [{"kind": "bot", "bot": "nobody"}]},
            422,
            "no bot called 'nobody'",
        ),
        ({"preset": "kitchen-table", "seats": [{"kind": "invite", "bot": "easy"}]}, 422, "only a bot seat"),
        ({"preset": "kitchen-table", "players": "4"}, 422, "players: Input should be a valid integer"),
        ({"preset": "kitchen-table", "colour": "red"}, 422, "colour: unknown field"),
        ({}, 422, "preset: Field required"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(
    base: str, body: dict[str, Any], status: int, says: str
) -> None:
    before = len(httpx.get(f"{base}/api/tables").json())
    response = create(base, body)
    assert response.status_code == status
    assert says in response.json()["error"]["message"], response.json()
    assert len(httpx.get(f"{base}/api/tables").json()) == before


def test_a_table_of_ten_players(base: str) -> None:
    """family (002), 1. Setup: "Use (number_of_players + 1) standard 52-card decks" names no most
    players: a table of ten, one invitation and nine bots, each for themselves."""
    seats = [{"kind": "invite"}] + [{"kind": "bot", "bot": "random"}] * 9
    response = create(base, {"preset": "family", "players": 10, "seats": seats})
    assert response.status_code == 201, response.json()
    table = response.json()["table"]
    assert table["players"] == 10 and len(table["seats"]) == 10
    assert len(response.json()["invites"]) == 1


def test_a_table_of_presets_and_overrides(base: str) -> None:
    response = create(base, {"preset": "family", "options": {"hands_per_game": 2}, "players": 3})
    assert response.status_code == 201
    table = response.json()["table"]
    assert table["rules_source"] == {"extends": "family", "hands_per_game": 2}
    assert len(response.json()["invites"]) == 3
    assert "seed" not in table and all("token" not in seat for seat in table["seats"])


def test_join_validates_token_and_name(base: str) -> None:
    created = create(base, {"preset": "kitchen-table", "players": 2}).json()
    table_id = created["table"]["id"]
    token = created["invites"][1]["token"]
    url = f"{base}/api/tables/{table_id}/join"
    # A private table is no table to whoever holds none of its links.
    assert httpx.post(url, json={"token": "x" * 20, "name": "Eve"}).status_code == 404
    assert "1 to 32" in httpx.post(url, json={"token": token, "name": ""}).json()["error"]["message"]
    assert "control" in httpx.post(url, json={"token": token, "name": "a\u0007b"}).json()["error"]["message"]
    joined = httpx.post(url, json={"token": token, "name": "  Bea  "})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert joined.json()["table"]["seats"][1]["name"] == "Bea"


def test_unknown_things_are_404_and_unfinished_records_409(base: str) -> None:
    assert httpx.get(f"{base}/api/tables/nope").json()["error"]["code"] == "no_table"
    assert httpx.get(f"{base}/api/presets/nope").status_code == 404
    created = create(base, {"preset": "kitchen-table", "players": 2, "public": True}).json()
    record = httpx.get(f"{base}/api/tables/{created['table']['id']}/record")
    assert record.status_code == 409 and "once the game is over" in record.json()["error"]["message"]


def test_rules_catalogue_for_the_table_form(base: str) -> None:
    presets = httpx.get(f"{base}/api/presets").json()
    assert [p["name"] for p in presets] == list(PRESET_NAMES)
    detail = httpx.get(f"{base}/api/presets/marmot").json()
    # Every rule option, grouped in plain words; the preset's name, title and summary are not options.
    identity = {"name", "title", "summary"}
    assert {o["name"] for o in detail["options"]} == set(OPTION_NAMES) - identity
    assert all(o["help"] and "value" in o for o in detail["options"])
    groups = [o["group_title"] for o in detail["options"]]
    assert list(dict.fromkeys(groups)) == [
        "Dealing",
        "How long a game lasts",
        "Melding",
        "Drawing and taking the pile",
        "Going out",
        "Scoring",
    ]
    by_name = {o["name"]: o["group"] for o in detail["options"]}
    assert by_name["opening_minimums"] == "melding" and by_name["pickup_naturals"] == "pile"
    assert {o["name"] for o in httpx.get(f"{base}/api/options").json()} == set(OPTION_NAMES) - identity
    assert httpx.get(f"{base}/api/bots").json()["bots"]


def test_settings_from_the_environment(tmp_path: Path) -> None:
    env = {"HANDFOOT_DATA": str(tmp_path), "HANDFOOT_PORT": "9123", "HANDFOOT_BOT_DELAY": "0.25"}
    settings = load_settings(env)
    assert settings.data_dir == tmp_path and settings.port == 9123 and settings.bot_delay == 0.25
    assert settings.db_url == f"sqlite:///{tmp_path.as_posix()}/handfoot.db"
    assert load_settings(env, port=9200).port == 9200
    with pytest.raises(SettingsError, match="HANDFOOT_PORT"):
        load_settings({"HANDFOOT_PORT": "eighty"})
    with pytest.raises(SettingsError, match="HANDFOOT_BOT_DELAY"):
        load_settings({"HANDFOOT_BOT_DELAY": "-1"})


def test_a_browser_asking_for_a_page_that_does_not_exist_gets_a_page(base: str) -> None:
    """A mistyped or cut address opened in a browser gets the client's page (which says so), with
    status 404; the API keeps answering JSON."""
    page = httpx.get(f"{base}/play/abc/extra", headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert '<div id="app">' in page.text
    api = httpx.get(f"{base}/api/nothing", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json()["error"]["code"] == "http"
