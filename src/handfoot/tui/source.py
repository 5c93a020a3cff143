"""The tables the terminal game plays at, behind one interface: ``Snapshot``s in the JSON of the server's
protocol (so the app draws a local game and a live one the same way), ``play(text)`` for a move in the
notation, ``hint()`` for the trainer's suggestion.

``LocalTable`` runs the embedded engine: the player's seat and bots (any seat spec of ``sim.seats``:
built-in bots, programs, policies) in the others; refusals are the engine's sentences, the same the
server sends and the browser shows. ``LiveTable`` is a seat at a server's table over its WebSocket
protocol, like the browser: a thread receives the server's messages (reconnecting, welcome back) and
keeps the latest state.
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

from handfoot.bots.base import Bot, legal_for
from handfoot.bots.hint import hint as trainer_hint
from handfoot.bots.ismcts import Budget
from handfoot.bots.registry import make_bot
from handfoot.engine import Game, IllegalMove, MoveSyntaxError
from handfoot.engine.moves import parse_move
from handfoot.engine.offers import seat_offers as engine_offers
from handfoot.engine.views import view as seat_view
from handfoot.protocol.external import ExternalSeat
from handfoot.protocol.link import SeatLink, TableConnection
from handfoot.protocol.offers import Offer, offers_from_texts, seat_offers
from handfoot.protocol.process import BotFailure
from handfoot.record import hand_json
from handfoot.rules.options import RuleSet
from handfoot.server.wire.protocol import event_json, offers_json, view_json
from handfoot.sim.seats import DEFAULT_MOVE_TIME, SeatPlayer, make_seat

SEAT_NAMES = ("You", "West", "North", "East", "South", "Northwest", "Northeast", "Southwest")


@dataclass
class Snapshot:
    """What the app shows: the player's view and offers, the table's names, scores and history."""

    version: int
    view: dict[str, Any]  # the server protocol's view JSON, for the player's seat
    offers: list[Offer]
    places: dict[str, Any] | None  # the seat's offers as the server sends them (engine.offers), or None
    names: list[str]
    side_of: list[int]
    owner_of: list[int]  # the meld owner each seat plays on (its side, or itself where melds are a player's)
    rules_name: str
    totals: list[int]
    hands: list[dict[str, Any]]  # per finished hand (``record.hand_json``): scores, went_out, reason, lines
    history: list[dict[str, Any]]  # {"seat", "move", "events"}, oldest first
    finished: bool = False
    winner: int | None = None
    notes: list[str] = field(default_factory=list)  # things the player should know (a bot failed...)


class TableSource(ABC):
    """A table the app plays at (module docstring)."""

    seat: int

    @abstractmethod
    def snapshot(self) -> Snapshot:
        """The position now, as the player's seat sees it."""

    @abstractmethod
    def play(self, text: str) -> str | None:
        """Play a move in the notation for the player's seat: None when taken, else the refusal's
        sentence (nothing changed)."""

    @abstractmethod
    def hint(self) -> tuple[str, str] | None:
        """The trainer's move (its text) and one sentence why, or None when there is none now."""

    def step(self) -> bool:
        """Let the table move on (bots play, messages arrive): True when something changed."""
        return False

    @abstractmethod
    def close(self) -> None:
        """Let go of what the table holds (programs, connections)."""


class LocalTable(TableSource):
    """A game on the embedded engine: the player at ``seat``, ``opponents`` (seat specs, one per other
    seat or one for all) elsewhere; ``hint_seconds`` of search for a hint (0: the heuristic's move)."""

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        opponents: list[str],
        seed: int = 0,
        seat: int = 0,
        hint_seconds: float = 0.4,
        move_time: float = DEFAULT_MOVE_TIME,
    ) -> None:
        self.game = Game(rules, players, seed, dealer=seed % players)
        self.seat = seat
        self.hint_seconds = hint_seconds
        self.rng = random.Random(seed)
        self.players: dict[int, SeatPlayer] = {}
        specs = opponents if len(opponents) > 1 else opponents * (players - 1)
        others = [s for s in range(players) if s != seat]
        if len(specs) != len(others):
            raise ValueError(
                f"--bots names {len(specs)} players for {len(others)} other seats: give one, or one per seat"
            )
        self.names = list(SEAT_NAMES[:players])
        self.names[seat] = "You"
        for other, spec in zip(others, specs, strict=True):
            self.players[other] = make_seat(spec, move_time, quiet=True)
            self.names[other] = f"{SEAT_NAMES[(other - seat) % players]} ({spec})"
        self.history: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.version = 0
        for other, player in self.players.items():
            if isinstance(player, ExternalSeat):
                try:
                    player.start(self.game, other, seed + other)
                except BotFailure as err:
                    self._failed(other, err)

    def snapshot(self) -> Snapshot:
        game = self.game
        mine = game.to_move == self.seat
        return Snapshot(
            version=self.version,
            view=view_json(seat_view(game.state, self.seat)),
            offers=seat_offers(game) if mine else [],
            places=offers_json(engine_offers(game.state)) if mine and not game.finished else None,
            names=list(self.names),
            side_of=list(game.state.seating.side_of),
            owner_of=list(game.state.seating.owner_of),
            rules_name=game.rules.name,
            totals=list(game.totals),
            hands=[hand_json(game, index) for index in range(len(game.results))],
            history=list(self.history),
            finished=game.finished,
            winner=game.winner,
            notes=list(self.notes),
        )

    def _played(self, seat: int, text: str, events: list[Any]) -> None:
        self.version += 1
        self.history.append({"seat": seat, "move": text, "events": [event_json(e) for e in events]})

    def play(self, text: str) -> str | None:
        game = self.game
        if game.finished:
            return "The game is over."
        if game.to_move != self.seat:
            return "It is not your turn."
        try:
            move = parse_move(text)
            events = game.apply_written(move)
        except MoveSyntaxError as err:  # the notation's own words, as the server says them
            return err.sentence()
        except IllegalMove as err:
            return err.message
        self._played(self.seat, str(move), events)
        return None

    def step(self) -> bool:
        """Play one bot move when a bot is to move (True), else nothing (False)."""
        game = self.game
        seat = game.to_move
        if seat is None or seat == self.seat:
            return False
        player = self.players[seat]
        if isinstance(player, ExternalSeat):
            try:
                move = player.decide(game)
            except BotFailure as err:
                self._failed(seat, err)
                return True
            legal = None
        else:
            legal = legal_for(game.state, game.legal_ids())
            move = player.choose_seat(game.seat_info(seat), legal, self.rng)
        hands = len(game.results)
        events = game.apply(move)
        self._played(seat, str(move), events)
        if len(game.results) > hands:
            for other in self.players.values():
                if isinstance(other, ExternalSeat):
                    other.hand_over(game)
        return True

    def _failed(self, seat: int, err: BotFailure) -> None:
        player = self.players[seat]
        assert isinstance(player, ExternalSeat)
        player.kill()
        self.notes.append(f"{self.names[seat]} failed ({err.what}); the heuristic plays the seat now.")
        fallback: Bot = make_bot("heuristic")
        self.players[seat] = fallback

    def hint(self) -> tuple[str, str] | None:
        game = self.game
        if game.to_move != self.seat:
            return None
        legal = legal_for(game.state, game.legal_ids())
        budget = Budget(iterations=None, seconds=self.hint_seconds) if self.hint_seconds > 0 else None
        # the seat's reading with its public bounds, as `handfoot hint` and the server give the hint bot
        suggestion = trainer_hint(game.seat_info(self.seat), legal, budget, seed=self.version)
        return suggestion.text, suggestion.reason

    def close(self) -> None:
        for player in self.players.values():
            if isinstance(player, ExternalSeat):
                player.game_over(self.game, "finished" if self.game.finished else "stopped")


def seat_name(seat: dict[str, Any], me: int) -> str:
    """A seat of a server table (its ``summary`` JSON) as the browser names it: ``You`` for the
    player's own, a player's name, ``Medium bot 2`` for a bot without one, ``Seat 3`` for an empty seat
    (seats counted from 1)."""
    number = int(seat["seat"])
    if number == me:
        return "You"
    if seat.get("name"):
        return str(seat["name"])
    if seat.get("kind") == "bot":
        bot = str(seat.get("bot") or "bot")
        return f"{bot[:1].upper()}{bot[1:]} bot {number + 1}"
    return f"Seat {number + 1}"


class LiveTable(TableSource):
    """A seat at a server's table (module docstring); ``name`` joins the seat under it."""

    def __init__(self, link: SeatLink, name: str | None = None) -> None:
        self.connection = TableConnection(link, name)
        welcome = self.connection.open()
        if welcome.get("seat") is None:
            self.connection.close()
            raise ValueError("the table took this link as a spectator's: use a seat link")
        self.seat = int(welcome["seat"])
        self.welcome = welcome
        self.lock = threading.Lock()
        self.state: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = list(welcome.get("history", []))
        self.answers: list[dict[str, Any]] = []  # refusals, hints and errors, for the app to read
        self.changed = threading.Event()
        self.notes: list[str] = []
        self.closed = False
        self.reader = threading.Thread(target=self._read, name="handfoot-live-table", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while not self.closed:
            try:
                message = self.connection.receive()
            except ConnectionClosed:
                if self.closed:
                    return
                try:
                    welcome = self.connection.reopen()
                except ValueError as err:
                    with self.lock:
                        self.notes.append(f"The connection is lost: {err}")
                    self.changed.set()
                    return
                with self.lock:
                    self.history = list(welcome.get("history", []))
                    self.notes.append("Reconnected: welcome back.")
                continue
            except (OSError, RuntimeError):
                return
            with self.lock:
                kind = message.get("type")
                if kind == "state":
                    self.state = message
                    last = message.get("last")
                    if last and (not self.history or self.history[-1].get("version") != last.get("version")):
                        self.history.append(last)
                elif kind == "table" and self.state is not None and isinstance(message.get("table"), dict):
                    # someone joined, connected or left: the seats' names and state as they are now
                    self.state = {**self.state, "table": message["table"]}
                elif kind in ("refused", "hint", "error"):
                    self.answers.append(message)
            self.changed.set()

    def wait_state(self, timeout: float = 10.0) -> None:
        """Wait for the first state after connecting."""
        self.changed.wait(timeout)

    def snapshot(self) -> Snapshot:
        with self.lock:
            state = self.state
            notes = list(self.notes)
            history = list(self.history)
        if state is None:
            raise ValueError("no state from the table yet")
        table = state["table"]
        names = [seat_name(seat, self.seat) for seat in table["seats"]]
        return Snapshot(
            version=state["version"],
            view=state["view"],
            offers=offers_from_texts(state["legal"]),
            places=state.get("offers"),
            names=names,
            side_of=[seat["side"] for seat in table["seats"]],
            owner_of=list(self.welcome["seating"]["owner_of"]),
            rules_name=table["rules"],
            totals=list(table["totals"]),
            hands=list(table["hands"]),
            history=history,
            finished=bool(table["finished"]),
            winner=table.get("winner"),
            notes=notes,
        )

    def _answer(self, wanted: tuple[str, ...], timeout: float = 10.0) -> dict[str, Any] | None:
        """The next answer of a wanted type (refused/hint/error), or None when a state came first."""
        self.changed.clear()
        version = self.state["version"] if self.state else -1
        while True:
            with self.lock:
                for index, answer in enumerate(self.answers):
                    if answer.get("type") in wanted:
                        return self.answers.pop(index)
                if self.state and self.state["version"] != version:
                    return None
            if not self.changed.wait(timeout):
                return None
            self.changed.clear()

    def play(self, text: str) -> str | None:
        with self.lock:
            version = self.state["version"] if self.state else 0
            self.answers.clear()
        self.connection.send({"type": "move", "version": version, "move": text})
        answer = self._answer(("refused", "error"))
        return None if answer is None else str(answer.get("message"))

    def hint(self) -> tuple[str, str] | None:
        with self.lock:
            version = self.state["version"] if self.state else 0
            self.answers.clear()
        self.connection.send({"type": "hint", "version": version})
        answer = self._answer(("hint", "error"), timeout=30.0)
        if answer is None or answer.get("type") != "hint":
            return None
        return str(answer["move"]), str(answer.get("reason", ""))

    def step(self) -> bool:
        if self.changed.is_set():
            self.changed.clear()
            return True
        return False

    def close(self) -> None:
        self.closed = True
        self.connection.close()
