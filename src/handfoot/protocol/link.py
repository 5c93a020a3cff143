"""Seat links of a live table, and one WebSocket connection to it that reconnects.

A seat link, as the lobby hands it out, is ``http(s)://HOST[:PORT]/play/TABLE#seat=TOKEN``; the table's
socket is then ``ws(s)://HOST[:PORT]/ws/tables/TABLE`` (docs/protocol.md). ``TableConnection`` speaks
protocol 1 of the server as a client: ``hello`` with the seat token (and a display name), then JSON
messages both ways; when the connection drops it opens a new one and says hello again (the server
answers ``welcome`` and the current ``state``: nothing is lost).
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

SERVER_PROTOCOL = 1
RECONNECT_TRIES = 5


class LinkError(ValueError):
    """A link that is not a seat link, or a table that would not take the connection."""


@dataclass(frozen=True)
class SeatLink:
    """Where a seat's table is and the seat's token."""

    base: str  # http(s)://host[:port]
    table_id: str
    token: str

    @property
    def socket_url(self) -> str:
        """The table's WebSocket address."""
        return "ws" + self.base.removeprefix("http") + f"/ws/tables/{self.table_id}"


def parse_seat_link(link: str) -> SeatLink:
    """The seat link ``link`` taken apart; raises LinkError saying what a seat link looks like."""
    shape = "a seat link such as http://HOST:8000/play/TABLE#seat=TOKEN (from the lobby's invitations)"
    parts = urlsplit(link.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{link!r} is not a web address; allowed: {shape}")
    path = parts.path.rstrip("/").split("/")
    if len(path) != 3 or path[1] != "play" or not path[2]:
        raise LinkError(f"{link!r} is not a seat's link (no /play/TABLE); allowed: {shape}")
    fragment = dict(item.partition("=")[::2] for item in parts.fragment.split("&") if item)
    token = fragment.get("seat", "")
    if not token:
        raise LinkError(f"{link!r} has no #seat=TOKEN (a watch link cannot play); allowed: {shape}")
    return SeatLink(f"{parts.scheme}://{parts.netloc}", path[2], token)


class TableConnection:
    """A seat's connection to its table (module docstring); ``welcome`` is the last welcome received."""

    def __init__(self, link: SeatLink, name: str | None = None, open_timeout: float = 10.0) -> None:
        self.link = link
        self.name = name
        self.open_timeout = open_timeout
        self.welcome: dict[str, Any] = {}
        self._ws: ClientConnection | None = None
        self._stack = ExitStack()

    def open(self) -> dict[str, Any]:
        """Connect and say hello; returns the welcome. Raises LinkError if the table refuses."""
        try:
            self._stack = ExitStack()
            self._ws = self._stack.enter_context(
                connect(self.link.socket_url, open_timeout=self.open_timeout, max_size=2**22)
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as err:
            raise LinkError(f"cannot connect to {self.link.socket_url}: {err}") from None
        hello: dict[str, Any] = {"type": "hello", "protocol": SERVER_PROTOCOL, "token": self.link.token}
        if self.name:
            hello["name"] = self.name
        self.send(hello)
        try:
            first = self.receive(self.open_timeout)
        except ConnectionClosed:
            raise LinkError("the table closed the connection before its welcome") from None
        if first.get("type") != "welcome":
            raise LinkError(f"the table said no: {first.get('message', first)}")
        self.welcome = first
        return first

    def reopen(self) -> dict[str, Any]:
        """Open a new connection after one dropped, trying a few times with a growing pause."""
        self.close()
        pause = 0.5
        for attempt in range(RECONNECT_TRIES):
            try:
                return self.open()
            except LinkError:
                if attempt == RECONNECT_TRIES - 1:
                    raise
                time.sleep(pause)
                pause *= 2
        raise LinkError("could not reconnect")  # not reached

    def send(self, message: dict[str, Any]) -> None:
        """Send a message (raises ConnectionClosed when the connection is gone)."""
        if self._ws is None:
            raise ConnectionClosed(None, None)
        self._ws.send(json.dumps(message))

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message (TimeoutError after ``timeout`` seconds; ConnectionClosed when it drops)."""
        if self._ws is None:
            raise ConnectionClosed(None, None)
        data: dict[str, Any] = json.loads(self._ws.recv(timeout=timeout))
        return data

    def close(self) -> None:
        """Close the connection, if open."""
        if self._ws is not None:
            self._ws = None
            self._stack.close()
