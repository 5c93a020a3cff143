"""docs/rl.md prints the observation layout the code uses, and the action numbers it names."""

from __future__ import annotations

from pathlib import Path

from handfoot.engine.moves import ASK_ID, DISCARD_BASE, KEEP_ID, NO_ID, SWAP_ID, YES_ID
from handfoot.rl import CANCEL, NUM_ACTIONS, SIZE
from handfoot.rl.layout import field_table

DOC = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text("utf-8")


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
