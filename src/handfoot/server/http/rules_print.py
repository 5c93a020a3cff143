"""Print pages of house rules: one sheet (A4 or Letter) in plain words (``handfoot.rules.plain``).

- ``GET /rules/{name}/print``: a preset.
- ``GET /rules/print?extends=NAME&options=JSON``: a preset with option overrides, as the lobby's form
  holds them before the table is made (``options`` is a JSON object of at most ``MAX_OPTIONS_TEXT``
  characters); every option that differs from the preset is marked.
- ``GET /api/rules?extends=NAME&options=JSON``: the same rules in plain words as JSON (the lobby's
  "These rules" panel); ``GET /api/tables/{id}/rules`` a table's, with the one-line rule explanations.
- ``GET /tables/{id}/rules/print``: a table's rules, marked against the preset it extends (a private
  table's page needs one of its links, as every table endpoint does; the table page can print its rules
  through the address above instead, as rules are no secret).

A rule set that cannot be used answers 422 with a page saying why and what is allowed. The pages are
plain HTML with their own style and no script (their Content-Security-Policy allows nothing else).
"""

from __future__ import annotations

import html
import json
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from handfoot.rules import PRESET_NAMES, RuleError, RuleSet, load_rules, preset
from handfoot.rules.lessons import LESSONS
from handfoot.rules.plain import RuleSheet, rule_sheet, sheet_html, sheet_json
from handfoot.server.http.access import ApiError
from handfoot.server.http.deps import VisibleTable
from handfoot.server.http.errors import REFUSALS
from handfoot.server.tables.table import LiveTable
from handfoot.server.wire.answers import RuleSheetAnswer, TableRulesAnswer
from handfoot.server.wire.jsonout import SafeJSONResponse
from handfoot.server.wire.protocol import ProtocolError, load_json

MAX_OPTIONS_TEXT = 8000
PRINT_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def _page(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=PRINT_HEADERS)


def _refusal(message: str, status: int = 422) -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>These rules cannot be printed'
        f"</title></head><body><h1>These rules cannot be printed</h1><p>{html.escape(message)}</p>"
        '<p><a href="/">Back to the lobby</a></p></body></html>'
    )
    return _page(body, status)


def overrides_sheet(extends: str, options_text: str) -> RuleSheet | tuple[str, int]:
    """Preset ``extends`` with the options in ``options_text`` (a JSON object) in plain words, every
    option that differs from the preset marked; or why not and the status to answer with (404 for an
    unknown preset, 422 for options that cannot be used)."""
    if extends not in PRESET_NAMES:
        return f"there is no preset {extends!r}; allowed: {', '.join(PRESET_NAMES)}", 404
    if len(options_text) > MAX_OPTIONS_TEXT:
        return f"options is {len(options_text)} characters long; allowed: at most {MAX_OPTIONS_TEXT}", 422
    try:
        options: Any = load_json(options_text) if options_text else {}
    except ProtocolError as exc:
        return f"options is {exc}; allowed: a JSON object of option names and values", 422
    if not isinstance(options, dict):
        return "options is not a JSON object; allowed: a JSON object of option names and values", 422
    if "extends" in options:
        return "options names extends; give the preset as extends=NAME in the address instead", 422
    try:
        rules = load_rules({**options, "extends": extends})
    except RuleError as exc:
        return str(exc), 422
    changed = bool(options)
    return rule_sheet(rules, preset(extends) if changed else None, extends if changed else None)


def overrides_page(extends: str, options_text: str) -> HTMLResponse:
    """The print page of preset ``extends`` with the options in ``options_text`` (a JSON object)."""
    sheet = overrides_sheet(extends, options_text)
    if isinstance(sheet, tuple):
        return _refusal(*sheet)
    return _page(sheet_html(sheet))


def lessons_of(rules: RuleSet) -> dict[str, str]:
    """Each rule fact's one-line explanation (``rules.lessons``) as ``rules`` play it."""
    return {fact: explain(rules) for fact, explain in LESSONS.items()}


def table_sheet(live: LiveTable) -> RuleSheet:
    """A table's rules in plain words: a preset's as they are, a table of options marked against the
    preset it extends (``kitchen-table`` when its options name none)."""
    source = live.rules_source
    if isinstance(source, str):
        return rule_sheet(live.game.rules)
    base = str(source.get("extends", "kitchen-table"))
    return rule_sheet(live.game.rules, preset(base), base)


def print_address(source: str | dict[str, Any]) -> str:
    """The address of the print page of a table's rules (``source``: its preset's name, or the options
    it was made with and the preset they extend), one that needs none of the table's keys: rules are
    no secret."""
    if isinstance(source, str):
        return f"/rules/{quote(source)}/print"
    options = {name: value for name, value in source.items() if name != "extends"}
    base = str(source.get("extends", "kitchen-table"))
    if not options:
        return f"/rules/{quote(base)}/print"
    return "/rules/print?" + urlencode({"extends": base, "options": json.dumps(options)})


router = APIRouter(responses=REFUSALS)


@router.get("/rules/print", include_in_schema=False)
async def print_overrides(extends: str = "kitchen-table", options: str = "") -> HTMLResponse:
    """A preset with option overrides, on one sheet."""
    return overrides_page(extends, options)


@router.get("/rules/{name}/print", include_in_schema=False)
async def print_preset(name: str) -> HTMLResponse:
    """A preset's rules, on one sheet."""
    return overrides_page(name, "")


@router.get("/api/tables/{table_id}/rules", response_model=TableRulesAnswer)
async def table_rules(live: VisibleTable) -> SafeJSONResponse:
    """A table's rules in plain words as JSON (``rules.plain.sheet_json``: for the table's "These
    rules" panel), with ``lessons``: the one-line explanation of each rule fact the table page
    explains the first time it matters (``rules.lessons``), as this table plays it, and ``print``:
    the address of its print page (``print_address``)."""
    out = sheet_json(table_sheet(live))
    out["lessons"] = lessons_of(live.game.rules.for_hand(live.game.hand_index))
    out["print"] = print_address(live.rules_source)
    return SafeJSONResponse(out)


@router.get("/api/rules", response_model=RuleSheetAnswer)
async def rules_words(extends: str = "kitchen-table", options: str = "") -> SafeJSONResponse:
    """A preset with option overrides (as the lobby's form holds them) in plain words as JSON, like
    a table's (``sheet_json``, the lobby's "These rules" panel); 404 ``no_preset`` or 422
    ``bad_rules`` with the reason."""
    sheet = overrides_sheet(extends, options)
    if isinstance(sheet, tuple):
        message, status = sheet
        raise ApiError(status, "no_preset" if status == 404 else "bad_rules", message)
    return SafeJSONResponse(sheet_json(sheet))


@router.get("/tables/{table_id}/rules/print", include_in_schema=False)
async def print_table(live: VisibleTable) -> HTMLResponse:
    """A table's rules, on one sheet, marked against the preset they extend."""
    return _page(sheet_html(table_sheet(live)))


__all__ = ["MAX_OPTIONS_TEXT", "lessons_of", "overrides_page", "overrides_sheet", "print_address", "router"]
