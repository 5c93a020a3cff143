"""JSON as the server sends it, over HTTP and WebSocket: UTF-8 whenever it can be, and never an error.

Text the server refuses today (lone surrogates, see ``handfoot.text``) may still sit in rows stored by an
older version. Such a string cannot be written as UTF-8, so ``json_text`` then escapes it (``\\ud800``,
which is valid JSON) instead of failing the whole answer: one bad table name must not break the lobby.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse


def json_text(value: Any) -> str:
    """``value`` as compact JSON text that always encodes to UTF-8 (non-ASCII characters as they are,
    lone surrogates escaped)."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text


class SafeJSONResponse(JSONResponse):
    """A JSON response written with ``json_text``: the app's default response class."""

    def render(self, content: Any) -> bytes:
        """The body: ``content`` as UTF-8 JSON."""
        return json_text(content).encode("utf-8")
