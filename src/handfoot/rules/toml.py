"""Option values written as in a TOML rule file (``rules show``, the labels of rule files)."""

from __future__ import annotations

import datetime
import json
import math
from typing import Any

from handfoot.wording import show


def toml_value(value: Any) -> str:
    """A JSON-style option value (as ``rules_to_mapping`` gives it) written as a TOML value.

    Booleans are ``true``/``false``, text is quoted, lists are ``[a, b]`` and tables are inline
    tables ``{ key = value }``; the result reads back to the same value in a rule file. Other values a
    TOML file may hold (floats, dates) are written as TOML writes them; a number too long to print is
    described by its length (``handfoot.text.show``).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return show(value)
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, tuple):
        return toml_value(list(value))
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return show(str(value))


def _toml_key(key: str) -> str:
    """A table key, bare when TOML allows it (letters, digits, - and _), else quoted."""
    if key and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in key):
        return key
    return json.dumps(key, ensure_ascii=False)
