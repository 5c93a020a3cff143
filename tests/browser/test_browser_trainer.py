"""The trainer in the browser: the "These rules" panel in the lobby and at a table, a first-hand rule
line (switched off, it stays off after a reload), and the hand-end dialog's "Review this hand" link.

The table is the review tests' planted hand (``tests/fixtures/review/planted-wild-4.json``) stored with
every seat a person and a house change (``target_score``), up to move 124 of its first hand: the page
holds seat 1, and this test plays the other seats' remaining moves through their own connections. Move
124 (seat 3 discards a black 3, and a red 3 of its Foot is laid) brings up rules; move 134 (seat 0 goes
out) ends the hand. Needs Debian's Chromium at /usr/bin/chromium, as the other browser tests do.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import assert_no_serious_violations

from handfoot.record import parse_record
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, TableRow, now, token_hash
from handfoot.server.tables.reviews import WORLDS_ENV
from helpers.browser import CHROMIUM, SCREENSHOTS, needs_chromium
from helpers.server import SeatClient, running_server, store_game

FIXTURE = Path(__file__).parent.parent / "fixtures" / "review" / "planted-wild-4.json"
TABLE = "trainer-table"
TOKENS = [f"seat-{seat}-token-of-the-trainer-table" for seat in range(4)]
ME = 1
STORED = 124  # the moves stored before the page opens
HAND_END = 135  # one past the move that ends the first hand (seat 0 goes out)
HOUSE = {"extends": "kitchen-table", "target_score": 6000}
SIZES = [(1366, 768), (390, 844), (844, 390)]

pytestmark = needs_chromium

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page
else:  # pragma: no cover - the module is skipped
    Browser = Page = Any


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """A server whose storage holds the planted hand's first ``STORED`` moves; its URL and the moves."""
    record = parse_record(json.loads(FIXTURE.read_text())["record"])
    settings = Settings(data_dir=tmp_path_factory.mktemp("trainer-data"), port=0, bot_delay=0.0)
    store_game(
        settings,
        TableRow(TABLE, now(), HOUSE, 4, record.seed, record.dealer, public=False),
        [SeatRow(seat, "human", None, token_hash(TOKENS[seat]), f"P{seat}") for seat in range(4)],
        [(-1, text) for text in record.moves[:STORED]],
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(WORLDS_ENV, "4")
        with running_server(settings) as url:
            yield url, list(record.moves)


def play(base: str, moves: list[str], upto: int) -> None:
    """Play the stored game's moves on to index ``upto`` (excluded), each by the seat to move, through
    that seat's own connection."""
    while True:
        probe = SeatClient(base, TABLE, TOKENS[0])
        state = probe.state()
        probe.close()
        done = state["version"]
        if done >= upto:
            return
        seat = state["view"]["to_move"]
        assert seat != ME, "the page's seat plays none of the moves sent"
        client = SeatClient(base, TABLE, TOKENS[seat])
        client.state()
        client.move(moves[done], done)
        answer = client.until(
            lambda m, at=done: m["type"] == "refused" or (m["type"] == "state" and m["version"] > at)
        )
        client.close()
        assert answer["type"] == "state", answer


def open_rules(page: Page, button: str) -> None:
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_selector("[data-testid=rules-panel] .rules-group")


def check_panel(page: Page, changed: dict[str, str]) -> None:
    """The panel shows every lobby group, marks exactly ``changed`` (option: the preset's value) and
    links the print page; it is an overlay: the page itself does not grow."""
    panel = page.locator("[data-testid=rules-panel]")
    titles = panel.locator(".rules-group h3").all_inner_texts()
    assert titles[:6] == [
        "Dealing",
        "How long a game lasts",
        "Melding",
        "Drawing and taking the pile",
        "Going out",
        "Scoring",
    ]
    marked = panel.locator(".rule-line.differs")
    found = {
        marked.nth(i).get_attribute("data-option"): marked.nth(i).inner_text() for i in range(marked.count())
    }
    assert set(found) == set(changed)
    for name, was in changed.items():
        assert f"(was {was})" in found[name] and "changed" in found[name].lower()
    assert panel.locator("[data-testid=rules-print]").get_attribute("href")
    box = panel.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1, "the panel fits the window"
    assert panel.evaluate("(e) => getComputedStyle(e.parentElement).position") == "fixed", "an overlay"
    assert_no_serious_violations(page)


def test_the_rules_panel_in_the_lobby(server: tuple[str, list[str]], browser: Browser) -> None:
    """The lobby's "These rules" shows the chosen preset with the form's changes marked."""
    base, _ = server
    for width, height in SIZES:
        context = browser.new_context(
            viewport={"width": width, "height": height}, bypass_csp=True
        )  # axe-core
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, seen=errors: seen.append(str(exc)))
        page.goto(f"{base}/")
        page.locator(".preset", has_text="kitchen-table").click()
        page.locator("details.options summary").click()
        page.locator("#opt-target_score").fill("6000")
        page.get_by_role("button", name="These rules", exact=True).click()
        page.wait_for_selector("[data-testid=rules-panel] .rules-group")
        check_panel(page, {"target_score": "10000"})
        print_href = page.locator("[data-testid=rules-print]").get_attribute("href") or ""
        assert print_href.startswith("/rules/print?") and "target_score" in print_href
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"rules-panel-lobby-{width}x{height}.png"))
        page.keyboard.press("Escape")
        assert page.locator("[data-testid=rules-panel]").count() == 0
        assert not errors, errors
        context.close()


def test_rules_panel_rule_lines_and_the_review_link(server: tuple[str, list[str]], browser: Browser) -> None:
    """At the table: the panel marks the house change; a rule that comes up in the first hand gets its
    line; switched off, no line comes after a reload; when the hand ends, "Review this hand" opens the
    seat's review, which is worked out and read."""
    base, moves = server
    remembered = json.dumps(
        [{"id": TABLE, "rules": "kitchen-table", "when": "", "seat": ME, "token": TOKENS[ME]}]
    )
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)  # axe-core
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/")
    page.evaluate("(v) => localStorage.setItem('handfoot.recent', v)", remembered)
    table_url = f"{base}/play/{TABLE}#seat={TOKENS[ME]}"
    page.goto(table_url)
    page.wait_for_selector(f"main.felt[data-version='{STORED}']")

    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        open_rules(page, "Rules")
        check_panel(page, {"target_score": "10000"})
        assert page.locator("[data-testid=lessons-switch]").is_checked()
        page.screenshot(path=str(SCREENSHOTS / f"rules-panel-table-{width}x{height}.png"))
        page.locator(".rules-close").click()
    page.set_viewport_size({"width": 1366, "height": 768})

    # Move 124: seat 3 discards a black 3 (the pile freezes) and lays a red 3 from its Foot.
    play(base, moves, STORED + 1)
    line = page.locator("[data-testid=rule-lesson]")
    line.wait_for()
    rules_url = f"/api/tables/{TABLE}/rules"
    fetched = page.evaluate(
        "([url, key]) => fetch(url, {headers: {'X-Handfoot-Key': key}}).then((r) => r.text())",
        [rules_url, TOKENS[ME]],
    )
    lessons = json.loads(fetched)["lessons"]
    fact = line.get_attribute("data-fact") or ""
    assert fact in ("pile_frozen", "red_three") and lessons[fact] in line.inner_text()
    for width, height in [*SIZES, (1366, 768)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(600)  # the side column slides away as a drawer at small sizes
        page.screenshot(path=str(SCREENSHOTS / f"rule-lesson-{width}x{height}.png"))
        assert line.is_visible(), (width, height)
        scroll = page.evaluate("document.scrollingElement.scrollHeight")
        assert scroll <= height, f"the line adds no page length at {width}x{height}"
    page.locator("[data-testid=lessons-off]").click()
    assert line.count() == 0

    page.reload()
    page.wait_for_selector(f"main.felt[data-version='{STORED + 1}']")
    open_rules(page, "Rules")
    assert not page.locator("[data-testid=lessons-switch]").is_checked(), "switched off stays off"
    page.locator(".rules-close").click()
    # The rest of the hand: seat 0 goes out (a rule never explained yet at this table).
    play(base, moves, HAND_END)
    page.wait_for_selector("#hand-end-title")
    assert page.locator("[data-testid=rule-lesson]").count() == 0, "no rule line once switched off"

    # The dialog's button stays in view on a phone, however long the breakdown.
    page.set_viewport_size({"width": 390, "height": 844})
    next_hand = page.get_by_role("button", name="Next hand")
    box = next_hand.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    page.set_viewport_size({"width": 1366, "height": 768})
    link = page.locator("[data-testid=review-link]")
    assert link.get_attribute("href") == f"/review/{TABLE}?hand=0"
    with context.expect_page() as opened:
        link.click()
    review = opened.value
    review.on("pageerror", lambda exc: errors.append(str(exc)))
    review.wait_for_selector("section[aria-label='Your review']", timeout=600_000)
    text = review.locator("main").inner_text()
    assert f"Seat {ME}, hand 0:" in text, "seats and hands counted as ``handfoot review`` counts them"
    fetched = review.evaluate(
        "([url, key]) => fetch(url, {headers: {'X-Handfoot-Key': key}}).then((r) => r.text())",
        [f"/api/tables/{TABLE}/review?hand=0", TOKENS[ME]],
    )
    listed = [d for d in json.loads(fetched)["review"]["decisions"] if d["mistake"]]
    assert review.locator(".review-decision").count() == len(listed)
    assert all(d["sentence"] in text for d in listed)
    assert "once the game is over" not in text
    for width, height in ((1366, 768), (390, 844)):
        review.set_viewport_size({"width": width, "height": height})
        assert_no_serious_violations(review)
    assert not errors, errors
    context.close()
