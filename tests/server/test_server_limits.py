"""One visitor cannot use the server up: caps per address on TCP connections, WebSockets, requests,
messages (over all of an address's connections) and wrong keys; a request's head is capped in size and
in time; and the host can void an invitation link by giving its seat a new one.

Addresses other than 127.0.0.1 are made two ways: a socket bound to another loopback address
(127.0.0.2, ...), or the ``X-Forwarded-For`` header, which the server believes from 127.0.0.1 (a reverse
proxy on the same machine)."""

from __future__ import annotations

import json
import socket
import time
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from handfoot.server.limits import (
    GUESS_RATE,
    MAX_CONNECTIONS_PER_ADDRESS,
    MAX_HEAD_BYTES,
    MAX_SOCKETS_PER_ADDRESS,
    MESSAGE_RATE,
    REQUEST_RATE,
    Counter,
)
from handfoot.server.process import connections
from handfoot.server.settings import Settings
from helpers.server import SeatClient, running_server


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _from(address: str, url: str) -> socket.socket:
    """A TCP connection to the server at ``url`` from the loopback ``address``."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", _port(url)))
    return sock


def _answer(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """What the server sends until it closes the connection."""
    sock.settimeout(timeout)
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server trusts no proxy, so connections from 127.0.0.x are counted as visitors'."""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "192.0.2.1")


def test_one_address_cannot_take_every_connection_and_health_checks_answer(
    tmp_path: Path, counted: None
) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url, ExitStack() as stack:
        held = [
            stack.enter_context(closing(_from("127.0.0.2", url))) for _ in range(MAX_CONNECTIONS_PER_ADDRESS)
        ]
        time.sleep(0.2)  # let the server see them all
        refused = _answer(stack.enter_context(closing(_from("127.0.0.2", url))))
        head, _, body = refused.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429 ")
        error = json.loads(body)["error"]
        assert (
            error["code"] == "rate_limited" and f"at most {MAX_CONNECTIONS_PER_ADDRESS}" in error["message"]
        )
        # Everyone else still gets in, health checks included.
        assert httpx.get(f"{url}/api/health").json()["ok"] is True
        other = stack.enter_context(closing(_from("127.0.0.3", url)))
        other.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _answer(other).startswith(b"HTTP/1.1 200 ")
        # A connection closed is a place free again.
        held.pop().close()
        time.sleep(0.2)
        again = stack.enter_context(closing(_from("127.0.0.2", url)))
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _answer(again).startswith(b"HTTP/1.1 200 ")


def test_a_connection_that_sends_no_request_is_closed(
    tmp_path: Path, counted: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "HEAD_SECONDS", 0.5)
    with running_server(Settings(data_dir=tmp_path, port=0)) as url:
        with closing(_from("127.0.0.2", url)) as idle:
            assert _answer(idle) == b""  # closed by the server, with nothing said
        with closing(_from("127.0.0.2", url)) as slow:
            slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            assert _answer(slow) == b""


def test_a_request_head_over_the_cap_is_refused(tmp_path: Path) -> None:
    """A head that has not ended within MAX_HEAD_BYTES is refused as it arrives (one that comes whole
    in a single read is parsed, but a read holds at most 256 KiB)."""
    with running_server(Settings(data_dir=tmp_path, port=0)) as url:
        with closing(_from("127.0.0.2", url)) as big:
            # A header that goes on past the cap (its end never comes): refused without waiting for it.
            big.sendall(
                b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"x" * (MAX_HEAD_BYTES + 1024)
            )
            assert _answer(big).startswith(b"HTTP/1.1 400 ")
        assert httpx.get(f"{url}/api/health", headers={"X-Padding": "x" * 8000}).status_code == 200


def test_one_address_cannot_hold_every_websocket(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url, ExitStack() as stack:
        made = httpx.post(f"{url}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True})
        table_id = made.json()["table"]["id"]
        one = {"additional_headers": {"X-Forwarded-For": "203.0.113.1"}}
        watchers = [
            stack.enter_context(closing(SeatClient(url, table_id, **one)))
            for _ in range(MAX_SOCKETS_PER_ADDRESS)
        ]
        assert all(w.welcome["type"] == "welcome" for w in watchers)
        refused = SeatClient(url, table_id, **one)
        assert (
            refused.welcome["code"] == "rate_limited" and "too many connections" in refused.welcome["message"]
        )
        refused.close()
        other = SeatClient(url, table_id, additional_headers={"X-Forwarded-For": "198.51.100.7"})
        assert other.welcome["type"] == "welcome"
        other.close()
        assert httpx.get(f"{url}/api/health").status_code == 200
        watchers[0].close()
        time.sleep(0.3)
        back = SeatClient(url, table_id, **one)
        assert back.welcome["type"] == "welcome"
        back.close()


def test_a_counter_holds_at_most_its_cap_per_key() -> None:
    counter = Counter(2)
    assert [counter.take("a") for _ in range(3)] == [True, True, False]
    assert counter.take("b")
    counter.give("a")
    assert counter.take("a") and not counter.take("a")
    counter.give("b")
    assert "b" not in counter.held and Counter(None).take("a")


def answers(client: SeatClient, count: int) -> list[dict[str, Any]]:
    """The answers (``pong`` or ``error``) to the last ``count`` messages ``client`` sent, each read (a
    client that leaves them unread stops reading its socket once its queue is full, and then cannot
    close before its close timeout)."""
    got: list[dict[str, Any]] = []
    while len(got) < count:
        message = client.recv(10.0)
        if message["type"] in ("pong", "error"):
            got.append(message)
    return got


def test_the_message_rate_is_per_address_over_all_its_connections(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url:
        made = httpx.post(f"{url}/api/tables", json={"preset": "kitchen-table", "players": 2, "public": True})
        table_id = made.json()["table"]["id"]
        first, second = SeatClient(url, table_id), SeatClient(url, table_id)
        elsewhere = SeatClient(url, table_id, additional_headers={"X-Forwarded-For": "198.51.100.7"})
        for _ in range(MESSAGE_RATE.burst):
            first.send({"type": "ping"})
        assert "pong" in {m["type"] for m in answers(first, MESSAGE_RATE.burst)}
        # Another connection of the same address is over the rate too. As many again: the bucket refills
        # while they travel (all of it in MESSAGE_RATE.per seconds), so on a slow machine a few may pass.
        for _ in range(MESSAGE_RATE.burst):
            second.send({"type": "ping"})
        refused = [m for m in answers(second, MESSAGE_RATE.burst) if m["type"] == "error"]
        assert refused and refused[0]["code"] == "rate_limited"
        assert "over all its connections" in refused[0]["message"]
        elsewhere.send({"type": "ping"})  # another address has its own budget
        assert elsewhere.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
        for client in (first, second, elsewhere):
            client.close()


def test_requests_are_rate_limited_per_address_but_not_health_checks(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url, httpx.Client() as client:
        one = {"X-Forwarded-For": "203.0.113.1"}
        codes = [
            client.get(f"{url}/api/presets", headers=one).status_code for _ in range(REQUEST_RATE.burst + 60)
        ]
        # The bucket refills (four a second), so on a slow machine a few more may pass: count them.
        assert codes[: REQUEST_RATE.burst] == [200] * REQUEST_RATE.burst and 429 in codes, codes
        refused = next(
            r for r in (client.get(f"{url}/api/bots", headers=one) for _ in range(20)) if r.status_code == 429
        )
        refused = refused.json()["error"]
        assert refused["code"] == "rate_limited" and "too many requests" in refused["message"]
        assert client.get(f"{url}/api/health", headers=one).status_code == 200
        assert (
            client.get(f"{url}/api/presets", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 200
        )


def _private_table(url: str) -> dict[str, Any]:
    made = httpx.post(f"{url}/api/tables", json={"preset": "kitchen-table", "players": 2})
    assert made.status_code == 201
    body: dict[str, Any] = made.json()
    return body


def test_key_guessing_is_refused_cheaply_and_counted(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url:
        table = _private_table(url)
        table_id, key = table["table"]["id"], table["watch_key"]
        guesser = {"X-Forwarded-For": "203.0.113.1"}
        # The bucket refills (one guess every 3 s), so on a slow machine a few more may pass: count them.
        with httpx.Client() as client:
            codes = [
                client.get(
                    f"{url}/api/tables/{table_id}", headers={**guesser, "X-Handfoot-Key": f"guess-{n:04d}"}
                ).status_code
                for n in range(GUESS_RATE.burst + 10)
            ]
        assert codes[: GUESS_RATE.burst] == [404] * GUESS_RATE.burst and codes[-1] == 429, codes
        # Past its guesses, even the right key is refused unread, on every door.
        right = httpx.get(f"{url}/api/tables/{table_id}", headers={**guesser, "X-Handfoot-Key": key})
        assert right.status_code == 429 and "too many wrong table links" in right.json()["error"]["message"]
        join = httpx.post(
            f"{url}/api/tables/{table_id}/join",
            json={"token": table["invites"][0]["token"], "name": "Eve"},
            headers=guesser,
        )
        assert join.status_code == 429
        socket_hello = SeatClient(url, table_id, key=key, additional_headers=guesser)
        assert socket_hello.welcome["code"] == "rate_limited"
        socket_hello.close()
        # Another address is not held up.
        other = httpx.get(
            f"{url}/api/tables/{table_id}", headers={"X-Forwarded-For": "198.51.100.7", "X-Handfoot-Key": key}
        )
        assert other.status_code == 200


def test_the_host_gives_a_seat_a_new_invitation_and_the_old_link_opens_nothing(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    with running_server(settings) as url:
        table = _private_table(url)
        table_id = table["table"]["id"]
        old = table["invites"][1]["token"]
        host = SeatClient(url, table_id, table["invites"][0]["token"], "Ann", host=table["host"]["key"])
        bob = SeatClient(url, table_id, old, "Bob")
        bob.latest_state()
        host.send({"type": "host", "action": "invite", "seat": 0})  # the seat the host plays: refused
        assert "you play this seat" in host.until(lambda m: m["type"] == "error")["message"]
        host.send({"type": "host", "action": "invite", "seat": 1})
        invite = host.until(lambda m: m["type"] == "invite")
        new = invite["token"]
        assert invite["seat"] == 1 and invite["link"] == f"{url}/play/{table_id}#seat={new}" and new != old
        revoked = bob.until(lambda m: m["type"] == "error")
        assert revoked["code"] == "revoked"
        with pytest.raises(ConnectionClosed):  # and the connection is closed
            bob.recv(5)
        # The old link opens nothing (a private table: as if there were none); the new one takes the seat.
        assert SeatClient(url, table_id, old).welcome["code"] == "no_table"
        joined = httpx.post(f"{url}/api/tables/{table_id}/join", json={"token": new, "name": "Bea"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert (
            httpx.post(f"{url}/api/tables/{table_id}/join", json={"token": old, "name": "Bob"}).status_code
            == 404
        )
        host.close()
    with running_server(settings) as url:  # stored: it holds after a restart
        assert SeatClient(url, table_id, new).welcome["seat"] == 1
        assert SeatClient(url, table_id, old).welcome["code"] == "no_table"


def test_the_api_pages_are_off_unless_asked_for(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url:
        for path in ("/docs", "/redoc", "/openapi.json"):
            assert httpx.get(f"{url}{path}").status_code == 404, path
    with running_server(Settings(data_dir=tmp_path, port=0, api_docs=True)) as url:
        assert httpx.get(f"{url}/openapi.json").json()["info"]["title"] == "handfoot"
        assert httpx.get(f"{url}/docs").status_code == 200


def test_wrong_keys_are_counted_and_refusals_too() -> None:
    from handfoot.server.limits import Limiters

    limits = Limiters.default()
    for _ in range(GUESS_RATE.burst):
        assert limits.may_guess("203.0.113.1")
        limits.wrong_key("203.0.113.1")
    assert not limits.may_guess("203.0.113.1") and limits.may_guess("198.51.100.7")
    assert limits.guessed == GUESS_RATE.burst and limits.guesses_refused == 1
    assert Limiters.default(0).may_guess("203.0.113.1")  # no rate limits: every key is looked at


def test_a_body_that_does_not_arrive_in_time_is_answered_408() -> None:
    import asyncio

    from handfoot.server.limits import BodyLimit

    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def run() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        parts = [{"type": "http.request", "body": b"{", "more_body": True}]

        async def receive() -> dict[str, Any]:
            if parts:
                return parts.pop()
            await asyncio.sleep(60)  # the rest never comes
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "headers": [(b"content-length", b"100")]}
        await BodyLimit(app, seconds=0.2)(scope, receive, send)
        return sent

    sent = asyncio.run(run())
    assert sent[0]["status"] == 408 and not reached
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_slow"
