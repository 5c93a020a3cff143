"""A bot program playing a seat of a live table (``handfoot bot connect LINK --cmd '...'``).

The runner is a client of the server's WebSocket protocol, like the browser: it says hello with the
seat's token, starts the program and shakes hands with it (the rules and seating from the server's
``welcome``), then says hello again under the name the bot gave, so the lobby lists the seat by it.
For every ``state`` in which its seat is to move it sends the bot one ``decision`` (the seat's own view
as the server sent it, the offered moves with their ids, the time) and the bot's answer to the table;
it passes on each hand's end and the game's.

Only the bot's own faults are the bot's: a move the table's rules refuse (or that is not a move). What
the server or another connection does is not:

- a move the server could not store (refused with rule ``server``: the database refused or did not
  answer) or turned away by its rate limit is sent again, with a growing pause, until the server takes
  it or a newer state supersedes it (the server says the table's state again once it can), for up to
  ``reconnect_seconds``;
- a move refused as stale (rule ``turn`` or ``version``: another connection to the same seat, a
  browser tab or a second runner, moved first) is dropped, and the bot decides again on the newer state;
- a move refused because the table waits for the people invited to it before its first move (rule
  ``waiting``) waits with it: it is sent again every few seconds, and at once when the table says it
  waits for nobody, for as long as the table waits (its host can start without them);
- a dropped connection is opened again, with a growing pause, for ``reconnect_seconds`` (the server says
  welcome back with the current state), and a move it may have lost is sent again;
- while the table's host has handed the seat to a bot, the runner waits for it to be handed back.

Each of these is said on stderr. When the bot fails, the runner says so on stderr, ends the program and
leaves the table: the seat is then a missing player's seat, which the table's host can hand to one of
the table's bots.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import ConnectionClosed

from handfoot.engine.moves import MoveSyntaxError, parse_move
from handfoot.protocol.external import HELLO_SECONDS
from handfoot.protocol.link import EXIT_REFUSED, RECONNECT_SECONDS, LinkError, SeatLink, TableConnection
from handfoot.protocol.messages import (
    ProtocolViolation,
    decision_from_view,
    game_end_line,
    hand_end_line,
    hello_line,
    parse_hello,
)
from handfoot.protocol.offers import BadReply, Offer, offers_from_texts, resolve_reply
from handfoot.protocol.process import BotFailure, BotProcess

RATE_LIMIT_PAUSE = 1.0  # seconds to wait before sending a move again that the table's rate limit refused
FIRST_RETRY = 0.5  # seconds before a move the server could not store is sent again (doubling, up to 5)
MOST_RETRY = 5.0
STALE_RULES = ("turn", "version")  # another connection moved first
SERVER_RULE = "server"  # the server could not take the move (docs/protocol.md, "refused")
WAITING_RULE = "waiting"  # the first move waits for the invited people (docs/protocol.md)
WAITING_PAUSE = 3.0  # seconds between sends of a move the waiting table refused
OVER_RULE = "game_end"
SEAT_RULE = "seat"


class ServerGarbled(LinkError):
    """A message from the server that is not what protocol 1 sends."""


@dataclass
class Sent:
    """A move sent to the table and not yet superseded: at ``version``, its ``text``; ``again_at`` is
    when to send it again (None: not unless something says it was lost)."""

    version: int
    text: str
    again_at: float | None = None
    pause: float = FIRST_RETRY
    trouble_since: float | None = None  # when the server first could not take it
    waiting: bool = False  # the table refused it as waiting for its invited people


class LiveSeat:
    """One bot program at one seat of a live table (module docstring)."""

    def __init__(
        self,
        link: SeatLink,
        argv: Sequence[str],
        label: str,
        move_time: float,
        say: Callable[[str], None] | None = None,
        reconnect_seconds: float = RECONNECT_SECONDS,
    ) -> None:
        self.link = link
        self.argv = list(argv)
        self.label = label
        self.move_time = move_time
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.reconnect_seconds = reconnect_seconds
        self.connection = TableConnection(link, reconnect_seconds=reconnect_seconds, program=True)
        self.process: BotProcess | None = None
        self.name = label
        self.seat = -1
        self.decisions = 0
        self.hands_told = 0
        self.hand_index = 0
        self.latest = -1  # the version of the latest state received
        self.sent: Sent | None = None
        self.handed_over = False  # the host has handed the seat to a bot for now

    def run(self) -> int:
        """Play the seat until the game ends (0) or the bot fails or the table is lost (1), or the link
        cannot be used (2)."""
        try:
            welcome = self.connection.open()
            self.seat = welcome["seat"]
            if self.seat is None:
                raise LinkError(
                    "the table took this link as a spectator's; allowed: a seat link (…#seat=TOKEN)"
                )
            self._start(welcome)
            self.connection.name = self.name
            self._reopen()  # joins the seat under the bot's name
            return self._play()
        except BotFailure as err:
            self.say(
                f"bot error: seat {self.seat}, {self.label}"
                f"{f' ({self.name})' if self.name != self.label else ''}, table {self.link.table_id}, "
                f"hand {self.hand_index}, "
                f"{f'decision {self.decisions}' if self.decisions else 'the handshake'}: {err.what}; "
                "the seat is left to the table (its host can hand it to a bot)"
            )
            return EXIT_REFUSED
        except LinkError as err:
            self.say(f"error: {err}")
            return err.status
        finally:
            if self.process is not None:
                self.process.kill()
            self.connection.close()

    def _start(self, welcome: dict[str, Any]) -> None:
        seating = welcome["seating"]
        self.process = BotProcess(self.argv)
        seed = random.SystemRandom().getrandbits(63)
        players = len(seating["side_of"])
        line = hello_line(welcome["rules"], players, self.seat, seating, seed, round(self.move_time * 1000))
        self.process.send(line)
        try:
            hello = parse_hello(self.process.receive(max(HELLO_SECONDS, self.move_time)))
        except ProtocolViolation as err:
            raise BotFailure(str(err)) from None
        self.name = hello.name
        self.say(f"{hello.name} {hello.version} by {hello.author or 'unknown'} plays seat {self.seat}")

    def _reopen(self) -> None:
        self.connection.reopen(self.say)
        if self.sent is not None:
            self.sent.again_at = time.monotonic()  # the move may have been lost with the connection

    def _receive(self) -> dict[str, Any] | None:
        """The next message, or None when a move is due to be sent again first."""
        while True:
            timeout = None
            if self.sent is not None and self.sent.again_at is not None:
                timeout = max(0.0, self.sent.again_at - time.monotonic())
            try:
                return self.connection.receive(timeout)
            except TimeoutError:
                return None
            except ConnectionClosed:
                self.say(f"the connection dropped: reconnecting for up to {self.reconnect_seconds:g} s")
                self._reopen()

    def _send_again(self) -> None:
        sent = self.sent
        assert sent is not None
        sent.again_at = None
        with contextlib.suppress(ConnectionClosed):  # the next receive reconnects
            self.connection.send({"type": "move", "version": sent.version, "move": sent.text})

    def _retry_later(self, pause: float | None = None) -> None:
        """Send the last move again after a pause (growing each time), unless a newer state comes first;
        give up once the server has not taken it for ``reconnect_seconds``."""
        sent = self.sent
        assert sent is not None
        now = time.monotonic()
        if sent.trouble_since is None:
            sent.trouble_since = now
        elif now - sent.trouble_since > self.reconnect_seconds:
            raise LinkError(
                f"the server has not taken the seat's move for {now - sent.trouble_since:.0f} s; allowed: a "
                "server that can store moves (try again later; the seat waits at the table)",
                EXIT_REFUSED,
            )
        wait = sent.pause if pause is None else pause
        sent.again_at = now + wait
        sent.pause = min(sent.pause * 2, MOST_RETRY)

    def _play(self) -> int:
        while True:
            message = self._receive()
            if message is None:
                self._send_again()
                continue
            kind = message.get("type")
            if kind == "error":
                self._error(message)
            elif kind == "refused":
                self._refused(message)
            elif kind == "table":
                self._table_notice(message)
            elif kind == "state":
                try:
                    over = self._state(message)
                except (KeyError, TypeError, IndexError, AttributeError):
                    raise ServerGarbled(
                        "the server sent a state this runner cannot read (a field missing or of the wrong "
                        "kind); allowed: a handfoot server's state (docs/protocol.md)"
                    ) from None
                if over:
                    return 0

    def _error(self, message: dict[str, Any]) -> None:
        code = message.get("code")
        said = str(message.get("message", code))[:300]
        if code == "rate_limited" and self.sent is not None:
            self.say(
                f"the table's rate limit turned the move away: sending it again in {RATE_LIMIT_PAUSE:g} s"
            )
            self._retry_later(RATE_LIMIT_PAUSE)
            return
        if code in ("rate_limited", "no_hint"):
            return
        raise LinkError(
            f"the table answered: {said}; allowed: a table that takes this seat's moves", EXIT_REFUSED
        )

    def _refused(self, message: dict[str, Any]) -> None:
        rule = message.get("rule")
        said = str(message.get("message", ""))[:300]
        version = message.get("version")
        sent = self.sent
        if rule in STALE_RULES:
            # Another connection to this seat moved first (or this is an answer to a move sent twice):
            # the state it made comes to every connection; ask for it if it has not come yet.
            if isinstance(version, int) and version > self.latest:
                self._sync()
            if sent is not None and isinstance(version, int) and version > sent.version:
                self.sent = None
            self.say(
                f"the table moved on first (another connection on this seat?): {said} [{rule}]; move dropped"
            )
            return
        if rule == SERVER_RULE:
            if sent is None:
                return
            self.say(f"the server could not take the move ({said}): sending it again")
            self._retry_later()
            return
        if rule == WAITING_RULE:
            if sent is None:
                return
            if not sent.waiting:
                self.say(f"the table waits for its invited players ({said}): the move waits with it")
            sent.waiting = True
            sent.again_at = time.monotonic() + WAITING_PAUSE
            return
        if rule == OVER_RULE:
            self.sent = None
            self._sync()  # the final state says how it ended
            return
        if rule == SEAT_RULE:
            self.sent = None
            self.say(f"the table would not take a move from this seat: {said}")
            return
        if sent is not None and isinstance(version, int) and version != sent.version:
            return  # about a move sent at an older version, which a newer state superseded
        raise BotFailure(f"chose a move the table refused: {said} [{rule}]")

    def _table_notice(self, message: dict[str, Any]) -> None:
        """A notice of the table's summary: a move the table refused as waiting for its invited people
        is sent again at once when the table waits for nobody now."""
        sent = self.sent
        table = message.get("table")
        if sent is not None and sent.waiting and isinstance(table, dict) and not table.get("waiting_for"):
            self._send_again()

    def _sync(self) -> None:
        with contextlib.suppress(ConnectionClosed):  # the next receive reconnects; the welcome brings it
            self.connection.send({"type": "sync"})

    def _state(self, message: dict[str, Any]) -> bool:
        """Play on a ``state``; True when the game is over."""
        try:
            version = message["version"]
            table = message["table"]
            view = message["view"]
            legal = message["legal"]
            finished = table["finished"]
            to_move = view["to_move"]
            seats = table["seats"]
            if not isinstance(version, int) or not isinstance(legal, list):
                raise TypeError
        except (KeyError, TypeError):
            raise ServerGarbled(
                "the server sent a state without its version, table, view or legal moves; allowed: a "
                "handfoot server's state (docs/protocol.md)"
            ) from None
        self.latest = max(self.latest, version)
        self._tell_hands(table)
        if finished:
            assert self.process is not None
            reason = "ended" if table.get("ended") else "finished"
            self.process.send(game_end_line(table["totals"], table.get("winner"), reason))
            self.process.close()
            self.process = None
            self.say(f"the game is over: totals {table['totals']}")
            return True
        sent = self.sent
        if sent is not None:
            if version == sent.version and to_move == self.seat:
                if sent.again_at is not None:
                    self._send_again()  # the server can take moves again (or this is the welcome back)
                return False
            self.sent = None  # the move was played, or a newer position superseded it
        stand_in = next(
            (s.get("stand_in") for s in seats if isinstance(s, dict) and s.get("seat") == self.seat), None
        )
        if stand_in:
            if not self.handed_over:
                self.say(
                    f"the host has handed this seat to the bot {stand_in}: waiting for it to be handed back"
                )
            self.handed_over = True
            return False
        if self.handed_over:
            self.handed_over = False
            self.say("the seat is handed back: the bot plays again")
        if to_move != self.seat:
            return False
        self.hand_index = view["hand_index"]
        try:
            offers = offers_from_texts(legal)
        except (ValueError, TypeError):
            raise ServerGarbled(
                "the server's legal moves are not moves; allowed: a handfoot server's state "
                "(docs/protocol.md)"
            ) from None
        if not offers:
            return False
        places = message.get("offers")
        text = self._decide(view, table, offers, places if isinstance(places, dict) else None)
        self.sent = Sent(version, text)
        self._send_again()
        return False

    def _decide(
        self, view: dict[str, Any], table: dict[str, Any], offers: list[Offer], places: dict[str, Any] | None
    ) -> str:
        process = self.process
        assert process is not None
        self.decisions += 1
        bounds: list[dict[str, int]] = [{} for _ in view["seats"]]
        ms = round(self.move_time * 1000)
        line = decision_from_view(self.decisions, view, bounds, table["totals"], offers, ms, places)
        reply = process.ask_move(self.decisions, line, self.move_time)
        try:
            return str(resolve_reply(reply, offers))
        except BadReply as err:
            if isinstance(reply, str):  # a move not offered: the table's engine judges it
                try:
                    return str(parse_move(reply))
                except MoveSyntaxError:
                    pass
            raise BotFailure(f"chose a move it may not play: {err}") from None

    def _tell_hands(self, table: dict[str, Any]) -> None:
        hands = table.get("hands", [])
        process = self.process
        while process is not None and self.hands_told < len(hands):
            index = self.hands_told
            hand = hands[index]
            totals = [
                sum(h["scores"][side] for h in hands[: index + 1]) for side in range(len(hand["scores"]))
            ]
            process.send(
                hand_end_line(index, hand["scores"], totals, hand.get("went_out"), hand.get("reason", ""))
            )
            self.hands_told += 1
