"""docs/rl.md prints the observation layout the code uses, the action numbers and the state's size it
names, and its quick start runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from handfoot.engine.moves import ASK_ID, DISCARD_BASE, KEEP_ID, NO_ID, SWAP_ID, YES_ID
from handfoot.rl import CANCEL, NUM_ACTIONS, SIZE
from handfoot.rl.aec import STATE_SIZE
from handfoot.rl.layout import field_table

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text("utf-8")


def test_the_observation_table_is_the_layout() -> None:
    start = DOC.index("<!-- observation table")
    end = DOC.index("<!-- end of observation table -->")
    table = DOC[start:end].split("\n", 1)[1].strip()
    assert table == field_table(), "regenerate the table in docs/rl.md with handfoot.rl.layout.field_table()"
    assert f"({SIZE},), float32)" in DOC


def test_the_action_table_matches_the_ids() -> None:
    assert f"`Discrete({NUM_ACTIONS})`" in DOC and f"| {CANCEL} | `cancel`" in DOC
    assert f"Box(0, 1, ({NUM_ACTIONS},), int8)" in DOC
    assert DISCARD_BASE == 8 and (ASK_ID, YES_ID, NO_ID, KEEP_ID, SWAP_ID) == (23, 24, 25, 26, 27)


def test_the_state_size_in_the_docs() -> None:
    assert f"`Box(-1e4, 1e4, ({STATE_SIZE},), float32)`" in DOC


def test_the_quick_start_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The quick start, as printed: a seeded game of random legal actions, to the end or max_cycles."""
    start = DOC.index("<!-- quick start")
    code = DOC[start:].split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/rl.md", "exec"), {})
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("kitchen-table, hand ")
    totals, winner = out[-1].rsplit("] ", 1)
    assert len(json.loads(totals + "]")) == 2 and winner in ("0", "1", "None")


def test_the_batch_example_runs() -> None:
    """The ``BatchEnv`` example, as printed: 100 batched steps of random legal actions at 32 tables."""
    start = DOC.index("<!-- batch example")
    code = DOC[start:].split("```python\n", 1)[1].split("```", 1)[0]
    names: dict[str, object] = {}
    exec(compile(code, "docs/rl.md", "exec"), names)
    assert names["obs"].shape == (32, SIZE)  # type: ignore[attr-defined]
    assert names["rewards"].shape == (32, 4)  # type: ignore[attr-defined]
