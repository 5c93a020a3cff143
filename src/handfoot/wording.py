"""How values and counts read in messages: as they are written in JSON and rule files, never as Python.

``show(value)`` writes a decoded JSON/TOML value as JSON (``true``, ``"x"``, ``[50, "x"]``,
``{"a": 1}``), shortened when long, with a very long number given by its digit count instead of its
digits. ``plural(count, word)`` is ``1 card`` / ``2 cards``. Standard library only: the rules, records
and every command use it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from enum import Enum
from typing import Any

# Longest rendering of a value in a message; longer ones end in an ellipsis.
MAX_SHOWN = 80
# Numbers with more digits than this are shown by their digit count.
MAX_DIGITS = 30


_SURROGATE = re.compile("[\ud800-\udfff]")


def show(value: Any) -> str:
    """``value`` as JSON text for a message (see the module docstring); any value is accepted. The text
    is always valid Unicode: a lone surrogate in a string is written as its JSON escape (``\\ud800``)."""
    text = _json(value, depth=0)
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def _json(value: Any, depth: int) -> str:
    """JSON text of ``value``, nested parts past a few levels or a few hundred items elided."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, int):
        if abs(value).bit_length() <= 3 * MAX_DIGITS:  # few enough digits to convert cheaply
            text = str(value)
            if len(text.lstrip("-")) <= MAX_DIGITS:
                return text
        digits = math.floor(abs(value).bit_length() * math.log10(2)) + 1
        return f"({'minus ' if value < 0 else ''}a number of about {digits} digits)"
    if isinstance(value, float | str):
        return json.dumps(value, ensure_ascii=False)
    if depth > 4:
        return "…"
    if isinstance(value, list | tuple | set | frozenset):
        items = list(value)
        shown = [_json(v, depth + 1) for v in items[:20]]
        return "[" + ", ".join(shown + (["…"] if len(items) > 20 else [])) + "]"
    if isinstance(value, dict):
        pairs = list(value.items())
        shown = [f"{json.dumps(str(k), ensure_ascii=False)}: {_json(v, depth + 1)}" for k, v in pairs[:20]]
        return "{" + ", ".join(shown + (["…"] if len(pairs) > 20 else [])) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``; ``words`` for an irregular plural."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def kind(value: Any) -> str:
    """What a decoded JSON value is, for a message: ``null``, ``true or false``, ``a number``, ``text``,
    ``an empty list``, ``a list``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list" if value else "an empty list"
    return "an object"


def alternatives(items: Iterable[object], word: str = "or") -> str:
    """``2, 3, 4 or 6``: the items in a sentence, the last joined with ``word``."""
    texts = [str(item) for item in items]
    if len(texts) <= 1:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} {word} {texts[-1]}"


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(count: int) -> str:
    """``no``, ``one`` ... ``ten``; digits beyond."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def spelled(count: int, word: str, words: str | None = None) -> str:
    """``one book``, ``two clean books``, ``no books``: the count in words up to ten (digits beyond), then
    the word, plural unless the count is one (``words`` for an irregular plural)."""
    return f"{number_word(count)} {word if count == 1 else (words or word + 's')}"


def sentence_list(items: Iterable[object]) -> str:
    """``a, b and c``: the items joined for a sentence (``alternatives`` with "and")."""
    return alternatives(items, "and")
