"""Reading JSON and TOML input safely: every failure is a ``DecodeError`` with a clear message.

Beyond syntax errors this refuses what the standard decoders turn into other exceptions or into values
the rest of the program cannot handle: nesting deeper than MAX_DEPTH (the decoders would recurse until
RecursionError), numbers with more digits than Python converts (ValueError), ``NaN`` and ``Infinity``
(not JSON), and a key repeated in one JSON object (the later one would silently win). Standard library
only: records, rule files, score pads and every command read through it.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

MAX_DEPTH = 64


class DecodeError(ValueError):
    """Text that cannot be read as the expected format; the message names the input and the fault."""


def read_text(source: str | Path, name: str | None = None) -> tuple[str, str]:
    """The text of file ``source`` (``-``: standard input) and its name for messages.

    Raises DecodeError when the file cannot be read or is not UTF-8."""
    label = name or ("standard input" if str(source) == "-" else str(source))
    try:
        if str(source) == "-":
            return sys.stdin.read(), label
        return Path(source).read_text("utf-8"), label
    except UnicodeDecodeError:
        raise DecodeError(f"cannot read {label}: it is not UTF-8 text") from None
    except OSError as exc:
        raise DecodeError(f"cannot read {label}: {exc.strerror or exc}") from None


def decode_json(text: str, name: str) -> Any:
    """The value of JSON ``text``; raises DecodeError naming ``name`` and what is wrong."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DecodeError(
            f"{name} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise DecodeError(_too_deep(name)) from None
    except _Refused as exc:
        raise DecodeError(f"{name} is not usable JSON: {exc}") from None
    except ValueError as exc:  # an integer with more digits than int() converts
        raise DecodeError(f"{name} is not usable JSON: {_number_reason(exc)}") from None
    check_depth(value, name)
    return value


def decode_toml(text: str, name: str) -> dict[str, Any]:
    """The table of TOML ``text``; raises DecodeError naming ``name`` and what is wrong."""
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DecodeError(f"{name} is not TOML ({exc})") from None
    except RecursionError:
        raise DecodeError(_too_deep(name)) from None
    except ValueError as exc:
        raise DecodeError(f"{name} is not usable TOML: {_number_reason(exc)}") from None
    check_depth(value, name)
    return value


def check_depth(value: Any, name: str) -> None:
    """Raise DecodeError when lists and tables in ``value`` nest deeper than MAX_DEPTH (walked without
    recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise DecodeError(_too_deep(name))
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


class _Refused(ValueError):
    """A JSON construct refused while decoding (a repeated key, NaN or Infinity)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"the key {json.dumps(key, ensure_ascii=False)} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number in JSON")


def _too_deep(name: str) -> str:
    return f"{name} nests lists or objects too deeply; allowed: at most {MAX_DEPTH} levels"


def _number_reason(exc: ValueError) -> str:
    if "digits" in str(exc):
        return f"a number has more than {sys.get_int_max_str_digits()} digits; allowed: shorter numbers"
    return str(exc)
