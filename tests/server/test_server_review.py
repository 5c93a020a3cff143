"""The server's hand reviews (``POST``/``GET /api/tables/{id}/review``): a seat asks for its own review
of a finished hand, follows its progress and reads it; watchers, other seats, hands not over and bad
requests are refused. The table is stored as the review tests' planted record's first hand
(``tests/fixtures/review``), with every seat a person, so nothing moves while the review is worked out.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.record import parse_record, record_of, replay
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, TableRow, now, token_hash
from handfoot.server.tables.reviews import WORLDS_ENV
from helpers.server import running_server, store_game

FIXTURE = Path(__file__).parent.parent / "fixtures" / "review" / "planted-wild-4.json"
TABLE = "review-table"
TOKENS = [f"seat-{seat}-token-of-the-review-table" for seat in range(4)]
WATCH = "watch-key-of-the-review-table"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, list[str]]]:
    """A server whose storage holds the planted hand as a private table; its URL, the planted move's
    index and the record's moves."""
    data = json.loads(FIXTURE.read_text())
    record = parse_record(data["record"])
    settings = Settings(data_dir=tmp_path_factory.mktemp("review-data"), port=0, bot_delay=0.0)
    row = TableRow(
        TABLE,
        now(),
        "kitchen-table",
        4,
        record.seed,
        record.dealer,
        public=False,
        watch_hash=token_hash(WATCH),
    )
    seats = [SeatRow(seat, "human", None, token_hash(TOKENS[seat]), f"P{seat}") for seat in range(4)]
    store_game(settings, row, seats, [(-1, text) for text in record.moves])
    # The server keeps the game as the engine played it: its record (and the replay's ``?step=N``)
    # counts engine moves, a lay-down written at once (``meld A | B``) being several steps.
    before, _ = replay(record, data["planted"])
    planted = sum(len(moves) for moves in before.moves)
    stepped, _ = replay(record)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(WORLDS_ENV, "6")
        with running_server(settings) as url:
            yield url, planted, list(record_of(stepped).moves)


def ask(base: str, key: str | None, body: dict[str, Any] | None = None) -> httpx.Response:
    headers = {} if key is None else {"X-Handfoot-Key": key}
    return httpx.post(f"{base}/api/tables/{TABLE}/review", json=body or {}, headers=headers, timeout=30)


def read(base: str, key: str, hand: int | None = None) -> httpx.Response:
    params = {} if hand is None else {"hand": hand}
    return httpx.get(
        f"{base}/api/tables/{TABLE}/review", params=params, headers={"X-Handfoot-Key": key}, timeout=30
    )


def test_a_seat_asks_for_its_review_and_reads_it(server: tuple[str, int, list[str]]) -> None:
    base, planted, moves = server
    started = ask(base, TOKENS[0], {"hand": 0})
    assert started.status_code == 202, started.text
    assert started.json()["state"] in ("running", "done") and started.json()["seat"] == 0
    assert ask(base, TOKENS[0]).json()["hand"] == 0, "asked again (the last finished hand): the same review"
    seen_progress = set()
    deadline = time.monotonic() + 300
    while True:
        job = read(base, TOKENS[0], 0).json()
        seen_progress.add(job["done"])
        if job["state"] != "running":
            break
        assert time.monotonic() < deadline, f"the review did not finish: {job}"
        time.sleep(0.5)
    assert job["state"] == "done" and job["done"] == job["total"] > 0, job
    review = job["review"]
    assert review["seat"] == 0 and review["worlds"] == 6
    decisions = review["decisions"]
    assert len(decisions) == job["total"]
    covering = [d for d in decisions if d["step"] <= planted and d["played"].endswith(moves[planted])]
    assert covering, "the planted discard ends one of seat 0's decisions (its lay-down and discard)"
    order = [(not d["mistake"], -d["cost"]) for d in decisions]
    assert order == sorted(order), "the mistakes first, each group the costliest first"
    assert review["mistakes"] == sum(d["mistake"] for d in decisions)
    for decision in decisions:
        assert decision["move"] == moves[decision["step"]], "each decision begins with a move seat 0 made"
        assert decision["played"].split("; ")[0] in moves[decision["step"]] or decision["part"] > 0
    assert read(base, TOKENS[0]).json()["hand"] == 0, "without a hand: the last review asked for"


def test_only_the_seat_sees_its_review(server: tuple[str, int, list[str]]) -> None:
    base, _, _ = server
    ask(base, TOKENS[0], {"hand": 0})
    assert read(base, TOKENS[1], 0).status_code == 404, "seat 1 never asked: seat 0's review is not its"
    assert ask(base, WATCH).json()["error"]["code"] == "seat_only"
    assert ask(base, None).status_code == 404  # a private table without a link answers as no table
    assert (
        httpx.get(f"{base}/api/tables/{TABLE}/review", headers={"X-Handfoot-Key": WATCH}).status_code == 403
    )


def test_a_hand_not_over_and_bad_requests_are_refused(server: tuple[str, int, list[str]]) -> None:
    base, _, _ = server
    refused = ask(base, TOKENS[2], {"hand": 1})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_finished"
    assert "hand 1 of this record is not finished" in refused.json()["error"]["message"]
    bad = ask(base, TOKENS[2], {"hand": 5})
    assert bad.status_code == 422 and "hand 5 is not in this record" in bad.json()["error"]["message"]
    for body in ({"hand": -1}, {"hand": "0"}, {"seat": 1}):
        response = ask(base, TOKENS[2], body)
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid", body


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_the_review_page_asks_for_the_review_and_reads_it(server: tuple[str, int, list[str]]) -> None:
    """The browser holding seat 0's link opens /review/{id}: the page asks, shows progress, then the
    same items as the command line (the mistakes), each with its sentence and a link to its position in
    the replay, seats counted as the command line counts them."""
    from playwright.sync_api import sync_playwright

    base, _, _ = server
    remembered = json.dumps(
        [{"id": TABLE, "rules": "kitchen-table", "when": "", "seat": 0, "token": TOKENS[0]}]
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"]
        )
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}/")
            page.evaluate("(v) => localStorage.setItem('handfoot.recent', v)", remembered)
            page.goto(f"{base}/review/{TABLE}?hand=0")
            page.wait_for_selector("section[aria-label='Your review']", timeout=300_000)
            items = page.locator(".review-decision")
            listed = [d for d in read(base, TOKENS[0], 0).json()["review"]["decisions"] if d["mistake"]]
            assert items.count() == len(listed), "the page lists the mistakes, as the command line does"
            links = [items.nth(i).locator("a").get_attribute("href") for i in range(items.count())]
            assert links == [f"/replay/{TABLE}?step={d['step']}" for d in listed]
            text = page.locator("main").inner_text()
            assert "Seat 0, hand 0:" in text, "seats counted from 0, as on the command line"
            assert all(d["sentence"] in text for d in listed)
            assert "once the game is over" not in text
            page.goto(f"{base}/review/other-table")
            page.wait_for_selector("[role=alert]")
            assert "holds no seat" in page.locator("[role=alert]").inner_text()
            assert not errors, errors
        finally:
            browser.close()
