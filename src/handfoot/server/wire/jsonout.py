"""JSON as the server sends it, over HTTP and WebSocket: UTF-8 whenever it can be, and never an error.

Text the server refuses today (lone surrogates, see ``handfoot.text``) may still sit in rows stored by an
older version. Such a string cannot be written as UTF-8, so ``json_text`` then escapes it (``\\ud800``,
which is valid JSON) instead of failing the whole answer: one bad table name must not break the lobby.

Every message a move sends is written here, once per connection, so it is written with orjson (about a
tenth of the standard library's CPU for a ``state`` message, the same text). What orjson does not write
(an integer past 64 bits, a lone surrogate, a key that is not a string) is written by the standard
library as before.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi.responses import JSONResponse


def json_text(value: Any) -> str:
    """``value`` as compact JSON text that always encodes to UTF-8 (non-ASCII characters as they are,
    lone surrogates escaped). NaN and the infinities are written as ``null``; an integer too long for
    Python to write as text raises ValueError, an object that is not a JSON value TypeError."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError: a big integer, a lone surrogate, a non-string key...
        pass
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text


@dataclass(frozen=True)
class Encoded:
    """A message already written as JSON text (``json_text``), sent as it is: a message that goes to
    several connections (each spectator's ``state``, a ``table`` notice) is written once for them all."""

    text: str


def encoded(value: Any) -> Encoded:
    """``value`` written once as JSON text, to be sent to any number of connections."""
    return Encoded(json_text(value))


class SafeJSONResponse(JSONResponse):
    """A JSON response written with ``json_text``: the app's default response class."""

    def render(self, content: Any) -> bytes:
        """The body: ``content`` as UTF-8 JSON."""
        return json_text(content).encode("utf-8")


def etag_of(body: bytes) -> str:
    """The ETag of an answer's body (a strong one: the same bytes, the same tag)."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
