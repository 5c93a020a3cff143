"""Checks on text that comes from outside (rule files, lobby requests, WebSocket messages).

Python strings may hold lone surrogates (JSON's ``"\\ud800"`` decodes to one): they are not characters,
cannot be written as UTF-8 and so could never be sent back to anyone. Text that is shown to other people
(names, titles, summaries) must also hold no control characters. Standard library only: the rules use it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
LINE_BREAKS = "\n\t"


def has_surrogate(text: str) -> bool:
    """True if ``text`` holds a lone surrogate (a code point that UTF-8 cannot encode)."""
    return _SURROGATE.search(text) is not None


def text_problem(text: str, max_chars: int, *, line_breaks: bool = False) -> str | None:
    """What is wrong with display text, as a sentence saying what is allowed, or None if nothing is:
    more than ``max_chars`` characters, a lone surrogate, or a control character (newlines and tabs
    are allowed where ``line_breaks``)."""
    if len(text) > max_chars:
        return f"it has {len(text)} characters; allowed: at most {max_chars}"
    if has_surrogate(text):
        return "it holds a lone surrogate (like \\ud800), which is not a character; allowed: Unicode text"
    for char in text:
        if unicodedata.category(char).startswith("C") and not (line_breaks and char in LINE_BREAKS):
            return f"it holds the control character {char!r}; allowed: printable text"
    return None


def json_text_problem(value: Any) -> str | None:
    """The first lone surrogate anywhere in a parsed JSON value (keys and strings, at any depth), as a
    sentence, or None. Walks without recursion, so any depth the JSON parser accepted is fine."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if has_surrogate(item):
                return (
                    "text holds a lone surrogate (like \\ud800), which is not a character; allowed: Unicode"
                )
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
