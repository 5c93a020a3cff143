"""``POST /api/tables/{id}/review`` starts the asking seat's review of a finished hand, ``GET`` reads it
(worked out by ``tables.reviews``)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter

from handfoot.review import ReviewError
from handfoot.server.http.access import ApiError, visible_table
from handfoot.server.http.deps import Client, Key, Limits, Reviews, Service, VisibleTable
from handfoot.server.http.errors import REFUSALS
from handfoot.server.tables.reviews import ReviewRequest, ReviewsBusy, chosen_hand
from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.answers import ReviewAnswer
from handfoot.server.wire.jsonout import SafeJSONResponse

router = APIRouter(responses=REFUSALS)


def asking_seat(live: LiveTable, key: str | None) -> int:
    """The seat whose token ``key`` is; ApiError 403 for anyone else (a watcher, the host, a bot)."""
    seat = live.seat_of_token(key)
    if seat is None or live.is_bot_token(key):
        raise ApiError(
            403, "seat_only", "a review is for the seat that played: open it with your seat's link"
        )
    return seat


@router.post("/api/tables/{table_id}/review", status_code=202, response_model=ReviewAnswer)
async def ask_review(
    table_id: str,
    body: ReviewRequest,
    service: Service,
    key: Key,
    limits: Limits,
    client: Client,
    reviews: Reviews,
) -> SafeJSONResponse:
    """Start the asking seat's review of a finished hand (or return the one already asked): 202."""
    live = await visible_table(service, table_id, key, limits, client)  # once the body is valid
    seat = asking_seat(live, key)
    record = live.record()
    try:
        hand = await asyncio.to_thread(chosen_hand, record, body.hand)
    except ReviewError as exc:
        raise ApiError(
            409 if exc.refused else 422, "not_finished" if exc.refused else "bad_hand", exc.message
        ) from None
    try:
        job = reviews.start(table_id, seat, hand, record)
    except ReviewsBusy as exc:
        raise ApiError(429, "busy", str(exc)) from None
    return SafeJSONResponse(job.to_json(), status_code=202)


@router.get("/api/tables/{table_id}/review", response_model=ReviewAnswer)
async def read_review(
    live: VisibleTable, key: Key, reviews: Reviews, hand: int | None = None
) -> SafeJSONResponse:
    """The asking seat's review of ``hand`` (the last one it asked for if absent): its progress,
    and the review once finished."""
    seat = asking_seat(live, key)
    job = reviews.find(live.id, seat, hand)
    if job is None:
        raise ApiError(404, "no_review", "no review of this hand was asked for: ask with POST first")
    return SafeJSONResponse(job.to_json())
