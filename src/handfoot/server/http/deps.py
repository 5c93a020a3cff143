"""The typed dependencies of the HTTP routes: the server's table service, bot runner, limits, settings and
caches (set on the application by its lifespan and ``create_app``), the asking client's address and key,
and the table that key may see.

A route names what it needs as a parameter, ``service: Service`` or ``live: VisibleTable``; FastAPI
calls the function behind it for every request. The application-wide ones read any connection
(``HTTPConnection``), so the WebSocket route takes them the same way. Each is ``async``, so FastAPI calls it
on the event loop (a plain function would be sent to its thread pool and back, for an attribute read)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from handfoot.server.bots.runner import BotRunner
from handfoot.server.http.access import KEY_HEADER, visible_table
from handfoot.server.http.listing import ListingCache
from handfoot.server.limits import Limiters, client_key
from handfoot.server.settings import Settings
from handfoot.server.tables.replay import ReplayCache
from handfoot.server.tables.reviews import ReviewService
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable


async def get_service(connection: HTTPConnection) -> TableService:
    """The application's table service (its lifespan made it)."""
    service: TableService = connection.app.state.service
    return service


async def get_runner(connection: HTTPConnection) -> BotRunner:
    """The application's bot runner (its lifespan made it)."""
    runner: BotRunner = connection.app.state.runner
    return runner


async def get_limits(connection: HTTPConnection) -> Limiters:
    """The application's limits (``create_app`` made them)."""
    limits: Limiters = connection.app.state.limits
    return limits


async def get_settings(connection: HTTPConnection) -> Settings:
    """The application's settings."""
    settings: Settings = connection.app.state.settings
    return settings


async def get_listing(connection: HTTPConnection) -> ListingCache:
    """The cache of the lobby's pages of public tables."""
    listing: ListingCache = connection.app.state.listing
    return listing


async def get_replays(connection: HTTPConnection) -> ReplayCache:
    """The cache of finished games' replay steps."""
    replays: ReplayCache = connection.app.state.replays
    return replays


async def get_reviews(connection: HTTPConnection) -> ReviewService:
    """The hand reviews being worked out (its lifespan made it)."""
    reviews: ReviewService = connection.app.state.reviews
    return reviews


async def get_client(connection: HTTPConnection) -> str:
    """The asking client's address, as the limits count it."""
    return client_key(connection.client.host if connection.client else None)


async def get_key(request: Request) -> str | None:
    """The secret the client sent with the request (a seat token, the watch key or the host key), if any."""
    return request.headers.get(KEY_HEADER)


Service = Annotated[TableService, Depends(get_service)]
Runner = Annotated[BotRunner, Depends(get_runner)]
Limits = Annotated[Limiters, Depends(get_limits)]
ServerSettings = Annotated[Settings, Depends(get_settings)]
Listing = Annotated[ListingCache, Depends(get_listing)]
Replays = Annotated[ReplayCache, Depends(get_replays)]
Reviews = Annotated[ReviewService, Depends(get_reviews)]
Client = Annotated[str, Depends(get_client)]
Key = Annotated[str | None, Depends(get_key)]


async def get_table(table_id: str, service: Service, key: Key, limits: Limits, client: Client) -> LiveTable:
    """The table in the path, if the request's key may see it (``access.visible_table``: 404 for no such
    table or a private one without one of its links, 429 for a client that guessed too often)."""
    return await visible_table(service, table_id, key, limits, client)


VisibleTable = Annotated[LiveTable, Depends(get_table)]
