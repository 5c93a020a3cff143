"""The WebSocket endpoint ``/ws/tables/{id}``: hello, then moves, syncs and pings (docs/protocol.md).

A connection says ``hello`` first (with a seat token to play, without one to watch). Every later
message is validated; a bad one is answered with an ``error`` and changes nothing. Moves go through
``pipeline.play``; a refusal is sent to this connection only.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.server.config import Settings
from handfoot.server.fanout import broadcast_state, catch_up, notice_table, send, state_for
from handfoot.server.hints import answer_hint
from handfoot.server.host import HostError, apply_host_action
from handfoot.server.jsonout import json_text
from handfoot.server.limits import RATE_LIMITED, Limiters, client_key
from handfoot.server.origin import expected_origins, origin_allowed
from handfoot.server.outbox import SEND_TIMEOUT, Outbox
from handfoot.server.pipeline import Refused, play
from handfoot.server.protocol import (
    PROTOCOL_VERSION,
    Hello,
    HintRequest,
    HostAction,
    MoveMessage,
    Ping,
    ProtocolError,
    Sync,
    error_message,
    parse_client_message,
    refused_message,
    welcome_message,
)
from handfoot.server.seat_bots import bot_names
from handfoot.server.tables import HUMAN, Connection, LiveTable, LobbyError, TableService, rules_mapping

HELLO_TIMEOUT = 30.0
CLOSE_BAD_REQUEST = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_PRIVATE = 4403  # a private table, watched without one of its links
CLOSE_NO_TABLE = 4404


async def _close_with(websocket: WebSocket, code: int, error: str, message: str) -> None:
    """Send an error and close, before the connection has an outbox (never waiting on the client for
    more than ``SEND_TIMEOUT`` seconds)."""
    with suppress(Exception):
        await asyncio.wait_for(websocket.send_text(json_text(error_message(error, message))), SEND_TIMEOUT)
        await asyncio.wait_for(websocket.close(code), SEND_TIMEOUT)


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next frame's text (or bytes), or None once the client has gone."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        return None
    text = frame.get("text")
    if text is not None:
        return str(text)
    data = frame.get("bytes")
    return bytes(data) if data is not None else b""


async def _hello(websocket: WebSocket, live: LiveTable) -> Hello | None:
    """Wait for a valid hello; close the socket and return None if it does not come."""
    try:
        raw = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
    except TimeoutError:
        await _close_with(websocket, CLOSE_BAD_REQUEST, "no_hello", "say hello within 30 seconds")
        return None
    if raw is None:
        return None
    try:
        message = parse_client_message(raw)
    except ProtocolError as exc:
        await _close_with(websocket, CLOSE_BAD_REQUEST, "bad_message", str(exc))
        return None
    if not isinstance(message, Hello):
        await _close_with(websocket, CLOSE_BAD_REQUEST, "no_hello", "the first message must be a hello")
        return None
    if message.protocol != PROTOCOL_VERSION:
        await _close_with(
            websocket,
            CLOSE_BAD_REQUEST,
            "protocol",
            f"this server speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
        )
        return None
    return message


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Serve one client connection to a table until it closes."""
    await websocket.accept()
    service: TableService = websocket.app.state.service
    settings: Settings = websocket.app.state.settings
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin_allowed(origin, settings.public_url, host):
        allowed = expected_origins(settings.public_url, host)
        text = f"a page from {origin!r} may not connect here; allowed: {allowed}"
        await _close_with(websocket, CLOSE_BAD_ORIGIN, "bad_origin", text)
        return
    live = service.get(table_id)
    if live is None:
        await _close_with(websocket, CLOSE_NO_TABLE, "no_table", f"there is no table {table_id!r}")
        return
    hello = await _hello(websocket, live)
    if hello is None:
        return
    if settings.redis_url:
        # Other processes store moves too: one whose announcement was lost (it died just after storing)
        # is read now, so a client that reconnects here never sees an old position.
        await catch_up(service, live.id)
    seat = live.seat_of_token(hello.token) if hello.token else None
    if hello.token and (seat is None or live.seats[seat].kind != HUMAN):
        await _close_with(
            websocket, CLOSE_BAD_TOKEN, "bad_token", "this seat token does not belong to this table"
        )
        return
    if hello.name and seat is None:
        await _close_with(
            websocket, CLOSE_BAD_REQUEST, "bad_message", "hello: a spectator does not give a name"
        )
        return
    if hello.host and not live.is_host(hello.host):
        await _close_with(
            websocket, CLOSE_BAD_TOKEN, "bad_host", "this host key does not belong to this table"
        )
        return
    if seat is None and not live.may_see(hello.key or hello.host):
        await _close_with(
            websocket,
            CLOSE_PRIVATE,
            "private",
            "this table is private: open it with one of its links (an invitation or the watch link)",
        )
        return
    is_host = hello.host is not None

    outbox = Outbox(websocket.send_text)
    conn = Connection(outbox.put, seat, is_host)
    limits: Limiters = websocket.app.state.limits
    client = client_key(websocket.client.host if websocket.client else None)
    writer = asyncio.get_running_loop().create_task(outbox.run(), name=f"handfoot-send-{live.id}")
    handler = asyncio.current_task()
    reading = False

    def dropped() -> None:
        # Stop waiting for the client's next message; never interrupt a message being handled.
        if reading and handler is not None:
            handler.cancel()

    outbox.on_drop = dropped
    # The table may have been unloaded while the hello was awaited: attach to the one the service holds.
    live = service.adopt(live)
    try:
        async with live.lock:
            if hello.name and seat is not None:
                try:
                    service.join(live, seat, hello.name)
                except LobbyError as exc:
                    await _close_with(websocket, CLOSE_BAD_REQUEST, "bad_message", str(exc))
                    return
            live.connections.append(conn)
            welcome = welcome_message(
                live.id,
                seat,
                rules_mapping(live),
                live.seating,
                bot_names(),
                is_host,
                list(service.history_of(live)),
            )
            await send(live, conn, welcome)
            await send(live, conn, state_for(live, seat))
            notice_table(live)
        while not outbox.dropped.is_set():
            reading = True
            try:
                raw = await _receive(websocket)
            finally:
                reading = False
            if raw is None:
                break
            await _answer(raw, service, live, Peer(conn, hello.token, client, limits))
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if not outbox.dropped.is_set() or handler is None:
            raise
        handler.uncancel()  # dropped while waiting for the client: end quietly
    finally:
        async with live.lock:
            if conn in live.connections:
                live.connections.remove(conn)
            if seat is not None and seat not in live.connected_seats():
                live.left_at[seat] = time.monotonic()
                _tell_when_away(live, seat)
            notice_table(live)
        await outbox.finish(writer)


@dataclass(frozen=True)
class Peer:
    """Who sent a message: the connection, its seat token, its client key and the rate limits."""

    conn: Connection
    token: str | None
    client: str
    limits: Limiters


async def _answer(raw: str | bytes, service: TableService, live: LiveTable, peer: Peer) -> None:
    """Answer one message of a connection (a message over the connection's rate is refused unread)."""
    conn, limits = peer.conn, peer.limits
    if not limits.messages.allow(f"{peer.client} {id(conn)}"):
        wait = limits.messages.wait(f"{peer.client} {id(conn)}")
        await send(
            live,
            conn,
            error_message(
                RATE_LIMITED,
                f"too many messages: at most {limits.messages.rate.describe()} per connection; "
                f"this one was ignored (wait {wait:.1f} s)",
            ),
        )
        return
    try:
        message = parse_client_message(raw)
    except ProtocolError as exc:
        await send(live, conn, error_message("bad_message", str(exc)))
        return
    if isinstance(message, Ping):
        await send(live, conn, {"type": "pong"})
    elif isinstance(message, Sync):
        async with live.lock:
            await send(live, conn, state_for(live, conn.seat))
    elif isinstance(message, Hello):
        await send(live, conn, error_message("bad_message", "hello is only the first message"))
    elif isinstance(message, HintRequest):
        if not limits.hints.allow(peer.client):
            wait = limits.hints.wait(peer.client)
            text = f"too many hints asked from your address: at most {limits.hints.rate.describe()}"
            await send(live, conn, error_message(RATE_LIMITED, f"{text}; try again in {wait:.0f} s"))
            return
        await answer_hint(live, conn, message)
    elif isinstance(message, HostAction):
        await _host(service, live, conn, message)
    elif isinstance(message, MoveMessage):
        outcome = await play(service, live, peer.token, message.version, message.move)
        if isinstance(outcome, Refused):
            await send(
                live, conn, refused_message(outcome.rule, outcome.message, outcome.version, outcome.move)
            )


def _tell_when_away(live: LiveTable, seat: int) -> None:
    """Send everyone the table's summary once ``seat`` has been gone for ``away_after`` seconds (so every
    screen shows the seat as away), unless its player is back by then."""
    left = live.left_at.get(seat)

    def fire() -> None:
        if live.left_at.get(seat) == left and live.is_away(seat):
            notice_table(live)

    asyncio.get_running_loop().call_later(live.away_after + 0.05, fire)


async def _host(service: TableService, live: LiveTable, conn: Connection, action: HostAction) -> None:
    """Do a host's request; tell everyone the new table (and state, when who plays or whether the game
    goes on changed), or tell the sender why not."""
    if not conn.host:
        await send(
            live, conn, error_message("not_host", "only the table's host (the creator's link) can do that")
        )
        return
    async with live.lock:
        try:
            apply_host_action(service, live, action)
        except HostError as exc:
            await send(live, conn, error_message("host", str(exc)))
            return
        if action.action in ("end", "bot", "person"):
            await broadcast_state(live)
        else:
            notice_table(live)
    service.notify(live)
