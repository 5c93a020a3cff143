"""The sub-commands of ``handfoot``, one module each, and what they share.

A command module defines ``register(app: typer.Typer) -> None``, which adds its command (or its
group of commands) to the main app; ``handfoot.cli`` calls it, one line per module. To add a
command: write ``handfoot/commands/<name>_cmd.py`` with a ``register`` function and add its line
to ``handfoot/cli.py``.

Every command reports bad input the same way: one line on stderr saying what was wrong and what is
allowed, exit status 2, nothing changed (``fail``).
"""

from __future__ import annotations

from typing import NoReturn

import typer

from handfoot.rules import PRESET_NAMES, RuleError, RuleSet, load_rules

EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``error: <message>`` to stderr and end the command with exit status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def rules_or_fail(source: str) -> RuleSet:
    """The validated rule set named by ``source`` (a preset name or a TOML rule file).

    On a bad name, file or option value this calls ``fail`` with the RuleError's message, which names
    the option, the bad value and what is allowed, after the file's name when the error is in a file.
    """
    try:
        return load_rules(source)
    except RuleError as err:
        if err.option == "rules":  # the name or file itself, not an option in it
            fail(f"{source}: {err.reason or 'not allowed'}; allowed: {err.allowed}")
        fail(str(err) if source in PRESET_NAMES else f"{source}: {err}")
