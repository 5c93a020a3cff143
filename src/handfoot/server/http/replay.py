"""``GET /api/tables/{id}/replay`` and ``/replay/{step}``: a finished game's steps for the browser's
replay page (worked out and kept by ``tables.replay``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, cast

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from handfoot.server.http.access import ApiError
from handfoot.server.http.deps import Replays, VisibleTable
from handfoot.server.http.errors import REFUSALS
from handfoot.server.http.listing import json_answer
from handfoot.server.http.tables import NOT_MODIFIED, table_json
from handfoot.server.tables.replay import LISTING
from handfoot.server.tables.table import LiveTable, rules_mapping
from handfoot.server.wire.answers import ReplayAnswer, ReplayStepAnswer
from handfoot.server.wire.jsonout import SafeJSONResponse
from handfoot.server.wire.messages import SeatingJson
from handfoot.server.wire.protocol import seating_json

router = APIRouter(responses=REFUSALS)


async def finished_table(live: VisibleTable) -> LiveTable:
    """The visible table in the path, once its game is over (409 ``not_finished`` before)."""
    if not live.over:
        raise ApiError(409, "not_finished", "a game can be replayed once it is over")
    return live


FinishedTable = Annotated[LiveTable, Depends(finished_table)]


@router.get("/api/tables/{table_id}/replay", response_model=ReplayAnswer)
async def replay_summary(live: FinishedTable, cache: Replays) -> SafeJSONResponse:
    """A finished game's steps: each move's seat, text, hand and public events."""
    listing = await asyncio.to_thread(cache.get, live.id, live.record, LISTING)
    assert listing is not None  # a game always has its list of steps
    answer: ReplayAnswer = {
        "table": table_json(live),
        "rules": rules_mapping(live),
        "seating": cast(SeatingJson, seating_json(live.seating)),
        "steps": listing.value,
    }
    return SafeJSONResponse(answer)


@router.get("/api/tables/{table_id}/replay/{step}", response_model=ReplayStepAnswer, responses=NOT_MODIFIED)
async def replay_step(step: int, live: FinishedTable, cache: Replays, request: Request) -> Response:
    """The public view of a finished game after ``step`` moves of its record (0: the first deal), with an
    ETag (``If-None-Match`` is answered 304: a finished game's steps never change). The record counts
    engine moves: a lay-down of several groups sent at once is one message and one table version, and
    several steps here, so a game has at least as many steps as versions."""
    found = await asyncio.to_thread(cache.get, live.id, live.record, step) if step >= 0 else None
    if found is None:
        last = len(live.record().moves)
        raise ApiError(404, "no_step", f"step {step} does not exist; allowed: 0 to {last}")
    return json_answer(request, found.body, found.etag, **{"Cache-Control": "private, no-cache"})
