"""``handfoot rules list | show | diff``: the presets, and what a rule set (preset or file) says.

Values are printed as they are written in a TOML rule file, so any row of ``rules show`` can be copied
into a file that ``extends`` a preset.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from handfoot.commands import rules_or_fail
from handfoot.rules import (
    OPTION_HELP,
    OPTION_NAMES,
    OPTION_SECTION,
    PRESET_NAMES,
    SECTION_TITLES,
    preset,
    rules_to_mapping,
)

rules_app = typer.Typer(
    help="The five house-rule presets, and any rule file built on them.",
    no_args_is_help=True,
)

SourceArg = Annotated[str, typer.Argument(metavar="NAME|FILE", help="A preset name or a TOML rule file.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]

# Options that label a rule set rather than change the game: not compared by ``rules diff``.
LABELS: tuple[str, ...] = tuple(name for name in OPTION_NAMES if OPTION_SECTION[name] == "identity")
_OPTION_WIDTH = max(len(name) for name in OPTION_NAMES)


def register(app: typer.Typer) -> None:
    """Add the ``rules`` command group to ``app``."""
    app.add_typer(rules_app, name="rules")


def toml_value(value: Any) -> str:
    """A JSON-style option value (as ``rules_to_mapping`` gives it) written as a TOML value.

    Booleans are ``true``/``false``, text is quoted, lists are ``[a, b]`` and tables are inline
    tables ``{ key = value }``; the result reads back to the same value in a rule file.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def _toml_key(key: str) -> str:
    """A table key, bare when TOML allows it (letters, digits, - and _), else quoted."""
    if key and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in key):
        return key
    return json.dumps(key, ensure_ascii=False)


def _console() -> Console:
    """A console on the current stdout (looked up per call, so captured output works)."""
    return Console(highlight=False)


@rules_app.command("list")
def list_presets() -> None:
    """List the five presets with their one-line summaries."""
    table = Table(title="House-rule presets", title_justify="left")
    table.add_column("preset", no_wrap=True, style="bold")
    table.add_column("summary")
    for name in PRESET_NAMES:
        table.add_row(Text(name), Text(preset(name).summary))
    _console().print(table)


@rules_app.command("show")
def show(source: SourceArg, as_json: JsonOpt = False) -> None:
    """Show every option of a preset or rule file: its value and what it means, by section."""
    rules = rules_or_fail(source)
    mapping = rules_to_mapping(rules)
    if as_json:
        typer.echo(json.dumps(mapping, indent=2, ensure_ascii=False))
        return
    console = _console()
    for section, heading in SECTION_TITLES.items():
        table = Table(title=heading, title_justify="left", expand=True)
        table.add_column("option", no_wrap=True, min_width=_OPTION_WIDTH)
        table.add_column("value", ratio=1, overflow="fold")
        table.add_column("meaning", ratio=2)
        for name in OPTION_NAMES:
            if OPTION_SECTION[name] == section:
                table.add_row(Text(name), Text(toml_value(mapping[name])), Text(OPTION_HELP[name]))
        console.print(table)


@rules_app.command("diff")
def diff(a: SourceArg, b: SourceArg, as_json: JsonOpt = False) -> None:
    """Show the options whose values differ between A and B (each a preset name or a rule file).

    The labels name, title and summary are not compared.
    """
    rules_a = rules_to_mapping(rules_or_fail(a))
    rules_b = rules_to_mapping(rules_or_fail(b))
    differ = [name for name in OPTION_NAMES if name not in LABELS and rules_a[name] != rules_b[name]]
    if as_json:
        out = {"a": a, "b": b, "differences": {name: [rules_a[name], rules_b[name]] for name in differ}}
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    console = _console()
    if not differ:
        console.print(Text(f"{a} and {b} have the same rules."))
        return
    table = Table(title=f"{len(differ)} options differ", title_justify="left", expand=True)
    table.add_column("option", no_wrap=True, min_width=_OPTION_WIDTH)
    table.add_column(Text(a), ratio=1, overflow="fold")
    table.add_column(Text(b), ratio=1, overflow="fold")
    for name in differ:
        table.add_row(Text(name), Text(toml_value(rules_a[name])), Text(toml_value(rules_b[name])))
    console.print(table)
