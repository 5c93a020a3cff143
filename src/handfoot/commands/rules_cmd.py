"""``handfoot rules list | show | diff``: the presets, and what a rule set (preset or file) says.

``rules show --format markdown|html`` writes the house rules in plain words (``handfoot.rules.plain``).

Values are printed as they are written in a TOML rule file, so any row of ``rules show`` can be copied
into a file that ``extends`` a preset.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from handfoot.commands import fail, json_errors, rules_and_table_or_fail, rules_or_fail
from handfoot.rules import (
    OPTION_CHOICES,
    OPTION_HELP,
    OPTION_NAMES,
    OPTION_SECTION,
    PRESET_NAMES,
    SECTION_TITLES,
    RuleSet,
    preset,
    rules_to_mapping,
)
from handfoot.rules.load import DEFAULT_PRESET
from handfoot.rules.plain import RuleSheet, rule_sheet, sheet_html, sheet_markdown
from handfoot.rules.toml import toml_value
from handfoot.wording import plural

rules_app = typer.Typer(
    help="The five house-rule presets, and any rule file built on them.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode="markdown",
)

SourceArg = Annotated[
    str,
    typer.Argument(
        metavar="NAME|FILE",
        help="A preset name, a rule file (TOML, or JSON as rules show --json prints it), or - for "
        "standard input.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]

# Options that label a rule set rather than change the game: not compared by ``rules diff``.
LABELS: tuple[str, ...] = tuple(name for name in OPTION_NAMES if OPTION_SECTION[name] == "identity")
_OPTION_WIDTH = max(len(name) for name in OPTION_NAMES)


def register(app: typer.Typer) -> None:
    """Add the ``rules`` command group to ``app``."""
    app.add_typer(rules_app, name="rules")


def _console() -> Console:
    """A console on the current stdout (looked up per call, so captured output works)."""
    return Console(highlight=False)


@rules_app.command("list")
def list_presets(as_json: JsonOpt = False) -> None:
    """List the five presets with their one-line summaries."""
    if as_json:
        presets = [
            {"name": name, "title": preset(name).title, "summary": preset(name).summary}
            for name in PRESET_NAMES
        ]
        typer.echo(json.dumps(presets, indent=2, ensure_ascii=False))
        return
    table = Table(title="House-rule presets", title_justify="left")
    table.add_column("preset", no_wrap=True, style="bold")
    table.add_column("summary")
    for name in PRESET_NAMES:
        table.add_row(Text(name), Text(preset(name).summary))
    _console().print(table)


class SheetFormat(StrEnum):
    """How ``rules show`` writes a rule set: the options table, or the rules in plain words."""

    TABLE = "table"
    MARKDOWN = "markdown"
    HTML = "html"


FormatOpt = Annotated[
    SheetFormat,
    typer.Option(
        "--format",
        help="table (every option by section), or the house rules in plain words as markdown or html "
        "(grouped as the lobby groups them, changed options marked, the scoring table and the opening "
        "minimums; the html prints on one sheet).",
        case_sensitive=False,
    ),
]


@rules_app.command("show")
def show(source: SourceArg, as_json: JsonOpt = False, output_format: FormatOpt = SheetFormat.TABLE) -> None:
    """Show every option of a preset or rule file: its value and what it means, by section.

    For a rule file, first what it is: its own title and summary, the preset it extends and the options
    it changes. With --json, one object of every option that reads back as a rule file. With --format
    markdown or html, the house rules in plain words (the print page's text).
    """
    json_errors(as_json)
    if as_json and output_format is not SheetFormat.TABLE:
        fail(f"--json and --format {output_format.value} cannot be given together; allowed: one of them")
    rules, table = rules_and_table_or_fail(source)
    mapping = rules_to_mapping(rules)
    if as_json:
        typer.echo(json.dumps(mapping, indent=2, ensure_ascii=False))
        return
    if output_format is not SheetFormat.TABLE:
        sheet = sheet_of(rules, table)
        text = sheet_markdown(sheet) if output_format is SheetFormat.MARKDOWN else sheet_html(sheet)
        typer.echo(text, nl=False)
        return
    console = _console()
    if table is None:
        console.print(Text(f"{rules.name}: {rules.title}", style="bold"))
        console.print(Text(rules.summary), soft_wrap=True)
    else:
        print_file_header(console, rules, table)
    for section, heading in SECTION_TITLES.items():
        options = Table(title=heading, title_justify="left", expand=True)
        options.add_column("option", no_wrap=True, min_width=_OPTION_WIDTH)
        options.add_column("value", ratio=1, overflow="fold")
        options.add_column("meaning", ratio=2)
        for name in OPTION_NAMES:
            if OPTION_SECTION[name] == section:
                options.add_row(Text(name), Text(toml_value(mapping[name])), Text(meaning(name)))
        console.print(options)


def sheet_of(rules: RuleSet, table: dict[str, Any] | None) -> RuleSheet:
    """The plain-words sheet of ``rules``: for a rule file (its ``table``), with the options that differ
    from the preset it extends marked; for a preset, nothing marked."""
    if table is None:
        return rule_sheet(rules)
    base_name = str(table.get("extends", DEFAULT_PRESET))
    return rule_sheet(rules, preset(base_name), base_name)


def meaning(option: str) -> str:
    """An option's help line, with its allowed words when it takes one of a few."""
    words = OPTION_CHOICES.get(option)
    return OPTION_HELP[option] + (f" Allowed: {', '.join(words)}." if words else "")


def print_file_header(console: Console, rules: RuleSet, table: dict[str, Any]) -> None:
    """What a rule file is: its name, the preset it extends, its own title and summary if it gives them,
    and the options whose values differ from the preset's."""
    base_name = str(table.get("extends", DEFAULT_PRESET))
    base = preset(base_name)
    console.print(Text(f"{rules.name}: a rule file that extends {base_name} ({base.title})", style="bold"))
    if "title" in table:
        console.print(Text(f"Title: {rules.title}"), soft_wrap=True)
    if "summary" in table:
        console.print(Text(f"Summary: {rules.summary}"), soft_wrap=True)
    mine, theirs = rules_to_mapping(rules), rules_to_mapping(base)
    changed = [name for name in OPTION_NAMES if name not in LABELS and mine[name] != theirs[name]]
    if not changed:
        console.print(Text(f"It plays exactly as {base_name}: no option changes the game."))
        return
    changes = Table(
        title=f"It changes {plural(len(changed), 'option')} of {base_name}", title_justify="left", expand=True
    )
    changes.add_column("option", no_wrap=True, min_width=_OPTION_WIDTH)
    changes.add_column(Text(base_name), ratio=1, overflow="fold")
    changes.add_column(Text(rules.name), ratio=1, overflow="fold")
    for name in changed:
        changes.add_row(Text(name), Text(toml_value(theirs[name])), Text(toml_value(mine[name])))
    console.print(changes)


@rules_app.command("diff")
def diff(a: SourceArg, b: SourceArg, as_json: JsonOpt = False) -> None:
    """Show the options whose values differ between A and B (each a preset name or a rule file).

    The labels name, title and summary are not compared.
    """
    json_errors(as_json)
    if a == "-" and b == "-":
        fail("only one of A and B can be - (standard input)")
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
    verb = "differs" if len(differ) == 1 else "differ"
    table = Table(title=f"{plural(len(differ), 'option')} {verb}", title_justify="left", expand=True)
    table.add_column("option", no_wrap=True, min_width=_OPTION_WIDTH)
    table.add_column(Text(a), ratio=1, overflow="fold")
    table.add_column(Text(b), ratio=1, overflow="fold")
    for name in differ:
        table.add_row(Text(name), Text(toml_value(rules_a[name])), Text(toml_value(rules_b[name])))
    console.print(table)
