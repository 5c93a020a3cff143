"""The sub-commands of ``handfoot``, one module each, and what they share.

A command module defines ``register(app: typer.Typer) -> None``, which adds its command (or its
group of commands) to the main app; ``handfoot.cli`` calls it, one line per module. To add a
command: write ``handfoot/commands/<name>_cmd.py`` with a ``register`` function and add its line
to ``handfoot/cli.py``.

Every command follows one contract for its exit status and its errors (documented in the README):

- 0: done.
- 1 (``EXIT_REFUSED``): the input was read, but the game says no (an illegal move in a record, a pad
  with two sides out, a game that is over).
- 2 (``EXIT_BAD_INPUT``): the input could not be used (usage, an unreadable or malformed file, a bad
  rule file or option value).

An error is one line on stderr, ``error: <what was wrong>; allowed: <what is allowed>``; with
``--json`` (a command calls ``json_errors(True)`` first) it is printed on stdout as
``{"error": {"code": ..., "message": ...}}`` instead, ``code`` being ``usage``, ``bad_input`` or
``refused`` and extra keys adding details (replay: the move's ``index``, ``move`` and ``rule``).
Nothing is changed by a command that fails.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from typing import Any, NoReturn

import typer

from handfoot.decode import DecodeError, read_text
from handfoot.rules import PRESET_NAMES, RuleError, RuleSet, load_rules
from handfoot.rules.load import RULE_FILE, labelled, read_rule_file, rule_table
from handfoot.wording import alternatives

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2
# The ``code`` of a JSON error for each exit status.
ERROR_CODES = {EXIT_REFUSED: "refused", EXIT_BAD_INPUT: "bad_input"}

_JSON_ERRORS: ContextVar[bool] = ContextVar("json_errors", default=False)


def json_errors(enabled: bool) -> None:
    """Whether ``fail`` prints errors as JSON on stdout (a command with ``--json`` passes its flag)."""
    _JSON_ERRORS.set(enabled)


def error_object(message: str, code: str, **details: Any) -> dict[str, Any]:
    """The one shape of an error in JSON: ``{"error": {"code": code, "message": message, **details}}``."""
    return {"error": {"code": code, "message": message, **details}}


def fail(message: str, status: int = EXIT_BAD_INPUT, **details: Any) -> NoReturn:
    """End the command with exit ``status`` (2: unusable input, 1: the game refuses it), after printing
    ``error: <message>`` on stderr, or the JSON error object on stdout when errors are JSON."""
    if _JSON_ERRORS.get():
        typer.echo(json.dumps(error_object(message, ERROR_CODES[status], **details), ensure_ascii=False))
    else:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(status)


def rules_or_fail(source: str) -> RuleSet:
    """The validated rule set named by ``source``: a preset name, a rule file (TOML, or JSON as
    ``rules show --json`` prints it), or ``-`` for a rule file on standard input.

    On a bad name, file or option value this calls ``fail`` with the RuleError's message, which names
    the option, the bad value and what is allowed, after the file's name when the error is in a file.
    """
    return rules_and_table_or_fail(source)[0]


def players_or_fail(rule_sets: RuleSet | tuple[RuleSet, ...], players: int | None) -> int:
    """``players``, or the first rule set's default when None: a count every one of ``rule_sets`` is
    played by, else ``fail`` (EXIT_REFUSED) naming the counts allowed."""
    sets = rule_sets if isinstance(rule_sets, tuple) else (rule_sets,)
    count = sets[0].default_players if players is None else players
    for rule_set in sets:
        if count not in rule_set.players_allowed:
            allowed = alternatives(rule_set.players_allowed)
            fail(f"{rule_set.name} is played by {allowed} players, not {count}", EXIT_REFUSED)
    return count


def rules_and_table_or_fail(source: str) -> tuple[RuleSet, dict[str, Any] | None]:
    """``rules_or_fail``, with the table of options the rule file holds (None for a preset)."""
    where = "standard input" if source == "-" else source
    try:
        if source in PRESET_NAMES:
            return load_rules(source), None
        table = rule_table_of(source)
        return load_rules(table), table
    except RuleError as err:
        if err.option == "rules":  # the name or file itself, not an option in it
            fail(f"{err.reason}; allowed: {err.allowed}")
        fail(f"{where}: {err}")


def rule_table_of(source: str) -> dict[str, Any]:
    """The table of options in rule file ``source`` (``-``: standard input, named ``custom``).
    Raises RuleError (option ``rules``) when it cannot be read as one."""
    if source != "-":
        return read_rule_file(source)
    try:
        text, name = read_text("-")
    except DecodeError as exc:
        raise RuleError("rules", "-", RULE_FILE, str(exc)) from None
    return labelled(rule_table(text, name), "custom")
