"""Browser tests of the table's pacing and the host's controls, in Debian's Chromium (see test_browser.py):
the first hand waits for the invited players and the host starts without them, bots in their seats; the
wait the host sets after a hand runs out and the next hand goes on behind an open score dialog; a seat's
new link voids the old one, after a confirmation saying so."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import felt

from handfoot.engine import Game
from handfoot.rules import load_rules
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, TableRow, now, token_hash
from helpers.bots import moves_to_a_hand_end
from helpers.browser import CHROMIUM, SCREENSHOTS, needs_chromium, sit_down
from helpers.server import SeatClient, running_server, store_game

pytestmark = needs_chromium

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page

ANN = "ann-token-of-the-browser-host-tests"
BEN = "ben-token-of-the-browser-host-tests"
HOST = "host-key-of-the-browser-host-tests"
SEED, DEALER = 5, 1  # kitchen-table, four players: seat 2 (a bot) plays first


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    settings.prepare()
    return settings


def store(settings: Settings, table_id: str, ben_name: str | None) -> None:
    """A four-seat kitchen-table table, not begun: Ann (seat 0, the host), Ben (seat 1, invited; sat down
    when ``ben_name``), two medium bots."""
    assert Game(load_rules("kitchen-table"), 4, SEED, DEALER).state.to_move == 2
    storage = Storage(settings.db_url)
    try:
        seats = [
            SeatRow(0, "human", None, token_hash(ANN), name="Ann"),
            SeatRow(1, "human", None, token_hash(BEN), name=ben_name),
            SeatRow(2, "bot", "medium"),
            SeatRow(3, "bot", "medium"),
        ]
        storage.create_table(
            TableRow(
                table_id, now(), "kitchen-table", 4, SEED, DEALER, host_hash=token_hash(HOST), waits=True
            ),
            seats,
        )
    finally:
        storage.close()


def open_page(browser: Browser, url: str, width: int = 1366, height: int = 768) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_the_game_waits_for_the_invitee_and_the_host_starts_with_bots(
    settings: Settings, browser: Browser
) -> None:
    store(settings, "waits", None)
    store(settings, "arrives", None)
    with running_server(settings) as url:
        ann = open_page(browser, url)
        try:
            ann.goto(f"{url}/play/waits#seat={ANN}&host={HOST}")
            waiting = ann.get_by_test_id("waiting")
            waiting.wait_for()
            assert (
                "Waiting for Seat 2: the game starts when everyone invited is here." in waiting.inner_text()
            )
            ann.wait_for_timeout(500)  # a bot without delay would have played by now
            assert felt(ann)["version"] == "0"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            ann.screenshot(path=str(SCREENSHOTS / "waiting.png"), full_page=False, animations="disabled")
            waiting.get_by_role("button", name="Start now with bots").click()
            ann.locator('.opponent[data-seat="1"]', has_text="bot plays for them").wait_for()
            ann.wait_for_function("() => +(document.querySelector('main.felt')?.dataset.version ?? 0) > 0")
            assert not waiting.is_visible()

            # At the other table the invitee comes: the wait ends by itself.
            ann.goto(f"{url}/play/arrives#seat={ANN}&host={HOST}")
            ann.get_by_test_id("waiting").wait_for()
            ben = open_page(browser, url, 390, 844)
            try:
                ben.goto(f"{url}/play/arrives#seat={BEN}")
                sit_down(ben, "Ben")
                ann.wait_for_function(
                    "() => +(document.querySelector('main.felt')?.dataset.version ?? 0) > 0"
                )
                assert not ann.get_by_test_id("waiting").is_visible()
                # Ben's name comes with the table's next notice (at most one a second, NOTICE_SECONDS)
                ann.locator('.opponent[data-seat="1"]', has_text="Ben").wait_for(timeout=5000)
            finally:
                ben.context.close()
        finally:
            ann.context.close()


def test_the_hosts_wait_runs_out_and_the_next_hand_goes_on(tmp_path: Path, browser: Browser) -> None:
    seed, moves = moves_to_a_hand_end()
    settings = Settings(data_dir=tmp_path, port=0, bot_delay=0.0)
    seats = [SeatRow(0, "human", None, token_hash(ANN), name="Pat"), SeatRow(1, "bot", "medium")]
    row = TableRow("paced", now(), "kitchen-table", 2, seed, 1, host_hash=token_hash(HOST))
    store_game(settings, row, seats, moves[:-1])
    last = len(moves) - 1
    with running_server(settings) as url:
        pat = open_page(browser, url)
        try:
            pat.goto(f"{url}/play/paced#seat={ANN}&host={HOST}")
            pat.wait_for_function("() => document.querySelector('main.felt')?.dataset.myTurn === 'yes'")
            pat.get_by_role("button", name="Host", exact=True).click()
            pat.get_by_label("Longest wait after a hand").select_option("5")
            pat.wait_for_function(
                "() => document.querySelector('[aria-label=\"Longest wait after a hand\"]')?.value === '5'"
            )
            pat.keyboard.press("Escape")
            # The hand's last move, from another connection of the seat (it does not pace): the page shows the
            # score dialog and the bot waits for Pat, at most the 5 seconds the host set.
            other = SeatClient(url, "paced", ANN)
            other.state(last)
            other.move(moves[-1][1], last)
            dialog = pat.locator(".overlay[role=dialog]")
            dialog.wait_for()
            reading = dialog.get_by_test_id("reading")
            assert "goes on by itself in" in reading.inner_text()
            assert felt(pat)["version"] == str(last + 1)
            pat.wait_for_function(
                "v => +(document.querySelector('main.felt')?.dataset.version ?? 0) > v",
                arg=last + 1,
                timeout=20_000,
            )
            assert dialog.is_visible(), "the dialog stays open: Pat has not closed it"
            assert reading.inner_text() == "The next hand is under way."
            other.close()
        finally:
            pat.context.close()


def test_a_new_link_voids_the_old_one(settings: Settings, browser: Browser) -> None:
    store(settings, "relink", "Ben")
    with running_server(settings) as url:
        ann = open_page(browser, url)
        ben = open_page(browser, url, 390, 844)
        try:
            ben.goto(f"{url}/play/relink#seat={BEN}")
            ben.locator("main.felt").wait_for()
            ann.goto(f"{url}/play/relink#seat={ANN}&host={HOST}")
            ann.locator("main.felt").wait_for()
            ann.get_by_role("button", name="Host", exact=True).click()
            seat = ann.get_by_test_id("host-panel").locator('.host-seat[data-seat="1"]')
            assert seat.get_by_role("button", name="New link for seat 2").is_visible()
            assert (
                ann.get_by_test_id("host-panel")
                .locator('.host-seat[data-seat="0"]')
                .get_by_role("button", name="New link for seat 1")
                .count()
                == 0
            )
            seat.get_by_role("button", name="New link for seat 2").click()
            confirm = seat.get_by_test_id("revoke-confirm")
            text = confirm.inner_text()
            assert (
                "stops working at once" in text
                and "Ben is disconnected" in text
                and "keeps its name and its cards" in text
            )
            confirm.get_by_role("button", name="Cancel").click()
            assert not confirm.is_visible()
            seat.get_by_role("button", name="New link for seat 2").click()
            seat.get_by_role("button", name="Make a new link, void the old one").click()
            fresh = ann.get_by_test_id("new-link")
            fresh.wait_for()
            link = fresh.get_by_role("textbox").input_value()
            assert "/play/relink#seat=" in link and BEN not in link
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            ann.screenshot(
                path=str(SCREENSHOTS / "host-new-link.png"), full_page=False, animations="disabled"
            )
            # Ben's page is told, and his old link opens nothing any more.
            replaced = ben.get_by_test_id("bad-link")
            replaced.wait_for()
            assert "The host replaced this link" in replaced.inner_text()
            assert "the link this page was opened with opens nothing now" in replaced.inner_text()
            ben.goto(f"{url}/play/relink#seat={BEN}")
            ben.get_by_test_id("bad-link").wait_for()
            ben.goto(link)
            ben.locator("main.felt").wait_for()
            assert ben.locator(".badge", has_text="watching").count() == 0
        finally:
            ann.context.close()
            ben.context.close()
