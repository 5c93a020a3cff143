"""The server under abuse: a client that stops reading, text that is not text, numbers and nesting the
parser refuses, ids that are no ids, oversized input and floods each get a clear answer (or a dropped
connection) and leave every other table and client working."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from handfoot.rules import RuleError, load_rules
from handfoot.server.limits import HINT_RATE, MAX_BODY_BYTES, TABLE_RATE, Rate, RateLimiter
from handfoot.server.live.broadcast import NOTICE_SECONDS, notice_table
from handfoot.server.live.origin import origin_allowed
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, TableRow, now
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import Connection
from handfoot.server.wire.jsonout import Encoded
from helpers.server import SeatClient, create_table, running_server, sent_json

pytest_plugins = ["helpers.services"]


def new_table(base: str, players: int = 2, **extra: Any) -> tuple[str, list[str]]:
    body = {"preset": "kitchen-table", "players": players, "public": True, **extra}  # watched without a key
    created = httpx.post(f"{base}/api/tables", json=body)
    assert created.status_code == 201, created.text
    body = created.json()
    return body["table"]["id"], [invite["token"] for invite in body["invites"]]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("abuse-data")
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0, rate_limit=0)) as url:
        yield url


@contextmanager
def stalled_spectator(base: str, table_id: str, requests: int = 3000) -> Iterator[ClientConnection]:
    """A spectator that asks for the state again and again and never reads an answer: a small receive
    buffer, no compression, and a client that stops reading once one message waits. It comes from an
    address of its own (127.0.0.2), so its flood spends none of the other clients' message budget."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind(("127.0.0.2", 0))
    sock.connect((host, int(port)))
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    with connect(url, sock=sock, compression=None, max_queue=1, ping_interval=None) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1}))

        def flood() -> None:
            try:
                for _ in range(requests):
                    ws.send('{"type": "sync"}')
            except Exception:  # the server dropped it: that is the point
                return

        threading.Thread(target=flood, name="stalled-spectator", daemon=True).start()
        yield ws


# --- 1. a client that stops reading -----------------------------------------------------------------


def test_a_spectator_that_stops_reading_cannot_freeze_its_table(base: str) -> None:
    table_id, tokens = new_table(base)
    players = [SeatClient(base, table_id, token) for token in tokens]
    state = players[0].state(0)
    mover = players[state["view"]["to_move"]]
    with stalled_spectator(base, table_id):
        for _ in range(3):  # the table keeps playing while the spectator's answers pile up
            state = mover.latest_state()
            mover.move("draw" if "draw" in state["legal"] else state["legal"][-1], state["version"])
            state = mover.state(state["version"] + 1)
            mover = players[state["view"]["to_move"]]
        # it fell behind, was dropped, and is no longer counted as watching
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/tables/{table_id}").json()["spectators"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert httpx.get(f"{base}/api/tables/{table_id}").json()["spectators"] == 0


def test_a_stop_does_not_hang_on_a_client_that_stops_reading(tmp_path: Path) -> None:
    # running_server raises if the server does not stop within the graceful-shutdown time (+ margin)
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as url:
        table_id, _tokens = new_table(url)
        with stalled_spectator(url, table_id, requests=200):
            SeatClient(url, table_id).latest_state()


# --- 2. text that is not text -----------------------------------------------------------------------


@pytest.mark.parametrize("option", ["name", "title", "summary"])
def test_a_lone_surrogate_in_a_text_option_is_refused(base: str, option: str) -> None:
    raw = '{"preset": "kitchen-table", "players": 2, "options": {"' + option + '": "Ann\\ud800"}}'
    answer = httpx.post(f"{base}/api/tables", content=raw, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "bad_table"
    assert "lone surrogate" in answer.json()["error"]["message"]
    assert httpx.get(f"{base}/api/tables").status_code == 200


def test_text_options_have_size_caps_and_no_control_characters() -> None:
    with pytest.raises(RuleError, match="at most 64"):
        load_rules({"extends": "family", "name": "x" * 65})
    with pytest.raises(RuleError, match="control character"):
        load_rules({"extends": "family", "title": "a\x07b"})
    assert load_rules({"extends": "family", "summary": "two lines\nof summary"}).summary.count("\n") == 1


def test_a_stored_table_with_a_lone_surrogate_breaks_no_listing_after_a_restart(
    tmp_path: Path, database_url: str
) -> None:
    # A row an older version let in: its rules' name is not text, and one of its seats has such a name.
    storage = Storage(database_url)
    row = TableRow("badtext0001", now(), {"extends": "family", "name": "x\ud800"}, 2, 7, 0)
    storage.create_table(row, [SeatRow(0, "human", None, "0" * 64), SeatRow(1, "human", None, "1" * 64)])
    storage.close()
    settings = Settings(data_dir=tmp_path, database_url=database_url, port=0, bot_delay=0.0)
    for _restart in range(2):
        with running_server(settings) as url:
            good, _tokens = new_table(url)
            listing = httpx.get(f"{url}/api/tables")
            assert listing.status_code == 200, listing.text
            assert good in {t["id"] for t in listing.json()}
            # The table itself is refused with a clear message (its stored rules no longer load).
            refused = httpx.get(f"{url}/api/tables/badtext0001")
            assert refused.status_code == 409, refused.text
            assert refused.json()["error"]["code"] == "unreadable_table"
            assert "badtext0001" in refused.json()["error"]["message"]


def test_a_lone_surrogate_in_a_message_is_refused_and_the_connection_lives(base: str) -> None:
    table_id, tokens = new_table(base)
    client = SeatClient(base, table_id, tokens[0])
    client.send('{"type": "move", "version": 0, "move": "discard \\ud800"}')
    error = client.until(lambda m: m["type"] == "error")
    assert error["code"] == "bad_message" and "lone surrogate" in error["message"]
    assert client.latest_state()["version"] == 0


# --- 6. numbers and nesting the JSON parser refuses -------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ('{"type": "move", "version": ' + "9" * 5000 + ', "move": "draw"}', "at most 4300 digits"),
        ('{"type": "sync", "x": ' + "[" * 4000 + "]" * 4000 + "}", "nested too deep"),
        ('{"type": "sync", "x": ' + '{"a":' * 1300 + "1" + "}" * 1300 + "}", "nested too deep"),
    ],
)
def test_huge_numbers_and_deep_nesting_get_the_documented_error(base: str, raw: str, says: str) -> None:
    table_id, tokens = new_table(base)
    client = SeatClient(base, table_id, tokens[0])
    client.send(raw)
    error = client.until(lambda m: m["type"] == "error")
    assert error["code"] == "bad_message" and says in error["message"], error
    assert client.latest_state()["version"] == 0  # still open, nothing changed


@pytest.mark.parametrize(
    "raw",
    [
        '{"preset": "kitchen-table", "players": ' + "9" * 5000 + "}",
        '{"preset": "kitchen-table", "options": ' + "[" * 5000 + "]" * 5000 + "}",
    ],
)
def test_http_bodies_with_huge_numbers_or_deep_nesting_are_refused(base: str, raw: str) -> None:
    answer = httpx.post(f"{base}/api/tables", content=raw, headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["error"]["message"]


# --- 7. ids that cannot be table ids ----------------------------------------------------------------


@pytest.mark.parametrize("bad", ["ab\x00cd", "x" * 33, "a b", "é"])
def test_a_table_id_that_cannot_be_one_is_404_on_every_backend(
    tmp_path: Path, database_url: str, bad: str
) -> None:
    settings = Settings(data_dir=tmp_path, database_url=database_url, port=0, bot_delay=0.0)
    with running_server(settings) as url:
        quoted = httpx.URL(f"{url}/api/tables/x").copy_with(raw_path=b"/api/tables/" + _quote(bad)).raw_path
        for suffix in (b"", b"/record", b"/replay", b"/replay/0"):
            answer = httpx.get(url + (quoted + suffix).decode())
            assert answer.status_code == 404, (suffix, answer.text)
        client = SeatClient(url, _quote(bad).decode())
        assert client.welcome["type"] == "error" and client.welcome["code"] == "no_table"


def _quote(text: str) -> bytes:
    return quote(text, safe="").encode()


# --- 5. size caps and rate limits -------------------------------------------------------------------


def test_an_oversized_body_is_refused_with_413(base: str) -> None:
    raw = '{"preset": "kitchen-table", "options": {"summary": "' + "x" * MAX_BODY_BYTES + '"}}'
    answer = httpx.post(f"{base}/api/tables", content=raw, headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["error"]["message"]


def test_an_oversized_websocket_frame_closes_the_connection(base: str) -> None:
    table_id, _tokens = new_table(base)
    client = SeatClient(base, table_id)
    client.send('{"type": "sync", "x": "' + "x" * 40_000 + '"}')
    with pytest.raises(Exception) as caught:
        client.until(lambda m: False, 10)
    assert "1009" in str(caught.value) or "closed" in str(caught.value).lower()


def test_a_rate_limiter_gives_a_burst_then_refills() -> None:
    clock = [0.0]
    limiter = RateLimiter(Rate(3, 30.0), max_keys=2, clock=lambda: clock[0])
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.wait("a") == pytest.approx(10.0)
    assert limiter.allow("b")  # another client has its own bucket
    clock[0] = 10.0
    assert limiter.allow("a") and not limiter.allow("a")
    limiter.allow("c")  # a third key: the idlest one ("b") is forgotten
    assert set(limiter.buckets) == {"a", "c"}
    assert RateLimiter(None).allow("a")


def test_tables_hints_and_messages_are_rate_limited_per_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HANDFOOT_HINT_SECONDS", "0")
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as url:
        body = {"preset": "kitchen-table", "players": 2}
        # The bucket refills (one table every 3 s), so on a slow machine a few more may pass: count them.
        answers = [httpx.post(f"{url}/api/tables", json=body) for _ in range(TABLE_RATE.burst + 10)]
        codes = [a.status_code for a in answers]
        assert codes[: TABLE_RATE.burst] == [201] * TABLE_RATE.burst and 429 in codes, codes
        refused = answers[codes.index(429)].json()["error"]
        assert refused["code"] == "rate_limited" and "tables created" in refused["message"]
        table = answers[0].json()
        client = SeatClient(url, table["table"]["id"], table["invites"][0]["token"])
        hints = []
        for _ in range(HINT_RATE.burst + 5):
            client.send({"type": "hint", "version": 0})
            hints.append(client.until(lambda m: m["type"] in ("hint", "error"), 30).get("code"))
        assert "rate_limited" not in hints[: HINT_RATE.burst] and "rate_limited" in hints, hints
        for _ in range(100):  # a flood: past the burst, messages are refused unread
            client.send({"type": "ping"})
        refused = client.until(lambda m: m.get("code") == "rate_limited")
        assert "too many messages" in refused["message"]


# --- 9. the WebSocket Origin --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "public_url", "host", "allowed"),
    [
        (None, "", "127.0.0.1:8000", True),  # not a browser
        ("http://127.0.0.1:8000", "", "127.0.0.1:8000", True),
        ("http://127.0.0.1:9000", "", "127.0.0.1:8000", False),
        ("https://evil.example", "", "127.0.0.1:8000", False),
        ("https://cards.example.org", "", "cards.example.org", True),  # behind a proxy passing Host
        ("null", "", "127.0.0.1:8000", False),
        ("https://cards.example.org", "https://cards.example.org", "127.0.0.1:8000", True),
        ("https://cards.example.org/", "https://cards.example.org", "127.0.0.1:8000", True),
        ("http://127.0.0.1:8000", "https://cards.example.org", "127.0.0.1:8000", True),  # on the server
        ("http://localhost:8000", "https://cards.example.org", "localhost:8000", True),
        ("http://192.168.1.20:8000", "https://cards.example.org", "192.168.1.20:8000", False),
        ("http://evil.example:8000", "https://cards.example.org", "evil.example:8000", False),  # rebinding
        ("https://cards.example.org.evil.example", "https://cards.example.org", "x", False),
    ],
)
def test_origin_rules(origin: str | None, public_url: str, host: str, allowed: bool) -> None:
    assert origin_allowed(origin, public_url, host) is allowed


def _hello_from(base: str, table_id: str, origin: str | None) -> dict[str, Any]:
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    first: dict[str, Any] = {}
    with suppress(ConnectionClosed), connect(url, origin=origin, ping_interval=None) as ws:  # type: ignore[arg-type]
        with suppress(ConnectionClosed):  # a refused connection may be closed before the hello is read
            ws.send(json.dumps({"type": "hello", "protocol": 1}))
        first = json.loads(ws.recv(timeout=5))
    return first


def test_a_page_from_another_site_cannot_open_a_websocket(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=0.0)) as url:
        table_id, _tokens = new_table(url)
        assert _hello_from(url, table_id, url)["type"] == "welcome"
        assert _hello_from(url, table_id, None)["type"] == "welcome"
        refused = _hello_from(url, table_id, "https://evil.example")
        assert refused["type"] == "error" and refused["code"] == "bad_origin", refused
        assert "this server's own address" in refused["message"]


def test_with_a_public_url_only_its_pages_may_connect(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0, public_url="https://cards.example.org")
    with running_server(settings) as url:
        table_id, _tokens = new_table(url)
        assert _hello_from(url, table_id, "https://cards.example.org")["type"] == "welcome"
        assert _hello_from(url, table_id, url)["type"] == "welcome"  # on the server itself
        refused = _hello_from(url, table_id, "http://192.168.1.20:8000")
        assert refused["code"] == "bad_origin" and "https://cards.example.org" in refused["message"]


# --- 5. join/leave notices --------------------------------------------------------------------------


def test_notices_of_many_arrivals_do_not_grow_with_the_square_of_the_audience(tmp_path: Path) -> None:
    async def run() -> list[int]:
        storage = Storage(f"sqlite:///{tmp_path / 'notices.db'}")
        service = TableService(storage, 50)
        live, _tokens = create_table(service, "kitchen-table", {}, 2, [])
        received: list[list[dict[str, Any]]] = []
        for _ in range(200):  # 200 spectators arrive together, as live.socket.table_socket adds them
            inbox: list[dict[str, Any]] = []
            received.append(inbox)

            def deliver(message: dict[str, Any] | Encoded, inbox: list[dict[str, Any]] = inbox) -> None:
                inbox.append(sent_json(message))

            async with live.lock:
                live.connections.append(Connection(deliver, None))
                notice_table(live)
        await asyncio.sleep(NOTICE_SECONDS + 0.5)
        storage.close()
        return [sum(1 for m in inbox if m["type"] == "table") for inbox in received]

    counts = asyncio.run(run())
    assert counts[0] <= 2  # one at once, one with the latest summary (it was 200: one per arrival)
    assert sum(counts) <= 2 * len(counts)


def test_spectators_arriving_together_get_few_notices(base: str) -> None:
    table_id, _tokens = new_table(base)
    first = SeatClient(base, table_id)
    others = [SeatClient(base, table_id) for _ in range(40)]
    last = others[-1].latest_state()["table"]
    assert last["spectators"] == 41
    first.until(lambda m: m["type"] == "table" and m["table"]["spectators"] == 41, 10)
    notices = sum(1 for m in first.received if m["type"] == "table")
    assert notices < 20, notices  # one per arrival before (40); about one a second now
    for client in [first, *others]:
        client.close()
