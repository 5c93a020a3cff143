"""Sending to a table's connections in this process: each seat its own state, spectators the public one,
and the ``table`` notices of who arrived or left.

``Broadcaster`` is the table service's notifier (``tables.ports.Notifier``): every change to a table
reaches its connections through its ``tell``, which decides what each is sent, and connections whose
link was voided are closed by its ``revoke``. The only other sends are the replies to the one
connection that asked (``send``, from ``live.socket`` and ``live.hints``).

The broadcast functions are called with the table's lock held, so messages leave in version order.
A connection that cannot be written to is dropped (its handler sees the disconnect and cleans up).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from handfoot.server.live.outbox import Outbox
from handfoot.server.tables.ports import Change
from handfoot.server.tables.table import Connection, LiveTable
from handfoot.server.wire.jsonout import Encoded, encoded
from handfoot.server.wire.protocol import error_message, state_message, table_message

log = logging.getLogger("handfoot.server")

REVOKED = "the host gave this seat a new invitation: the link this page was opened with opens nothing now"
# Each open connection's outbox (``live.socket`` enters it), so a connection can be closed from here.
OUTBOXES: weakref.WeakKeyDictionary[Connection, Outbox] = weakref.WeakKeyDictionary()


def state_for(live: LiveTable, seat: int | None, info: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``state`` message for one seat (None: a spectator) at the table's current version; ``info``
    is the table's public summary now (``live.info()``, worked out here if not given)."""
    view, outlook = live.view_for(seat), live.outlook_for(seat)
    table = live.info() if info is None else info
    legal, offers = live.legal_for(seat), live.offers_for(seat)
    return state_message(live.version, table, view, legal, live.last, outlook, offers)


def send(live: LiveTable, conn: Connection, message: dict[str, Any] | Encoded) -> None:
    """Queue one message for one connection (returns at once); forget the connection if it was dropped."""
    try:
        conn.send(message)
    except Exception as exc:  # a closed socket raises any of several errors
        log.info("dropping a connection to table %s: %s", live.id, exc)
        if conn in live.connections:
            live.connections.remove(conn)


def broadcast_state(live: LiveTable) -> None:
    """Queue every connection the state its seat may see: built and written as JSON once per seat (every
    spectator shares one), around one public summary of the table; returns at once."""
    built: dict[int | None, Encoded] = {}
    info: dict[str, Any] | None = None
    for conn in list(live.connections):
        if conn.seat not in built:
            info = live.info() if info is None else info
            built[conn.seat] = encoded(state_for(live, conn.seat, info))
        send(live, conn, built[conn.seat])


def broadcast_table(live: LiveTable) -> None:
    """Queue every connection the table's public summary now, written as JSON once (returns at once)."""
    message = encoded(table_message(live.info()))
    for conn in list(live.connections):
        send(live, conn, message)


NOTICE_SECONDS = 1.0  # at most one ``table`` notice a second per table


def notice_table(live: LiveTable) -> None:
    """Send every connection the table's public summary soon (after a join, connect or disconnect): at
    once if none was sent in the last ``NOTICE_SECONDS``, else once that time is up, one notice with the
    latest summary for however many changes came meanwhile. So N spectators arriving together cost
    about N messages, not N squared. Needs a running event loop."""
    if live.notice_pending:
        return
    loop = asyncio.get_running_loop()
    live.notice_pending = True
    wait = max(0.0, live.notice_at + NOTICE_SECONDS - loop.time())
    loop.call_later(wait, lambda: loop.create_task(_send_notice(live)))


async def _send_notice(live: LiveTable) -> None:
    async with live.lock:
        live.notice_pending = False
        live.notice_at = asyncio.get_running_loop().time()
        broadcast_table(live)


class Broadcaster:
    """The notifier of a table service serving live connections: what each connection is told of a
    change (``tables.ports.Notifier``)."""

    def tell(self, live: LiveTable, change: Change) -> None:
        """Queue each of ``live``'s connections what ``change`` means for it: for ``STATE`` its seat's
        new state (call with the table's lock held, so states leave in version order), for ``SUMMARY``
        the table's public summary soon (``notice_table``). Returns at once; needs a running loop."""
        if change is Change.STATE:
            broadcast_state(live)
        else:
            notice_table(live)

    def revoke(self, live: LiveTable, gone: list[Connection]) -> None:
        """Close each of ``gone`` (removed from ``live``: its invitation was replaced) after a
        ``revoked`` error saying why."""
        for old in gone:
            outbox = OUTBOXES.get(old)
            if outbox is not None:
                outbox.close_with(error_message("revoked", REVOKED), "its invitation was replaced")
