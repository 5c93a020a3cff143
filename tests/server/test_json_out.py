"""``wire.jsonout.json_text``, the server's JSON out: the text the standard library writes (compact, UTF-8),
written by orjson where it can and by the standard library where orjson cannot (big integers, lone
surrogates, keys that are not strings), and never a failure for text stored by an older version."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from handfoot.engine import Game, view
from handfoot.engine.outlook import outlook
from handfoot.rules import preset
from handfoot.server.wire.jsonout import SafeJSONResponse, json_text
from handfoot.server.wire.protocol import state_message


def stdlib_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def test_a_state_message_is_the_text_the_standard_library_writes() -> None:
    game = Game(preset("kitchen-table"), 4, seed=3)
    rng = random.Random(1)
    for _ in range(80):
        game.apply_id(rng.choice(game.legal_ids()))
    state = game.state
    seat = state.to_move
    table = {"id": "t", "name": "Grandma’s table ♥", "reading_left": 12.5, "totals": [-350, 1205]}
    message = state_message(
        80,
        table,
        view(state, seat),
        [str(move) for move in game.legal_moves()],
        {"seat": 1, "move": "discard 5H", "events": []},
        outlook(state, seat),
    )
    assert json_text(message) == stdlib_text(message)
    assert json.loads(json_text(message)) == json.loads(stdlib_text(message))


@pytest.mark.parametrize(
    "value",
    [
        {"score": 9 * 10**40},  # past 64 bits: orjson refuses it
        {1: "an integer key"},
        ["é ♥ 日本"],
        {"nested": [[1, 2.5, None, True], {"a": ""}]},
    ],
)
def test_what_orjson_cannot_write_is_written_as_before(value: Any) -> None:
    assert json_text(value) == stdlib_text(value)


def test_a_lone_surrogate_is_escaped_not_an_error() -> None:
    text = json_text({"name": "bad \ud800 name"})
    assert text == '{"name":"bad \\ud800 name"}'
    assert json.loads(text) == {"name": "bad \ud800 name"}
    assert SafeJSONResponse({"name": "bad \ud800 name"}).body == text.encode("utf-8")


def test_what_json_cannot_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="digits"):
        json_text({"score": 10**5000})  # past Python's limit on writing an integer as text
    with pytest.raises(TypeError):
        json_text({"cards": {1, 2}})
    assert json_text({"x": float("nan")}) == '{"x":null}'
