"""A bot program playing a seat of a live table (``handfoot bot connect LINK --cmd '...'``).

The runner is a client of the server's WebSocket protocol, like the browser: it says hello with the
seat's token, starts the program and shakes hands with it (the rules and seating from the server's
``welcome``), then says hello again under the name the bot gave, so the lobby lists the seat by it.
For every ``state`` in which its seat is to move it sends the bot one ``decision`` (the seat's own view
as the server sent it, the offered moves with their ids, the time) and the bot's answer to the table;
it passes on each hand's end and the game's. A move the table's rate limit turns away (a fast bot plays
more moves than the server takes from one connection) is sent again a second later. A dropped
connection is opened again (the server says
welcome back with the current state). When the bot fails, the runner says so on stderr, ends the
program and leaves the table: the seat is then a missing player's seat, which the table's host can
hand to one of the table's bots.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from websockets.exceptions import ConnectionClosed

from handfoot.engine.moves import MoveSyntaxError, parse_move
from handfoot.protocol.external import HELLO_SECONDS
from handfoot.protocol.link import LinkError, SeatLink, TableConnection
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


class LiveSeat:
    """One bot program at one seat of a live table (module docstring)."""

    def __init__(
        self,
        link: SeatLink,
        argv: Sequence[str],
        label: str,
        move_time: float,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.link = link
        self.argv = list(argv)
        self.label = label
        self.move_time = move_time
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.connection = TableConnection(link)
        self.process: BotProcess | None = None
        self.name = label
        self.seat = -1
        self.decisions = 0
        self.hands_told = 0
        self.hand_index = 0

    def run(self) -> int:
        """Play the seat until the game ends (0) or the bot fails or the table is lost (1)."""
        try:
            welcome = self.connection.open()
            self.seat = welcome["seat"]
            if self.seat is None:
                raise LinkError("the table took this link as a spectator's: use a seat link")
            self._start(welcome)
            self.connection.name = self.name
            self.connection.reopen()  # joins the seat under the bot's name
            return self._play()
        except BotFailure as err:
            self.say(
                f"bot error: seat {self.seat}, {self.label}"
                f"{f' ({self.name})' if self.name != self.label else ''}, table {self.link.table_id}, "
                f"hand {self.hand_index}, "
                f"{f'decision {self.decisions}' if self.decisions else 'the handshake'}: {err.what}; "
                "the seat is left to the table (its host can hand it to a bot)"
            )
            return 1
        except LinkError as err:
            self.say(f"error: {err}")
            return 1
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

    def _receive(self) -> dict[str, Any]:
        while True:
            try:
                return self.connection.receive()
            except ConnectionClosed:
                self.say("the connection dropped: reconnecting")
                self.connection.reopen()

    def _play(self) -> int:
        decided = -1
        sent: dict[str, Any] | None = None  # the last move sent, to send again when rate limited
        while True:
            message = self._receive()
            kind = message.get("type")
            if kind == "error" and message.get("code") == "rate_limited" and sent is not None:
                time.sleep(RATE_LIMIT_PAUSE)  # the table takes a few messages a second: send it again
                self.connection.send(sent)
                continue
            if kind == "error":
                raise LinkError(f"the table answered: {message.get('message')}")
            if kind == "refused":
                if message.get("rule") == "version":
                    decided = -1  # the table moved on first: decide again on its new state
                    continue
                raise BotFailure(f"chose a move the table refused: {message.get('message')}")
            if kind != "state":
                continue
            table = message["table"]
            self._tell_hands(table)
            if table["finished"]:
                assert self.process is not None
                reason = "ended" if table.get("ended") else "finished"
                self.process.send(game_end_line(table["totals"], table["winner"], reason))
                self.process.close()
                self.process = None
                self.say(f"the game is over: totals {table['totals']}")
                return 0
            view = message["view"]
            version = message["version"]
            if view["to_move"] != self.seat or version == decided:
                continue
            self.hand_index = view["hand_index"]
            offers = offers_from_texts(message["legal"])
            if not offers:
                continue
            text = self._decide(view, table, offers)
            sent = {"type": "move", "version": version, "move": text}
            self.connection.send(sent)
            decided = version

    def _decide(self, view: dict[str, Any], table: dict[str, Any], offers: list[Offer]) -> str:
        process = self.process
        assert process is not None
        self.decisions += 1
        bounds: list[dict[str, int]] = [{} for _ in view["seats"]]
        ms = round(self.move_time * 1000)
        line = decision_from_view(self.decisions, view, bounds, table["totals"], offers, ms)
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
