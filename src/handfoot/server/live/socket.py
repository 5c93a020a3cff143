"""The WebSocket endpoint ``/ws/tables/{id}``: hello, then moves, syncs and pings (docs/protocol.md).

A connection says ``hello`` first (with a seat token to play, without one to watch). Every later
message is validated; a bad one is answered with an ``error`` and changes nothing. Moves go through
``tables.moves.play``; a refusal is sent to this connection only.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.server.bots.runner import BotRunner, bot_table_refusal
from handfoot.server.cluster.follow import catch_up
from handfoot.server.limits import RATE_LIMITED, Limiters, guesses_message
from handfoot.server.live.broadcast import OUTBOXES, send, state_for
from handfoot.server.live.hints import answer_hint
from handfoot.server.live.origin import expected_origins, origin_allowed
from handfoot.server.live.outbox import SEND_TIMEOUT, Outbox
from handfoot.server.settings import Settings
from handfoot.server.store.storage import StorageError
from handfoot.server.tables.host import HostError, apply_host_action
from handfoot.server.tables.moves import WAITING_RULE, Refused, play
from handfoot.server.tables.ports import Change
from handfoot.server.tables.seat_bots import bot_names
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import (
    HUMAN,
    Connection,
    LiveTable,
    LobbyError,
    TableUnreadable,
    rules_mapping,
)
from handfoot.server.wire.jsonout import json_text
from handfoot.server.wire.protocol import (
    NO_DATABASE,
    PROTOCOL_VERSION,
    UNAVAILABLE,
    UNREADABLE,
    Hello,
    HintRequest,
    HostAction,
    MoveMessage,
    Ping,
    ProtocolError,
    Ready,
    Sync,
    error_message,
    invite_message,
    parse_client_message,
    pong_message,
    refused_message,
    welcome_message,
)

HELLO_TIMEOUT = 30.0
CLOSE_BAD_REQUEST = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_NO_TABLE = 4404  # no such table, or a private one opened without one of its links
CLOSE_UNREADABLE = 4409  # a stored table that cannot be opened
CLOSE_TOO_MANY = 4429  # over a per-address limit (sockets, or wrong keys tried)
CLOSE_UNAVAILABLE = 4503  # the database did not answer


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


async def _hello(websocket: WebSocket) -> Hello | None:
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


@dataclass(frozen=True)
class Server:
    """What a connection is served with: the application's table service, bot runner, settings and
    limits (the route's dependencies give them)."""

    service: TableService
    runner: BotRunner
    settings: Settings
    limits: Limiters


async def table_socket(websocket: WebSocket, table_id: str, server: Server, client: str) -> None:
    """Serve one client connection to a table until it closes; ``client`` is its address as the limits
    count it. An address holds at most ``limits.MAX_SOCKETS_PER_ADDRESS`` of them at once; the next is
    refused (``rate_limited``)."""
    await websocket.accept()
    limits = server.limits
    if not limits.sockets.take(client):
        text = f"too many connections from your address: at most {limits.sockets.cap} at once"
        await _close_with(websocket, CLOSE_TOO_MANY, RATE_LIMITED, text)
        return
    try:
        await _serve(websocket, table_id, server, client)
    finally:
        limits.sockets.give(client)


async def _serve(websocket: WebSocket, table_id: str, server: Server, client: str) -> None:
    """``table_socket`` once the connection is counted."""
    service, settings, runner, limits = server.service, server.settings, server.runner, server.limits
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin_allowed(origin, settings.public_url, host):
        allowed = expected_origins(settings.public_url, host)
        text = f"a page from {origin!r} may not connect here; allowed: {allowed}"
        await _close_with(websocket, CLOSE_BAD_ORIGIN, "bad_origin", text)
        return
    if not limits.may_guess(client):
        await _close_with(websocket, CLOSE_TOO_MANY, RATE_LIMITED, guesses_message(limits, client))
        return
    try:
        live = await service.get(table_id)
    except TableUnreadable as exc:
        await _close_with(websocket, CLOSE_UNREADABLE, UNREADABLE, str(exc))
        return
    except StorageError:
        await _close_with(websocket, CLOSE_UNAVAILABLE, UNAVAILABLE, NO_DATABASE)
        return
    if live is None:
        limits.wrong_key(client)
        await _close_with(websocket, CLOSE_NO_TABLE, "no_table", f"there is no table {table_id!r}")
        return
    hello = await _hello(websocket)
    if hello is None:
        return
    if not limits.may_guess(client):
        await _close_with(websocket, CLOSE_TOO_MANY, RATE_LIMITED, guesses_message(limits, client))
        return
    if settings.redis_url:
        # Other processes store moves too: one whose announcement was lost (it died just after storing)
        # is read now, so a client that reconnects here never sees an old position.
        try:
            await catch_up(service, live.id)
        except StorageError:
            await _close_with(websocket, CLOSE_UNAVAILABLE, UNAVAILABLE, NO_DATABASE)
            return
    seat = live.seat_of_token(hello.token) if hello.token else None
    if hello.token and (seat is None or live.seats[seat].kind != HUMAN):
        limits.wrong_key(client)
        if not live.public:  # a private table is no table to whoever has none of its links
            await _close_with(websocket, CLOSE_NO_TABLE, "no_table", f"there is no table {table_id!r}")
            return
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
        limits.wrong_key(client)
        if not live.public and seat is None and not live.may_see(hello.key):
            await _close_with(websocket, CLOSE_NO_TABLE, "no_table", f"there is no table {table_id!r}")
            return
        await _close_with(
            websocket, CLOSE_BAD_TOKEN, "bad_host", "this host key does not belong to this table"
        )
        return
    if seat is None and not live.may_see(hello.key or hello.host):
        limits.wrong_key(client)
        await _close_with(websocket, CLOSE_NO_TABLE, "no_table", f"there is no table {table_id!r}")
        return
    is_host = hello.host is not None

    outbox = Outbox(websocket.send_text)
    conn = Connection(outbox.put, seat, is_host, paces=hello.pace, program=hello.program)
    OUTBOXES[conn] = outbox
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
            try:
                if hello.name and seat is not None:
                    await service.join(live, seat, hello.name)
                history = list(await service.history_of(live))
            except LobbyError as exc:
                await _close_with(websocket, CLOSE_BAD_REQUEST, "bad_message", str(exc))
                return
            except StorageError:
                await _close_with(websocket, CLOSE_UNAVAILABLE, UNAVAILABLE, NO_DATABASE)
                return
            live.connections.append(conn)
            welcome = welcome_message(
                live.id, seat, rules_mapping(live), live.seating, bot_names(), is_host, history
            )
            send(live, conn, welcome)
            send(live, conn, state_for(live, seat))
            service.tell(live, Change.SUMMARY)
        runner.seen(live, client)  # a table put away plays again
        site = str(websocket.base_url).replace("ws", "http", 1).rstrip("/")
        peer = Peer(conn, hello.token, client, limits, settings, site, runner)
        while not outbox.dropped.is_set():
            reading = True
            try:
                raw = await _receive(websocket)
            finally:
                reading = False
            if raw is None:
                break
            await _answer(raw, service, live, peer)
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
                _tell_when_away(service, live, seat)
            service.tell(live, Change.SUMMARY)
        await outbox.finish(writer)


@dataclass(frozen=True)
class Peer:
    """Who sent a message: the connection, its seat token, its client key, the rate limits and the
    server's settings."""

    conn: Connection
    token: str | None
    client: str
    limits: Limiters
    settings: Settings
    site: str  # the address the page connected at (``http(s)://host``), for links
    runner: BotRunner


async def _answer(raw: str | bytes, service: TableService, live: LiveTable, peer: Peer) -> None:
    """Answer one message of a connection (a message over its address's rate, counted over all the
    address's connections, is refused unread)."""
    conn, limits = peer.conn, peer.limits
    if not limits.messages.allow(peer.client):
        wait = limits.messages.wait(peer.client)
        send(
            live,
            conn,
            error_message(
                RATE_LIMITED,
                f"too many messages from your address: at most {limits.messages.rate.describe()} over "
                f"all its connections; this one was ignored (wait {wait:.1f} s)",
            ),
        )
        return
    try:
        message = parse_client_message(raw)
    except ProtocolError as exc:
        send(live, conn, error_message("bad_message", str(exc)))
        return
    if isinstance(message, Ping):
        send(live, conn, pong_message())
    elif isinstance(message, Sync):
        async with live.lock:
            send(live, conn, state_for(live, conn.seat))
    elif isinstance(message, Hello):
        send(live, conn, error_message("bad_message", "hello is only the first message"))
    elif isinstance(message, HintRequest):
        if not limits.hints.allow(peer.client):
            wait = limits.hints.wait(peer.client)
            text = f"too many hints asked from your address: at most {limits.hints.rate.describe()}"
            send(live, conn, error_message(RATE_LIMITED, f"{text}; try again in {wait:.0f} s"))
            return
        await answer_hint(live, conn, message)
    elif isinstance(message, HostAction):
        await _host(service, live, conn, message, peer)
    elif isinstance(message, Ready):
        if conn.seat is not None:
            service.ready(live, conn.seat, message.hand)
    elif isinstance(message, MoveMessage):
        waiting = live.waiting_refusal() if conn.seat is not None else None
        if waiting is not None:
            send(live, conn, refused_message(WAITING_RULE, waiting, live.version, message.move))
            return
        outcome = await play(service, live, peer.token, message.version, message.move)
        if isinstance(outcome, Refused):
            send(live, conn, refused_message(outcome.rule, outcome.message, outcome.version, outcome.move))


def _tell_when_away(service: TableService, live: LiveTable, seat: int) -> None:
    """Send everyone the table's summary once ``seat`` has been gone for ``away_after`` seconds (so every
    screen shows the seat as away), unless its player is back by then."""
    left = live.left_at.get(seat)

    def fire() -> None:
        if live.left_at.get(seat) == left and live.is_away(seat):
            service.tell(live, Change.SUMMARY)

    asyncio.get_running_loop().call_later(live.away_after + 0.05, fire)


def _would_be_bots_alone(live: LiveTable, seat: int | None) -> bool:
    """True if handing ``seat`` to a bot would leave bots alone at ``live`` (capped like creating such a
    table)."""
    return seat is not None and all(s.bot_plays is not None or s.index == seat for s in live.seats)


async def _host(
    service: TableService, live: LiveTable, conn: Connection, action: HostAction, peer: Peer
) -> None:
    """Do a host's request; tell everyone the new table (and state, when who plays or whether the game
    goes on changed), or tell the sender why not. A seat's new invitation goes to the host alone, and
    the connections made with the seat's old link are closed."""
    if not conn.host:
        send(live, conn, error_message("not_host", "only the table's host (the creator's link) can do that"))
        return
    async with live.lock:
        if action.action == "invite" and action.seat is not None and action.seat == conn.seat:
            text = "you play this seat: open the host link in another tab to give it a new invitation"
            send(live, conn, error_message("host", text))
            return
        if action.action == "bot" and _would_be_bots_alone(live, action.seat):
            refusal = bot_table_refusal(peer.runner, peer.limits, peer.runner.owner(live.id))
            if refusal is not None:
                send(live, conn, error_message("host", refusal))
                return
        try:
            token = await apply_host_action(service, live, action)
        except HostError as exc:
            send(live, conn, error_message("host", str(exc)))
            return
        except StorageError:
            send(live, conn, error_message(UNAVAILABLE, NO_DATABASE))
            return
        if token is not None and action.seat is not None:
            link = f"{peer.settings.site_url(peer.site)}/play/{live.id}#seat={token}"
            send(live, conn, invite_message(action.seat, token, link))
    service.notify(live)
