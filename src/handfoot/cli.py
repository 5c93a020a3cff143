"""The ``handfoot`` command. Each sub-command lives in a module of ``handfoot.commands``.

To add a command, write ``handfoot/commands/<name>_cmd.py`` with ``register(app)`` and add one
``<module>.register(app)`` line below.
"""

from __future__ import annotations

import typer

from handfoot.commands import hint_cmd, replay_cmd, rules_cmd, score_cmd, serve_cmd, simulate_cmd

app = typer.Typer(
    name="handfoot",
    help="Hand and Foot, every house rule.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

rules_cmd.register(app)
score_cmd.register(app)
replay_cmd.register(app)
simulate_cmd.register(app)
hint_cmd.register(app)
serve_cmd.register(app)


def main() -> None:
    """Run the ``handfoot`` command line (the console script's entry point)."""
    app()
