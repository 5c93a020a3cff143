"""The FastAPI application, wired from its parts: the HTTP API (``server.http``, one router per
resource, the WebSocket ``/ws/tables/{id}`` among them, served by ``server.live``) and the browser
client's pages.
``create_app(settings)`` builds it; its lifespan (``server.process.lifespan``) opens storage, makes the
table service and the bots, and closes them at shutdown. Tables are loaded when first asked for."""

from __future__ import annotations

from fastapi import FastAPI

from handfoot import package_version
from handfoot.server.http import (
    catalogue,
    errors,
    replay,
    reviews,
    rules_print,
    scorepad,
    socket,
    tables,
    web,
)
from handfoot.server.http.listing import ListingCache
from handfoot.server.limits import MAX_BODY_BYTES, BodyLimit, Limiters, RequestLimit
from handfoot.server.process.lifespan import lifespan_for
from handfoot.server.settings import Settings
from handfoot.server.tables.replay import ReplayCache
from handfoot.server.tables.seat_bots import use_policies
from handfoot.server.wire.jsonout import SafeJSONResponse


def create_app(settings: Settings) -> FastAPI:
    """The server application for ``settings`` (nothing is opened until its lifespan starts). The
    operator's trained policies (``settings.policies``) are loaded now: ValueError for one that cannot be."""
    use_policies(settings.policies)
    limits = Limiters.default(settings.rate_limit)
    docs = settings.api_docs  # the API's own pages, only when asked for
    app = FastAPI(
        title="handfoot",
        version=package_version(),
        lifespan=lifespan_for(settings, limits),
        default_response_class=SafeJSONResponse,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.state.settings = settings
    app.state.limits = limits
    app.state.listing = ListingCache()
    app.state.replays = ReplayCache()
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)
    app.add_middleware(RequestLimit, limiter=limits.requests)
    errors.install(app)
    routers = (catalogue.router, tables.router, scorepad.router, replay.router, reviews.router)
    for router in (*routers, socket.router, rules_print.router):
        app.include_router(router)
    web.mount(app)
    return app
