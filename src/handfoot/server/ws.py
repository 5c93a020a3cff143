"""The WebSocket endpoint ``/ws/tables/{id}``: hello, then moves, syncs and pings (docs/protocol.md).

A connection says ``hello`` first (with a seat token to play, without one to watch). Every later
message is validated; a bad one is answered with an ``error`` and changes nothing. Moves go through
``pipeline.play``; a refusal is sent to this connection only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.server.fanout import broadcast_table, send, state_for
from handfoot.server.hints import answer_hint
from handfoot.server.pipeline import Refused, play
from handfoot.server.protocol import (
    PROTOCOL_VERSION,
    Hello,
    HintRequest,
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

    async def send_json(message: dict[str, Any]) -> None:
        await websocket.send_json(message)

    conn = Connection(send_json, seat)
    async with live.lock:
        if hello.name and seat is not None:
            try:
                service.join(live, seat, hello.name)
            except LobbyError as exc:
                await _close_with(websocket, CLOSE_BAD_REQUEST, "bad_message", str(exc))
                return
        live.connections.append(conn)
        await send(live, conn, welcome_message(live.id, seat, rules_mapping(live), live.seating, bot_names()))
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
            await broadcast_table(live)


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
        elif isinstance(message, MoveMessage):
            outcome = await play(service, live, token, message.version, message.move)
            if isinstance(outcome, Refused):
                await send(
                    live, conn, refused_message(outcome.rule, outcome.message, outcome.version, outcome.move)
                )
