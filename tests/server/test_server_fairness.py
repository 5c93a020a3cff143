"""Bots share the server fairly: decisions are queued round-robin over the addresses that created the
tables, tables of bots alone are capped per address and in all, a game has a longest length, and a
table nobody looks at is put away and plays on when someone comes back. Fairness is checked by the
order and counts of decisions, never by how fast they are."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from handfoot.bots.pause import pause_point
from handfoot.server.bots import queue as queue_module
from handfoot.server.bots.queue import FairQueue
from handfoot.server.bots.runner import BotRunner, bot_table_refusal, bots_alone, someone_waits
from handfoot.server.limits import MAX_BOT_TABLES_PER_ADDRESS, Limiters
from handfoot.server.settings import Settings
from handfoot.server.store.storage import Storage
from handfoot.server.tables.game_length import ENDED_BY_LENGTH, GameLength
from handfoot.server.tables.moves import play
from handfoot.server.tables.service import TableService
from handfoot.server.tables.table import LiveTable
from helpers.server import running_server

FOUR_BOTS = [("bot", "medium")] * 4


def gated_decisions() -> tuple[threading.Event, list[str], Callable[[str], str]]:
    """A gate, the order decisions ran in, and a decision that waits for the gate, then records its name."""
    gate = threading.Event()
    order: list[str] = []

    def decision(name: str) -> str:
        gate.wait(10)
        order.append(name)
        return name

    return gate, order, decision


def test_the_queue_takes_owners_in_turn_however_many_tables_each_has() -> None:
    """One thread, twenty decisions queued by one owner and then two by another: the other's run third
    and fifth, not twenty-first and twenty-second; and an owner's own decisions keep their order."""

    async def run() -> list[str]:
        gate, order, decision = gated_decisions()
        with ThreadPoolExecutor(1) as pool:
            queue = FairQueue(pool, threads=1)
            heavy = [asyncio.ensure_future(queue.run("A", lambda i=i: decision(f"A{i}"))) for i in range(20)]
            await asyncio.sleep(0)
            light = [asyncio.ensure_future(queue.run("B", lambda i=i: decision(f"B{i}"))) for i in range(2)]
            await asyncio.sleep(0)  # every decision is queued, A0 is running
            assert queue.running == 1 and queue.pending() == 21
            gate.set()
            results = await asyncio.gather(*heavy, *light)
            assert results == [f"A{i}" for i in range(20)] + ["B0", "B1"]
            assert queue.served == {"A": 20, "B": 2}
            # B0 waited for A1 (A0 was running when it came), B1 for A1 and A2 (and B0, its own).
            assert queue.most_ahead["B"] == 2
        return order

    order = asyncio.run(run())
    assert order[:6] == ["A0", "A1", "B0", "A2", "B1", "A3"]
    assert [name for name in order if name.startswith("A")] == [f"A{i}" for i in range(20)]


def test_a_decision_that_raises_reaches_its_caller_and_the_queue_goes_on() -> None:
    async def run() -> None:
        with ThreadPoolExecutor(1) as pool:
            queue = FairQueue(pool, threads=1)

            def fail() -> int:
                raise ValueError("no move")

            with pytest.raises(ValueError, match="no move"):
                await queue.run("A", fail)
            assert await queue.run("A", lambda: 7) == 7
            assert queue.running == 0 and queue.pending() == 0

    asyncio.run(run())


async def _until(check: Callable[[], bool], what: str, rounds: int = 6000) -> None:
    """Let the loop run until ``check()`` holds (a guard against a hang, not a speed check)."""
    for _ in range(rounds):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def _service(tmp_path: Path) -> TableService:
    return TableService(Storage(f"sqlite:///{tmp_path / 'fair.db'}"), 50)


def test_a_normal_tables_bots_move_while_one_address_plays_many_bot_tables(tmp_path: Path) -> None:
    """Twelve tables of four bots from one address and one from another, one bot thread: each time the
    other address's table has a decision waiting, at most one of the first address's starts before it
    (first come, first served made it wait behind up to twelve), so its bots keep moving."""

    async def run() -> tuple[dict[str, int], dict[str, int], int]:
        service = _service(tmp_path)
        runner = BotRunner(service, 0.0, threads=1)
        runner.attach()
        heavy = []
        for _ in range(12):  # each owned as soon as it is made, before its bots' first decision is queued
            live = (await service.open_table("kitchen-table", {}, 4, FOUR_BOTS)).live
            runner.own(live.id, "203.0.113.1")
            heavy.append(live)
        normal = (await service.open_table("kitchen-table", {}, 4, FOUR_BOTS)).live
        runner.own(normal.id, "198.51.100.7")
        await _until(lambda: normal.version >= 40, "the normal table made 40 moves")
        served, ahead = dict(runner.queue.served), dict(runner.queue.most_ahead)
        others = sum(live.version for live in heavy)
        await runner.stop()
        service.storage.close()
        return served, ahead, others

    served, ahead, others = asyncio.run(run())
    assert served["198.51.100.7"] >= 40 and others >= 40  # both addresses' bots played meanwhile
    assert ahead["198.51.100.7"] <= 1, ahead


def test_tables_of_bots_alone_are_capped_per_address_and_in_all(tmp_path: Path) -> None:
    async def run() -> None:
        service = _service(tmp_path)
        runner = BotRunner(service, 10.0, threads=1)  # bots wait: nothing needs to play here
        runner.attach()
        limits = Limiters.default()
        assert limits.bot_tables_per_address == MAX_BOT_TABLES_PER_ADDRESS
        for _ in range(MAX_BOT_TABLES_PER_ADDRESS):
            assert bot_table_refusal(runner, limits, "203.0.113.1") is None
            runner.own((await service.open_table("kitchen-table", {}, 4, FOUR_BOTS)).live.id, "203.0.113.1")
        refusal = bot_table_refusal(runner, limits, "203.0.113.1")
        assert refusal is not None and f"at most {MAX_BOT_TABLES_PER_ADDRESS} at once" in refusal
        assert bot_table_refusal(runner, limits, "198.51.100.7") is None  # another address may
        # A table with a person at it is no table of bots alone.
        mixed = (await service.open_table("kitchen-table", {}, 4, [("invite", None), *FOUR_BOTS[1:]])).live
        assert not bots_alone(mixed) and sum(runner.bot_tables().values()) == MAX_BOT_TABLES_PER_ADDRESS
        full = Limiters.default()
        full.bot_tables = MAX_BOT_TABLES_PER_ADDRESS
        refusal = bot_table_refusal(runner, full, "198.51.100.7")
        assert refusal is not None and "as many tables of bots alone as it can" in refusal
        await runner.stop()
        service.storage.close()

    asyncio.run(run())


def test_creating_too_many_bot_tables_is_a_clear_json_refusal(tmp_path: Path) -> None:
    body = {"preset": "kitchen-table", "players": 4, "seats": [{"kind": "bot", "bot": "easy"}] * 4}
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=5.0)) as url:
        one = {"X-Forwarded-For": "203.0.113.1"}  # as a proxy on this machine reports a visitor
        made = [
            httpx.post(f"{url}/api/tables", json=body, headers=one) for _ in range(MAX_BOT_TABLES_PER_ADDRESS)
        ]
        assert [r.status_code for r in made] == [201] * MAX_BOT_TABLES_PER_ADDRESS
        refused = httpx.post(f"{url}/api/tables", json=body, headers=one)
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "too_many_bot_tables" and "bots alone" in error["message"]
        other = httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.7"})
        assert other.status_code == 201
        with_a_person = {**body, "seats": [{"kind": "invite"}, *body["seats"][1:]]}
        assert httpx.post(f"{url}/api/tables", json=with_a_person, headers=one).status_code == 201


def test_a_game_that_goes_on_too_long_is_ended_and_stored_so(tmp_path: Path) -> None:
    async def run() -> tuple[LiveTable, str | None, Any]:
        service = _service(tmp_path)
        runner = BotRunner(service, 0.0, threads=1)
        runner.attach()
        GameLength(service, hands=1, moves=10_000).attach()
        live = (await service.open_table("kitchen-table", {}, 2, [("bot", "medium")] * 2)).live
        await _until(lambda: live.ended is not None, "the game was ended")
        await _until(lambda: not runner.tasks, "the bots stopped")
        version = live.version
        refused = await play(service, live, live.bot_tokens[0], version, "draw")
        stored = service.storage.load(live.id)
        await runner.stop()
        service.storage.close()
        return live, stored.row.ended if stored else None, refused

    live, stored_ended, refused = asyncio.run(run())
    assert live.ended == ENDED_BY_LENGTH and stored_ended == ENDED_BY_LENGTH
    assert len(live.game.results) == 1 and not live.game.finished  # kitchen-table plays to 10,000
    assert live.info()["finished"] is True and live.info()["to_move"] is None
    assert refused.rule == "game_end"


def test_a_table_nobody_looks_at_is_put_away_and_plays_on_when_someone_comes(tmp_path: Path) -> None:
    async def run() -> None:
        clock = [0.0]
        service = _service(tmp_path)
        runner = BotRunner(service, 0.0, threads=1, unwatched_seconds=60.0, clock=lambda: clock[0])
        runner.attach()
        live = (await service.open_table("kitchen-table", {}, 2, [("bot", "medium")] * 2)).live
        await _until(lambda: live.version >= 5, "the bots played")
        clock[0] = 61.0  # nobody looked for a minute
        await _until(lambda: live.id in runner.put_away, "the table was put away")
        await _until(lambda: not runner.tasks, "its bots stopped")
        stopped = live.version
        await asyncio.sleep(0.2)
        assert live.version == stopped and not live.over
        assert live.id not in runner.bot_tables() and bots_alone(live)
        assert (
            service.storage.load(live.id) is not None and len(service.storage.load(live.id).moves) == stopped
        )
        runner.seen(live, "198.51.100.7")  # someone opened it
        await _until(lambda: live.version >= stopped + 5, "it played on")
        await runner.stop()
        service.storage.close()

    asyncio.run(run())


def test_handing_the_last_persons_seat_to_a_bot_is_capped_like_creating_one(tmp_path: Path) -> None:
    from helpers.server import SeatClient

    bots = [{"kind": "bot", "bot": "easy"}] * 2
    one = {"X-Forwarded-For": "203.0.113.1"}
    with running_server(Settings(data_dir=tmp_path, port=0, bot_delay=5.0)) as url:
        for _ in range(MAX_BOT_TABLES_PER_ADDRESS):
            made = httpx.post(
                f"{url}/api/tables",
                json={"preset": "kitchen-table", "players": 2, "seats": bots},
                headers=one,
            )
            assert made.status_code == 201
        body = {"preset": "kitchen-table", "players": 2, "seats": [{"kind": "invite"}, bots[0]]}
        table = httpx.post(f"{url}/api/tables", json=body, headers=one).json()
        host = SeatClient(url, table["table"]["id"], host=table["host"]["key"], additional_headers=one)
        host.send({"type": "host", "action": "bot", "seat": 0, "bot": "easy"})
        refused = host.until(lambda m: m["type"] == "error")
        assert refused["code"] == "host" and "bots alone" in refused["message"]
        host.send({"type": "host", "action": "rename", "seat": 0, "name": "Ann"})  # anything else goes on
        host.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["name"] == "Ann")
        host.close()


def test_a_persons_table_goes_first_but_tables_of_bots_alone_keep_a_share() -> None:
    async def run() -> list[str]:
        gate, order, decision = gated_decisions()
        with ThreadPoolExecutor(1) as pool:
            queue = FairQueue(pool, threads=1)
            alone = [asyncio.ensure_future(queue.run("A", lambda i=i: decision(f"A{i}"))) for i in range(6)]
            await asyncio.sleep(0)
            people = [
                asyncio.ensure_future(queue.run("P", lambda i=i: decision(f"P{i}"), urgent=True))
                for i in range(5)
            ]
            await asyncio.sleep(0)
            gate.set()
            await asyncio.gather(*alone, *people)
        return order

    order = asyncio.run(run())
    # A0 was running; then three of the person's table, one of the bots alone, and so on.
    assert order == ["A0", "P0", "P1", "P2", "A1", "P3", "P4", "A2", "A3", "A4", "A5"]


def test_an_urgent_decision_takes_the_reserve_thread_and_pauses_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One thread, busy with a search nobody waits for, and one in reserve: a person's table's decision
    starts at once on the reserve (it does not wait for the search), and the search, at its next pause
    point, waits until the person's decision is done."""
    monkeypatch.setattr(queue_module, "PAUSE_MOST", 60.0)  # a pause lasts as long as the urgent work
    order: list[str] = []
    searching = threading.Event()
    urgent_started = threading.Event()
    release = threading.Event()

    def search() -> str:
        searching.set()
        urgent_started.wait(10)
        pause_point()  # the urgent decision runs now: this waits for it to finish
        order.append("search went on")
        return "search"

    def person() -> str:
        urgent_started.set()
        release.wait(10)
        order.append("person's decision done")
        return "person"

    async def run() -> None:
        with ThreadPoolExecutor(2) as pool:
            queue = FairQueue(pool, threads=1, reserve=1)
            background = asyncio.ensure_future(queue.run("A", search))
            await _until(searching.is_set, "the search started")
            urgent = asyncio.ensure_future(queue.run("P", person, urgent=True))
            await _until(urgent_started.is_set, "the urgent decision started beside the search")
            assert queue.running == 2 and not queue.calm.is_set()
            # a second decision nobody waits for does not take the reserve
            other = asyncio.ensure_future(queue.run("B", lambda: "other"))
            await asyncio.sleep(0.05)
            assert queue.running == 2 and queue.pending() == 1
            release.set()
            assert await asyncio.gather(background, urgent, other) == ["search", "person", "other"]
            assert queue.calm.is_set()

    asyncio.run(run())
    assert order == ["person's decision done", "search went on"]


def test_a_pause_point_outside_the_queue_does_nothing() -> None:
    pause_point()  # no hook: returns at once (a search run by simulate or the terminal game)


def test_tables_whose_other_seats_are_programs_are_not_waited_on() -> None:
    """A seat counts as a person's unless every connection to it said ``program`` (bot connect)."""

    def table(connections: list[tuple[int | None, bool]]) -> Any:
        seats = [SimpleNamespace(bot_plays=None), SimpleNamespace(bot_plays="hard")]
        conns = [SimpleNamespace(seat=seat, program=program) for seat, program in connections]
        return SimpleNamespace(seats=seats, connections=conns)

    assert someone_waits(table([])) is True  # a person's seat nobody holds yet
    assert someone_waits(table([(0, False)])) is True
    assert someone_waits(table([(0, True)])) is False
    assert someone_waits(table([(0, True), (None, False)])) is False  # a spectator waits for nobody
    assert someone_waits(table([(0, True), (0, False)])) is True  # a browser tab beside the program
