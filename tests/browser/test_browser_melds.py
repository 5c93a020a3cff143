"""Browser tests of the melds on the table, in Debian's Chromium (see test_browser.py): on a phone, upright
and sideways, a side's melds are rank chips that show their cards on a tap and take the selected cards in
one tap; a refused meld is said in words."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_browser import (
    BUSY_TOKEN,
    assert_seen,
    busy_moves,
    click_move,
    felt,
    hand_cards,
    select,
)

from handfoot import cards as C
from handfoot.engine import Game, parse_move
from handfoot.rules import load_rules
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, TableRow, now, token_hash
from helpers.browser import CHROMIUM, SCREENSHOTS, needs_chromium
from helpers.server import running_server

pytestmark = needs_chromium

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page

PHONES = [(390, 844), (844, 390)]


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, list[tuple[int, str]]]]:
    """A server with four copies (ids ``melds-0`` ...) of a four-player kitchen-table table in the middle of
    a hand: Kim (seat 0) to draw, five melds or more on her side; with the seed and the moves played."""
    seed, moves = busy_moves("kitchen-table", 4)
    settings = Settings(data_dir=tmp_path_factory.mktemp("melds-data"), port=0, bot_delay=0.0)
    settings.prepare()
    storage = Storage(settings.db_url)
    try:
        for copy in range(4):
            seats = [SeatRow(0, "human", None, token_hash(BUSY_TOKEN), name="Kim")]
            seats += [SeatRow(s, "bot", "medium") for s in (1, 2, 3)]
            storage.create_table(TableRow(f"melds-{copy}", now(), "kitchen-table", 4, seed, 3), seats)
            for seq, (seat, move) in enumerate(moves):
                storage.append_move(f"melds-{copy}", seq, seat, move)
    finally:
        storage.close()
    with running_server(settings) as url:
        yield url, seed, moves


def open_turn(browser: Browser, url: str, width: int, height: int) -> Page:
    phone = width < 500 or height < 500
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.wait_for_function("() => document.querySelector('main.felt')?.dataset.myTurn === 'yes'")
    page.get_by_test_id("notice").click()
    return page


@pytest.mark.parametrize(("width", "height"), PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_melds_are_chips_on_a_phone_and_open_on_a_tap(
    busy: tuple[str, int, list[tuple[int, str]]], browser: Browser, width: int, height: int
) -> None:
    url, _seed, _moves = busy
    page = open_turn(
        browser, f"{url}/play/melds-{PHONES.index((width, height))}#seat={BUSY_TOKEN}", width, height
    )
    try:
        chips = page.locator(".meld-row.mine .meld.chip")
        assert chips.count() >= 5
        assert_seen(page, ".meld-row.mine .meld.chip", 5)
        assert_seen(page, ".meld-row:not(.mine) .meld.chip", 3)  # the other side's melds fit too
        assert page.locator(".meld-row .meld-cards").count() == 0  # no card rows until one is opened
        first = chips.first
        label = first.get_attribute("aria-label") or ""
        # what the stack shows (rank, count, wilds, book mark), then in words
        shows = r"^\w+ \d+( \d+)?( clean| dirty)?: "
        assert re.match(shows + r"\w[\w ]*, (\d+ cards|clean book|dirty book|wild book)", label), label
        first.click()
        opened = page.get_by_test_id("meld-open")
        opened.wait_for()
        assert first.get_attribute("aria-expanded") == "true"
        count = int(first.locator(".chip-count").inner_text())
        assert opened.locator(".card").count() == count
        assert_seen(page, "[data-testid=meld-open]")
        page.screenshot(
            path=str(SCREENSHOTS / f"melds-open-{width}x{height}.png"), full_page=False, animations="disabled"
        )
        first.click()  # a second tap closes it
        assert not opened.is_visible()
        # With a card selected that may go onto a meld, that meld's chip takes it in one tap.
        click_move(page, "Draw")
        legal = page.locator("[data-testid=legal] code").all_text_contents()
        adds = {m.split()[1] for m in legal if re.fullmatch(r"meld [2-9TJQKA][SHDC]", m)}
        ranks = {c.get_attribute("data-rank") for c in chips.all()}
        card = next((c for c in hand_cards(page) if c in adds and c[0] in ranks), None)
        if card is None:
            pytest.skip("no card of the hand goes onto a meld here")
        select(page, [card])
        target = page.locator(f'.meld-row.mine .meld.chip.addable[data-rank="{card[0]}"]')
        assert ": add the selected cards to your " in (target.get_attribute("aria-label") or "")
        before = int(target.locator(".chip-count").inner_text())
        click_version = felt(page)["version"]
        target.click()
        page.wait_for_function(
            "v => document.querySelector('main.felt')?.dataset.version !== v", arg=click_version
        )
        grown = page.locator(f'.meld-row.mine .meld.chip[data-rank="{card[0]}"] .chip-count')
        assert int(grown.inner_text()) == before + 1
    finally:
        page.context.close()


def mixed_pair(seed: int, moves: list[tuple[int, str]]) -> tuple[str, str]:
    """After Kim draws: a natural she may add to one of her side's melds alone, and a natural of another
    rank her side has no meld of (nothing takes it alone)."""
    game = Game(load_rules("kitchen-table"), 4, seed, 3)
    for _seat, move in moves:
        game.apply_text(move)
    game.apply_text("draw")
    s = game.state
    owner = s.seating.owner_of[0]
    melded = {m.rank for m in s.melds if m.owner == owner}
    held = [C.code(c) for c in range(C.NUM_CARD_IDS) for _ in range(s.hand_cards[0][c])]
    natural = [c for c in held if C.KIND_OF[C.parse_card(c)] in C.NATURAL_KINDS]
    good = next(c for c in natural if game.is_legal(parse_move(f"meld {c}")))
    bad = next(c for c in natural if c[0] != good[0] and C.KIND_OF[C.parse_card(c)] not in melded)
    return good, bad


def test_a_refused_meld_reads_as_a_sentence(
    busy: tuple[str, int, list[tuple[int, str]]], browser: Browser
) -> None:
    """A natural that may go onto a meld and one of another rank that nothing takes, melded together: the
    page sends them as one group (nothing is laid in part) and shows the server's refusal in words: no
    notation's "|", no card codes, no rule names before the closed "The rule" line."""
    url, seed, moves = busy
    good, bad = mixed_pair(seed, moves)
    page = open_turn(browser, f"{url}/play/melds-3#seat={BUSY_TOKEN}", 1366, 768)
    try:
        click_move(page, "Draw")
        select(page, [good, bad])
        version = felt(page)["version"]
        page.get_by_role("button", name="Meld", exact=True).click()
        refusal = page.get_by_test_id("refusal")
        refusal.wait_for()
        text = refusal.inner_text().split("The rule")[0]
        assert text.startswith("Not allowed: ") and text.rstrip().endswith("Dismiss"), text
        assert "separate groups" in text, text
        assert "|" not in text and not re.search(r"\b(?:[2-9TJQKA][SHDC]|JK)\b", text), text
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
        assert felt(page)["version"] == version
        assert_seen(page, "[data-testid=refusal]")
        page.screenshot(path=str(SCREENSHOTS / "group-refusal.png"), full_page=False, animations="disabled")
    finally:
        page.context.close()
