"""``handfoot score --rules PRESET|FILE [--json] FILE|-`` through the Typer app (CliRunner).

Sheets: 000 kitchen-table, 001 head-and-foot, 002 family, 003 marmot, 004 in-laws.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from handfoot.cli import app
from handfoot.pad import SIDE_KEYS, PadError, parse_pad
from handfoot.rules import apply_overrides, preset

# 000's worked example, and a second side that did not go out.
EXAMPLE = {
    "sides": [
        {"dirty_books": 1, "melded_points": 250, "red_threes": 2, "went_out": True},
        {"clean_books": 1, "melded_points": 120, "held_points": 85},
    ]
}


def run(*args: str, stdin: str | None = None) -> Result:
    """Run ``handfoot <args>`` with ``stdin`` and a wide terminal (one table row per line)."""
    return CliRunner().invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})


def pad_file(tmp_path: Path, data: Any, name: str = "pad.json") -> str:
    """``data`` written as JSON to a file; its path."""
    path = tmp_path / name
    path.write_text(json.dumps(data), "utf-8")
    return str(path)


def tables(output: str) -> dict[str, list[list[str]]]:
    """Each side's table in the text output: 'side N: total' -> body rows and the total row."""
    out: dict[str, list[list[str]]] = {}
    current = ""
    for line in output.splitlines():
        if line.startswith("side "):
            current = line.strip()
            out[current] = []
        elif line.startswith("│") and current:
            out[current].append([cell.strip() for cell in line.split("│")[1:-1]])
    return out


def test_kitchen_table_worked_example_scores_850_as_json(tmp_path: Path) -> None:
    """000's example through the command: 300 + 60 + 200 + 100 + 190 = 850; the other side 535."""
    result = run("score", "--rules", "kitchen-table", "--json", pad_file(tmp_path, EXAMPLE))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"scores": [850, 500 + 120 - 85]}


def test_text_mode_prints_a_breakdown_line_per_item_per_side(tmp_path: Path) -> None:
    """000's example in text: one row per item, and a total row that is the sum of the items."""
    result = run("score", "--rules", "kitchen-table", pad_file(tmp_path, EXAMPLE))
    assert result.exit_code == 0, result.output
    sides = tables(result.stdout)
    assert list(sides) == ["side 0: 850", "side 1: 535"]  # sides counted from 0, as in the input's list
    first = sides["side 0: 850"]
    assert first == [
        ["dirty books", "1", "+300"],
        ["cards on the table", "", "+250"],
        ["red 3s laid down", "2", "+200"],
        ["going out", "1", "+100"],
        ["total", "", "+850"],
    ]
    second = sides["side 1: 535"]
    assert second[-1] == ["total", "", "+535"]
    assert sum(int(points) for _, _, points in second[:-1]) == 535
    assert ["cards left in hand and foot", "", "-85"] in second


def test_reads_the_pad_from_stdin() -> None:
    """``-`` reads standard input."""
    result = run("score", "-r", "kitchen-table", "--json", "-", stdin=json.dumps(EXAMPLE))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scores"][0] == 850


@pytest.mark.parametrize(
    ("name", "score"),
    [
        ("kitchen-table", 90 + 200),  # 000: laid down, +100 each once the side has melded
        ("head-and-foot", 90 - 1000),  # 001: 'RED 3'S -500 points'
        ("family", 90 - 600),  # 002: 'Red 3 = -300 points each (only if still held)'
        ("marmot", 90 - 600),  # 003: 'Red 3 -300 points'
        ("in-laws", 90 - 600),  # 004: 'Red 3's - 300'
    ],
)
def test_red_threes_follow_each_sheet(name: str, score: int) -> None:
    """Two red 3s and 90 points on the table, under each sheet's red-3 rule."""
    pad = {"sides": [{"melded_points": 90, "red_threes": 2}, {}]}
    result = run("score", "--rules", name, "--json", "-", stdin=json.dumps(pad))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"scores": [score, 0]}


def test_kitchen_table_red_threes_count_minus_when_the_side_never_melded() -> None:
    """000: 'If the hand ends and your team never melded, those red 3s count minus.'"""
    pad = {"sides": [{"red_threes": 1, "held_points": 40}, {}]}
    result = run("score", "--rules", "kitchen-table", "--json", "-", stdin=json.dumps(pad))
    assert json.loads(result.stdout) == {"scores": [-100 - 40, 0]}


def test_in_laws_score_pad_items() -> None:
    """004's pad: exact deals +100, short melds -300, going out 200, clean books 500."""
    pad = {
        "sides": [
            {"clean_books": 3, "melded_points": 400, "went_out": True, "exact_deals": 1, "short_melds": 1},
            {},
        ]
    }
    result = run("score", "--rules", "in-laws", "--json", "-", stdin=json.dumps(pad))
    assert json.loads(result.stdout) == {"scores": [1500 + 400 + 200 + 100 - 300, 0]}


def test_missing_keys_are_zero_and_false() -> None:
    """An empty side scores 0; a side with only books scores the bonuses (001 head-and-foot)."""
    pad = {"sides": [{}, {"clean_books": 1, "dirty_books": 2}]}
    result = run("score", "--rules", "head-and-foot", "--json", "-", stdin=json.dumps(pad))
    assert json.loads(result.stdout) == {"scores": [0, 500 + 600]}


def test_wild_books_score_with_a_rule_file_that_allows_them(tmp_path: Path) -> None:
    """A house file (kitchen-table + wild_melds, 1500 a wild book) scores wild_books."""
    rules = tmp_path / "wild.toml"
    rules.write_text('extends = "kitchen-table"\nwild_melds = true\nwild_book_bonus = 1500\n', "utf-8")
    pad = {"sides": [{"wild_books": 1, "melded_points": 260}, {}]}
    result = run("score", "--rules", str(rules), "--json", "-", stdin=json.dumps(pad))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"scores": [1760, 0]}


# --- bad input: one 'error:' line on stderr, exit 2 (1 where the rules refuse it), nothing on stdout


def assert_refused(result: Result, *words: str, status: int = 2) -> None:
    """The command failed with exit ``status`` and an 'error:' message on stderr containing ``words``."""
    assert result.exit_code == status, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    for word in words:
        assert word in result.stderr, (word, result.stderr)


def score_stdin(text: str, rules: str = "kitchen-table") -> Result:
    """``handfoot score --rules RULES -`` with ``text`` on stdin."""
    return run("score", "--rules", rules, "-", stdin=text)


def test_not_json_is_refused() -> None:
    """Text that is not JSON: where it fails and what shape is expected."""
    assert_refused(score_stdin("sides: 1"), "standard input is not JSON", "line 1, column 1", '{"sides": [')


@pytest.mark.parametrize(
    ("text", "kind"), [("[1, 2]", "a list"), ('"x"', "text"), ("3", "a number"), ("null", "null")]
)
def test_not_an_object_is_refused(text: str, kind: str) -> None:
    """The top level must be an object with 'sides'."""
    assert_refused(score_stdin(text), "must be a JSON object", f"not {kind}")


def test_unknown_top_level_key_is_refused() -> None:
    """Only 'sides' is allowed at the top level."""
    assert_refused(score_stdin('{"sides": [{}], "hand": 2}'), 'unknown key "hand"', "allowed: sides")


def test_missing_sides_is_refused() -> None:
    """An object without 'sides' says what it should look like."""
    assert_refused(score_stdin("{}"), 'the key "sides" is missing')


@pytest.mark.parametrize(("sides", "kind"), [("[]", "an empty list"), ("{}", "an object"), ("5", "a number")])
def test_sides_must_be_a_non_empty_list(sides: str, kind: str) -> None:
    """'sides' is a list with one object per side."""
    assert_refused(score_stdin(f'{{"sides": {sides}}}'), '"sides" must be a non-empty list', f"not {kind}")


def test_side_that_is_not_an_object_is_refused() -> None:
    """Each side is an object."""
    assert_refused(score_stdin('{"sides": [{}, 7]}'), "sides[1] must be a JSON object", "not a number")


def test_unknown_side_key_is_refused_with_the_allowed_keys() -> None:
    """A misspelt key is named, with every allowed key."""
    result = score_stdin('{"sides": [{"clean_book": 1}, {}]}')
    assert_refused(result, 'sides[0]: unknown key "clean_book"', "allowed: " + ", ".join(SIDE_KEYS))


@pytest.mark.parametrize(
    ("side", "shown"),
    [
        ('{"dirty_books": -1}', "dirty_books must be a whole number from 0 to 1,000,000 (dirty (mixed)"),
        ('{"held_points": -40}', "held_points must be a whole number from 0"),
        (
            '{"melded_points": "250"}',
            "melded_points must be a whole number from 0 to 1,000,000 (card value",
        ),
        ('{"red_threes": 1.5}', "red_threes must be a whole number from 0"),
        ('{"clean_books": true}', "clean_books must be a whole number from 0"),
        ('{"exact_deals": null}', "exact_deals must be a whole number from 0"),
        ('{"exact_deals": 10000000000}', "exact_deals must be a whole number from 0"),
    ],
)
def test_bad_count_is_refused(side: str, shown: str) -> None:
    """Counts are whole numbers >= 0 (a negative held_points would be added, not taken away)."""
    assert_refused(score_stdin(f'{{"sides": [{{}}, {side}]}}'), f"sides[1]: {shown}")


@pytest.mark.parametrize("value", ['"yes"', "1", "null"])
def test_went_out_must_be_true_or_false(value: str) -> None:
    """went_out is a JSON boolean."""
    assert_refused(
        score_stdin(f'{{"sides": [{{"went_out": {value}}}, {{}}]}}'), "went_out must be true or false", value
    )


def test_two_sides_cannot_both_go_out() -> None:
    """Only one side goes out in a hand."""
    text = json.dumps({"sides": [{"went_out": True}, {}, {"went_out": True}]})
    result = score_stdin(text, rules="family")  # three players, each a side
    assert_refused(result, "went_out is true for sides[0] and sides[2]", "only one side goes out", status=1)


def test_wild_books_under_rules_without_them_are_refused() -> None:
    """003 marmot: '2s, 3s and Jokers can not be a set', so a wild book cannot be scored."""
    result = score_stdin('{"sides": [{"wild_books": 1}, {}]}', rules="marmot")
    assert_refused(
        result, "sides[0]: wild_books is 1", "marmot has no wild books (wild_melds = false)", status=1
    )


def test_missing_file_is_refused(tmp_path: Path) -> None:
    """A pad file that does not exist."""
    missing = str(tmp_path / "nope.json")
    assert_refused(run("score", "--rules", "family", missing), f"cannot read {missing}", "No such file")


def test_unknown_rules_are_refused(tmp_path: Path) -> None:
    """A bad --rules is reported before the pad is read."""
    result = run("score", "--rules", "grandma", pad_file(tmp_path, EXAMPLE))
    assert_refused(result, "there is no preset or file called grandma", "kitchen-table, head-and-foot")


def test_bad_rule_file_is_refused(tmp_path: Path) -> None:
    """A rule file with a bad value names the option, the value and what is allowed."""
    rules = tmp_path / "bad.toml"
    rules.write_text("going_out_bonus = -100\n", "utf-8")
    result = run("score", "--rules", str(rules), pad_file(tmp_path, EXAMPLE))
    assert_refused(
        result, "rule option going_out_bonus: -100 is not allowed", "a whole number from 0 to 100000"
    )


def test_rules_option_is_required(tmp_path: Path) -> None:
    """Without --rules the score would be a guess: a usage error."""
    result = run("score", pad_file(tmp_path, EXAMPLE))
    assert result.exit_code == 2
    assert "--rules" in result.output


def test_parse_pad_accepts_every_documented_key() -> None:
    """Every key the command documents is accepted and kept."""
    side = dict.fromkeys(SIDE_KEYS, 1) | {"went_out": True}
    rules = preset("kitchen-table")
    parsed = parse_pad({"sides": [side, {}]}, apply_overrides(rules, {"wild_melds": True}))
    assert parsed[0].went_out is True
    assert all(parsed[0].counts[key] == 1 for key in SIDE_KEYS if key != "went_out")
    with pytest.raises(PadError):
        parse_pad({"sides": [side, {}]}, rules)  # wild_books without wild_melds


@pytest.mark.parametrize(("rules", "sides"), [("kitchen-table", 1), ("kitchen-table", 4), ("in-laws", 3)])
def test_a_number_of_sides_no_table_has_is_refused(rules: str, sides: int) -> None:
    """kitchen-table (000) seats 2 to 6, partners at 4: 2, 3, 5 or 6 sides, never 1 or 4; in-laws (004)
    is four players in partners: 2 sides. Another number is refused (exit 1: the rules say no)."""
    result = score_stdin(json.dumps({"sides": [{}] * sides}), rules=rules)
    assert_refused(result, f"the pad lists {sides} side", "a table under", status=1)


def test_marmot_and_family_pads_of_ten_and_nine_sides() -> None:
    """marmot (003), Requirements: "Two more decks of playing cards than players" and family (002),
    1. Setup: "(number_of_players + 1)" decks name no most players: a pad of ten (marmot, each for
    themselves at ten) or nine (family) sides is scored, eleven sides are refused. marmot: a red book
    500, a black book 300, no going-out bonus, a red 3 held -300; family: no book bonus, going out 100."""
    marmot = [{"clean_books": 1, "dirty_books": 1, "melded_points": 330, "went_out": True}]
    marmot += [{"held_points": 40}] * 8 + [{"red_threes": 1, "held_points": 5}]
    result = run("score", "--rules", "marmot", "--json", "-", stdin=json.dumps({"sides": marmot}))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"scores": [1130] + [-40] * 8 + [-305]}
    family = [{"clean_books": 1, "dirty_books": 1, "melded_points": 200, "went_out": True}]
    family += [{"melded_points": 60, "held_points": 75}] * 8
    result = run("score", "--rules", "family", "--json", "-", stdin=json.dumps({"sides": family}))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"scores": [300] + [-15] * 8}
    result = score_stdin(json.dumps({"sides": [{}] * 11}), rules="marmot")
    assert_refused(result, "the pad lists 11 sides", "2, 3, 5, 6, 7, 8, 9 or 10 sides", status=1)


def test_errors_are_json_on_stdout_with_json(tmp_path: Path) -> None:
    """--json: the error object on stdout, nothing on stderr, the same exit status."""
    result = run("score", "-r", "kitchen-table", "--json", "-", stdin='{"sides": [{"went_out": 1}, {}]}')
    assert result.exit_code == 2 and result.stderr == ""
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "bad_input" and "went_out must be true or false, not 1" in error["message"]
    result = run("score", "-r", "kitchen-table", "--json", "-", stdin=json.dumps({"sides": [{}]}))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "refused"


def test_rules_from_standard_input_and_the_pad_from_a_file(tmp_path: Path) -> None:
    """--rules - reads a rule file on standard input; both cannot be -."""
    stdin = 'extends = "kitchen-table"\ngoing_out_bonus = 300\n'
    result = run("score", "-r", "-", "--json", pad_file(tmp_path, EXAMPLE), stdin=stdin)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scores"][0] == 850 + 200
    assert_refused(run("score", "-r", "-", "-", stdin=stdin), "cannot both come from standard input")


def test_hand_picks_the_value_of_options_given_per_hand(tmp_path: Path) -> None:
    """--hand N scores under the values of options given one value per hand (going_out_bonus = [...])."""
    rules = tmp_path / "by-hand.toml"
    rules.write_text('extends = "kitchen-table"\ngoing_out_bonus = [100, 200, 300]\n', "utf-8")
    pad = pad_file(tmp_path, {"sides": [{"went_out": True}, {}]})
    scores = [
        json.loads(run("score", "-r", str(rules), "--hand", str(n), "--json", pad).stdout) for n in (1, 2, 5)
    ]
    assert [s["scores"][0] for s in scores] == [100, 200, 300]
    assert run("score", "-r", str(rules), "--hand", "0", pad).exit_code == 2
