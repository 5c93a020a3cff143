"""``/api/tables``: the lobby's list of public tables, creating a table, one table's summary, taking a
seat, and a finished game's record."""

from __future__ import annotations

import logging
from typing import Annotated, cast

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from handfoot.server.bots.runner import bot_table_refusal
from handfoot.server.http.access import ApiError, found_table, no_table, too_many_guesses
from handfoot.server.http.deps import Client, Limits, Listing, Runner, ServerSettings, Service, VisibleTable
from handfoot.server.http.errors import REFUSALS
from handfoot.server.http.listing import DEFAULT_PAGE, MAX_CURSOR_CHARS, MAX_PAGE, json_answer, page_headers
from handfoot.server.http.lobby import CreateTable, JoinTable
from handfoot.server.limits import RATE_LIMITED
from handfoot.server.tables.table import LiveTable, LobbyError
from handfoot.server.wire.answers import CreatedAnswer, JoinedAnswer, RecordJson, TableListingJson
from handfoot.server.wire.jsonout import SafeJSONResponse, json_text
from handfoot.server.wire.messages import TableJson

log = logging.getLogger("handfoot.server")

router = APIRouter(responses=REFUSALS)
# An answer with an ETag may be 304 Not Modified, with no body.
NOT_MODIFIED: dict[int | str, dict[str, str]] = {304: {"description": "Not modified since the ETag given"}}


def table_json(live: LiveTable) -> TableJson:
    """``live``'s public summary (``LiveTable.info``), whose shape is ``TableJson``."""
    return cast(TableJson, live.info())


@router.get("/api/tables", response_model=list[TableListingJson], responses=NOT_MODIFIED)
async def list_tables(
    request: Request,
    service: Service,
    listing: Listing,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = DEFAULT_PAGE,
    before: Annotated[str | None, Query(max_length=MAX_CURSOR_CHARS)] = None,
    playing: bool = False,
) -> Response:
    """The short summary of the tables their creators listed publicly (a private table is not
    shown), newest first, ``limit`` at a time: ``before`` is the ``Link`` header's cursor of the
    next page; ``playing`` lists only games going on. With an ETag (``If-None-Match``: 304)."""
    page = listing.page(lambda: service.tables.values(), limit, before, playing)
    return json_answer(request, page.body, page.etag, **page_headers(request, page, limit, playing))


@router.post("/api/tables", status_code=201, response_model=CreatedAnswer)
async def create_table(
    body: CreateTable,
    request: Request,
    service: Service,
    runner: Runner,
    limits: Limits,
    client: Client,
    settings: ServerSettings,
) -> SafeJSONResponse:
    """Create a table; answers with its summary and a secret invitation per invited seat (201)."""
    if not limits.tables.allow(client):
        raise ApiError(
            429,
            RATE_LIMITED,
            f"too many tables created from your address: at most {limits.tables.rate.describe()}; "
            f"try again in {limits.tables.wait(client):.0f} s",
        )
    seats = [(s.kind, s.bot) for s in body.seats] if body.seats is not None else []
    if seats and all(kind == "bot" for kind, _bot in seats):
        refusal = bot_table_refusal(runner, limits, client)
        if refusal is not None:
            raise ApiError(429, "too_many_bot_tables", refusal)
    try:
        made = await service.open_table(
            body.preset, body.options, body.players, seats, body.public, body.wait_for_players
        )
    except LobbyError as exc:
        raise ApiError(422, "bad_table", str(exc)) from None
    live = made.live
    runner.own(live.id, client)
    log.info(
        "table %s created: %s, %s, %s",
        live.id,
        live.game.rules.name,
        " and ".join(s.bot or "a person" for s in live.seats),
        "public" if live.public else "private",
    )
    base = settings.site_url(str(request.base_url))
    answer: CreatedAnswer = {
        "table": table_json(live),
        "invites": [
            {"seat": seat, "token": token, "link": f"{base}/play/{live.id}#seat={token}"}
            for seat, token in sorted(made.tokens.items())
        ],
        "watch": f"{base}/watch/{live.id}" + ("" if live.public else f"#key={made.watch_key}"),
        "watch_key": made.watch_key,
        "host": {"key": made.host_key, "link": f"{base}/watch/{live.id}#host={made.host_key}"},
        "websocket": f"/ws/tables/{live.id}",
    }
    return SafeJSONResponse(answer, status_code=201)


@router.get("/api/tables/{table_id}", response_model=TableJson, responses=NOT_MODIFIED)
async def table(live: VisibleTable, request: Request, runner: Runner, client: Client) -> Response:
    """One table's public summary, with its rules' source and the score lines of its finished hands
    (with an ETag: ``If-None-Match`` is answered 304 while it has not changed). Opening a table
    that was put away sets its bots playing again."""
    runner.seen(live, client)
    return json_answer(request, json_text(live.info()).encode("utf-8"))


@router.post("/api/tables/{table_id}/join", response_model=JoinedAnswer)
async def join(
    table_id: str, body: JoinTable, service: Service, limits: Limits, client: Client
) -> SafeJSONResponse:
    """Take the seat a token belongs to, under a display name."""
    if not limits.may_guess(client):
        raise too_many_guesses(limits, client)
    found = await found_table(service, table_id)  # the body's seat token opens a private one
    if found is None:
        limits.wrong_key(client)
        raise no_table(table_id)
    live = service.adopt(found)
    seat = live.seat_of_token(body.token)
    if seat is None or live.seats[seat].kind != "human":
        limits.wrong_key(client)
        if not live.public:  # a private table is no table to whoever has none of its links
            raise no_table(table_id)
        raise ApiError(403, "bad_token", "this seat token does not belong to this table")
    async with live.lock:
        await service.join(live, seat, body.name)
    service.notify(live)  # the first hand may have waited for this player
    answer: JoinedAnswer = {"seat": seat, "name": body.name, "table": table_json(live)}
    return SafeJSONResponse(answer)


@router.get("/api/tables/{table_id}/record", response_model=RecordJson)
async def record(live: VisibleTable) -> SafeJSONResponse:
    """A finished game's record (the JSON ``handfoot replay`` reads), as a file download."""
    if not live.over:
        raise ApiError(409, "not_finished", "the record can be downloaded once the game is over")
    headers = {"Content-Disposition": f'attachment; filename="handfoot-{live.id}.json"'}
    return SafeJSONResponse(live.record().to_json(), headers=headers)
