"""``--json`` sends errors to stdout for its own invocation only: the command line is often run several
times in one process (tests, tools embedding it), and the next invocation's errors go to stderr again."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from handfoot.cli import app

PAD = {"sides": [{"went_out": True, "books": {"clean": 1}}, {}]}


def test_json_errors_do_not_outlive_their_invocation() -> None:
    runner = CliRunner()
    scored = runner.invoke(app, ["score", "--rules", "kitchen-table", "--json", "-"], input=json.dumps(PAD))
    assert json.loads(scored.stdout)
    result = runner.invoke(app, ["serve", "--host", "192.0.2.77"])
    assert result.exit_code == 2
    assert result.stdout == "" and result.stderr.startswith("error: ")
