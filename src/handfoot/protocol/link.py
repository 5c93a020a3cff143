"""Seat links of a live table, and one WebSocket connection to it that reconnects.

A seat link, as the lobby hands it out, is ``http(s)://HOST[:PORT]/play/TABLE#seat=TOKEN``; the table's
socket is then ``ws(s)://HOST[:PORT]/ws/tables/TABLE`` (docs/protocol.md). ``parse_seat_link`` checks
every part before anything connects (the address, the port, the table id and the token, each against
what the server hands out). ``TableConnection`` speaks protocol 1 of the server as a client: ``hello``
with the seat token (and a display name), then JSON messages both ways; when the connection drops it
opens a new one and says hello again, with a growing pause between tries, for ``reconnect_seconds``
(the server answers ``welcome`` and the current ``state``: nothing is lost).

Everything that goes wrong is a ``LinkError`` with one line saying what and what is allowed, and the
exit ``status`` a command ends with: 2 when the link cannot be used (it is malformed, names no table or
seat there, or leads to something that does not speak the table protocol: silent, or answering
garbage), 1 when the table is there but cannot be played now (the server is down or busy, the game
refused), which is also what is worth trying again.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

SERVER_PROTOCOL = 1
RECONNECT_SECONDS = 120.0  # how long a dropped connection is tried again (``bot connect --reconnect``)
FIRST_PAUSE = 0.5  # seconds before the second try; doubled after each try, up to MOST_PAUSE
MOST_PAUSE = 5.0
# What the server hands out (server.tables: ``secrets.token_urlsafe``): table ids of 1 to 32 URL-safe
# characters, seat tokens of 8 to 128.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")
SHAPE = "a seat link such as http://HOST:8000/play/TABLE#seat=TOKEN (from the lobby's invitations)"
SERVER = "the seat link of a table on a handfoot server"
# The close codes and error codes of a refused hello (docs/protocol.md) that mean the link itself is no
# good; the others (the database, a rate limit) say to try again later.
BAD_LINK_CLOSES = {4400, 4401, 4403, 4404, 4409}
BAD_LINK_CODES = {"no_table", "bad_token", "bad_host", "protocol", "no_hello", "bad_message", "bad_origin"}
BAD_LINK_CODES |= {"unreadable_table", "revoked"}

EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2


class LinkError(ValueError):
    """A link that cannot be used, or a table that cannot be played now; ``status`` is the exit status
    (module docstring): 2 for the link, 1 for the table or server now (worth trying again)."""

    def __init__(self, message: str, status: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.status = status

    @property
    def lasting(self) -> bool:
        """True when trying again cannot help (the link itself is no good)."""
        return self.status == EXIT_BAD_INPUT


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


def _shown(text: str, most: int = 80) -> str:
    text = repr(text)
    return text if len(text) <= most else text[: most - 1] + "…'"


def parse_seat_link(link: str) -> SeatLink:
    """The seat link ``link`` taken apart; raises LinkError (status 2) saying what is wrong with it and
    what a seat link looks like."""
    shown = _shown(link)
    try:
        parts = urlsplit(link.strip())
        port = parts.port
    except ValueError as err:  # an unbalanced [IPv6 address], a port that is no number or too big
        what = str(err)
        if "Port" in what or "port" in what:
            raise LinkError(f"{shown} has a bad port ({what}); allowed: a port from 1 to 65535") from None
        raise LinkError(f"{shown} is not a web address ({what}); allowed: {SHAPE}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{shown} is not a web address; allowed: {SHAPE}")
    if not parts.hostname:
        raise LinkError(f"{shown} names no host; allowed: {SHAPE}")
    if parts.username is not None or parts.password is not None:
        raise LinkError(f"{shown} holds a user name or password; allowed: {SHAPE}")
    if port == 0:
        raise LinkError(f"{shown} has port 0; allowed: a port from 1 to 65535")
    path = parts.path.rstrip("/").split("/")
    if len(path) != 3 or path[1] != "play" or not path[2]:
        raise LinkError(f"{shown} is not a seat's link (no /play/TABLE); allowed: {SHAPE}")
    table_id = path[2]
    if TABLE_ID.fullmatch(table_id) is None:
        raise LinkError(
            f"{shown}: {_shown(table_id, 40)} is not a table id; allowed: 1 to 32 letters, digits, - and _"
        )
    fragment = dict(item.partition("=")[::2] for item in parts.fragment.split("&") if item)
    token = fragment.get("seat", "")
    if not token:
        raise LinkError(f"{shown} has no #seat=TOKEN (a watch link cannot play); allowed: {SHAPE}")
    if SEAT_TOKEN.fullmatch(token) is None:
        raise LinkError(
            f"{shown}: the seat token is not one a server hands out; allowed: 8 to 128 letters, digits, "
            "- and _ (copy the whole link)"
        )
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    where = host if port is None else f"{host}:{port}"
    return SeatLink(f"{parts.scheme}://{where}", table_id, token)


def check_welcome(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` if it is a welcome the clients can use (a seat, the rules, the seating); raises
    LinkError (status 2) naming what is missing."""

    def wrong(what: str) -> LinkError:
        return LinkError(
            f"the server's welcome {what}; allowed: a handfoot server's welcome (docs/protocol.md)"
        )

    seat = message.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0):
        raise wrong(f"gives seat {_shown(str(seat), 40)}")
    if not isinstance(message.get("rules"), dict):
        raise wrong("has no rules")
    seating = message.get("seating")
    if not isinstance(seating, dict):
        raise wrong("has no seating")
    for key in ("side_of", "owner_of", "sides"):
        value = seating.get(key)
        if not isinstance(value, list) or not value:
            raise wrong(f"has no seating.{key}")
    if seat is not None and seat >= len(seating["side_of"]):
        raise wrong(f"gives seat {seat} of a table of {len(seating['side_of'])}")
    return message


class TableConnection:
    """A seat's connection to its table (module docstring); ``welcome`` is the last welcome received."""

    def __init__(
        self,
        link: SeatLink,
        name: str | None = None,
        open_timeout: float = 10.0,
        reconnect_seconds: float = RECONNECT_SECONDS,
        program: bool = False,
    ) -> None:
        self.link = link
        self.name = name
        self.program = (
            program  # the hello says a program plays the seat (the server's bots go after people's)
        )
        self.open_timeout = open_timeout
        self.reconnect_seconds = reconnect_seconds
        self.welcome: dict[str, Any] = {}
        self._ws: ClientConnection | None = None
        self._stack = ExitStack()

    def open(self) -> dict[str, Any]:
        """Connect and say hello; returns the welcome. Raises LinkError if the table cannot be reached,
        refuses, or the other end does not speak the table protocol."""
        where = self.link.socket_url
        try:
            self._stack = ExitStack()
            self._ws = self._stack.enter_context(
                connect(where, open_timeout=self.open_timeout, close_timeout=1, max_size=2**22)
            )
        except socket.gaierror as err:
            raise LinkError(
                f"cannot find the host of {where}: {err.strerror or err}; allowed: {SERVER}"
            ) from None
        except InvalidStatus as err:
            code = err.response.status_code
            status = (
                EXIT_REFUSED if code >= 500 else EXIT_BAD_INPUT
            )  # a proxy's 502 while the server restarts
            raise LinkError(
                f"{where} answered HTTP {code}, not the table's WebSocket; allowed: {SERVER}", status
            ) from None
        except (InvalidHandshake, InvalidURI) as err:
            raise LinkError(f"{where} does not speak the table protocol ({err}); allowed: {SERVER}") from None
        except TimeoutError:
            raise LinkError(
                f"cannot connect to {where}: no answer within {self.open_timeout:g} s; allowed: {SERVER} "
                "(is the server up?)",
                EXIT_REFUSED,
            ) from None
        except OSError as err:
            raise LinkError(
                f"cannot connect to {where}: {err.strerror or err}; allowed: {SERVER} (is the server up?)",
                EXIT_REFUSED,
            ) from None
        hello: dict[str, Any] = {"type": "hello", "protocol": SERVER_PROTOCOL, "token": self.link.token}
        if self.name:
            hello["name"] = self.name
        if self.program:
            hello["program"] = True
        try:
            self.send(hello)
            first = self.receive(self.open_timeout)
        except TimeoutError:
            self.close()
            raise LinkError(
                f"{where} sent no welcome within {self.open_timeout:g} s; allowed: {SERVER}"
            ) from None
        except ConnectionClosed as err:
            self.close()
            raise self._closed_early(err) from None
        except LinkError:
            self.close()
            raise
        if first.get("type") == "error":
            self.close()
            error_code = first.get("code")
            status = EXIT_BAD_INPUT if error_code in BAD_LINK_CODES else EXIT_REFUSED
            said = str(first.get("message", error_code))[:200]
            raise LinkError(f"the table said no: {said}; allowed: {SERVER}", status)
        if first.get("type") != "welcome":
            self.close()
            raise LinkError(
                f"{where} answered hello with {_shown(str(first.get('type')), 40)}, not a welcome; "
                f"allowed: {SERVER}"
            )
        try:
            self.welcome = check_welcome(first)
        except LinkError:
            self.close()
            raise
        return first

    def _closed_early(self, err: ConnectionClosed) -> LinkError:
        code = err.rcvd.code if err.rcvd is not None else None
        reason = err.rcvd.reason if err.rcvd is not None and err.rcvd.reason else "no reason given"
        status = EXIT_BAD_INPUT if code in BAD_LINK_CLOSES else EXIT_REFUSED
        return LinkError(
            f"the table closed the connection before its welcome (code {code}: {reason[:200]}); "
            f"allowed: {SERVER}",
            status,
        )

    def reopen(self, say: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Open a new connection after one dropped: tries again with a growing pause (from FIRST_PAUSE,
        doubling, at most MOST_PAUSE) for ``reconnect_seconds``, telling ``say`` of each failed try.
        Raises the last LinkError when the time is up, or at once when the link itself is refused."""
        self.close()
        started = time.monotonic()
        deadline = started + self.reconnect_seconds
        pause = FIRST_PAUSE
        tries = 0
        while True:
            tries += 1
            try:
                welcome = self.open()
            except LinkError as err:
                left = deadline - time.monotonic()
                if err.lasting or left <= 0:
                    if not err.lasting:
                        err.args = (
                            f"{err} (still, after {tries} tries over {time.monotonic() - started:.0f} s)",
                        )
                    raise
                wait = min(pause, left)
                if say is not None:
                    say(
                        f"reconnecting: try {tries} failed ({err}); next in {wait:.1f} s, "
                        f"for {left:.0f} s more"
                    )
                time.sleep(wait)
                pause = min(pause * 2, MOST_PAUSE)
                continue
            if say is not None and tries > 1:
                say(f"reconnected after {time.monotonic() - started:.1f} s ({tries} tries)")
            return welcome

    def send(self, message: dict[str, Any]) -> None:
        """Send a message (raises ConnectionClosed when the connection is gone)."""
        if self._ws is None:
            raise ConnectionClosed(None, None)
        self._ws.send(json.dumps(message))

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message (TimeoutError after ``timeout`` seconds; ConnectionClosed when it drops;
        LinkError, status 2, for one that is not a JSON object with a ``type``)."""
        if self._ws is None:
            raise ConnectionClosed(None, None)
        raw = self._ws.recv(timeout=timeout)
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            text = raw if isinstance(raw, str) else raw.decode(errors="replace")
            raise LinkError(
                f"the server sent {_shown(text, 60)}, which is not JSON; allowed: {SERVER}"
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            kind = "an object without a type" if isinstance(data, dict) else f"a JSON {type(data).__name__}"
            raise LinkError(f"the server sent {kind}, not a message; allowed: {SERVER}")
        return data

    def close(self) -> None:
        """Close the connection, if open."""
        if self._ws is not None:
            self._ws = None
            self._stack.close()
