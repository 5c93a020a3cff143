"""The WebSocket endpoint ``/ws/tables/{id}``: hello, then moves, syncs and pings (docs/protocol.md).

A connection says ``hello`` first (with a seat token to play, without one to watch). Every later
message is validated; a bad one is answered with an ``error`` and changes nothing. Moves go through
``pipeline.play``; a refusal is sent to this connection only.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.server.fanout import broadcast_state, broadcast_table, send, state_for
from handfoot.server.hints import answer_hint
from handfoot.server.host import HostError, apply_host_action
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
CLOSE_PRIVATE = 4403
CLOSE_NO_TABLE = 4404


async def _close_with(websocket: WebSocket, code: int, error: str, message: str) -> None:
    await websocket.send_json(error_message(error, message))
    await websocket.close(code)


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
    live = service.get(table_id)
    if live is None:
        await _close_with(websocket, CLOSE_NO_TABLE, "no_table", f"there is no table {table_id!r}")
        return
    hello = await _hello(websocket, live)
    if hello is None:
        return
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
    host = hello.host is not None

    async def send_json(message: dict[str, Any]) -> None:
        await websocket.send_json(message)

    conn = Connection(send_json, seat, host)
    async with live.lock:
        if hello.name and seat is not None:
            try:
                service.join(live, seat, hello.name)
            except LobbyError as exc:
                await _close_with(websocket, CLOSE_BAD_REQUEST, "bad_message", str(exc))
                return
        live.connections.append(conn)
        welcome = welcome_message(
            live.id, seat, rules_mapping(live), live.seating, bot_names(), host, list(live.history)
        )
        await send(live, conn, welcome)
        await send(live, conn, state_for(live, seat))
        await broadcast_table(live)
    try:
        await _serve(websocket, service, live, conn, hello.token)
    except WebSocketDisconnect:
        pass
    finally:
        async with live.lock:
            if conn in live.connections:
                live.connections.remove(conn)
            if seat is not None and seat not in live.connected_seats():
                live.left_at[seat] = time.monotonic()
                _tell_when_away(live, seat)
            await broadcast_table(live)


def _tell_when_away(live: LiveTable, seat: int) -> None:
    """Send everyone the table's summary once ``seat`` has been gone for ``away_after`` seconds (so every
    screen shows the seat as away), unless its player is back by then."""
    left = live.left_at.get(seat)

    async def check() -> None:
        async with live.lock:
            if live.left_at.get(seat) == left and live.is_away(seat):
                await broadcast_table(live)

    def fire() -> None:
        asyncio.get_running_loop().create_task(check())

    asyncio.get_running_loop().call_later(live.away_after + 0.05, fire)


async def _serve(
    websocket: WebSocket, service: TableService, live: LiveTable, conn: Connection, token: str | None
) -> None:
    """Answer a connection's messages until it closes."""
    while True:
        raw = await _receive(websocket)
        if raw is None:
            return
        try:
            message = parse_client_message(raw)
        except ProtocolError as exc:
            await send(live, conn, error_message("bad_message", str(exc)))
            continue
        if isinstance(message, Ping):
            await send(live, conn, {"type": "pong"})
        elif isinstance(message, Sync):
            async with live.lock:
                await send(live, conn, state_for(live, conn.seat))
        elif isinstance(message, Hello):
            await send(live, conn, error_message("bad_message", "hello is only the first message"))
        elif isinstance(message, HintRequest):
            await answer_hint(live, conn, message)
        elif isinstance(message, HostAction):
            await _host(service, live, conn, message)
        elif isinstance(message, MoveMessage):
            outcome = await play(service, live, token, message.version, message.move)
            if isinstance(outcome, Refused):
                await send(
                    live, conn, refused_message(outcome.rule, outcome.message, outcome.version, outcome.move)
                )


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
            await broadcast_table(live)
    service.notify(live)
