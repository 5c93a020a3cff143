"""Protocol tests over real WebSockets against a real uvicorn server: hello and auth, turn order,
stale versions, refused moves (to the sender only), accepted moves (to everyone), reconnecting."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from handfoot.server.settings import Settings
from handfoot.server.wire.messages import SERVER_MESSAGE
from helpers.server import SeatClient, running_server


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("protocol-data")
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0)) as url:
        yield url


def check_server_message(message: dict[str, Any]) -> None:
    """Raise pydantic's ValidationError unless ``message`` has the shape its ``type`` says (no field
    missing, none extra)."""
    SERVER_MESSAGE.validate_python(message, strict=True)


def new_table(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("preset", "kitchen-table")
    body.setdefault("players", 2)
    body.setdefault("public", True)  # watched without a key here; privacy has its own tests
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def two_seats(base: str) -> tuple[str, SeatClient, SeatClient]:
    created = new_table(base)
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    return (
        table_id,
        SeatClient(base, table_id, tokens[0], "Ann"),
        SeatClient(base, table_id, tokens[1], "Bob"),
    )


def first_state(client: SeatClient) -> dict[str, Any]:
    return client.state(0)


def test_hello_as_player_gives_welcome_and_own_view(base: str) -> None:
    _table_id, ann, _bob = two_seats(base)
    assert ann.welcome["type"] == "welcome"
    assert ann.welcome["seat"] == 0 and ann.welcome["role"] == "player"
    assert ann.welcome["protocol"] == 1
    assert "seed" not in ann.welcome and "seed" not in ann.welcome["rules"]
    state = first_state(ann)
    assert state["view"]["seat"] == 0
    assert len(state["view"]["hand"]) == state["view"]["seats"][0]["hand_count"] > 0
    names = [s["name"] for s in state["table"]["seats"]]
    assert names[0] == "Ann"


def test_every_message_has_the_shape_of_its_model(base: str) -> None:
    """Welcome, state, refused, error and pong messages as sent have exactly the fields of their models in
    server/messages.py (from which the browser client's types are generated): none missing, none extra."""
    _table_id, ann, bob = two_seats(base)
    check_server_message(ann.welcome)
    state = first_state(ann)
    check_server_message(state)
    mover = ann if state["view"]["to_move"] == 0 else bob
    mover.send({"type": "move", "version": 0, "move": "discard ZZ"})
    check_server_message(mover.until(lambda m: m["type"] in ("refused", "error")))
    mover.send({"type": "move", "version": 0, "move": "draw"})
    check_server_message(mover.until(lambda m: m["type"] == "state" and m["version"] == 1))
    mover.send({"type": "nonsense"})
    check_server_message(mover.until(lambda m: m["type"] == "error"))
    mover.send({"type": "ping"})
    check_server_message(mover.until(lambda m: m["type"] == "pong"))
    with pytest.raises(ValidationError):
        check_server_message({**state, "extra": 1})


def test_client_types_are_generated_from_the_models() -> None:
    """web-client/src/generated/messages.ts is what tools/client_types.py writes from the models."""
    tool = Path(__file__).resolve().parents[2] / "tools" / "client_types.py"
    spec = importlib.util.spec_from_file_location("client_types", tool)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


def test_state_carries_the_seats_outlook_in_sentences(base: str) -> None:
    """Each seat's state says what going out still needs (a sentence), whether the pile may be taken and
    the hand's card values, as the engine's outlook has them; a spectator's has no going-out facts."""
    table_id, ann, _bob = two_seats(base)
    seen = first_state(ann)["outlook"]
    assert seen["going_out"] == "To go out you still need one book and to be in your Foot."
    assert seen["may_go_out"] is False and seen["needs"] == ["one book", "to be in your Foot"]
    assert seen["card_values"]["JK"] == 50 and set(seen["card_values"]) >= {"A", "2", "3B", "3R"}
    assert set(seen) >= {"pile_refusal", "pile_frozen", "last_turn", "stock"}
    watcher = SeatClient(base, table_id)
    public = watcher.state(0)["outlook"]
    assert public["going_out"] is None and public["needs"] == [] and public["last_turn"] is False


def test_bad_token_is_refused_and_closed(base: str) -> None:
    created = new_table(base)
    table_id = created["table"]["id"]
    client = SeatClient(base, table_id, "x" * 32)
    assert client.welcome == {
        "type": "error",
        "code": "bad_token",
        "message": "this seat token does not belong to this table",
    }
    with pytest.raises(ConnectionClosed) as closed:
        client.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_token_of_another_table_is_refused(base: str) -> None:
    other = new_table(base)
    created = new_table(base)
    client = SeatClient(base, created["table"]["id"], other["invites"][0]["token"])
    assert client.welcome["code"] == "bad_token"


def test_unknown_table(base: str) -> None:
    client = SeatClient(base, "no-such-table")
    assert client.welcome["code"] == "no_table"


def test_first_message_must_be_hello(base: str) -> None:
    created = new_table(base)
    url = base.replace("http://", "ws://") + f"/ws/tables/{created['table']['id']}"

    with connect(url) as ws:
        ws.send('{"type": "sync"}')
        message = json.loads(ws.recv(timeout=5))
        assert message["type"] == "error" and message["code"] == "no_hello"


def test_spectator_sees_no_hand_and_cannot_move(base: str) -> None:
    table_id, _ann, _bob = two_seats(base)
    watcher = SeatClient(base, table_id)
    assert watcher.welcome["role"] == "spectator" and watcher.welcome["seat"] is None
    state = watcher.state(0)
    assert state["view"]["hand"] == [] and state["legal"] == []
    watcher.move("draw", 0)
    refused = watcher.until(lambda m: m["type"] == "refused")
    assert refused["rule"] == "seat"
    assert watcher.latest_state()["version"] == 0


def test_only_the_seat_to_move_gets_legal_moves_and_may_move(base: str) -> None:
    _table_id, ann, bob = two_seats(base)
    states = {0: first_state(ann), 1: first_state(bob)}
    to_move = states[0]["view"]["to_move"]
    mover, waiter = (ann, bob) if to_move == 0 else (bob, ann)
    assert states[to_move]["legal"] and "draw" in states[to_move]["legal"]
    assert states[1 - to_move]["legal"] == []
    waiter.move("draw", 0)
    refused = waiter.until(lambda m: m["type"] == "refused")
    assert refused["rule"] == "turn" and refused["version"] == 0
    assert "not your turn" in refused["message"]
    # nothing changed, and the mover heard nothing of it
    assert [m for m in mover.barrier() if m["type"] in ("refused", "state", "error")] == []
    assert mover.latest_state()["version"] == 0


def suitless(move: str) -> str:
    """A move's text with each card's suit left out ("stage TH" -> "stage T")."""
    return re.sub(r"\b([2-9TJQKA])[SHDC]\b", r"\1", move)


def check_offers(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The ``offers`` of a state sent to ``seat``, the seat to move, checked against its view and legal
    moves (``test_the_seat_to_move_gets_the_engines_offers_and_no_one_else``)."""
    offers: dict[str, Any] = state["offers"]
    legal, hand = state["legal"], state["view"]["hand"]
    kinds = {suitless(text) for text in legal}
    assert sorted(c["card"] for c in offers["cards"]) == sorted(set(hand))
    assert all(c["held"] == hand.count(c["card"]) for c in offers["cards"])
    for card in offers["cards"]:
        for place in card["places"]:
            for step in place["steps"]:
                # a legal move, or one naming another card of the same kind than ``legal``'s text
                assert suitless(step["move"]) in kinds and card["card"] in step["cards"], (card, step)
    opening = offers["opening"]
    assert opening["minimum"] == state["view"]["minimums"][seat] and opening["needed"] >= 0
    assert offers["pile"]["may"] == (offers["pile"]["refusal"] is None)
    assert ("draw" in legal) == (offers["why_not"]["draw"] is None)
    return offers


def test_the_seat_to_move_gets_the_engines_offers_and_no_one_else(base: str) -> None:
    """The ``state`` message's ``offers`` (docs/protocol.md): for the seat to move, every card of its hand
    (each code, not one per kind) with its places, each step a move of ``legal`` playing that card; the
    opening count of a side not down; whether the pile may be taken, or why not in words; and why each
    action not offered is not. The other seat's and a spectator's ``offers`` are null. After the draw,
    every card may be discarded, and drawing and the pile are refused in words."""
    table_id, ann, bob = two_seats(base)
    watcher = SeatClient(base, table_id)
    states = {0: first_state(ann), 1: first_state(bob), None: watcher.state(0)}
    to_move = states[0]["view"]["to_move"]
    mover = ann if to_move == 0 else bob
    assert states[1 - to_move]["offers"] is None and states[None]["offers"] is None
    check_offers(states[to_move], to_move)
    mover.move("draw", 0)
    offers = check_offers(mover.state(1), to_move)
    assert all(any(p["to"] == "discard" for p in c["places"]) for c in offers["cards"])
    drawn = "You have already drawn this turn."
    assert offers["why_not"]["draw"] == drawn
    assert offers["pile"] == {"may": False, "takes": [], "refusal": drawn, "frozen": False}
    # a discard offered for a card the legal list does not name (another of its kind) is played
    legal = mover.latest_state()["legal"]
    other = [
        step["move"]
        for card in offers["cards"]
        for place in card["places"]
        for step in place["steps"]
        if place["to"] == "discard" and step["move"] not in legal
    ]
    if other:
        mover.move(other[0], 1)
        assert mover.state(2)["last"]["move"] == other[0]


def test_stale_version_is_refused(base: str) -> None:
    _table_id, ann, bob = two_seats(base)
    to_move = first_state(ann)["view"]["to_move"]
    first_state(bob)
    mover = ann if to_move == 0 else bob
    mover.move("draw", 3)
    refused = mover.until(lambda m: m["type"] == "refused")
    assert refused["rule"] == "version" and refused["version"] == 0
    mover.move("draw", 0)
    assert mover.state(1)["last"]["move"] == "draw"
    mover.move("draw", 0)  # the same move again, made against the old version
    assert mover.until(lambda m: m["type"] == "refused")["rule"] == "version"


def test_illegal_move_goes_to_its_sender_only_with_rule_and_message(base: str) -> None:
    _table_id, ann, bob = two_seats(base)
    state = first_state(ann)
    first_state(bob)
    mover, other = (ann, bob) if state["view"]["to_move"] == 0 else (bob, ann)
    mover.move("discard JK", 0)  # a discard before drawing
    refused = mover.until(lambda m: m["type"] == "refused")
    assert refused["rule"] and refused["message"] and refused["move"] == "discard JK"
    mover.move("dance", 0)
    refused = mover.until(lambda m: m["type"] == "refused")
    assert refused["rule"] == "notation" and "draw" in refused["message"]
    assert [m for m in other.barrier() if m["type"] in ("refused", "state")] == []
    assert other.latest_state()["version"] == 0


def test_accepted_move_reaches_every_seat_with_its_own_view(base: str) -> None:
    table_id, ann, bob = two_seats(base)
    watcher = SeatClient(base, table_id)
    start = {0: first_state(ann), 1: first_state(bob)}
    watcher.state(0)
    to_move = start[0]["view"]["to_move"]
    mover = ann if to_move == 0 else bob
    mover.move("draw", 0)
    after = {0: ann.state(1), 1: bob.state(1), None: watcher.state(1)}
    for seat, message in after.items():
        assert message["last"]["move"] == "draw" and message["last"]["seat"] == to_move
        assert message["view"]["seat"] == seat
    grown = after[to_move]["view"]["seats"][to_move]["hand_count"]
    assert grown == start[to_move]["view"]["seats"][to_move]["hand_count"] + 2
    assert len(after[to_move]["view"]["hand"]) == grown
    assert after[1 - to_move]["view"]["hand"] == start[1 - to_move]["view"]["hand"]
    assert after[None]["view"]["hand"] == []
    assert after[to_move]["legal"] and after[1 - to_move]["legal"] == []


def test_reconnect_restores_the_seat_view(base: str) -> None:
    created = new_table(base)
    table_id = created["table"]["id"]
    token = created["invites"][0]["token"]
    ann = SeatClient(base, table_id, token, "Ann")
    bob = SeatClient(base, table_id, created["invites"][1]["token"], "Bob")
    state = ann.state(0)
    bob.state(0)
    version = 0
    if state["view"]["to_move"] == 0:  # Ann plays her turn first, so that Bob moves while she is away
        ann.move("draw", 0)
        legal = ann.state(1)["legal"]
        ann.move(next(t for t in legal if t.startswith("discard")), 1)
        state = ann.state(2)
        version = 2
        bob.state(2)
    hand_before = state["view"]["hand"]
    ann.close()
    bob.move("draw", version)
    bob.state(version + 1)
    summary = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert summary["seats"][0]["connected"] is False
    again = SeatClient(base, table_id, token)
    assert again.welcome["seat"] == 0
    restored = again.state()
    assert restored["version"] == version + 1
    assert restored["view"]["hand"] == hand_before
    assert restored["view"]["seats"][1]["hand_count"] == state["view"]["seats"][1]["hand_count"] + 2
    assert restored["table"]["seats"][0]["name"] == "Ann"
    assert restored["table"]["seats"][0]["connected"] is True


def test_ping_and_sync(base: str) -> None:
    _table_id, ann, _bob = two_seats(base)
    first_state(ann)
    ann.send({"type": "ping"})
    assert ann.until(lambda m: m["type"] != "table")["type"] == "pong"
    assert ann.latest_state()["version"] == 0


def test_bot_seat_moves_through_the_pipeline(base: str) -> None:
    created = new_table(base, seats=[{"kind": "invite"}, {"kind": "bot"}])
    table_id = created["table"]["id"]
    assert len(created["invites"]) == 1
    ann = SeatClient(base, table_id, created["invites"][0]["token"], "Ann")
    state = ann.state()
    # whoever starts, the bot's turn comes and goes without anyone else moving
    while state["view"]["to_move"] == 0:
        legal = state["legal"]
        choice = "draw" if "draw" in legal else next(t for t in legal if t.startswith("discard"))
        ann.move(choice, state["version"])
        state = ann.state(state["version"] + 1)
    bot_moves = ann.until(lambda m: m["type"] == "state" and m["view"]["to_move"] == 0)
    assert bot_moves["last"]["seat"] == 1
    assert bot_moves["version"] > state["version"]


def test_pick_foot_seen_shows_own_foot_and_offers_keep_or_swap(base: str) -> None:
    """In-laws (004) with pick_foot_seen: each seat sees its own two piles (never another's) and the seat to
    move chooses keep or swap before anyone draws; after swapping, its Hand is the pile it saw as the Foot."""
    created = new_table(base, preset="in-laws", players=4, options={"pick_foot_seen": True})
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    clients = [SeatClient(base, table_id, token, f"P{i}") for i, token in enumerate(tokens)]
    states = [first_state(c) for c in clients]
    for seat, state in enumerate(states):
        view = state["view"]
        assert view["phase"] == "pick_foot"
        assert len(view["hand"]) == 11 and len(view["foot"]) == 11
        others = [s["view"] for i, s in enumerate(states) if i != seat]
        assert all(view["foot"] != other["foot"] or view["hand"] != other["hand"] for other in others)
    mover = states[0]["view"]["to_move"]
    assert sorted(states[mover]["legal"]) == ["keep", "swap"]
    assert all(not s["legal"] for i, s in enumerate(states) if i != mover)
    seen_foot = states[mover]["view"]["foot"]
    clients[mover].move("swap", states[mover]["version"])
    after = clients[mover].state(states[mover]["version"] + 1)
    assert sorted(after["view"]["hand"]) == sorted(seen_foot)
    for client in clients:
        client.close()
