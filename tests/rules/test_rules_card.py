"""The newcomer's rules card (``handfoot.rules.card``; ``rules show --format markdown|html`` and the print
pages lead with it): only the rules that apply at this table, in words, with this rule set's numbers;
each preset's card fills one printed page (Chromium's ``--print-to-pdf``), the full option list after it.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from handfoot.rules import PRESET_NAMES, load_rules, preset
from handfoot.rules.card import card_values_words, rules_card
from handfoot.rules.options import RuleSet
from handfoot.rules.plain import APPENDIX, rule_sheet, sheet_html, sheet_markdown
from helpers.browser import CHROMIUM, CHROMIUM_ARGS, needs_chromium


def card_text(rules: RuleSet) -> str:
    """The card's words, section titles included, as one string."""
    return "\n".join(f"{s.title}\n" + "\n".join(s.lines) for s in rules_card(rules))


def house(extends: str, **options: Any) -> RuleSet:
    return load_rules({"extends": extends, **options})


def test_a_wild_book_is_on_the_card_only_where_melds_of_wilds_are_allowed() -> None:
    """kitchen-table: no melds of wilds (``wild_melds`` off), so its wild book bonus of 1500 is no rule
    of the table; a house that allows them says what a wild book earns."""
    kitchen = preset("kitchen-table")
    assert not kitchen.wild_melds and kitchen.wild_book_bonus == 1500
    text = card_text(kitchen)
    assert "1500" not in text and "wilds alone" not in text and "wild book" not in text
    wild = card_text(house("kitchen-table", wild_melds=True, wild_book_bonus=2500, go_out_wild=1))
    assert "a book of wilds alone 2500" in wild and "A meld of wilds alone is allowed." in wild
    assert "1 wild book" in wild


def test_a_target_score_is_on_the_card_only_when_the_game_ends_at_one() -> None:
    """head-and-foot sheet, "4 hands": the game ends after a number of hands, so the default target of
    10000 is not on its card; kitchen-table's "race to 10,000" is."""
    hf = preset("head-and-foot")
    assert hf.target_score == 10000
    text = card_text(hf)
    assert "10000" not in text and "reaches" not in text and "The game is 4 hands" in text
    assert "reaches 10000 points" in card_text(preset("kitchen-table"))
    assert "reaches 8000 points" in card_text(house("kitchen-table", target_score=8000))
    assert "The game is 6 hands" in card_text(house("marmot", hands_per_game=6))


def test_the_pile_rules_are_off_the_card_where_the_pile_is_never_taken() -> None:
    """marmot sheet: nobody takes the pile, so nothing about taking it (naturals needed, the opening
    before it, a black 3 freezing it) is on the card."""
    text = card_text(preset("marmot"))
    assert "The discard pile is never taken." in text
    for words in ("natural cards of its rank", "top card", "black 3 on top", "may the pile be taken"):
        assert words not in text, words
    kitchen = card_text(preset("kitchen-table"))
    assert "take the whole discard pile" in kitchen and "A black 3 on top of the pile" in kitchen
    # family sheet: "the top discard and the next 5 cards"
    assert "take the top card of the discard pile and the 5 cards under it" in card_text(preset("family"))


def test_partners_are_off_the_card_where_everyone_plays_alone() -> None:
    """family sheet: "You cannot play on another player's books": no partners, so no "your side", no
    asking a partner; head-and-foot's "Permission must be granted from your partner" is on its card."""
    text = card_text(preset("family"))
    assert "each playing alone" in text
    for words in ("partner", "your side", "May I go out", "each side"):
        assert words not in text, words
    assert 'Ask your partner "May I go out?" first' in card_text(preset("head-and-foot"))
    assert 'You may ask your partner "May I go out?"' in card_text(preset("in-laws"))


def test_red_threes_and_openings_say_what_this_table_plays() -> None:
    """kitchen-table: red 3s go down at once (100 if the side melded, -100 if not) and the opening
    rises with the score (3000, 5000, 8000); in-laws holds red 3s (-300) and opens by hand."""
    kitchen = card_text(preset("kitchen-table"))
    assert "Red 3s are laid face up" in kitchen and "earns 100 if your side has melded" in kitchen
    assert "50 with 0 to 2999 points; 90 with 3000 to 4999 points" in kitchen
    in_laws = card_text(preset("in-laws"))
    assert "laid face up" not in in_laws and "A red 3 still held at the end costs 300." in in_laws
    assert "2999" not in in_laws and "50 in hand 1, 90 in hand 2, 120 in hand 3" in in_laws
    # family sheet: "Round 1 ... 60 points. Round 2 ... 90. Each subsequent round: +30"
    assert "60 in hand 1, 90 in hand 2, then 30 more each hand" in card_text(preset("family"))


def test_books_going_out_and_scoring_carry_the_rule_sets_numbers() -> None:
    """Each preset's card has its own numbers, read from its values: book bonuses, the books needed to
    go out, the going-out bonus, the deal; a house's changes change the card."""
    for name in PRESET_NAMES:
        rules = preset(name)
        text = card_text(rules)
        assert f"the Hand ({rules.hand_size} cards)" in text and f"the Foot ({rules.foot_size} cards)" in text
        assert f"Card values: {card_values_words(rules)}." in text
        if rules.clean_book_bonus:
            assert f"earns {rules.clean_book_bonus} points" in text, name
        else:  # family: "Cards in completed books and melds on table score their value."
            assert "Books earn no bonus" in text
        bonus = rules.going_out_bonus
        assert (f"{bonus} for going out" in text) == bool(bonus), name
    # in-laws sheet: "When team has acquired 3 'clean books' they may go out"
    assert "your side needs 3 clean books" in card_text(preset("in-laws"))
    changed = card_text(house("in-laws", hand_size=13, clean_book_bonus=600, go_out_clean=2))
    assert "the Hand (13 cards)" in changed and "earns 600 points" in changed and "2 clean books" in changed


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_card_leads_and_the_option_list_follows_as_an_appendix(name: str) -> None:
    sheet = rule_sheet(preset(name))
    markdown, page = sheet_markdown(sheet), sheet_html(sheet)
    assert markdown.index("## The rules on one page") < markdown.index(f"# {APPENDIX}")
    assert markdown.index("### How a turn goes") < markdown.index("## Scoring table")
    assert page.index('<div class="card">') < page.index('<div class="appendix">')
    for section in sheet.card:
        assert f"### {section.title}" in markdown
    for key in ("hand_size", "wild_book_bonus", "target_score"):  # every option stays, in the appendix
        assert f"`{key}`" in markdown and f'data-option="{key}"' in page


def print_pdf(page: str, paper: str, folder: Path) -> PdfReader:
    """``page`` printed to PDF on ``paper`` (A4 or letter) by Chromium's ``--print-to-pdf``."""
    source = folder / f"card-{paper}.html"
    source.write_text(page.replace("size: auto", f"size: {paper}"), encoding="utf-8")
    out = folder / f"card-{paper}.pdf"
    subprocess.run(
        [str(CHROMIUM), *CHROMIUM_ARGS, "--no-pdf-header-footer", f"--print-to-pdf={out}", source.as_uri()],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return PdfReader(io.BytesIO(out.read_bytes()))


@needs_chromium
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_presets_card_fits_one_printed_page(name: str, tmp_path: Path) -> None:
    """Printed on A4 and on Letter, the card's last section is on the first page, the appendix starts
    on the second: the card is one page."""
    sheet = rule_sheet(preset(name))
    last = " ".join(sheet.card[-1].lines[-1].split()[-4:])
    for paper in ("A4", "letter"):
        reader = print_pdf(sheet_html(sheet), paper, tmp_path)
        pages = [" ".join(p.extract_text().split()) for p in reader.pages]
        assert len(pages) >= 2, (name, paper)
        assert "How a turn goes" in pages[0] and last in pages[0], (name, paper, last)
        assert "Appendix" not in pages[0] and pages[1].startswith("Appendix"), (name, paper)
