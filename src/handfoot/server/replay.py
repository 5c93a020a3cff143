"""Replaying a finished game move by move, for the browser's replay page (``/replay/{id}``).

``GET /api/tables/{id}/replay`` lists the steps of a finished game: step 0 is the first deal, step
``n`` the position after move ``n`` (its seat, its text and its public events). ``GET
/api/tables/{id}/replay/{step}`` is the *public* view at that step (``views.spectator_view``, what a
spectator saw then), the running totals, and, at a step that ended a hand, the table as that hand
ended: its melds, its score lines, and the cards each seat still held in its Hand and Foot.

Showing those last cards is a deliberate choice for finished games only: the record that the server
already hands out once the game is over (``/api/tables/{id}/record``) holds the seed and every deal, so
they are no secret any more, and they are what each side's score counted against it. Nothing is
served before the game is over (409), and no step ever shows a hand in play.

The steps of a game are replayed once (in a worker thread) and kept for the last few games asked for.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request

from handfoot.engine import HandState, move_text, parse_move, score_lines, spectator_view
from handfoot.record import Record, sorted_codes
from handfoot.server.access import KEY_HEADER, visible_table
from handfoot.server.jsonout import SafeJSONResponse
from handfoot.server.protocol import event_json, seating_json, view_json
from handfoot.server.tables import TableService, rules_mapping

CACHED_GAMES = 8


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
        hands_before = len(game.results)
        events = game.apply(parse_move(text))
        hand_end = None
        shown = game.state
        if len(game.results) > hands_before:
            result = game.results[-1]
            shown = before  # the hand as it ended (the game has dealt the next one, if any)
            hand_end = {
                "hand_index": before.hand_index,
                "scores": list(result.scores),
                "went_out": result.went_out,
                "reason": result.reason,
                "lines": [
                    [
                        {"label": ln.label, "count": ln.count, "points": ln.points}
                        for ln in score_lines(before.rules, tally)
                    ]
                    for tally in result.tallies
                ],
                "cards_left": _cards_left(before),
            }
        steps.append(
            Step(
                index,
                shown.hand_index,
                seat,
                move_text(parse_move(text)),
                [event_json(e) for e in events],
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
    """The replays of the last ``size`` games asked for (finished games never change)."""

    def __init__(self, size: int = CACHED_GAMES) -> None:
        self.size = size
        self._games: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str, record: Record) -> Replay:
        """The replay of a finished table (computed on first use)."""
        with self._lock:
            found = self._games.get(table_id)
            if found is not None:
                self._games.move_to_end(table_id)
                return found
        made = replay_steps(table_id, record)
        with self._lock:
            self._games[table_id] = made
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return made


def _error(status: int, code: str, message: str) -> SafeJSONResponse:
    return SafeJSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def register(app: FastAPI) -> None:
    """Add the replay endpoints to ``app``."""
    cache = ReplayCache()

    async def replay_of(request: Request, table_id: str) -> Replay | SafeJSONResponse:
        service: TableService = request.app.state.service
        live = visible_table(service, table_id, request.headers.get(KEY_HEADER))
        if not live.over:
            return _error(409, "not_finished", "a game can be replayed once it is over")
        return await asyncio.to_thread(cache.get, live.id, live.record())

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def replay_summary(table_id: str, request: Request) -> dict[str, Any] | SafeJSONResponse:
        """A finished game's steps: each move's seat, text, hand and public events."""
        made = await replay_of(request, table_id)
        if isinstance(made, SafeJSONResponse):
            return made
        service: TableService = request.app.state.service
        live = service.get(table_id)
        assert live is not None
        return {
            "table": live.info(),
            "rules": rules_mapping(live),
            "seating": seating_json(live.seating),
            "steps": [
                {
                    "step": s.index,
                    "hand_index": s.hand_index,
                    "seat": s.seat,
                    "move": s.move,
                    "hand_end": s.hand_end is not None,
                }
                for s in made.steps
            ],
        }

    @app.get("/api/tables/{table_id}/replay/{step}", response_model=None)
    async def replay_step(table_id: str, step: int, request: Request) -> dict[str, Any] | SafeJSONResponse:
        """The public view of a finished game after ``step`` moves (0: the first deal)."""
        made = await replay_of(request, table_id)
        if isinstance(made, SafeJSONResponse):
            return made
        if not 0 <= step < len(made.steps):
            return _error(404, "no_step", f"step {step} does not exist; allowed: 0 to {len(made.steps) - 1}")
        return step_json(made.steps[step], len(made.steps))


__all__ = ["CACHED_GAMES", "Replay", "ReplayCache", "Step", "register", "replay_steps", "step_json"]
