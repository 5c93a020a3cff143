"""The ``handfoot`` command. Each sub-command lives in a module of ``handfoot.commands``.

To add a command, write ``handfoot/commands/<name>_cmd.py`` with ``register(app)`` and add one
``<module>.register(app)`` line below.

``main`` runs the app and keeps the exit-status contract of ``handfoot.commands`` for what happens
outside a command: a usage error (unknown option, missing argument, a value of the wrong type) exits 2,
as JSON on stdout when ``--json`` is among the arguments; Ctrl-C exits 130 without a traceback; and an
unexpected exception, which is a bug, is one line on stderr (the traceback with ``HANDFOOT_DEBUG=1``)
and exit status 70.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from typing import Annotated

import typer

from handfoot import package_version
from handfoot.commands import (
    EXIT_BAD_INPUT,
    bot_cmd,
    compare_cmd,
    db_cmd,
    error_object,
    hint_cmd,
    json_errors,
    league_cmd,
    play_cmd,
    replay_cmd,
    review_cmd,
    rules_cmd,
    score_cmd,
    serve_cmd,
    simulate_cmd,
)

EXIT_BUG = 70  # sysexits' EX_SOFTWARE
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="handfoot",
    help="Hand and Foot, every house rule.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # docstrings' single line breaks join, as in the source's paragraphs
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"handfoot {package_version()}")
        raise typer.Exit()


@app.callback()
def main_options(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", help="Print the version and exit.", callback=_print_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Hand and Foot, every house rule: rules, records, scoring, bots, tournaments and the server."""
    json_errors(False)  # each invocation starts with errors on stderr; a command's --json turns it on


rules_cmd.register(app)
score_cmd.register(app)
replay_cmd.register(app)
simulate_cmd.register(app)
compare_cmd.register(app)
league_cmd.register(app)
hint_cmd.register(app)
review_cmd.register(app)
serve_cmd.register(app)
db_cmd.register(app)
bot_cmd.register(app)
play_cmd.register(app)


def wants_json(args: list[str]) -> bool:
    """Whether ``--json`` is among the options (before a ``--`` that ends them)."""
    options = args[: args.index("--")] if "--" in args else args
    return "--json" in options


_LONG_QUOTED = re.compile(r"'([^']{61,})'")


def shorten_quoted(message: str) -> str:
    """``message`` with any quoted value longer than 60 characters cut to its start and its length (the
    parser repeats a bad value whole, 5000 digits included)."""
    return _LONG_QUOTED.sub(lambda m: f"'{m.group(1)[:30]}…' ({len(m.group(1))} characters)", message)


def main(argv: list[str] | None = None) -> None:
    """Run the ``handfoot`` command line (the console script's entry point) and exit with its status."""
    args = sys.argv[1:] if argv is None else list(argv)
    sys.exit(run(args))


def run(args: list[str]) -> int:
    """Run the app on ``args``; the exit status (see the module docstring)."""
    try:
        status = app(args=args, prog_name="handfoot", standalone_mode=False)
    except typer.TyperException as err:  # usage errors and the like, from the command-line parser
        code = getattr(err, "exit_code", EXIT_BAD_INPUT)
        if isinstance(getattr(err, "message", None), str):
            err.message = shorten_quoted(err.message)
        if wants_json(args):
            typer.echo(json.dumps(error_object(err.format_message(), "usage")))
        else:
            err.show()  # type: ignore[attr-defined]  # the parser's exceptions all have show()
        return int(code)
    except SystemExit as exit_:  # shell completion and broken pipes end this way
        if isinstance(exit_.code, int) or exit_.code is None:
            return exit_.code or 0
        typer.echo(str(exit_.code), err=True)
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    except Exception as err:
        if os.environ.get("HANDFOOT_DEBUG"):
            traceback.print_exc()
        else:
            typer.echo(
                f"internal error: {type(err).__name__}: {err} (a bug in handfoot: please report it with the "
                "command and its input; HANDFOOT_DEBUG=1 prints the traceback)",
                err=True,
            )
        return EXIT_BUG
    return status if isinstance(status, int) else 0
