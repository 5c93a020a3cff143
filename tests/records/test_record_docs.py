"""docs/records.md cannot rot: its example records are replayed by ``handfoot replay --json`` and must
give the output shown beside them, and its tables of move ids, card kinds and events match the code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from handfoot import cards as C
from handfoot.commands import replay_cmd
from handfoot.engine import moves as M
from handfoot.engine.events import EventType
from handfoot.record import parse_record, replay, report

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"
TEXT = DOC.read_text("utf-8")
BLOCK = re.compile(
    r"<!-- example (?P<name>[\w-]+): (?P<what>record|output, exit (?P<exit>\d)) -->\n```json\n(.*?)```", re.S
)


def examples() -> dict[str, dict[str, Any]]:
    """Each example's record, shown output and exit status, by name."""
    out: dict[str, dict[str, Any]] = {}
    for match in BLOCK.finditer(TEXT):
        entry = out.setdefault(match["name"], {})
        data = json.loads(match.group(4))
        if match["what"] == "record":
            entry["record"] = data
        else:
            entry["output"] = data
            entry["exit"] = int(match["exit"])
    return out


EXAMPLES = examples()


def assert_shown(shown: Any, actual: Any, where: str = "output") -> None:
    """Everything ``shown`` holds is in ``actual``: objects may leave keys out (abridged), lists and values
    must match exactly."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}: no {key!r}"
            assert_shown(value, actual[key], f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(actual, list) and len(shown) == len(actual), f"{where}: {shown} != {actual}"
        for index, (a, b) in enumerate(zip(shown, actual, strict=True)):
            assert_shown(a, b, f"{where}[{index}]")
    else:
        assert shown == actual, f"{where}: {shown!r} != {actual!r}"


def app() -> typer.Typer:
    """A command line holding just ``replay``."""
    cli = typer.Typer()

    @cli.callback()
    def main() -> None:
        """Test command line."""

    replay_cmd.register(cli)
    return cli


def test_every_example_has_a_record_and_an_output() -> None:
    assert set(EXAMPLES) == {"out-in-one-turn", "short-opening", "partners", "empty-stock"}
    for name, entry in EXAMPLES.items():
        assert {"record", "output", "exit"} <= set(entry), name


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_replays_to_the_output_shown(name: str, tmp_path: Path) -> None:
    entry = EXAMPLES[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(entry["record"]), "utf-8")
    result = CliRunner().invoke(app(), ["replay", str(path), "--json"])
    assert result.exit_code == entry["exit"], result.output
    printed = json.loads(result.stdout)
    assert_shown(entry["output"], printed)
    record = parse_record(entry["record"])
    game, error = replay(record)
    assert printed == report(game, error, record.names)


def test_abridged_output_leaves_out_only_the_shuffled_feet() -> None:
    """The partners example leaves out the feet (shuffled from the seed) and nothing else."""
    shown = EXAMPLES["partners"]["output"]
    game, error = replay(parse_record(EXAMPLES["partners"]["record"]))
    actual = report(game, error)
    assert set(shown) == set(actual)
    assert all(set(seat) == {"hand"} for seat in shown["seats"])
    for name in ("out-in-one-turn", "short-opening", "empty-stock"):
        record = parse_record(EXAMPLES[name]["record"])
        game, error = replay(record)
        assert EXAMPLES[name]["output"] == report(game, error, record.names)


def test_move_id_table_matches_the_code() -> None:
    rows = {
        f"| {M.DRAW_ID} | `draw` |",
        f"| {M.PICKUP_BASE} + n (n = 0…{M.MAX_PICKUP_NATURALS}) | `pickup`",
        f"| {M.DISCARD_BASE} + kind | `discard`",
        f"| {M.ASK_ID}, {M.YES_ID}, {M.NO_ID} | `ask`, `yes`, `no` |",
        f"| {M.NEW_BASE} + 8 × rank + mix |",
        f"| {M.ADD_BASE} + 3 × rank + type |",
        f"| {M.PICKUP_JOKER_ID}, {M.PICKUP_DEUCE_ID} | `pickup` with one natural and a joker",
        f"| {M.LAY_RED_THREE_ID} | `lay` a red 3",
        f"| {M.SPLIT_DRAW_ID} | `draw C`",
        f"| {M.END_ID} | `end`",
    }
    for row in rows:
        assert row in TEXT, row
    mixes = ", ".join(f"({n},{j},{d})" for n, j, d in M.TRIPLE_COMBOS)
    assert f"mix 0…{len(M.TRIPLE_COMBOS) - 1} is (naturals, jokers, 2s) = {mixes}" in TEXT
    kinds = ", ".join(f"{C.KIND_NAMES[k]} {k}" for k in range(C.FOUR + 1))
    assert f"`{kinds}`, black 3 {C.BLACK_THREE}, red 3 {C.RED_THREE}" in TEXT
    assert C.WILD_RANK == C.JOKER and "a meld of wilds only is filed under kind 0" in TEXT
    assert M.ADD_TYPES == ("natural", "joker", "deuce")


def test_every_event_type_is_documented() -> None:
    for event in EventType:
        assert f"| `{event.value}` |" in TEXT, event
