"""The WebSocket protocol, version 1: the messages a client may send (pydantic models that validate
every field) and the messages the server sends over the WebSocket (plain JSON, each built here by its
``*_message`` function; their shapes are ``wire.messages``). The table summaries they carry are
``LiveTable.summary``/``info``; the HTTP API's answers are built by their routes (``server.http``).

docs/protocol.md is the reference for client authors. The only description of a hand in play that
leaves the server is ``view_json`` of a ``View``: a seat's own view, or the public view for spectators.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from handfoot import cards as C
from handfoot.engine import Event, Seating, View
from handfoot.engine.events import MELD_ADDED, EventType
from handfoot.engine.offers import SeatOffers, Step
from handfoot.engine.outlook import Outlook
from handfoot.server.settings import MAX_READ_SECONDS
from handfoot.text import json_text_problem

PROTOCOL_VERSION = 1
MAX_MESSAGE_CHARS = 8192
MAX_MOVE_CHARS = 600
MAX_DIGITS = 4300  # Python's own limit on turning digits into an int (sys.get_int_max_str_digits)
MESSAGE_TYPES = ("hello", "move", "sync", "ping", "hint", "host", "ready")
# Error codes shared by the HTTP answers and the WebSocket's ``error`` messages and close reasons.
UNREADABLE = "unreadable_table"  # a stored table that cannot be opened (409)
UNAVAILABLE = "unavailable"  # the database did not take or answer a request (503)
NO_DATABASE = "the server could not reach its database; nothing was changed. Try again in a moment."


class ProtocolError(ValueError):
    """A client message that is not valid: the text says what was wrong and what is allowed."""


def clean_name(value: str) -> str:
    """A display name with surrounding spaces removed; raises ValueError unless it has 1 to 32 characters
    and no control characters."""
    name = value.strip()
    if not 1 <= len(name) <= 32:
        raise ValueError("a name has 1 to 32 characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("a name cannot hold control characters")
    return name


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """The first message on a connection: a seat token to play, none to watch; optionally a name. ``key``
    is the table's watch key (needed to watch a private table), ``host`` its host key."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: str | None = Field(default=None, min_length=8, max_length=128)
    name: str | None = None
    key: str | None = Field(default=None, min_length=8, max_length=128)
    host: str | None = Field(default=None, min_length=8, max_length=128)
    # The client shows each finished hand's score in a dialog and sends ``ready`` when its person closed it.
    pace: bool = False
    # The client is a program playing the seat (``handfoot bot connect``), not a person: nobody waits for
    # the table's bots on its account.
    program: bool = False

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class MoveMessage(_Message):
    """A move in the notation, made against the table version the client last saw."""

    type: Literal["move"]
    version: int = Field(ge=0)
    move: str = Field(min_length=1, max_length=MAX_MOVE_CHARS)


class Sync(_Message):
    """Ask for the current state again."""

    type: Literal["sync"]


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


class HintRequest(_Message):
    """Ask for a trainer hint for the position at ``version`` (the asking seat must be to move)."""

    type: Literal["hint"]
    version: int = Field(ge=0)


class Ready(_Message):
    """The person at this seat closed the score dialog of finished hand ``hand`` (0-based): the table's
    bots, which wait for every person reading it (at most ``tables.table.HAND_READ_SECONDS``), may go on."""

    type: Literal["ready"]
    hand: int = Field(ge=0, le=10_000)


class HostAction(_Message):
    """What the host of a table (the connection that said hello with its host key) may do: hand a human
    seat to a bot (``bot``, with the bot's name, else the default) and back to its person (``person``),
    give a seat a display name (``rename``, with ``name``), end the game (``end``, no seat), give a
    person's seat a new invitation link, which voids the old one (``invite``), start the first hand
    without the invited people not yet here, bots playing their seats (``start``, with ``bot`` or the
    default), or set how long the table waits at most for people reading a hand's score (``pace``, with
    ``seconds``)."""

    type: Literal["host"]
    action: Literal["bot", "person", "rename", "end", "invite", "start", "pace"]
    seat: int | None = Field(default=None, ge=0, le=15)
    bot: str | None = Field(default=None, max_length=64)
    name: str | None = None
    seconds: int | None = Field(default=None, ge=0, le=MAX_READ_SECONDS)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


AnyClientMessage = Hello | MoveMessage | Sync | Ping | HintRequest | HostAction | Ready
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_CLIENT_ADAPTER: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def client_message_schema() -> dict[str, Any]:
    """The JSON Schema of every message a client may send, as the models above validate it (the browser
    client's types of what it sends are generated from it: tools/client_types.py)."""
    schema: dict[str, Any] = _CLIENT_ADAPTER.json_schema(ref_template="#/$defs/{model}")
    schema["title"] = "ClientMessage"
    return schema


def describe_validation(exc: ValidationError, drop_tag: bool = True) -> str:
    """One readable sentence per problem in a pydantic error: ``field: what is wrong``."""
    parts = []
    for error in exc.errors():
        loc = [str(p) for p in error["loc"]]
        if drop_tag and loc and loc[0] in MESSAGE_TYPES:
            loc = loc[1:]
        where = ".".join(loc)
        message = str(error["msg"]).removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown field"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def load_json(text: str) -> Any:
    """``text`` parsed as JSON; raises ProtocolError for text that is not JSON, a number of more than
    ``MAX_DIGITS`` digits, arrays or objects nested deeper than Python's parser goes, and strings holding
    a lone surrogate (``"\\ud800"``: not a character, so it could never be sent back)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:
        raise ProtocolError("not JSON this server reads: arrays and objects nested too deep") from None
    except ValueError:  # int() refuses more digits than sys.get_int_max_str_digits()
        raise ProtocolError(f"not JSON this server reads: a number has at most {MAX_DIGITS} digits") from None
    problem = json_text_problem(data)
    if problem:
        raise ProtocolError(problem)
    return data


def parse_client_message(text: str | bytes) -> AnyClientMessage:
    """The client message in ``text``; raises ProtocolError saying what is wrong with it."""
    if isinstance(text, bytes):
        raise ProtocolError("messages are JSON text frames, not binary frames")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(f"a message has at most {MAX_MESSAGE_CHARS} characters")
    data = load_json(text)
    allowed = ", ".join(MESSAGE_TYPES)
    if not isinstance(data, dict):
        raise ProtocolError(f'a message is a JSON object with a "type": one of {allowed}')
    if data.get("type") not in MESSAGE_TYPES:
        raise ProtocolError(f'"type" is {data.get("type")!r}; allowed: {allowed}')
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(f"{data['type']}: {describe_validation(exc)}") from None


# --- what the server sends ------------------------------------------------------------------------
def _code(card: int) -> str | None:
    return None if card < 0 else C.CODE_OF[card]


def view_json(v: View) -> dict[str, Any]:
    """A View as JSON with card codes: exactly the View's fields, nothing from outside it."""
    return {
        "seat": None if v.seat < 0 else v.seat,
        "hand_index": v.hand_index,
        "dealer": v.dealer,
        "turn_seat": v.turn_seat,
        "to_move": v.to_move,
        "phase": v.phase.name.lower(),
        "permission": {0: "none", 1: "granted", -1: "refused"}.get(v.permission, "none"),
        "hand": C.codes(v.hand),
        "foot": C.codes(v.foot),
        "seats": [
            {
                "hand_count": s.hand_count,
                "in_foot": s.in_foot,
                "foot_count": s.foot_count,
                "known": {C.KIND_NAMES[kind]: n for kind, n in enumerate(s.known) if n},
            }
            for s in v.seats
        ],
        "melds": [
            {"owner": m.owner, "rank": C.RANK_LETTER[m.rank], "cards": C.codes(m.cards), "wilds": m.wilds}
            for m in v.melds
        ],
        "red_threes": [C.codes(r) for r in v.red_threes],
        "down": list(v.down),
        "minimums": list(v.minimums),
        "books": [{"clean": b[0], "dirty": b[1], "wild": b[2]} for b in v.books],
        "pile_top": _code(v.pile_top),
        "pile_size": v.pile_size,
        "pile": C.codes(v.pile),
        "stock_size": v.stock_size,
        "last_round_left": v.last_round_left,
        "out_seat": None if v.out_seat < 0 else v.out_seat,
        "end_reason": v.end_reason.name.lower(),
        "move_count": v.move_count,
    }


def event_json(e: Event) -> dict[str, Any]:
    """An engine event as JSON (its cards are public ones; drawn cards are only counted). A ``melded``
    or ``book`` event also has ``rank``, the rank letter of its meld (``W`` for wilds), and a ``melded``
    one ``added``: true when the cards went onto a meld already on the table, false when they began one."""
    data: dict[str, Any] = {
        "type": e.type.value,
        "seat": e.seat,
        "cards": C.codes(e.cards),
        "amount": e.amount,
        "detail": e.detail,
    }
    if e.rank >= 0:
        data["rank"] = C.RANK_LETTER[e.rank]
    if e.type is EventType.MELDED:
        data["added"] = e.detail == MELD_ADDED
    return data


def seating_json(seating: Seating) -> dict[str, Any]:
    """Who sits with whom: each seat's side and meld owner, and the seats of each side."""
    return {
        "side_of": list(seating.side_of),
        "owner_of": list(seating.owner_of),
        "sides": [list(seats) for seats in seating.side_seats],
    }


def welcome_message(
    table_id: str,
    seat: int | None,
    rules: dict[str, Any],
    seating: Seating,
    bots: Sequence[str],
    host: bool = False,
    history: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The answer to ``hello``: who the connection is (and whether it is the table's host), the table's
    rules and seating, and the public entries of the last moves (oldest first)."""
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "table_id": table_id,
        "seat": seat,
        "role": "spectator" if seat is None else "player",
        "host": host,
        "rules": rules,
        "seating": seating_json(seating),
        "bots": list(bots),
        "history": list(history),
    }


def outlook_json(o: Outlook) -> dict[str, Any]:
    """The seat's outlook (``engine.outlook``): the sentences and facts a client shows as they are."""
    return {
        "going_out": o.going_out,
        "may_go_out": o.may_go_out,
        "needs": list(o.needs),
        "pile_refusal": o.pile_refusal,
        "pile_frozen": o.pile_frozen,
        "last_turn": o.last_turn,
        "stock": o.stock,
        "card_values": dict(o.card_values),
    }


def _step_json(step: Step) -> dict[str, Any]:
    return {"id": step.id, "move": step.move, "cards": list(step.cards)}


def offers_json(o: SeatOffers | None) -> dict[str, Any] | None:
    """The seat to move's offers (``engine.offers``) as JSON: where each card may go, the opening count,
    the pile, and why each action is not offered; None for every other seat."""
    if o is None:
        return None
    opening = o.opening
    return {
        "cards": [
            {
                "card": c.card,
                "held": c.held,
                "places": [
                    {"to": p.to, "rank": p.rank, "steps": [_step_json(st) for st in p.steps]}
                    for p in c.places
                ],
            }
            for c in o.cards
        ],
        "staged": [{"rank": g.rank, "cards": list(g.cards), "with_pile": g.with_pile} for g in o.staged],
        "opening": None
        if opening is None
        else {
            "minimum": opening.minimum,
            "points": opening.points,
            "needed": opening.needed,
            "with_top": opening.with_top,
        },
        "pile": {
            "may": o.pile.may,
            "takes": [_step_json(st) for st in o.pile.takes],
            "refusal": o.pile.refusal,
            "frozen": o.pile.frozen,
        },
        "commit": None if o.commit is None else _step_json(o.commit),
        "cancel": None if o.cancel is None else _step_json(o.cancel),
        "why_not": {
            "draw": o.why_not.draw,
            "pile": o.why_not.pile,
            "meld": o.why_not.meld,
            "discard": o.why_not.discard,
            "go_out": o.why_not.go_out,
        },
    }


def state_message(
    version: int,
    table: dict[str, Any],
    view: View,
    legal: Sequence[str],
    last: dict[str, Any] | None,
    outlook: Outlook,
    offers: SeatOffers | None = None,
) -> dict[str, Any]:
    """The position after ``version`` moves, as one seat (or a spectator) may see it, with the seat's
    outlook (what going out still needs, whether the pile may be taken, a last turn...) and, for the
    seat to move only, its offers (``engine.offers``: where each card may go)."""
    return {
        "type": "state",
        "version": version,
        "table": table,
        "view": view_json(view),
        "legal": list(legal),
        "last": last,
        "outlook": outlook_json(outlook),
        "offers": offers_json(offers),
    }


def refused_message(rule: str, message: str, version: int, move: str) -> dict[str, Any]:
    """A move the server would not play, sent to its sender only; nothing changed."""
    return {"type": "refused", "rule": rule, "message": message, "version": version, "move": move}


def invite_message(seat: int, token: str, link: str) -> dict[str, Any]:
    """A seat's new invitation, sent to the host who asked for it only (the old link opens nothing)."""
    return {"type": "invite", "seat": seat, "token": token, "link": link}


def pong_message() -> dict[str, Any]:
    """The answer to a ``ping``."""
    return {"type": "pong"}


def error_message(code: str, message: str) -> dict[str, Any]:
    """A message the server could not use (bad JSON, unknown type, bad field...); nothing changed."""
    return {"type": "error", "code": code, "message": message}


def table_message(table: dict[str, Any]) -> dict[str, Any]:
    """The table's public summary changed (someone joined, connected or left)."""
    return {"type": "table", "table": table}
