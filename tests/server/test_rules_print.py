"""The house rules' print page (``/rules/print``, ``/rules/{name}/print``, ``/tables/{id}/rules/print``):
printed by Chromium (Playwright's ``page.pdf``) on A4 and on Letter it is two pages, the newcomer's card
and the appendix of every option, and the appendix holds every option that differs from the preset
extended, marked (docs/client.md, *Printing the house rules*).

Needs Debian's Chromium at /usr/bin/chromium, as the browser tests do.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from pypdf import PdfReader

from handfoot.rules import PRESET_NAMES, load_rules, preset
from handfoot.rules.plain import rule_sheet
from handfoot.server.settings import Settings
from helpers.browser import CHROMIUM, SCREENSHOTS, needs_chromium
from helpers.server import running_server

# A house that changes many options of every group: the sheet must still fit one page.
HOUSE: dict[str, Any] = {
    "hand_size": 13,
    "foot_size": 13,
    "go_out_books": 0,
    "go_out_clean": 1,
    "go_out_dirty": 1,
    "target_score": 8000,
    "opening_minimums": [60, 90, 120, 150],
    "pickup_with_wild": True,
    "black_three_freezes": False,
    "clean_book_bonus": 600,
    "going_out_bonus": 200,
    "book_bonuses": {"clean 7": 1500},
}

pytestmark = needs_chromium

if CHROMIUM.exists():
    from playwright.sync_api import Browser
else:  # pragma: no cover - the module is skipped
    Browser = Any


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(
        Settings(data_dir=tmp_path_factory.mktemp("print-data"), port=0, bot_delay=0.0)
    ) as url:
        yield url


def printed(browser: Browser, url: str, paper: str, screenshot: str | None = None) -> PdfReader:
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    if screenshot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.emulate_media(media="print")
        page.screenshot(path=str(SCREENSHOTS / screenshot), full_page=True)
    pdf = page.pdf(format=paper, print_background=True)
    context.close()
    return PdfReader(io.BytesIO(pdf))


def words(reader: PdfReader) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_house_prints_its_card_and_appendix_with_every_change_marked(
    base: str, browser: Browser, paper: str
) -> None:
    url = f"{base}/rules/print?extends=kitchen-table&options={quote(json.dumps(HOUSE))}"
    reader = printed(browser, url, paper, "rules-print.png" if paper == "A4" else None)
    assert len(reader.pages) == 2
    card = " ".join(reader.pages[0].extract_text().split())
    # the card says the house's numbers: 13 cards dealt, a clean and a dirty book to go out, 8000 to win
    assert "the Hand (13 cards)" in card and "1 clean book and 1 dirty book" in card and "8000" in card
    assert "Appendix" not in card and "CHANGED" not in card
    text = words(reader)
    sheet = rule_sheet(
        load_rules({"extends": "kitchen-table", **HOUSE}), preset("kitchen-table"), "kitchen-table"
    )
    assert {line.name for line in sheet.differing} == set(HOUSE)
    for line in sheet.differing:
        assert line.name in text, line.name
    assert text.count("CHANGED") == len(HOUSE) + 1  # each change, and the line saying what the mark means
    assert "Opening minimums" in text and "Scoring table" in text and "Going out 200" in text


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_prints_its_card_on_one_page_and_the_appendix_on_one(
    base: str, browser: Browser, name: str
) -> None:
    for paper in ("A4", "Letter"):
        reader = printed(browser, f"{base}/rules/{name}/print", paper)
        assert len(reader.pages) == 2, (name, paper)
        assert reader.pages[1].extract_text().startswith("Appendix"), (name, paper)
        assert preset(name).title.split()[0] in words(reader) and "CHANGED" not in words(reader)


def test_a_table_prints_its_rules_and_bad_rules_get_a_page_saying_why(base: str) -> None:
    body = {"preset": "family", "options": {"hand_size": 12}, "players": 3, "public": True}
    made = httpx.post(f"{base}/api/tables", json=body)
    assert made.status_code == 201, made.text
    page = httpx.get(f"{base}/tables/{made.json()['table']['id']}/rules/print")
    assert page.status_code == 200 and 'data-option="hand_size"' in page.text and "(was 11)" in page.text
    assert "script-src" not in page.headers["content-security-policy"] and "<script" not in page.text
    panel = httpx.get(f"{base}/api/tables/{made.json()['table']['id']}/rules").json()
    changed = [line for group in panel["groups"] for line in group["lines"] if line["differs"]]
    assert [(c["name"], c["value"], c["base_value"]) for c in changed] == [("hand_size", "12", "11")]
    assert set(panel["lessons"]) == {"pile_frozen", "red_three", "opening", "took_pile", "went_out"}
    printed_page = httpx.get(f"{base}{panel['print']}")  # needs no key: rules are no secret
    assert printed_page.status_code == 200 and "(was 11)" in printed_page.text


def test_the_lobby_reads_a_preset_with_changes_in_plain_words(base: str) -> None:
    """``GET /api/rules`` (the lobby's "These rules" panel): the form's preset and changed options as the
    table's panel has them, each change marked; a bad preset or option answers with the reason."""
    answer = httpx.get(
        f"{base}/api/rules", params={"extends": "family", "options": json.dumps({"hand_size": 12})}
    )
    assert answer.status_code == 200, answer.text
    sheet = answer.json()
    changed = [line for group in sheet["groups"] for line in group["lines"] if line["differs"]]
    assert [(c["name"], c["value"], c["base_value"]) for c in changed] == [("hand_size", "12", "11")]
    assert sheet["base"] == "family" and sheet["scoring"] and sheet["openings"]
    plain = httpx.get(f"{base}/api/rules", params={"extends": "family"}).json()
    assert plain["base"] is None and not any(line["differs"] for g in plain["groups"] for line in g["lines"])
    bad = httpx.get(
        f"{base}/api/rules", params={"extends": "family", "options": json.dumps({"hand_size": "x"})}
    )
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_rules"
    assert "hand_size" in bad.json()["error"]["message"]
    missing = httpx.get(f"{base}/api/rules", params={"extends": "nothing"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_preset"
    bad = httpx.get(
        f"{base}/rules/print", params={"extends": "family", "options": json.dumps({"hand_size": "x"})}
    )
    assert bad.status_code == 422 and "hand_size" in bad.text
    assert httpx.get(f"{base}/rules/nothing/print").status_code == 404
    long = httpx.get(f"{base}/rules/print", params={"options": " " * 9000})
    assert long.status_code == 422 and "at most 8000" in long.text
    for path in ("/api/rules", "/rules/print"):  # nested deeper than Python's parser goes: said, not a 500
        deep = httpx.get(f"{base}{path}", params={"extends": "family", "options": "[" * 4000})
        assert deep.status_code == 422 and "nested too deep" in deep.text, deep.text
        broken = httpx.get(f"{base}{path}", params={"extends": "family", "options": "{"})
        assert broken.status_code == 422 and "options is not JSON" in broken.text, broken.text
