"""The browser client: the built bundle in ``handfoot/web`` (its TypeScript source is ``web-client/``).

``mount(app)`` serves ``index.html`` for the client's pages (``/``, ``/play/{id}``, ``/watch/{id}``,
``/replay/{id}``, ``/review/{id}``, ``/scorepad``) and the bundle's files under ``/assets``. The page
reads the table id and the seat token (after ``#``, so it never reaches the server) from its own address.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parents[2] / "web"  # src/handfoot/web
PAGES = (
    "/",
    "/play/{table_id}",
    "/watch/{table_id}",
    "/replay/{table_id}",
    "/review/{table_id}",
    "/scorepad",
)
# The page itself may only load what this server serves: no fonts, images or scripts from other hosts.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def wants_page(path: str, accept: str) -> bool:
    """True if a request for ``path`` that found nothing should get the client's own "no such page"
    page (a browser asking for HTML, not the API, the WebSocket or a bundle file) instead of JSON."""
    return "text/html" in accept and not path.startswith(("/api/", "/ws/", "/assets/"))


def not_found_page(web_dir: Path = WEB_DIR) -> Response:
    """The client's page with status 404: it tells the reader the address is not a page of the game."""
    index = web_dir / "index.html"
    if not index.is_file():
        return PlainTextResponse("There is no such page here.", status_code=404)
    return FileResponse(index, status_code=404, media_type="text/html", headers=SECURITY_HEADERS)


def mount(app: FastAPI, web_dir: Path = WEB_DIR) -> None:
    """Serve the client bundle in ``web_dir`` from ``app``. Without a built bundle the pages answer 503
    with how to build it, and the API keeps working."""
    index = web_dir / "index.html"
    assets = web_dir / "assets"
    if assets.is_dir():
        app.mount("/assets", StaticFiles(directory=assets), name="assets")

    async def page() -> Response:
        """The client's single page (it routes by its own address)."""
        if not index.is_file():
            return PlainTextResponse(
                "The browser client is not built: run `npm ci && npm run build` in web-client/.",
                status_code=503,
            )
        return FileResponse(index, media_type="text/html", headers=SECURITY_HEADERS)

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
