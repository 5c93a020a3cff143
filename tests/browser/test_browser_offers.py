"""Browser tests of the move buttons built from the seat's offers (docs/protocol.md, "state": ``offers``),
in Debian's Chromium at 1366x768 (see test_browser.py): any card of a rank is offered onto its meld, not
one per kind; the points still needed to open are shown while staging, as the engine counts them; and
the pile button is enabled exactly when the engine says the pile may be taken, its title the engine's
sentence why not."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import assert_seen, felt, select, wait_changed

from handfoot import cards as C
from handfoot.engine import Game
from handfoot.engine.moves import Action, move_text, parse_move
from handfoot.engine.offers import seat_offers
from handfoot.engine.openings import meld_openings
from handfoot.engine.outlook import outlook
from handfoot.rules import load_rules
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, TableRow, now, token_hash
from helpers.browser import CHROMIUM, SCREENSHOTS, needs_chromium
from helpers.server import running_server, store_game

pytestmark = needs_chromium

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page
else:  # pragma: no cover - the module is skipped
    Browser = Page = Any

TOKEN = "seat-zero-token-for-the-offers-test"
RULES = "kitchen-table"
# The laptop, and a phone upright and sideways: where the staged groups and the count must still fit.
STAGE_SIZES = [(1366, 768), (390, 844), (844, 390)]


def new_game(seed: int) -> Game:
    """A two-player kitchen-table game, dealer seat 1: seat 0 (the person) plays first."""
    return Game(load_rules(RULES), 2, seed, 1)


def two_of_a_kind_to_add() -> tuple[int, list[str], str, list[str]]:
    """A seed whose first turn draws and opens, leaving seat 0 two different cards of a rank it melded,
    each offered onto that meld: the seed, the moves, the rank letter and the two cards."""
    for seed in range(3000):
        game = new_game(seed)
        if game.state.to_move != 0:
            continue
        game.apply_text("draw")
        for opening in meld_openings(game.state, 0):
            trial = game.copy()
            trial.apply(opening)
            s = trial.state
            owner = s.seating.owner_of[0]
            for meld in (m for m in s.melds if m.owner == owner and m.rank in C.NATURAL_KINDS):
                codes = [C.CODE_OF[c] for c in C.IDS_OF_KIND[meld.rank] if s.hand_cards[0][c]]
                if len(codes) >= 2 and all(trial.is_legal(parse_move(f"meld {code}")) for code in codes[:2]):
                    return seed, ["draw", move_text(opening)], C.RANK_LETTER[meld.rank], codes[:2]
    pytest.fail("no seed in 0..2999 leaves two different cards of a melded rank to add")


def a_short_stage() -> tuple[int, list[str], Any]:
    """A seed whose first turn, after the draw, offers a stage of three cards that counts less than the
    opening: the seed, the moves, and the stage (a Move)."""
    for seed in range(3000):
        game = new_game(seed)
        if game.state.to_move != 0:
            continue
        game.apply_text("draw")
        for move in game.legal_moves():
            if move.action is Action.STAGE and len(move.groups[0].cards) == 3:
                trial = game.copy()
                trial.apply(move)
                offers = seat_offers(trial.state)
                if offers is not None and offers.opening is not None and offers.opening.needed > 0:
                    return seed, ["draw"], move
    pytest.fail("no seed in 0..2999 offers a stage short of the opening")


def pile_states() -> tuple[int, int]:
    """Two seeds of a first turn, the pile's top not frozen nor refused whatever the hand: one where the
    engine says the pile may be taken, one where it may not (too few naturals of the top card's rank)."""
    found: dict[bool, int] = {}
    for seed in range(3000):
        game = new_game(seed)
        s = game.state
        if s.to_move != 0 or not s.pile or outlook(s, 0).pile_refusal is not None:
            continue
        offers = seat_offers(s)
        assert offers is not None
        found.setdefault(offers.pile.may, seed)
        if len(found) == 2:
            return found[True], found[False]
    pytest.fail("no pair of seeds in 0..2999 with the pile open and closed")


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """A server whose storage holds one table per test, seat 0 a person to move, seat 1 a bot."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("offers-data"), port=0, bot_delay=0.0)
    add_seed, add_moves, rank, cards = two_of_a_kind_to_add()
    stage_seed, stage_moves, stage = a_short_stage()
    open_seed, closed_seed = pile_states()
    made = {
        "add": (add_seed, add_moves),
        **{f"stage-{w}x{h}": (stage_seed, stage_moves) for w, h in STAGE_SIZES},
        "pile-open": (open_seed, []),
        "pile-closed": (closed_seed, []),
    }
    for name, (seed, moves) in made.items():
        seats = [SeatRow(0, "human", None, token_hash(TOKEN), name="Vi"), SeatRow(1, "bot", "medium")]
        row = TableRow(f"offers-{name}", now(), RULES, 2, seed, 1)
        store_game(settings, row, seats, [(0, m) for m in moves])
    facts = {"rank": rank, "cards": cards, "stage": stage, "stage_seed": stage_seed}
    facts.update(open_seed=open_seed, closed_seed=closed_seed)
    with running_server(settings) as url:
        yield url, facts


def open_table(browser: Browser, url: str, name: str, width: int = 1366, height: int = 768) -> Page:
    phone = width < 500 or height < 500
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{url}/play/offers-{name}#seat={TOKEN}")
    page.wait_for_function("() => document.querySelector('main.felt')?.dataset.myTurn === 'yes'")
    notice = page.get_by_test_id("notice")
    if notice.is_visible():
        notice.click()
    return page


def offered_melds(page: Page) -> list[str]:
    found: list[str] = page.locator(".meld-row.mine .meld.addable").evaluate_all(
        "els => els.map(e => e.dataset.rank)"
    )
    return found


def test_any_card_of_a_rank_is_offered_onto_its_meld(
    tables: tuple[str, dict[str, Any]], browser: Browser
) -> None:
    """Two different cards of a rank the side melded (the queen of clubs and of diamonds, say): each alone,
    and both together, are offered onto that meld, and a tap adds both."""
    url, facts = tables
    rank, cards = facts["rank"], facts["cards"]
    page = open_table(browser, url, "add")
    try:
        for chosen in ([cards[0]], [cards[1]], cards):
            select(page, chosen)
            assert offered_melds(page) == [rank], (chosen, offered_melds(page))
            page.get_by_role("button", name="Clear").click()
        meld = page.locator(f'.meld-row.mine .meld[data-rank="{rank}"]')
        size = int(meld.locator(".chip-count").inner_text())
        select(page, cards)
        page.screenshot(path=str(SCREENSHOTS / "offers-add-1366x768.png"), full_page=False)
        version = felt(page)["version"]
        page.locator(f'.meld-row.mine .meld.addable[data-rank="{rank}"]').click()
        wait_changed(page, version)
        page.wait_for_function(
            "([r, n]) => Number(document.querySelector("
            "`.meld-row.mine .meld[data-rank='${r}'] .chip-count`)?.textContent) >= n",
            arg=[rank, size + 2],
        )
        assert not page.get_by_test_id("refusal").is_visible()
    finally:
        page.context.close()


@pytest.mark.parametrize(("width", "height"), STAGE_SIZES, ids=[f"{w}x{h}" for w, h in STAGE_SIZES])
def test_the_points_still_needed_are_shown_while_staging(
    tables: tuple[str, dict[str, Any]], browser: Browser, width: int, height: int
) -> None:
    """A group staged toward the opening: the dock shows its points and the points still needed, as the
    engine counts them (the same numbers as its own offers after that stage), and at a laptop's and a
    phone's sizes the page still does not scroll, with the count, the staged group, the hand and the move
    buttons in view and uncovered."""
    url, facts = tables
    stage = facts["stage"]
    game = new_game(facts["stage_seed"])
    game.apply_text("draw")
    game.apply(stage)
    offers = seat_offers(game.state)
    assert offers is not None and offers.opening is not None
    opening = offers.opening
    page = open_table(browser, url, f"stage-{width}x{height}", width, height)
    try:
        select(page, [C.CODE_OF[c] for c in stage.groups[0].cards])
        version = felt(page)["version"]
        page.get_by_role("button", name="Add group").click()
        wait_changed(page, version)
        needed = page.get_by_test_id("points-needed")
        needed.wait_for()
        assert needed.inner_text().strip() == f"to open you need {opening.minimum}: {opening.needed} more"
        points = page.get_by_test_id("meld-points").inner_text()
        assert f"1 group staged: {opening.points} points" in points, points
        sizes = page.evaluate(
            "() => [document.documentElement.scrollHeight, innerHeight,"
            " document.documentElement.scrollWidth, innerWidth]"
        )
        assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], f"the page scrolls: {sizes}"
        for selector in ("[data-testid=points-needed]", "[data-testid=staged-group]", "[data-testid=turn]"):
            assert_seen(page, selector)
        assert_seen(page, ".hand button.card", 8)
        for key in "DPGMX":
            assert_seen(page, f'[data-testid=actions] button[aria-keyshortcuts="{key}"]')
        page.screenshot(path=str(SCREENSHOTS / f"offers-staged-{width}x{height}.png"), full_page=False)
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["pile-open", "pile-closed"])
def test_the_pile_button_is_the_engines(
    tables: tuple[str, dict[str, Any]], browser: Browser, name: str
) -> None:
    """On a first turn whose pile no freeze closes (where the page once guessed "may be taken"), the Take
    the pile button is enabled exactly when the engine's offers say so; closed, its title is the engine's
    sentence, and pressing P says it (and M, before the draw, says to draw first)."""
    url, facts = tables
    seed = facts["open_seed" if name == "pile-open" else "closed_seed"]
    offers = seat_offers(new_game(seed).state)
    assert offers is not None
    page = open_table(browser, url, name)
    try:
        button = page.get_by_test_id("take-pile")
        assert button.is_enabled() == offers.pile.may
        if not offers.pile.may:
            assert button.get_attribute("title") == offers.pile.refusal
            page.keyboard.press("p")
            why = page.get_by_test_id("why-not")
            why.wait_for()
            assert offers.pile.refusal is not None and offers.pile.refusal in why.inner_text()
            # M before the draw, a wild (or any card) selected: the engine's "draw first", not the notation's
            wilds = [c.card for c in offers.cards if c.card == "JK" or c.card.startswith("2")]
            select(page, [(wilds or [offers.cards[0].card])[0]])
            page.keyboard.press("m")
            page.wait_for_function(
                "() => document.querySelector('[data-testid=why-not]')?.innerText"
                ".includes('Draw from the stock')"
            )
            assert offers.why_not.meld is not None and offers.why_not.meld.startswith("Draw from the stock")
    finally:
        page.context.close()
