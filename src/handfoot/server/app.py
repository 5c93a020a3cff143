"""The FastAPI application: the lobby over HTTP (``/api/...``) and play over WebSocket
(``/ws/tables/{id}``). ``create_app(settings)`` builds it; its lifespan opens storage, rebuilds every
table and starts the bots, and on shutdown stops the bots and closes storage."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from handfoot.server import replay, scorepad, web
from handfoot.server.access import KEY_HEADER, ApiError, visible_table
from handfoot.server.bot_runner import BotRunner
from handfoot.server.config import Settings
from handfoot.server.fanout import catch_up, catch_up_all, check_stale, make_fanout, notice_table
from handfoot.server.jsonout import SafeJSONResponse
from handfoot.server.leases import make_leases
from handfoot.server.limits import MAX_BODY_BYTES, RATE_LIMITED, BodyLimit, Limiters, client_key
from handfoot.server.lobby import (
    CreateTable,
    JoinTable,
    option_catalogue,
    preset_detail,
    preset_summaries,
    validation_text,
)
from handfoot.server.protocol import PROTOCOL_VERSION
from handfoot.server.seat_bots import bot_names
from handfoot.server.storage import Storage
from handfoot.server.tables import LiveTable, LobbyError, TableService
from handfoot.server.ws import table_socket

log = logging.getLogger("handfoot.server")


def _error(status: int, code: str, message: str) -> SafeJSONResponse:
    return SafeJSONResponse({"error": {"code": code, "message": message}}, status_code=status)


SWEEP_SECONDS = 60.0  # how often finished and idle tables are unloaded


async def sweep(service: TableService, runner: BotRunner, idle_seconds: float) -> None:
    """Every ``SWEEP_SECONDS``, unload the tables nobody has used for ``idle_seconds`` (and finished
    ones nobody is looking at); they are read from storage again when asked for."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        gone = service.unload_idle(idle_seconds, busy=lambda table_id: table_id in runner.tasks)
        if gone:
            log.info("unloaded %d idle tables (%d in memory)", len(gone), len(service.tables))


def create_app(settings: Settings) -> FastAPI:
    """The server application for ``settings`` (nothing is opened until its lifespan starts)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.prepare()
        storage = Storage(settings.db_url)
        service = TableService(storage, settings.snapshot_every, settings.away_seconds)
        fanout = make_fanout(settings.redis_url)
        runner = BotRunner(service, settings.bot_delay, make_leases(settings.redis_url, fanout.origin))
        runner.attach()
        service.unloaders.append(runner.forget)
        log.info("tables are loaded from %s when first asked for", settings.db_url)
        await fanout.start(
            lambda table_id, version: catch_up(service, table_id, version), lambda: catch_up_all(service)
        )
        service.announcers.append(fanout.publish)
        app.state.service = service
        app.state.limits = Limiters.default(settings.rate_limit)
        app.state.settings = settings
        loop = asyncio.get_running_loop()
        background = [loop.create_task(sweep(service, runner, settings.idle_seconds), name="handfoot-unload")]
        if settings.redis_url:  # other processes store moves too
            background.append(loop.create_task(check_stale(service), name="handfoot-check"))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
            await fanout.close()
            await runner.stop()
            storage.close()

    app = FastAPI(
        title="handfoot",
        version=str(PROTOCOL_VERSION),
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
    )
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> SafeJSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> SafeJSONResponse:
        return _error(422, "invalid", validation_text(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and web.wants_page(request.url.path, request.headers.get("accept", "")):
            return web.not_found_page()
        return _error(exc.status_code, "http", str(exc.detail))

    def service_of(request: Request) -> TableService:
        service: TableService = request.app.state.service
        return service

    def table_of(request: Request, table_id: str) -> LiveTable:
        return visible_table(service_of(request), table_id, request.headers.get(KEY_HEADER))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """The server is up; which protocol version it speaks."""
        return {"ok": True, "protocol": PROTOCOL_VERSION}

    @app.get("/api/presets")
    async def presets() -> list[dict[str, Any]]:
        """The rule presets: name, title, summary, player counts."""
        return preset_summaries()

    @app.get("/api/presets/{name}")
    async def preset_options(name: str) -> dict[str, Any]:
        """One preset with every option's value and help."""
        try:
            return preset_detail(name)
        except KeyError:
            raise ApiError(404, "no_preset", f"there is no preset {name!r}") from None

    @app.get("/api/options")
    async def options() -> list[dict[str, Any]]:
        """Every rule option with its section and help."""
        return option_catalogue()

    @app.get("/api/bots")
    async def bots() -> dict[str, list[str]]:
        """The bots a seat can be given."""
        return {"bots": bot_names()}

    @app.get("/api/tables")
    async def list_tables(request: Request) -> list[dict[str, Any]]:
        """The public summary of every table its creator listed publicly (a private table is not shown)."""
        return [live.info() for live in service_of(request).tables.values() if live.public]

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; answers with its summary and a secret invitation per invited seat."""
        limits: Limiters = request.app.state.limits
        client = client_key(request.client.host if request.client else None)
        if not limits.tables.allow(client):
            raise ApiError(
                429,
                RATE_LIMITED,
                f"too many tables created from your address: at most {limits.tables.rate.describe()}; "
                f"try again in {limits.tables.wait(client):.0f} s",
            )
        seats = [(s.kind, s.bot) for s in body.seats] if body.seats is not None else []
        try:
            made = service_of(request).open_table(body.preset, body.options, body.players, seats, body.public)
        except LobbyError as exc:
            raise ApiError(422, "bad_table", str(exc)) from None
        live = made.live
        base = settings.site_url(str(request.base_url))
        return {
            "table": live.info(),
            "invites": [
                {"seat": seat, "token": token, "link": f"{base}/play/{live.id}#seat={token}"}
                for seat, token in sorted(made.tokens.items())
            ],
            "watch": f"{base}/watch/{live.id}" + ("" if live.public else f"#key={made.watch_key}"),
            "watch_key": made.watch_key,
            "host": {"key": made.host_key, "link": f"{base}/watch/{live.id}#host={made.host_key}"},
            "websocket": f"/ws/tables/{live.id}",
        }

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request) -> dict[str, Any]:
        """One table's public summary."""
        return table_of(request, table_id).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take the seat a token belongs to, under a display name."""
        found = service_of(request).get(table_id)  # the seat token in the body opens a private table
        if found is None:
            raise ApiError(
                404, "no_table", f"there is no table {table_id!r}: the link may be mistyped or old"
            )
        live = service_of(request).adopt(found)
        seat = live.seat_of_token(body.token)
        if seat is None or live.seats[seat].kind != "human":
            raise ApiError(403, "bad_token", "this seat token does not belong to this table")
        async with live.lock:
            service_of(request).join(live, seat, body.name)
            notice_table(live)
        return {"seat": seat, "name": body.name, "table": live.info()}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> SafeJSONResponse:
        """A finished game's record (the JSON ``handfoot replay`` reads), as a file download."""
        live = table_of(request, table_id)
        if not live.over:
            raise ApiError(409, "not_finished", "the record can be downloaded once the game is over")
        headers = {"Content-Disposition": f'attachment; filename="handfoot-{live.id}.json"'}
        return SafeJSONResponse(live.record().to_json(), headers=headers)

    app.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    scorepad.register(app)
    replay.register(app)
    web.mount(app)
    return app
