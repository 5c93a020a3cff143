"""The HTTP API's error answers, ``{"error": {"code", "message"}}`` (``wire.answers.ErrorAnswer``), for
every failure a route can meet: an ``ApiError``, a database that does not answer (503), a request that
does not validate (422), and Starlette's own (a 404 a browser asked for as a page gets the client's "no
such page" page). ``REFUSALS`` documents them for every route of the API."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from handfoot.server.http import web
from handfoot.server.http.access import ApiError
from handfoot.server.http.lobby import validation_text
from handfoot.server.store.storage import StorageError
from handfoot.server.wire.answers import ErrorAnswer
from handfoot.server.wire.jsonout import SafeJSONResponse
from handfoot.server.wire.protocol import NO_DATABASE, UNAVAILABLE

log = logging.getLogger("handfoot.server")

# The refusals every route of the API may answer, as its routers declare them for /openapi.json: a 4xx
# status (the routes' own refusals, a request that does not validate, the limits) or 503 ``unavailable``.
REFUSALS: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ErrorAnswer, "description": "Refused: the code and a sentence saying why"},
    503: {"model": ErrorAnswer, "description": "The server could not reach its database"},
}


def error_answer(status: int, code: str, message: str) -> SafeJSONResponse:
    """The answer for an error: its status, with ``{"error": {"code", "message"}}``."""
    answer: ErrorAnswer = {"error": {"code": code, "message": message}}
    return SafeJSONResponse(answer, status_code=status)


async def _api_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_answer(exc.status, exc.code, exc.message)


async def _storage(_request: Request, exc: Exception) -> Response:
    log.warning("a request failed on the database: %s", exc)
    return error_answer(503, UNAVAILABLE, NO_DATABASE)


async def _invalid(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return error_answer(422, "invalid", validation_text(exc.errors()))


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and web.wants_page(request.url.path, request.headers.get("accept", "")):
        return web.not_found_page()
    return error_answer(exc.status_code, "http", str(exc.detail))


def install(app: FastAPI) -> None:
    """Answer every error of ``app``'s routes as above."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(StorageError, _storage)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
