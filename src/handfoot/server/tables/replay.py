"""Replaying a finished game move by move, for the browser's replay page (``/replay/{id}``; the routes
are ``http.replay``).

``GET /api/tables/{id}/replay`` lists the steps of a finished game: step 0 is the first deal, step
``n`` the position after move ``n`` (its seat, its text and its public events). ``GET
/api/tables/{id}/replay/{step}`` is the *public* view at that step (``views.spectator_view``, what a
spectator saw then), the running totals, and, at a step that ended a hand, the table as that hand
ended: its melds, its score lines, and the cards each seat still held in its Hand and Foot.

Showing those last cards is a deliberate choice for finished games only: the record that the server
already hands out once the game is over (``/api/tables/{id}/record``) holds the seed and every deal, so
they are no secret any more, and they are what each side's score counted against it. Nothing is
served before the game is over (409), and no step ever shows a hand in play.

The steps of a game are replayed once (in a worker thread) and kept as the JSON text they are answered
with, by game and step, in at most ``CACHE_BYTES`` (``ReplayCache``); each step answers with an ETag, so
a page that asks again gets ``304 Not Modified``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from handfoot.engine import HandState, spectator_view
from handfoot.record import Record, hand_json, sorted_codes
from handfoot.server.tables.step import move_game
from handfoot.server.wire.jsonout import etag_of, json_text
from handfoot.server.wire.protocol import view_json

CACHE_BYTES = 64 * 1024 * 1024  # the replays' steps kept, as the JSON text they are answered with
LISTING = -1  # the step number the list of a game's steps is kept under


@dataclass(frozen=True)
class Step:
    """One position of a replayed game: the move that made it (None for the first deal) and what it
    caused, the public view after it, and the totals after it. ``hand_end`` is set when the move ended
    a hand."""

    index: int
    hand_index: int
    seat: int | None
    move: str | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    totals: list[int]
    hands_done: int
    hand_end: dict[str, Any] | None


@dataclass(frozen=True)
class Replay:
    """Every step of a finished game."""

    table_id: str
    steps: list[Step]


def _cards_left(state: HandState) -> list[dict[str, list[str]]]:
    """What each seat still held when the hand ended: its Hand (or Foot, once in it) and its unplayed
    Foot."""
    out = []
    for seat in range(state.players):
        held = [card for card, count in enumerate(state.hand_cards[seat]) for _ in range(count)]
        out.append({"hand": sorted_codes(held), "foot": sorted_codes(state.feet[seat])})
    return out


def replay_steps(table_id: str, record: Record) -> Replay:
    """Replay ``record`` move by move into its steps (raises ValueError if a move no longer plays)."""
    game = record.new_game()
    steps = [Step(0, 0, None, None, [], view_json(spectator_view(game.state)), list(game.totals), 0, None)]
    for index, text in enumerate(record.moves, start=1):
        before = game.state
        seat = before.to_move
        assert seat is not None  # a recorded move was made by the seat to move
        hands_before = len(game.results)
        moved = move_game(game, index - 1, seat, text)
        hand_end = None
        shown = game.state
        if len(game.results) > hands_before:
            shown = before  # the hand as it ended (the game has dealt the next one, if any)
            hand_end = {
                "hand_index": before.hand_index,
                **hand_json(game, len(game.results) - 1),
                "cards_left": _cards_left(before),
            }
        steps.append(
            Step(
                index,
                shown.hand_index,
                seat,
                moved.move,
                moved.entry["events"],
                view_json(spectator_view(shown)),
                list(game.totals),
                len(game.results),
                hand_end,
            )
        )
    return Replay(table_id, steps)


def step_json(step: Step, count: int) -> dict[str, Any]:
    """One step as the replay page reads it."""
    return {
        "step": step.index,
        "steps": count,
        "hand_index": step.hand_index,
        "seat": step.seat,
        "move": step.move,
        "events": step.events,
        "view": step.view,
        "totals": step.totals,
        "hands_done": step.hands_done,
        "hand_end": step.hand_end,
    }


class ReplayCache:
    """The steps of finished games asked for lately, each kept as the JSON text it is answered with,
    by game and step, in at most ``max_bytes`` (the least recently asked for go first). A game none of
    whose steps is kept is replayed again (once, however many ask for it together)."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.replayed = 0  # games replayed since the start
        self._entries: OrderedDict[tuple[str, int], Cached] = OrderedDict()
        self._lock = threading.Lock()
        self._replaying: dict[str, threading.Event] = {}

    def _keep(self, key: tuple[str, int], entry: Cached) -> None:
        """Keep ``entry`` (with the lock held), forgetting the least recently used past ``max_bytes``."""
        old = self._entries.pop(key, None)
        if old is not None:
            self.size -= len(old.body)
        self._entries[key] = entry
        self.size += len(entry.body)
        while self.size > self.max_bytes and len(self._entries) > 1:
            _key, gone = self._entries.popitem(last=False)
            self.size -= len(gone.body)

    def _found(self, key: tuple[str, int]) -> Cached | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def get(self, table_id: str, record: Callable[[], Record], step: int) -> Cached | None:
        """Step ``step`` of a finished table as JSON text (``LISTING``: the list of its steps, also kept as
        its value), replaying the game of ``record()`` if it is not kept (``record`` is called only
        then); None if the game has no such step."""
        key = (table_id, step)
        while True:
            found = self._found(key)
            if found is not None or (step != LISTING and self._found((table_id, LISTING)) is not None):
                return found  # the game is kept, without this step: there is none (or it was forgotten)
            with self._lock:
                waiting = self._replaying.get(table_id)
                if waiting is None:
                    self._replaying[table_id] = threading.Event()
                    break
            waiting.wait()  # another thread replays this game: take its answer
        try:
            made = replay_steps(table_id, record())
            entries = {(table_id, LISTING): _cached(listing_json(made), keep_value=True)}
            count = len(made.steps)
            for index, one in enumerate(made.steps):
                entries[(table_id, index)] = _cached(step_json(one, count))
            with self._lock:
                self.replayed += 1
                for entry_key, entry in entries.items():
                    if entry_key != key:
                        self._keep(entry_key, entry)
                if key in entries:
                    self._keep(key, entries[key])  # the one asked for is the most recent
            return entries.get(key)
        finally:
            with self._lock:
                self._replaying.pop(table_id).set()


@dataclass(frozen=True)
class Cached:
    """An answer kept: its JSON text and ETag (and, for a game's list of steps, the list itself, which the
    replay's summary answers inside a larger answer)."""

    body: bytes
    etag: str
    value: Any = None


def _cached(value: Any, keep_value: bool = False) -> Cached:
    body = json_text(value).encode("utf-8")
    return Cached(body, etag_of(body), value if keep_value else None)


def listing_json(made: Replay) -> list[dict[str, Any]]:
    """The steps of a game as the replay's list shows them."""
    return [
        {
            "step": s.index,
            "hand_index": s.hand_index,
            "seat": s.seat,
            "move": s.move,
            "hand_end": s.hand_end is not None,
        }
        for s in made.steps
    ]


__all__ = ["CACHE_BYTES", "Replay", "ReplayCache", "Step", "replay_steps", "step_json"]
