"""Browser tests of the whole table in view (Debian's Chromium, see test_browser.py): mid-hand, with four
and with six players each building their own melds (the family preset), at each of the six sizes a family
uses, every meld group of every seat is inside the window, not clipped by a box that scrolls or hides its
overflow, and not covered by anything (the dock, a notice, a panel); the page itself never scrolls."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import BUSY_TOKEN, SIZES

from handfoot.bots import legal_for, make_bot
from handfoot.engine import Game, Phase, move_text
from handfoot.rules import load_rules
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, Storage, TableRow, now, token_hash
from helpers.browser import CHROMIUM, SCREENSHOTS, needs_chromium
from helpers.server import running_server

pytestmark = needs_chromium

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page
else:  # pragma: no cover - the module is skipped
    Browser = Page = Any

PRESET = "family"
PLAYER_COUNTS = (4, 6)
CASES = [(p, w, h) for p in PLAYER_COUNTS for (w, h) in SIZES]


def mid_hand_moves(players: int) -> tuple[int, list[tuple[int, str]], dict[int, int]]:
    """A seed and the moves medium bots play in a family game of ``players`` until seat 0 is to draw with
    every seat holding three melds or more, two books closed on the table and eight cards or more in seat
    0's hand; with the number of melds each owner has then."""
    rules = load_rules(PRESET)
    for seed in range(60):
        game = Game(rules, players, seed, players - 1)
        bots = [make_bot("medium") for _ in range(players)]
        rng = random.Random(seed)
        moves: list[tuple[int, str]] = []
        for _ in range(1500):
            s = game.state
            if game.results or game.finished:
                break
            owners = {o: 0 for o in s.seating.owner_of}
            for m in s.melds:
                owners[m.owner] += 1
            books = sum(1 for m in s.melds if len(m.cards) >= rules.book_size)
            if (
                s.to_move == 0
                and s.phase is Phase.DRAW
                and min(owners.values()) >= 3
                and books >= 2
                and s.hand_size(0) >= 8
            ):
                return seed, moves, owners
            seat = s.to_move
            move = bots[seat].choose_seat(game.seat_info(seat), legal_for(s, game.legal_ids()), rng)
            moves.append((seat, move_text(move)))
            game.apply(move)
    pytest.fail(f"no seed in 0..59 reaches a busy {players}-player table")


@pytest.fixture(scope="module")
def mid_hand(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[int, dict[int, int]]]]:
    """A server holding, for each player count and size, a family table in the middle of a hand (seat 0,
    Kim, to draw; the others medium bots); with each player count's melds per owner."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("view-data"), port=0, bot_delay=0.0)
    settings.prepare()
    storage = Storage(settings.db_url)
    melds: dict[int, dict[int, int]] = {}
    try:
        for players in PLAYER_COUNTS:
            seed, moves, melds[players] = mid_hand_moves(players)
            for width, height in SIZES:
                table_id = f"view-{players}-{width}x{height}"
                seats = [SeatRow(0, "human", None, token_hash(BUSY_TOKEN), name="Kim")]
                seats += [SeatRow(s, "bot", "medium") for s in range(1, players)]
                storage.create_table(TableRow(table_id, now(), PRESET, players, seed, players - 1), seats)
                for seq, (seat, move) in enumerate(moves):
                    storage.append_move(table_id, seq, seat, move)
    finally:
        storage.close()
    with running_server(settings) as url:
        yield url, melds


# Each meld group of each seat: its box inside the window, inside the page's region of melds (nothing spills
# over the dock or the pile), inside every ancestor that clips (overflow other than visible), and on top at
# its centre and near its four corners (nothing covers it).
MELDS_SEEN_JS = """
() => [...document.querySelectorAll('[data-testid=melds-of]')].map((row) => ({
  owner: row.dataset.owner,
  melds: [...row.querySelectorAll('[data-rank]')].map((el) => {
    const outside = (r, b) => r.top < b.top - 0.5 || r.left < b.left - 0.5
      || r.bottom > b.bottom + 0.5 || r.right > b.right + 0.5;
    const r = el.getBoundingClientRect();
    const problems = [];
    if (!(r.width > 0 && r.height > 0)) problems.push('no size');
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      problems.push('outside the window');
    if (outside(r, el.closest('section').getBoundingClientRect()))
      problems.push('spills out of its region');
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      if (outside(r, a.getBoundingClientRect()))
        problems.push('clipped by ' + (a.className || a.tagName));
    }
    const inset = Math.min(4, r.width / 4, r.height / 4);
    const points = [[r.left + r.width / 2, r.top + r.height / 2],
      [r.left + inset, r.top + inset], [r.right - inset, r.top + inset],
      [r.left + inset, r.bottom - inset], [r.right - inset, r.bottom - inset]];
    for (const [x, y] of points) {
      const top = document.elementFromPoint(x, y);
      if (top && !(top === el || el.contains(top))) {
        problems.push('covered by ' + top.outerHTML.slice(0, 80));
        break;
      }
    }
    return { rank: el.dataset.rank, problems };
  }),
}))
"""


def assert_every_meld_seen(page: Page, melds: dict[int, int], name: str) -> None:
    """Every owner's row is there with all its melds, each in view, unclipped and uncovered."""
    rows: list[dict[str, Any]] = page.evaluate(MELDS_SEEN_JS)
    found = {int(r["owner"]): r["melds"] for r in rows}
    hidden = {o: [m for m in ms if m["problems"]] for o, ms in found.items()}
    hidden = {o: ms for o, ms in hidden.items() if ms}
    counts = {o: len(ms) for o, ms in found.items()}
    if hidden or counts != melds:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"failed-{name}.png"))
    assert counts == melds, f"{name}: meld groups per owner on the page {counts}, in the game {melds}"
    assert not hidden, f"{name}: meld groups not in full view: {hidden}"


# The other seats: no two seat boxes overlap, and each badge and count is inside its own seat's box.
SEATS_TIDY_JS = """
() => {
  const seats = [...document.querySelectorAll('.opponent')];
  const boxes = seats.map((s) => s.getBoundingClientRect());
  const problems = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, k) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      problems.push(`seats ${i} and ${i + k + 1} overlap`);
  }));
  seats.forEach((seat, i) => seat.querySelectorAll('.badge, .counts > span').forEach((el) => {
    const r = el.getBoundingClientRect(), b = boxes[i];
    const out = r.left < b.left - 0.5 || r.right > b.right + 0.5
      || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5;
    if (r.width && out)
      problems.push(`seat ${i}: "${el.textContent}" runs out of its box`);
  }));
  return problems;
}
"""


# Every seat's name reads whole, in its seat box and over its melds: no ellipsis, nothing cut by its box.
NAMES_WHOLE_JS = """
() => [...document.querySelectorAll('.opponent .who .name, .meld-row .meld-owner')].flatMap((el) => {
  const problems = [];
  const cs = getComputedStyle(el);
  if (cs.display !== 'inline' && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight))
    problems.push('cut short');
  const r = el.getBoundingClientRect();
  const b = el.closest('.opponent, .meld-row').getBoundingClientRect();
  if (!(r.width > 0) || r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5
      || r.bottom > b.bottom + 0.5)
    problems.push('runs out of its box');
  return problems.map((p) => `"${el.textContent}": ${p}`);
})
"""


@pytest.mark.parametrize(("players", "width", "height"), CASES, ids=[f"{p}p-{w}x{h}" for p, w, h in CASES])
def test_every_seats_melds_in_view_mid_hand(
    mid_hand: tuple[str, dict[int, dict[int, int]]], browser: Browser, players: int, width: int, height: int
) -> None:
    """Mid-hand, with the welcome notice still showing, then after drawing with two cards selected (the
    dock at its fullest): every meld group of every seat is in full view, the other seats' boxes and badges
    do not overlap, every seat's name reads whole, and the page does not scroll."""
    url, melds = mid_hand
    phone = width < 500 or height < 500
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone, reduced_motion="reduce"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    name = f"{players}p-{width}x{height}"
    try:
        page.goto(f"{url}/play/view-{players}-{width}x{height}#seat={BUSY_TOKEN}")
        page.wait_for_function("() => document.querySelector('main.felt')?.dataset.myTurn === 'yes'")
        page.get_by_test_id("notice").wait_for()
        assert_every_meld_seen(page, melds[players], name)
        assert page.evaluate(SEATS_TIDY_JS) == [], name
        assert page.evaluate(NAMES_WHOLE_JS) == [], f"a seat's name is cut at {name}"
        sizes = page.evaluate(
            "() => { const d = document.documentElement;"
            " return [d.scrollHeight, innerHeight, d.scrollWidth, innerWidth]; }"
        )
        assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], f"the page scrolls at {name}: {sizes}"
        page.get_by_role("button", name="Draw", exact=True).click()
        page.wait_for_function("() => document.querySelector('main.felt')?.dataset.phase === 'play'")
        cards = page.get_by_role("group", name="Your hand: select cards").get_by_role("button")
        cards.nth(0).click()
        cards.nth(1).click()
        assert_every_meld_seen(page, melds[players], name + "-drawn")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = SCREENSHOTS / f"mid-hand-{name}.png"
        page.screenshot(path=str(shot), full_page=False, animations="disabled")
    finally:
        context.close()
    assert not errors, errors
