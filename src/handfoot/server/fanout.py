"""Sending to a table's connections: each seat its own state, spectators the public one.

Every function here is called with the table's lock held, so messages leave in version order.
A connection that cannot be written to is dropped (its handler sees the disconnect and cleans up).
"""

from __future__ import annotations

import logging
from typing import Any

from handfoot.server.protocol import state_message, table_message
from handfoot.server.tables import Connection, LiveTable

log = logging.getLogger("handfoot.server")


def state_for(live: LiveTable, seat: int | None) -> dict[str, Any]:
    """The ``state`` message for one seat (None: a spectator) at the table's current version."""
    return state_message(live.version, live.info(), live.view_for(seat), live.legal_for(seat), live.last)


async def send(live: LiveTable, conn: Connection, message: dict[str, Any]) -> None:
    """Send one message to one connection; drop the connection if it cannot be written to."""
    try:
        await conn.send(message)
    except Exception as exc:  # a closed socket raises any of several errors
        log.info("dropping a connection to table %s: %s", live.id, exc)
        if conn in live.connections:
            live.connections.remove(conn)


async def broadcast_state(live: LiveTable) -> None:
    """Send every connection the state its seat may see (built once per seat)."""
    built: dict[int | None, dict[str, Any]] = {}
    for conn in list(live.connections):
        if conn.seat not in built:
            built[conn.seat] = state_for(live, conn.seat)
        await send(live, conn, built[conn.seat])


async def broadcast_table(live: LiveTable) -> None:
    """Send every connection the table's public summary (after a join, connect or disconnect)."""
    message = table_message(live.info())
    for conn in list(live.connections):
        await send(live, conn, message)
