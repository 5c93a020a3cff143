"""Who may see a table over HTTP, and the error every endpoint answers with.

A private table is seen only by the holders of one of its links: the client sends the secret it holds
(a seat token, the watch key or the host key) in the ``X-Handfoot-Key`` header (never in the address,
which servers and proxies log). Errors are ``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

from handfoot.server.tables import LiveTable, TableService

KEY_HEADER = "X-Handfoot-Key"


class ApiError(Exception):
    """An HTTP error with a code and a sentence, answered as ``{"error": {"code", "message"}}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def visible_table(service: TableService, table_id: str, key: str | None) -> LiveTable:
    """The table ``table_id`` if whoever holds ``key`` may see it. Raises ApiError 404 ``no_table`` when
    there is no such table, 403 ``private`` when it is private and ``key`` is none of its links."""
    live = service.get(table_id)
    if live is None:
        raise ApiError(404, "no_table", f"there is no table {table_id!r}: the link may be mistyped or old")
    if not live.may_see(key):
        raise ApiError(
            403,
            "private",
            "this table is private: open it with one of its links (an invitation or the watch link)",
        )
    return live
