"""Cheap reads: the lobby's list of public tables, paged and slim, and answers that carry an ETag.

``GET /api/tables`` lists the public tables newest first, ``limit`` at a time (at most ``MAX_PAGE``),
each as its short summary (``LiveTable.summary``: no rules source, no score lines). ``before`` (the
``next`` cursor of the page before, also in the ``Link`` header) asks for the page after it, and
``playing=true`` for the games still going on. A page is built once for the same question while no
table changed (and at most ``PAGE_SECONDS`` ago), however many clients ask (``ListingCache``), and
every answer carries an ``ETag``: a client that sends it back in ``If-None-Match`` gets
``304 Not Modified`` and no body.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import Response

from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.jsonout import etag_of, json_text

DEFAULT_PAGE = 50
MAX_PAGE = 100
PAGE_SECONDS = 2.0  # a page is built again after this even if no table changed (names, who is away)
CACHED_PAGES = 64
MAX_CURSOR_CHARS = 80  # a created_at time, a "~" and a table id


def json_answer(request: Request, body: bytes, etag: str | None = None, **headers: str) -> Response:
    """``body`` (JSON text) as the answer, with its ETag; ``304`` with no body if the request's
    ``If-None-Match`` holds that tag already."""
    tag = etag or etag_of(body)
    given = request.headers.get("if-none-match", "")
    out = {"ETag": tag, **headers}
    if tag in (t.strip().removeprefix("W/") for t in given.split(",")) or given.strip() == "*":
        return Response(status_code=304, headers=out)
    return Response(content=body, media_type="application/json", headers=out)


def cursor_of(live: LiveTable) -> str:
    """Where the list stands after ``live`` (the ``before`` of the next page)."""
    return f"{live.created_at}~{live.id}"


@dataclass(frozen=True)
class Page:
    """One page of the list: its body (JSON text), its ETag and the cursor of the next page (None: it
    was the last)."""

    body: bytes
    etag: str
    next: str | None


def build_page(tables: Iterable[LiveTable], limit: int, before: str | None, playing: bool) -> Page:
    """The public tables of ``tables``, newest first, after the cursor ``before`` (if given), games
    still going on only if ``playing``: at most ``limit`` short summaries."""
    listed = sorted(
        (live for live in tables if live.public and not (playing and live.over)),
        key=cursor_of,
        reverse=True,
    )
    if before is not None:
        listed = [live for live in listed if cursor_of(live) < before]
    page = listed[:limit]
    more = len(listed) > limit
    body = json_text([live.summary() for live in page]).encode("utf-8")
    return Page(body, etag_of(body), cursor_of(page[-1]) if more and page else None)


def signature(tables: Iterable[LiveTable]) -> tuple[int, int, int, int]:
    """What changes when any table's summary may have: how many tables there are, their moves, their
    connections and those over (cheap next to building summaries)."""
    count = moves = connections = over = 0
    for live in tables:
        count += 1
        moves += live.version
        connections += len(live.connections)
        over += live.over
    return count, moves, connections, over


class ListingCache:
    """The pages of the list asked for lately: one is built again only when a table changed
    (``signature``) or ``seconds`` went by; at most ``size`` are kept, the oldest forgotten first."""

    def __init__(
        self,
        seconds: float = PAGE_SECONDS,
        size: int = CACHED_PAGES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self.size = size
        self.clock = clock
        self.pages: OrderedDict[tuple[int, str | None, bool], tuple[float, tuple[int, ...], Page]] = (
            OrderedDict()
        )
        self.built = 0

    def page(
        self, tables: Callable[[], Iterable[LiveTable]], limit: int, before: str | None, playing: bool
    ) -> Page:
        """The page for this question: the one built less than ``seconds`` ago if no table changed
        since, else a new one from ``tables()``."""
        key = (limit, before, playing)
        now = self.clock()
        mark = signature(tables())
        found = self.pages.get(key)
        if found is not None and now - found[0] < self.seconds and found[1] == mark:
            return found[2]
        made = build_page(tables(), limit, before, playing)
        self.built += 1
        self.pages[key] = (now, mark, made)
        self.pages.move_to_end(key)
        while len(self.pages) > self.size:
            self.pages.popitem(last=False)
        return made


def page_headers(request: Request, page: Page, limit: int, playing: bool) -> dict[str, str]:
    """The ``Link`` header to the next page, if there is one."""
    if page.next is None:
        return {}
    query: dict[str, Any] = {"limit": limit, "before": page.next}
    if playing:
        query["playing"] = "true"
    return {"Link": f'<{request.url.path}?{urlencode(query)}>; rel="next"'}
