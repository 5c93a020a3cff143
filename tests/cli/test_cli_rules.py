"""``handfoot rules list | show | diff`` through the real Typer app (CliRunner)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from handfoot.cli import app
from handfoot.commands.rules_cmd import toml_value
from handfoot.rules import (
    OPTION_CHOICES,
    OPTION_HELP,
    OPTION_NAMES,
    OPTION_SECTION,
    PRESET_NAMES,
    SECTION_TITLES,
    load_rules,
    preset,
    rules_to_mapping,
)

WIDE = {"COLUMNS": "1000"}  # every table row on one line, so rows can be read back


def run(*args: str, wide: bool = True) -> Result:
    """Run ``handfoot <args>`` and return the result (stdout and stderr kept apart)."""
    return CliRunner().invoke(app, list(args), env=WIDE if wide else {"COLUMNS": "80"})


def rows(output: str) -> list[list[str]]:
    """The cells of every body row of the Rich tables in ``output``."""
    return [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in output.splitlines()
        if line.startswith("│")
    ]


def show_values(output: str) -> dict[str, str]:
    """Option -> printed value, from ``rules show`` output."""
    return {cells[0]: cells[1] for cells in rows(output)}


def test_no_arguments_prints_usage() -> None:
    """``handfoot`` alone shows the commands and exits 2, as any usage error does."""
    result = run()
    assert result.exit_code == 2
    assert "rules" in result.output and "score" in result.output


def test_rules_list_shows_each_preset_with_its_summary() -> None:
    """The five presets (sheets 000-004), in order, each with RuleSet.summary."""
    result = run("rules", "list")
    assert result.exit_code == 0, result.output
    listed = rows(result.stdout)
    assert [cells[0] for cells in listed] == list(PRESET_NAMES)
    for cells in listed:
        assert cells[1] == preset(cells[0]).summary


def test_rules_list_at_a_narrow_width_still_names_every_preset() -> None:
    """At 80 columns the summaries wrap, but every preset name stays whole."""
    result = run("rules", "list", wide=False)
    assert result.exit_code == 0
    names = [cells[0] for cells in rows(result.stdout) if cells[0]]
    assert names == list(PRESET_NAMES)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_show_prints_every_option_value_and_help(name: str) -> None:
    """Every option of the preset, its value as TOML and its one-line help (sheets 000-004)."""
    result = run("rules", "show", name)
    assert result.exit_code == 0, result.output
    mapping = rules_to_mapping(preset(name))
    table = {cells[0]: cells for cells in rows(result.stdout)}
    assert list(table) == list(OPTION_NAMES)
    for option in OPTION_NAMES:
        assert table[option][1] == toml_value(mapping[option]), option
        choices = OPTION_CHOICES.get(option)
        allowed = f" Allowed: {', '.join(choices)}." if choices else ""
        assert table[option][2] == OPTION_HELP[option] + allowed, option


def test_rules_show_groups_options_by_section_in_order() -> None:
    """Section headings appear in RULES.md order, each option under its own section."""
    out = run("rules", "show", "marmot").stdout
    positions = [out.index(title) for title in SECTION_TITLES.values()]
    assert positions == sorted(positions)
    for option in OPTION_NAMES:
        section_start = out.index(SECTION_TITLES[OPTION_SECTION[option]])
        later = [p for p in positions if p > section_start]
        section_end = later[0] if later else len(out)
        assert section_start < out.index(f"│ {option} ") < section_end, option


def test_rules_show_head_and_foot_values_read_as_the_sheet_says() -> None:
    """001: 13-card HEAD, 11-card FOOT, 4 decks (6 for 6), red 3s -500, permission required."""
    values = show_values(run("rules", "show", "head-and-foot").stdout)
    assert values["hand_size"] == "13"
    assert values["foot_size"] == "11"
    assert values["decks_by_players"] == "{ 2 = 4, 3 = 4, 4 = 4, 6 = 6 }"
    assert values["red_three_held"] == "-500"
    assert values["permission"] == '"required"'
    assert values["wild_limit"] == '"fewer_than_naturals"'


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_show_rows_copied_into_a_file_give_the_same_rules(tmp_path: Path, name: str) -> None:
    """Every printed value is TOML: the rows pasted into a rule file load back to the preset."""
    values = show_values(run("rules", "show", name).stdout)
    path = tmp_path / "copied.toml"
    path.write_text("".join(f"{option} = {value}\n" for option, value in values.items()), "utf-8")
    assert load_rules(path) == preset(name)


def test_rules_show_json_is_rules_to_mapping() -> None:
    """``--json`` prints rules_to_mapping, which loads back to the same rule set (004 in-laws)."""
    result = run("rules", "show", "in-laws", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == rules_to_mapping(preset("in-laws"))
    assert load_rules(data) == preset("in-laws")


def test_rules_show_a_rule_file(tmp_path: Path) -> None:
    """A file extending family (002) shows its own values and the preset's for the rest."""
    path = tmp_path / "cousins.toml"
    path.write_text('extends = "family"\nhand_size = 13\nfoot_size = 13\n', "utf-8")
    result = run("rules", "show", str(path))
    assert result.exit_code == 0, result.output
    values = show_values(result.stdout)
    assert values["name"] == '"cousins"'
    assert values["hand_size"] == "13"
    assert values["opening_minimums"] == "[60, 90]"  # 002: 60, then 90, then +30


def test_toml_value_round_trips_every_option_of_every_preset() -> None:
    """toml_value(v) read back by tomllib gives v, for every option of sheets 000-004."""
    for name in PRESET_NAMES:
        for option, value in rules_to_mapping(preset(name)).items():
            assert tomllib.loads(f"v = {toml_value(value)}")["v"] == value, (name, option)


def test_toml_value_quotes_what_toml_needs_quoted() -> None:
    """Text with quotes, and table keys that are not bare words, come out as valid TOML."""
    tricky = {'say "hi"': 1, "ok-key_2": 2}
    assert tomllib.loads(f"v = {toml_value(tricky)}")["v"] == tricky
    assert tomllib.loads(f"v = {toml_value('Grand-mère')}")["v"] == "Grand-mère"


def test_rules_diff_lists_exactly_the_options_that_differ() -> None:
    """kitchen-table (000) vs marmot (003): each differing option with both values; labels left out."""
    result = run("rules", "diff", "kitchen-table", "marmot")
    assert result.exit_code == 0, result.output
    a, b = rules_to_mapping(preset("kitchen-table")), rules_to_mapping(preset("marmot"))
    expected = [o for o in OPTION_NAMES if a[o] != b[o] and o not in ("name", "title", "summary")]
    table = rows(result.stdout)
    assert [cells[0] for cells in table] == expected
    for option, va, vb in table:
        assert (va, vb) == (toml_value(a[option]), toml_value(b[option]))
    assert dict((c[0], c[1:]) for c in table)["pickup_allowed"] == [
        "true",
        "false",
    ]  # 003 never takes the pile
    assert f"{len(expected)} options differ" in result.stdout


def test_rules_diff_of_a_file_shows_only_its_overrides(tmp_path: Path) -> None:
    """A file that changes one thing of in-laws (004) differs from it in that one option."""
    path = tmp_path / "top7.toml"
    path.write_text('extends = "in-laws"\npickup_count = 7\n', "utf-8")
    result = run("rules", "diff", "in-laws", str(path))
    assert result.exit_code == 0, result.output
    assert rows(result.stdout) == [["pickup_count", "5", "7"]]
    assert "1 options differ" in result.stdout or "1 option" in result.stdout


def test_rules_diff_of_equal_rules_says_so() -> None:
    """A preset against itself has no differences."""
    result = run("rules", "diff", "family", "family")
    assert result.exit_code == 0
    assert "family and family have the same rules." in result.stdout
    assert rows(result.stdout) == []


def test_rules_diff_json() -> None:
    """``--json`` gives each differing option as [A's value, B's value]."""
    result = run("rules", "diff", "head-and-foot", "in-laws", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["a"] == "head-and-foot" and data["b"] == "in-laws"
    assert data["differences"]["hand_size"] == [13, 11]  # 001 HEAD of 13, 004 piles of 11
    assert data["differences"]["going_out_bonus"] == [300, 200]
    assert "name" not in data["differences"]
    assert "clean_book_bonus" not in data["differences"]


# --- errors: one line on stderr, exit 2, nothing on stdout


def assert_refused(result: Result, *words: str) -> None:
    """The command failed with exit 2 and an 'error:' message on stderr containing ``words``."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    for word in words:
        assert word in result.stderr, (word, result.stderr)


@pytest.mark.parametrize(
    "command", [["show", "kitchen"], ["diff", "family", "kitchen"], ["diff", "kitchen", "family"]]
)
def test_unknown_preset_is_refused(command: list[str]) -> None:
    """A name that is neither a preset nor a file: exit 2, with the five presets listed."""
    assert_refused(
        run("rules", *command), "there is no preset or file called kitchen", ", ".join(PRESET_NAMES)
    )


def test_bad_value_in_a_rule_file_is_refused(tmp_path: Path) -> None:
    """The message names the file, the option, the bad value and what is allowed."""
    path = tmp_path / "bad.toml"
    path.write_text('extends = "marmot"\nwild_limit = "fewest"\n', "utf-8")
    result = run("rules", "show", str(path))
    assert_refused(
        result, str(path), 'rule option wild_limit: "fewest"', "one of at_most_naturals, fewer_than_naturals"
    )


def test_unknown_option_in_a_rule_file_is_refused(tmp_path: Path) -> None:
    """A misspelt option is named, in diff as in show."""
    path = tmp_path / "typo.toml"
    path.write_text("hand_sise = 13\n", "utf-8")
    assert_refused(
        run("rules", "diff", "kitchen-table", str(path)), "rule option hand_sise", "unknown option"
    )


def test_bad_toml_is_refused(tmp_path: Path) -> None:
    """A file that does not parse says where."""
    path = tmp_path / "broken.toml"
    path.write_text("hand_size = = 13\n", "utf-8")
    assert_refused(run("rules", "show", str(path)), str(path), "is not TOML", "line 1", "a TOML rule file")


def test_missing_argument_is_a_usage_error() -> None:
    """``rules show`` without NAME|FILE exits 2 with usage."""
    result = run("rules", "show")
    assert result.exit_code == 2
    assert "NAME|FILE" in result.output
