"""The house rules in plain words (``handfoot.rules.plain``, ``handfoot rules show --format``) and the
one-line explanations of a rule met for the first time (``handfoot.rules.lessons``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handfoot.cli import run
from handfoot.rules import PRESET_NAMES, load_rules, preset
from handfoot.rules.lessons import LESSONS, lesson, opening, pile_frozen, red_three, went_out
from handfoot.rules.plain import PLAIN_GROUPS, RULE_OPTIONS, rule_sheet, sheet_html, sheet_markdown
from handfoot.server.http.lobby import option_catalogue

THIRTEEN = {
    "extends": "kitchen-table",
    "hand_size": 13,
    "foot_size": 13,
    "go_out_books": 0,
    "go_out_clean": 1,
    "go_out_dirty": 1,
}


def invoke(args: list[str]) -> tuple[int, str, str]:
    with CliRunner().isolation() as streams:
        status = run(args)
        out, err = (stream.getvalue().decode() for stream in streams[:2])
    return status, out, err


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_renders_grouped_as_the_lobby_groups_it(name: str) -> None:
    sheet = rule_sheet(preset(name))
    assert [g.title for g in sheet.groups] == list(PLAIN_GROUPS.values())
    catalogue = {o["name"]: o["group"] for o in option_catalogue()}
    for group in sheet.groups:
        assert all(catalogue[line.name] == group.key for line in group.lines)
    shown = {line.name for group in sheet.groups for line in group.lines}
    assert shown == set(RULE_OPTIONS) - {"card_values"}, "every rule option, card values in the scoring table"
    assert sheet.differing == ()
    markdown, page = sheet_markdown(sheet), sheet_html(sheet)
    assert markdown.startswith(f"# {preset(name).title}\n") and "changed:**" not in markdown
    assert "## Scoring table" in markdown and "## Opening minimums" in markdown
    assert page.startswith("<!doctype html>") and 'class="changed"' not in page and "<script" not in page
    for title in PLAIN_GROUPS.values():
        assert f"<h2>{title}</h2>" in page


def test_options_that_differ_from_the_preset_are_marked_with_its_value() -> None:
    rules = load_rules(THIRTEEN)
    sheet = rule_sheet(rules, preset("kitchen-table"), "kitchen-table")
    assert {line.name for line in sheet.differing} == set(THIRTEEN) - {"extends"}
    hand = next(line for line in sheet.differing if line.name == "hand_size")
    assert (hand.value, hand.base_value) == ("13", "11")
    markdown = sheet_markdown(sheet)
    assert "- **changed:** Cards dealt to each Hand. **13** (kitchen-table: 11) `hand_size`" in markdown
    assert len(re.findall(r"^- \*\*changed:\*\*", markdown, flags=re.M)) == 5
    page = sheet_html(sheet)
    assert page.count('<li class="changed"') == 5 and "(was 11)" in page


def test_the_scoring_table_and_opening_minimums_are_the_sheets() -> None:
    """kitchen-table sheet, *Scoring, in the amount you need tonight*: its two tables."""
    sheet = rule_sheet(preset("kitchen-table"))
    scoring = dict(sheet.scoring)
    assert scoring["Joker"] == "50" and scoring["2 or Ace"] == "20" and scoring["Going out"] == "100"
    assert (
        scoring["King or Queen or Jack or Ten or 9 or 8"] == "10"
        and scoring["7 or 6 or 5 or 4 or Black 3"] == "5"
    )
    assert scoring["Clean book (7, no wilds)"] == "500" and scoring["Dirty book (7, with wilds)"] == "300"
    assert scoring["Red 3 laid down (if your side melded)"] == "100 each"
    assert scoring["A side reaches 10000"] == "that side wins"
    assert sheet.openings == (
        ("0 to 2999", "50"),
        ("3000 to 4999", "90"),
        ("5000 to 7999", "120"),
        ("8000 and more", "150"),
    )
    assert "card values only" in sheet.opening_note


def test_rules_show_writes_markdown_and_html(tmp_path: Path) -> None:
    path = tmp_path / "thirteen.toml"
    path.write_text(
        "\n".join(
            f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in THIRTEEN.items()
        ).replace("'", '"')
    )
    status, out, _ = invoke(["rules", "show", str(path), "--format", "markdown"])
    assert status == 0 and out.count("**changed:**") == 5 and "extending `kitchen-table`" in out
    status, out, _ = invoke(["rules", "show", "family", "--format", "html"])
    assert status == 0 and out.startswith("<!doctype html>") and "Family" in out
    status, _, err = invoke(["rules", "show", "family", "--format", "pdf"])
    assert status == 2 and "pdf" in err
    status, out, _ = invoke(["rules", "show", "family", "--format", "html", "--json"])
    assert status == 2 and '"bad_input"' in out


def test_first_time_lessons_say_the_rule_as_the_table_plays_it() -> None:
    kitchen = preset("kitchen-table")
    # kitchen-table sheet, *Your turn*: "A black 3 on the discard stops the next player from taking the
    # pile. They draw two from the stock instead."
    assert pile_frozen(kitchen) == (
        "A black 3 on top of the pile stops the next player taking it: "
        "they draw 2 cards from the stock instead."
    )
    # *Red 3s go down immediately*: laid face up, replaced; 100 if the side melded, minus if not.
    assert red_three(kitchen).startswith("A red 3 goes down at once and is replaced from the stock")
    assert "100 if your side has melded this hand, -100 if not" in red_three(kitchen)
    # *Initial meld*: "Count card values, not canasta bonuses, for that first drop."
    assert opening(kitchen, 50) == (
        "Your side's first meld must be worth at least 50 points (count card values only; it rises with your "
        "side's score)."
    )
    # *Go out after a canasta, both Feet in play*.
    assert went_out(kitchen) == (
        "Going out needs 1 book and every Foot of your side picked up; it ends the hand and earns 100."
    )
    thirteen = load_rules(THIRTEEN)
    assert went_out(thirteen).startswith("Going out needs 1 clean book and 1 dirty book")
    for name in PRESET_NAMES:
        for fact in LESSONS:
            text = lesson(preset(name), fact)
            assert text and text.endswith(".") and "\n" not in text, (name, fact)
    assert lesson(kitchen, "drew") is None
