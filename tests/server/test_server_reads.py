"""Cheap reads: the lobby list is paged, newest first, and slim (no rules source, no score lines); it is
built once while nothing changes; pages that are asked again answer 304 to their ETag; and a finished
game's replay steps are kept by game and step within a bound in bytes."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.record import Record
from handfoot.server.http.listing import ListingCache
from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.replay import LISTING, ReplayCache, replay_steps
from handfoot.server.tables.service import TableService
from helpers.server import running_server

BOTS = [{"kind": "bot", "bot": "medium"}] * 2


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("reads-data")
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0, rate_limit=0)) as url:
        yield url


def _table(base: str, **extra: Any) -> dict[str, Any]:
    body = {"preset": "kitchen-table", "players": 2, "public": True, **extra}
    made = httpx.post(f"{base}/api/tables", json=body)
    assert made.status_code == 201, made.text
    table: dict[str, Any] = made.json()["table"]
    return table


def _next(response: httpx.Response) -> str | None:
    link = response.headers.get("link")
    if link is None:
        return None
    found = re.fullmatch(r'<(?P<url>[^>]+)>; rel="next"', link)
    assert found is not None, link
    return found["url"]


def test_the_lobby_list_is_paged_newest_first_and_slim(base: str) -> None:
    made = [_table(base, options={"name": f"house {n}", "clean_book_bonus": 500}) for n in range(5)]
    ids = [t["id"] for t in made]
    private = httpx.post(f"{base}/api/tables", json={"preset": "kitchen-table", "players": 2}).json()
    seen: list[str] = []
    url: str | None = f"{base}/api/tables?limit=2"
    while url is not None:
        page = httpx.get(url if url.startswith("http") else f"{base}{url}")
        assert page.status_code == 200 and len(page.json()) <= 2
        for summary in page.json():
            assert "rules_source" not in summary and "hands" not in summary
            assert summary["hands_done"] == 0 and summary["public"] is True
        seen += [t["id"] for t in page.json()]
        url = _next(page)
    # Newest first, each once: the five were made one after the other, within a second or two, and
    # created_at is to the microsecond, so the list shows them in the reverse of that order.
    assert [i for i in seen if i in ids] == ids[::-1]
    assert len(seen) == len(set(seen)) and private["table"]["id"] not in seen
    # The table's own page keeps everything.
    full = httpx.get(f"{base}/api/tables/{ids[0]}").json()
    assert full["rules_source"] == {"extends": "kitchen-table", "name": "house 0", "clean_book_bonus": 500}
    assert full["hands"] == []
    assert httpx.get(f"{base}/api/tables?limit=0").status_code == 422
    assert httpx.get(f"{base}/api/tables?limit=101").status_code == 422
    assert httpx.get(f"{base}/api/tables", params={"before": "x" * 81}).status_code == 422


def test_playing_lists_only_games_going_on(base: str) -> None:
    going = _table(base)["id"]
    done = _table(base, seats=BOTS, options={"game_end": "hands", "hands_per_game": 1})["id"]
    for _ in range(600):  # the bots play the one hand out (a guard, not a speed check)
        if httpx.get(f"{base}/api/tables/{done}").json()["finished"]:
            break
        httpx.get(f"{base}/api/health")
    listed = {t["id"] for t in httpx.get(f"{base}/api/tables?playing=true&limit=100").json()}
    assert going in listed and done not in listed
    assert done in {t["id"] for t in httpx.get(f"{base}/api/tables?limit=100").json()}


def test_pages_that_have_not_changed_answer_304(base: str) -> None:
    table_id = _table(base)["id"]
    first = httpx.get(f"{base}/api/tables?limit=5")
    tag = first.headers["etag"]
    again = httpx.get(f"{base}/api/tables?limit=5", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    one = httpx.get(f"{base}/api/tables/{table_id}")
    assert (
        httpx.get(f"{base}/api/tables/{table_id}", headers={"If-None-Match": one.headers["etag"]}).status_code
        == 304
    )
    _table(base)  # a new table: the list changed
    changed = httpx.get(f"{base}/api/tables?limit=5", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag


def test_a_page_is_built_once_while_no_table_changes(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'list.db'}")
    service = TableService(storage, 50)
    clock = [0.0]
    cache = ListingCache(seconds=5.0, clock=lambda: clock[0])
    asyncio.run(service.open_table("kitchen-table", {}, 2, [], public=True))
    pages = [cache.page(service.tables.values, 50, None, False) for _ in range(100)]
    assert cache.built == 1 and len({p.etag for p in pages}) == 1
    asyncio.run(service.open_table("kitchen-table", {}, 2, [], public=True))  # a table more: built again
    assert len(cache.page(service.tables.values, 50, None, False).body) > len(pages[0].body)
    assert cache.built == 2
    clock[0] = 6.0  # and after a while even when nothing changed (who is away moves with time)
    cache.page(service.tables.values, 50, None, False)
    assert cache.built == 3
    storage.close()


def _finished_record(tmp_path: Path) -> Record:
    """A short finished game's record, played by the server's own bots."""
    from handfoot.server.bots.runner import BotRunner

    async def run() -> Record:
        storage = Storage(f"sqlite:///{tmp_path / 'replay.db'}")
        service = TableService(storage, 50)
        runner = BotRunner(service, 0.0, threads=1)
        runner.attach()
        options = {"game_end": "hands", "hands_per_game": 1}
        live = (await service.open_table("kitchen-table", options, 2, [("bot", "medium")] * 2)).live
        for _ in range(60000):
            if live.over:
                break
            await asyncio.sleep(0.001)
        await runner.stop()
        storage.close()
        assert live.over
        return live.record()

    return asyncio.run(run())


def test_replay_steps_are_kept_by_game_and_step_within_their_bound(tmp_path: Path) -> None:
    record = _finished_record(tmp_path)
    steps = len(replay_steps("g", record).steps)
    roomy = ReplayCache()
    first = roomy.get("g", lambda: record, 5)
    assert first is not None and roomy.replayed == 1
    for step in range(steps):
        assert roomy.get("g", lambda: record, step) is not None
    assert roomy.get("g", lambda: record, LISTING) is not None and roomy.replayed == 1  # replayed once
    assert roomy.get("g", lambda: record, steps) is None  # no such step

    def no_record() -> Record:
        raise AssertionError("a kept game was built again to answer")

    assert roomy.get("g", no_record, 3) == roomy.get("g", lambda: record, 3)  # kept: no record needed
    assert roomy.get("g", no_record, LISTING).value == json.loads(roomy.get("g", no_record, LISTING).body)
    whole = roomy.size
    # A bound of half a game: never more than that kept; a forgotten step replays the game again.
    small = ReplayCache(max_bytes=whole // 2)
    small.get("g", lambda: record, 0)
    assert small.size <= whole // 2 and small.replayed == 1
    assert small.get("g", lambda: record, 0) is not None and small.replayed == 1  # the one asked for is kept
    small.get("g", lambda: record, steps - 1)
    small.get("g", lambda: record, 1)
    assert small.size <= whole // 2 and small.replayed >= 2
    assert small.get("g", lambda: record, 3) == roomy.get(
        "g", lambda: record, 3
    )  # the same answer either way


def test_a_replay_step_answers_304_to_its_etag(base: str) -> None:
    table_id = _table(base, seats=BOTS, options={"game_end": "hands", "hands_per_game": 1})["id"]
    for _ in range(600):
        if httpx.get(f"{base}/api/tables/{table_id}").json()["finished"]:
            break
        httpx.get(f"{base}/api/health")
    step = httpx.get(f"{base}/api/tables/{table_id}/replay/3")
    assert step.status_code == 200 and step.json()["step"] == 3
    again = httpx.get(
        f"{base}/api/tables/{table_id}/replay/3", headers={"If-None-Match": step.headers["etag"]}
    )
    assert again.status_code == 304
    listing = httpx.get(f"{base}/api/tables/{table_id}/replay").json()
    assert listing["steps"][3]["step"] == 3 and listing["table"]["id"] == table_id
    last = len(listing["steps"]) - 1
    missing = httpx.get(f"{base}/api/tables/{table_id}/replay/{last + 1}")
    assert missing.status_code == 404 and f"allowed: 0 to {last}" in missing.json()["error"]["message"]
