"""No leak: whole hands played over real WebSockets (two seats driven by the test, the others by server
bots, one spectator); every message each connection received is checked against the true game, rebuilt
independently from the downloaded record: a seat sees exactly its own hand, the true table and pile top,
and no card anywhere else (no other hand, no Foot, no stock, no hidden part of the pile)."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot import cards as C
from handfoot.engine import Game, HandState, parse_move
from handfoot.record import parse_record, replay
from handfoot.server.settings import Settings
from helpers.server import SeatClient, running_server

CODE = re.compile(r"^(?:[AKQJT98765432][SHDC]|JK)$")
# Where a state message may name cards; everything else must name none.
CARD_PLACES = {"hand", "melds", "red_threes", "pile", "pile_top"}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("noleak-data")
    # Faster than people play, from one address: rate limits are off here (test_server_abuse tests them).
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0, rate_limit=0)) as url:
        yield url


def codes_in(value: Any) -> list[str]:
    """Every string value (not key) anywhere in ``value`` that is a card code."""
    if isinstance(value, str):
        return [value] if CODE.match(value) else []
    if isinstance(value, dict):
        return [code for item in value.values() for code in codes_in(item)]
    if isinstance(value, list):
        return [code for item in value for code in codes_in(item)]
    return []


def hand_codes(state: HandState, seat: int) -> list[str]:
    counts = state.hand_cards[seat]
    cards = [card for card in range(C.NUM_CARD_IDS) for _ in range(counts[card])]
    return C.codes(sorted(cards, key=C.sort_key))


def move_codes(text: str) -> Counter[str]:
    if text == "stage":  # a staging step as history shows it to everyone: no card named
        return Counter()
    return Counter(C.CODE_OF[c] for g in parse_move(text).groups for c in g.cards) + Counter(
        [C.CODE_OF[parse_move(text).card]] if parse_move(text).card >= 0 else []
    )


def check_state_message(
    message: dict[str, Any], seat: int | None, truth: HandState, before: HandState | None
) -> None:
    """One state message against the true position it claims to show."""
    view = message["view"]
    assert view["seat"] == seat
    assert view["hand"] == (hand_codes(truth, seat) if seat is not None else [])
    assert [m["cards"] for m in view["melds"]] == [C.codes(m.cards) for m in truth.melds]
    assert view["red_threes"] == [C.codes(r) for r in truth.red_threes]
    assert view["pile_top"] == (C.CODE_OF[truth.pile[-1]] if truth.pile else None)
    assert view["pile_size"] == len(truth.pile) and view["stock_size"] == len(truth.stock)
    shows_pile = truth.rules.pile_visible.value == "all"
    assert view["pile"] == (C.codes(truth.pile) if shows_pile else [])
    for other, seat_view in enumerate(view["seats"]):
        assert seat_view["hand_count"] == truth.hand_size(other)
        assert seat_view["foot_count"] == len(truth.feet[other])
    # no card code anywhere else: not in the table summary, the seats, nor any other view field
    elsewhere = {k: v for k, v in view.items() if k not in CARD_PLACES}
    assert codes_in(elsewhere) == [] and codes_in(message["table"]) == []
    own = Counter(view["hand"])
    for text in message["legal"]:
        assert not move_codes(text) - own, f"legal move {text} names a card seat {seat} does not hold"
    if seat is None or truth.to_move != seat:
        assert message["legal"] == []
    last = message["last"]
    if last is not None:
        assert before is not None
        public = move_codes(last["move"])
        if before.pile:
            public[C.CODE_OF[before.pile[-1]]] += 1
        for cards in [*truth.red_threes, *(m.cards for m in truth.melds)]:
            public.update(C.codes(cards))
        for event in last["events"]:
            assert not Counter(event["cards"]) - public, f"event {event} names a card that is not public"


def test_whole_hands_leak_nothing(base: str) -> None:
    body = {
        "preset": "kitchen-table",
        "options": {"game_end": "hands", "hands_per_game": 2},
        "players": 4,
        "seats": [{"kind": "invite"}, {"kind": "bot"}, {"kind": "invite"}, {"kind": "bot", "bot": "easy"}],
        "public": True,
    }
    created = httpx.post(f"{base}/api/tables", json=body).json()
    table_id = created["table"]["id"]
    tokens = {invite["seat"]: invite["token"] for invite in created["invites"]}
    watcher = SeatClient(base, table_id)
    clients = {seat: SeatClient(base, table_id, token, f"seat {seat}") for seat, token in tokens.items()}
    rng = random.Random(5)
    latest: dict[int, dict[str, Any]] = {}
    finished = False
    while not finished:
        for seat, client in clients.items():
            for message in client.barrier():
                if message["type"] == "state":
                    latest[seat] = message
        newest = max(latest.values(), key=lambda m: m["version"])
        finished = newest["table"]["finished"]
        for seat, message in list(latest.items()):
            if message["version"] == newest["version"] and message["legal"]:
                melds = [t for t in message["legal"] if t.startswith(("meld", "pickup"))]
                choice = rng.choice(melds if melds and rng.random() < 0.7 else message["legal"])
                clients[seat].move(choice, message["version"])
                answer = clients[seat].until(lambda m: m["type"] in ("state", "refused", "error"))
                assert answer["type"] == "state", answer
                latest[seat] = answer
    watcher.barrier()
    record_json = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    record = parse_record(record_json)
    final, error = replay(record)
    assert error is None and final.finished and final.totals == newest["table"]["totals"]

    # the true position after each version, and just before the move that made it
    game: Game = record.new_game()
    truths = [game.state.copy()]
    befores: list[HandState | None] = [None]
    for text in record.moves:
        befores.append(game.state.copy())
        game.apply(parse_move(text))
        truths.append(game.state.copy())
    checked = 0
    for seat, client in [*clients.items(), (None, watcher)]:
        for message in client.received:
            if message["type"] == "state":
                version = message["version"]
                check_state_message(message, seat, truths[version], befores[version])
                if message["last"] is not None:
                    played = record.moves[version - 1]  # a staging step's cards stay with their holder
                    assert message["last"]["move"] == ("stage" if played.startswith("stage ") else played)
                checked += 1
            elif message["type"] in ("welcome", "table"):
                assert codes_in(message.get("table", {})) == []
    assert checked > len(record.moves)  # every seat saw (nearly) every move
    assert len(final.results) == 2
