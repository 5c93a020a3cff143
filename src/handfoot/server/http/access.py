"""Who may see a table over HTTP, the error every endpoint answers with, and the door against guessing.

A private table is seen only by the holders of one of its links: the client sends the secret it holds
(a seat token, the watch key or the host key) in the ``X-Handfoot-Key`` header (never in the address,
which servers and proxies log). Errors are ``{"error": {"code", "message"}}`` with a 4xx status.

A private table opened without one of its links answers exactly as a table that does not exist (404,
the same body), so an address tells nobody whether a table is behind it. Every miss (an unknown id, a
private table without its key, a wrong seat token or host key) is a guess: each client may make
``limits.GUESS_RATE`` of them; past that its requests naming a table are refused (429) before any key
is looked at or any table read, and the server counts both (``Limiters.guessed``,
``Limiters.guesses_refused``).
"""

from __future__ import annotations

from handfoot.server.limits import RATE_LIMITED, Limiters, guesses_message
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable, TableUnreadable
from handfoot.server.wire.protocol import UNREADABLE

KEY_HEADER = "X-Handfoot-Key"


class ApiError(Exception):
    """An HTTP error with a code and a sentence, answered as ``{"error": {"code", "message"}}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def no_table(table_id: str) -> ApiError:
    """The answer for a table that does not exist, or that this client may not know of."""
    return ApiError(404, "no_table", f"there is no table {table_id!r}: the link may be mistyped or old")


def too_many_guesses(limits: Limiters, client: str) -> ApiError:
    """The answer once ``client`` has tried too many wrong table ids and keys."""
    return ApiError(429, RATE_LIMITED, guesses_message(limits, client))


async def visible_table(
    service: TableService, table_id: str, key: str | None, limits: Limiters, client: str
) -> LiveTable:
    """The table ``table_id`` if whoever holds ``key`` may see it. Raises ApiError 404 ``no_table`` when
    there is no such table or it is private and ``key`` is none of its links (the same answer, counted
    as a guess of ``client``), 429 ``rate_limited`` when ``client`` guessed too often lately, 409
    ``unreadable_table`` when the stored table cannot be opened (and StorageError when the database does
    not answer)."""
    if not limits.may_guess(client):
        raise too_many_guesses(limits, client)
    live = await found_table(service, table_id)
    if live is None or not live.may_see(key):
        limits.wrong_key(client)
        raise no_table(table_id)
    return live


async def found_table(service: TableService, table_id: str) -> LiveTable | None:
    """``service.get(table_id)``, with a stored table that cannot be opened answered as ApiError 409
    ``unreadable_table`` (the message names the table and why)."""
    try:
        return await service.get(table_id)
    except TableUnreadable as exc:
        raise ApiError(409, UNREADABLE, str(exc)) from None
