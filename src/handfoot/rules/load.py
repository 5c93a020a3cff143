"""Reading rule sets: the five presets, TOML rule files that extend them, and override tables."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import fields, replace
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from handfoot import cards as C
from handfoot.decode import DecodeError, decode_json, decode_toml, read_text
from handfoot.rules.errors import RuleError
from handfoot.rules.options import (
    BOOK_ANY,
    BOOK_STATUS_WORDS,
    CARD_VALUE_KEYS,
    OPTION_FIELDS,
    OPTION_NAMES,
    PER_HAND_OPTIONS,
    RuleSet,
)
from handfoot.rules.toml import toml_value
from handfoot.rules.validate import validate
from handfoot.text import text_problem
from handfoot.wording import kind, show

PRESET_NAMES: tuple[str, ...] = ("kitchen-table", "head-and-foot", "family", "marmot", "in-laws")
# The preset a rule file extends when it names none.
DEFAULT_PRESET = "kitchen-table"
# The text options and their longest allowed values (they are shown in the lobby and on every table).
MAX_TEXT = 1000
TEXT_LIMITS: dict[str, int] = {"name": 64, "title": 120, "summary": MAX_TEXT}
_FIELD_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(RuleSet)}
# Options that were true/false before they had more choices: what a boolean in an older file means.
_BOOLEAN_ALIASES: dict[str, dict[bool, str]] = {
    "first_upcard": {True: "until_natural", False: "none"},
    "all_feet_to_go_out": {True: "picked_up", False: "none"},
    "opening_waived_if_emptied": {True: "discard", False: "none"},
}


def _coerce(option: str, value: Any) -> Any:
    """Turn a TOML/JSON value into the option's type, or raise RuleError saying what is allowed."""
    default = _FIELD_DEFAULTS[option]
    if option == "card_values":
        return _coerce_card_values(value)
    if option == "decks_by_players":
        return _coerce_decks_by_players(value)
    if option == "book_bonuses":
        return _coerce_book_bonuses(value)
    if option in PER_HAND_OPTIONS and isinstance(value, list | tuple):
        if not value or len(value) > 100 or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise RuleError(
                option, value, "a whole number, or a list of 1 to 100 whole numbers (one per hand)"
            )
        return tuple(value)
    if isinstance(default, StrEnum):
        enum_type = type(default)
        if isinstance(value, bool) and option in _BOOLEAN_ALIASES:
            value = _BOOLEAN_ALIASES[option][value]
        allowed = ", ".join(m.value for m in enum_type)
        if not isinstance(value, str) or value not in {m.value for m in enum_type}:
            raise RuleError(option, value, f"one of {allowed}")
        return enum_type(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RuleError(option, value, "true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(option, value, "a whole number")
        return value
    if isinstance(default, str):
        if not isinstance(value, str):
            raise RuleError(option, value, "text")
        limit = TEXT_LIMITS.get(option, MAX_TEXT)
        problem = text_problem(value, limit, line_breaks=option == "summary")
        if problem:
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise RuleError(
                option, shown, f"text of at most {limit} characters, no control characters", problem
            )
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in value
        ):
            raise RuleError(option, value, "a list of whole numbers")
        return tuple(value)
    raise AssertionError(f"no coercion for option {option}")  # pragma: no cover


def _coerce_decks_by_players(value: Any) -> tuple[tuple[int, int], ...]:
    """A ``{players = decks}`` table as sorted (players, decks) pairs; keys may be TOML's strings."""
    allowed = "a table of player count -> whole number of decks, e.g. {4 = 6}"
    if not isinstance(value, Mapping):
        raise RuleError("decks_by_players", value, allowed)
    pairs: list[tuple[int, int]] = []
    for key, decks in value.items():
        players = key if isinstance(key, int) and not isinstance(key, bool) else None
        if isinstance(key, str) and key.strip().isdigit():
            players = int(key)
        if players is None or isinstance(decks, bool) or not isinstance(decks, int):
            raise RuleError("decks_by_players", {key: decks}, allowed)
        pairs.append((players, decks))
    return tuple(sorted(pairs))


BOOK_BONUS_RANKS = "A K Q J T 9 8 7 6 5 4 3 W"


def book_bonus_key(rank: int, status: int) -> str:
    """The rule-file key of a ``book_bonuses`` row: ``"7"``, ``"clean 7"``, ``"dirty 3"``, ``"W"``."""
    letter = C.RANK_LETTER[rank]
    return letter if status in (BOOK_ANY, 2) else f"{BOOK_STATUS_WORDS[status]} {letter}"


def _coerce_book_bonuses(value: Any) -> tuple[tuple[int, int, int], ...]:
    """A ``{ "clean 7" = 1500, W = 2500 }`` table as sorted (rank, status, points) rows."""
    allowed = (
        f"a table of book -> whole-number bonus; a book is a rank ({BOOK_BONUS_RANKS}; 3 for black 3s, "
        'W for wilds), optionally after "clean " or "dirty ", e.g. { "clean 7" = 1500, W = 2500 }'
    )
    if not isinstance(value, Mapping):
        raise RuleError("book_bonuses", value, allowed)
    rows: dict[tuple[int, int], int] = {}
    for key, points in value.items():
        words = str(key).split()
        status = BOOK_ANY
        if len(words) == 2 and words[0].lower() in BOOK_STATUS_WORDS:
            status = BOOK_STATUS_WORDS.index(words[0].lower())
            words = words[1:]
        try:
            rank = C.parse_rank(words[0]) if len(words) == 1 else -1
        except C.CardError:
            rank = -1
        if rank < 0 or (rank == C.WILD_RANK and status != BOOK_ANY):
            raise RuleError("book_bonuses", {key: points}, allowed, f"{show(key)} is not a book")
        if isinstance(points, bool) or not isinstance(points, int):
            raise RuleError("book_bonuses", {key: points}, allowed)
        if rank == C.WILD_RANK:
            status = 2
        rows[(rank, status)] = points
    return tuple(sorted((rank, status, points) for (rank, status), points in rows.items()))


def _coerce_card_values(value: Any) -> tuple[int, ...]:
    allowed = f"a table giving whole-number points for any of {' '.join(CARD_VALUE_KEYS)}"
    if not isinstance(value, Mapping):
        raise RuleError("card_values", value, allowed)
    values = list(_FIELD_DEFAULTS["card_values"])
    for key, points in value.items():
        if key not in CARD_VALUE_KEYS:
            raise RuleError("card_values", {key: points}, allowed, f"{show(key)} is not a card kind")
        if isinstance(points, bool) or not isinstance(points, int):
            raise RuleError("card_values", {key: points}, allowed)
        values[CARD_VALUE_KEYS.index(key)] = points
    return tuple(values)


def apply_overrides(base: RuleSet, overrides: Mapping[str, Any]) -> RuleSet:
    """``base`` with the given options changed, validated; unknown options are refused by name."""
    changes: dict[str, Any] = {}
    for option, value in overrides.items():
        if option == "extends":
            continue
        if option not in OPTION_NAMES:
            raise RuleError(
                option, value, "a known option (see `handfoot rules show kitchen-table`)", "unknown option"
            )
        if option == "card_values":
            merged = dict(zip(CARD_VALUE_KEYS, base.card_values, strict=False))
            if isinstance(value, Mapping):
                merged.update(value)
                value = merged
        changes[option] = _coerce(option, value)
    _split_per_hand(base, changes)
    if "name" not in changes and changes:
        changes["name"] = f"{base.name}+custom" if not base.name.endswith("+custom") else base.name
    return validate(replace(base, **changes))


def _split_per_hand(base: RuleSet, changes: dict[str, Any]) -> None:
    """Options of PER_HAND_OPTIONS given as lists go to ``hand_values`` (their field takes the first
    hand's value); one given as a number drops the list ``base`` had for it."""
    lists = dict(base.hand_values)
    touched = False
    for option in PER_HAND_OPTIONS:
        if option not in changes:
            continue
        value = changes[option]
        touched = True
        if isinstance(value, tuple):
            changes[option] = value[0]
            if len(set(value)) > 1:
                lists[option] = value
                continue
        lists.pop(option, None)
    if touched:
        changes["hand_values"] = tuple((o, lists[o]) for o in PER_HAND_OPTIONS if o in lists)


@cache
def preset(name: str) -> RuleSet:
    """The named preset; raises RuleError listing the presets for an unknown name."""
    if name not in PRESET_NAMES:
        raise RuleError("extends", name, f"one of {', '.join(PRESET_NAMES)}", "unknown preset")
    text = resources.files("handfoot.rules").joinpath("presets", f"{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return apply_overrides(RuleSet(), data)


def rules_from_mapping(data: Mapping[str, Any]) -> RuleSet:
    """A rule set from a table: ``extends`` names a preset (default kitchen-table), other keys override it."""
    base_name = data.get("extends", DEFAULT_PRESET)
    if not isinstance(base_name, str):
        raise RuleError("extends", base_name, f"one of {', '.join(PRESET_NAMES)}")
    return apply_overrides(preset(base_name), data)


def load_rules(source: str | Path | Mapping[str, Any]) -> RuleSet:
    """A preset name, a path to a rule file (TOML, or JSON), or a table of overrides, as a validated
    RuleSet. A file without a ``name`` takes its file name's stem."""
    if isinstance(source, Mapping):
        return rules_from_mapping(source)
    if isinstance(source, str) and source in PRESET_NAMES:
        return preset(source)
    return rules_from_mapping(read_rule_file(source))


RULE_FILE = (
    f"a preset ({', '.join(PRESET_NAMES)}) or a TOML rule file (JSON as `rules show --json` prints it)"
)


def read_rule_file(path: str | Path) -> dict[str, Any]:
    """The table of options in a rule file (``name`` set to the file's stem when it has none).

    Raises RuleError (option ``rules``, its reason a sentence naming the file) for a file that does not
    exist, cannot be read, does not parse as TOML or JSON (JSON when it starts with ``{``), or holds
    something else than one table."""
    path = Path(path)
    if not path.is_file():
        reason = f"{path} is a folder" if path.is_dir() else f"there is no preset or file called {path}"
        raise RuleError("rules", str(path), RULE_FILE, reason)
    try:
        text, name = read_text(path)
    except DecodeError as exc:
        raise RuleError("rules", str(path), RULE_FILE, str(exc)) from None
    return labelled(rule_table(text, name), path.stem)


def labelled(table: dict[str, Any], name: str) -> dict[str, Any]:
    """A rule file's table with the labels it does not give: ``name``, a title saying what it extends,
    and a summary listing the options it sets (a rule file is not the sheet of the preset it extends)."""
    out = dict(table)
    base = out.get("extends", DEFAULT_PRESET)
    out.setdefault("name", name)
    out.setdefault("title", f"{out['name']}: {base} with house changes")
    changes = [f"{key} = {toml_value(value)}" for key, value in table.items() if key not in _LABEL_KEYS]
    summary = f"{base}, changing {', '.join(changes)}." if changes else f"{base} unchanged."
    if len(summary) > TEXT_LIMITS["summary"]:
        summary = f"{base}, changing {len(changes)} options (handfoot rules show lists them)."
    out.setdefault("summary", summary)
    return out


_LABEL_KEYS = ("extends", "name", "title", "summary")


def rule_table(text: str, name: str) -> dict[str, Any]:
    """The table of options in the text of a rule file (JSON when it starts with ``{``, else TOML);
    raises RuleError (option ``rules``) when it cannot be read as one."""
    try:
        data = decode_json(text, name) if text.lstrip().startswith("{") else decode_toml(text, name)
    except DecodeError as exc:
        raise RuleError("rules", name, RULE_FILE, str(exc)) from None
    if not isinstance(data, dict):
        raise RuleError("rules", name, RULE_FILE, f"{name} holds {kind(data)}, not a table of options")
    return data


def rules_to_mapping(rules: RuleSet) -> dict[str, Any]:
    """Every option of a rule set as plain JSON/TOML-friendly values (inverse of ``rules_from_mapping``)."""
    out: dict[str, Any] = {}
    lists = dict(rules.hand_values)
    for f in OPTION_FIELDS:
        value = getattr(rules, f.name)
        if f.name in lists:
            out[f.name] = list(lists[f.name])
            continue
        if f.name == "card_values":
            value = dict(zip(CARD_VALUE_KEYS, value, strict=False))
        elif f.name == "decks_by_players":
            value = {str(k): v for k, v in value}
        elif f.name == "book_bonuses":
            value = {book_bonus_key(rank, status): points for rank, status, points in value}
        elif isinstance(value, StrEnum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out
