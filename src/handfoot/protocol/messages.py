"""The lines of the bot protocol, version 1 (docs/bot-protocol.md is the reference for bot authors).

Every line is one JSON object with a ``"type"``. The runner sends ``hello`` (the protocol version, the
rules in full, the table and the bot's seat), one ``decision`` per move the seat makes (its view, the
public bounds on every seat's cards, the offered moves, the time it has), ``hand_end`` and
``game_end``; the bot answers ``hello`` (its name, author and version) and one ``move`` per decision.
Nothing here names a Python type: views, events and rules are the JSON of the records and the server.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from handfoot import cards as C
from handfoot.engine import Game
from handfoot.engine.facts import UNKNOWN
from handfoot.engine.views import SeatInfo
from handfoot.protocol.offers import Offer, shorten, type_word
from handfoot.rules.load import rules_to_mapping
from handfoot.server.wire.protocol import seating_json, view_json

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 65536  # the longest line a bot may write; beyond it the bot is flooding
MAX_NAME_CHARS = 32  # a bot's name (the name a live table shows for its seat)
MAX_TEXT_CHARS = 200  # a bot's author and version


class ProtocolViolation(ValueError):
    """A line from a bot that the protocol does not allow; the text says what and what is allowed."""


@dataclass(frozen=True)
class BotHello:
    """Who a bot says it is."""

    name: str
    author: str
    version: str


def hello_line(
    game_rules: dict[str, Any], players: int, seat: int, seating: dict[str, Any], seed: int, move_ms: int
) -> dict[str, Any]:
    """The runner's first line: the protocol version, the rules in full (every option, as ``rules show
    --json`` prints them), the table's seating (as the server's ``welcome``), the bot's seat, a seed
    for its randomness and the time it has per decision."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "rules": game_rules,
        "players": players,
        "seat": seat,
        "seating": seating,
        "seed": seed,
        "move_time_ms": move_ms,
    }


def game_hello(game: Game, seat: int, seed: int, move_ms: int) -> dict[str, Any]:
    """``hello_line`` for a seat of ``game``."""
    seating = seating_json(game.state.seating)
    return hello_line(rules_to_mapping(game.rules), game.players, seat, seating, seed, move_ms)


def bounds_json(caps: Sequence[Sequence[int]] | None, players: int) -> list[dict[str, int]]:
    """Per seat, the most cards of each kind it can hold as everyone may infer it (kinds with no bound
    are left out): ``[{"K": 1}, {}, ...]``."""
    if caps is None:
        return [{} for _ in range(players)]
    return [{C.KIND_NAMES[kind]: n for kind, n in enumerate(row) if n < UNKNOWN} for row in caps]


def decision_line(
    number: int,
    info: SeatInfo,
    totals: Sequence[int],
    offers: Sequence[Offer],
    time_ms: int,
    places: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A decision for the bot's seat: what the seat may know, the moves it may play and ``places``, the
    seat's offers as the server's ``state`` sends them (``server.wire.protocol.offers_json``)."""
    return decision_from_view(
        number,
        view_json(info.freeze()),
        bounds_json(info.caps, info.players),
        totals,
        offers,
        time_ms,
        places,
    )


def decision_from_view(
    number: int,
    view: dict[str, Any],
    bounds: list[dict[str, int]],
    totals: Sequence[int],
    offers: Sequence[Offer],
    time_ms: int,
    places: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``decision_line`` from a view already in JSON (a server's ``state``, whose ``offers`` are
    ``places``)."""
    return {
        "type": "decision",
        "decision": number,
        "view": view,
        "bounds": bounds,
        "totals": list(totals),
        "legal": [offer.to_json() for offer in offers],
        "offers": places,
        "time_ms": time_ms,
    }


def hand_end_line(
    hand_index: int, scores: Sequence[int], totals: Sequence[int], went_out: int | None, reason: str
) -> dict[str, Any]:
    """A hand is over: each side's score for it, the running totals, who went out and why it ended."""
    return {
        "type": "hand_end",
        "hand_index": hand_index,
        "scores": list(scores),
        "totals": list(totals),
        "went_out": went_out,
        "reason": reason,
    }


def game_end_line(totals: Sequence[int], winner: int | None, reason: str) -> dict[str, Any]:
    """The game is over (``reason``: ``finished``, ``move_cap``, ``forfeit``, ``stopped``); the bot
    should exit once its standard input closes."""
    return {"type": "game_end", "totals": list(totals), "winner": winner, "reason": reason}


def encode(line: dict[str, Any]) -> bytes:
    """A line as the bytes sent: compact JSON and a newline."""
    return (json.dumps(line, separators=(",", ":")) + "\n").encode()


def parse_line(raw: bytes, expected: str) -> dict[str, Any]:
    """A bot's line as a JSON object of type ``expected`` (``hello`` or ``move``); raises
    ProtocolViolation saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolViolation("wrote a line that is not UTF-8 text") from None
    data = read_json_line(text)
    if not isinstance(data, dict):
        raise ProtocolViolation(f'wrote {type_word(data)}; allowed: a JSON object with "type": {expected!r}')
    kind = data.get("type")
    if kind != expected:
        raise ProtocolViolation(f"wrote a line of type {shorten(repr(kind))}; allowed: {expected!r}")
    return data


def read_json_line(text: str) -> object:
    """``text`` read as JSON; raises ProtocolViolation saying what is wrong: not JSON, a number of more
    digits than a JSON reader takes (``sys.get_int_max_str_digits``), or arrays and objects nested too
    deep to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise ProtocolViolation(f"wrote {shorten(text.strip())!r}, which is not JSON") from None
    except RecursionError:
        raise ProtocolViolation(
            "wrote arrays or objects nested too deep to read; allowed: the protocol's lines (a few levels)"
        ) from None
    except ValueError:  # an integer past the interpreter's limit of digits
        limit = sys.get_int_max_str_digits() or "any number of"
        raise ProtocolViolation(
            f"wrote a number of more than {limit} digits; allowed: move ids and numbers of at most "
            f"{limit} digits"
        ) from None


def parse_hello(raw: bytes) -> BotHello:
    """The bot's ``hello``: ``protocol`` 1 and a ``name`` of 1 to 32 characters (``author`` and
    ``version`` are optional text). Raises ProtocolViolation."""
    data = parse_line(raw, "hello")
    if data.get("protocol") != PROTOCOL_VERSION:
        raise ProtocolViolation(
            f"speaks protocol {shorten(repr(data.get('protocol')))}; this runner speaks {PROTOCOL_VERSION}"
        )
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME_CHARS or not name.isprintable():
        raise ProtocolViolation(f'hello needs a "name" of 1 to {MAX_NAME_CHARS} printable characters')
    fields = []
    for key in ("author", "version"):
        value = data.get(key, "")
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
            raise ProtocolViolation(f"hello's {key!r} is text of at most {MAX_TEXT_CHARS} characters")
        fields.append(value)
    return BotHello(name.strip(), fields[0], fields[1])


def parse_move_line(raw: bytes, decision: int) -> object:
    """The ``move`` field of a bot's answer to decision ``decision`` (an id or a text, checked by the
    caller against the offers). Its ``decision`` field must name this decision: a line written for an
    earlier one (a bot answering twice) is never taken for this one."""
    data = parse_line(raw, "move")
    if "decision" not in data:
        raise ProtocolViolation(f'wrote a "move" line without "decision" (this is decision {decision})')
    if data["decision"] != decision:
        raise ProtocolViolation(f"answered decision {shorten(repr(data['decision']))}, not {decision}")
    if "move" not in data:
        raise ProtocolViolation('wrote a "move" line without "move"; allowed: an offered id or a text')
    return data["move"]
