"""A seat of a ``Game`` played by a bot program over the bot protocol (``handfoot simulate --seats
'cmd:...'``).

``ExternalSeat`` starts the program for one game, says ``hello`` and waits for the bot's, sends one
``decision`` per move of its seat and turns the answer into the move to play, and tells the bot each
hand's end and the game's. Anything wrong (the program cannot start, crashes, hangs past its time,
writes garbage, names a move it may not play, floods its output) raises ``BotFailure`` with what it did;
the move is never played, so the game is never touched by a bad answer. The bot is fed nothing but its
seat's view, the public bounds, the offers and the scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from handfoot.engine import Game, Move
from handfoot.engine.offers import seat_offers as engine_offers
from handfoot.protocol.messages import (
    BotHello,
    ProtocolViolation,
    decision_line,
    game_end_line,
    game_hello,
    hand_end_line,
    parse_hello,
)
from handfoot.protocol.offers import BadReply, resolve_reply, seat_offers
from handfoot.protocol.process import STOP_GRACE, BotFailure, BotProcess
from handfoot.server.wire.protocol import offers_json

HELLO_SECONDS = 10.0  # time a program has to start and answer hello (an interpreter may start slowly)


class ExternalSeat:
    """One seat played by a program (module docstring). ``label`` names it in messages."""

    def __init__(
        self, label: str, argv: Sequence[str], move_time: float, cwd: str | None = None, quiet: bool = False
    ) -> None:
        self.label = label
        self.quiet = quiet
        self.argv = list(argv)
        self.move_time = move_time
        self.cwd = cwd
        self.hello: BotHello | None = None
        self.decisions = 0
        self.seat = -1
        self._process: BotProcess | None = None

    @property
    def name(self) -> str:
        """The name the bot gave (its label before the handshake)."""
        return self.hello.name if self.hello else self.label

    def start(self, game: Game, seat: int, seed: int) -> None:
        """Start the program for ``game``'s ``seat`` and shake hands (raises BotFailure)."""
        self.seat = seat
        self._process = BotProcess(self.argv, self.cwd, self.quiet)
        self._process.send(game_hello(game, seat, seed, round(self.move_time * 1000)))
        raw = self._process.receive(max(HELLO_SECONDS, self.move_time))
        try:
            self.hello = parse_hello(raw)
        except ProtocolViolation as err:
            raise BotFailure(str(err)) from None

    def decide(self, game: Game) -> Move:
        """The move the bot chooses for its seat, which is to move in ``game`` (raises BotFailure)."""
        process = self._process
        if process is None:
            raise BotFailure("was asked to move before the game started")
        self.decisions += 1
        number = self.decisions
        offers = seat_offers(game)
        info = game.seat_info(self.seat)
        places = offers_json(engine_offers(game.state))
        line = decision_line(number, info, game.totals, offers, round(self.move_time * 1000), places)
        reply = process.ask_move(number, line, self.move_time)
        try:
            return resolve_reply(reply, offers, game)
        except BadReply as err:
            raise BotFailure(f"chose a move it may not play: {err}") from None

    def hand_over(self, game: Game) -> None:
        """Tell the bot the hand just finished (the last of ``game.results``)."""
        if self._process is None or not game.results:
            return
        result = game.results[-1]
        index = len(game.results) - 1
        self._process.send(hand_end_line(index, result.scores, game.totals, result.went_out, result.reason))

    def game_over(self, game: Game, reason: str, single_hand: bool = False) -> None:
        """Tell the bot the game is over, and end the program (at once when the runner was ``stopped``:
        a SIGTERM or Ctrl-C ends everything within a moment). ``single_hand``: the game was one hand
        (``simulate --hands``): its totals are that hand's scores and its winner the side that scored
        most (None on a tie)."""
        if self._process is None:
            return
        if single_hand and game.results:
            totals = list(game.results[0].scores)
            leaders = [side for side, points in enumerate(totals) if points == max(totals)]
            winner = leaders[0] if len(leaders) == 1 else None
        else:
            totals = list(game.totals)
            winner = game.winner if game.finished else None
        self._process.send(game_end_line(totals, winner, reason))
        if reason == "stopped":
            self._process.close(STOP_GRACE)
            self._process = None
        else:
            self.close()

    def end_soon(self) -> None:
        """Have the program and everything it started ended now, without waiting (``game_over`` or
        ``kill`` then waits for it): for a runner that was stopped."""
        if self._process is not None:
            self._process.end_soon()

    def close(self) -> None:
        """End the program (if it runs)."""
        if self._process is not None:
            self._process.close()
            self._process = None

    def kill(self) -> None:
        """End the program at once, after it failed."""
        if self._process is not None:
            self._process.kill()
            self._process = None
