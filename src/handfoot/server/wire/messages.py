"""The shapes of the messages the server sends, as typed dictionaries: what docs/protocol.md describes,
checked against the real messages by the protocol tests, and written as a JSON Schema
(``tools/client_types.py``) from which the browser client's types are generated. ``protocol.py`` builds
the messages; this module only says what they hold.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict

_STRICT = ConfigDict(extra="forbid")


@with_config(_STRICT)
class SeatViewJson(TypedDict):
    """What anyone may know of one seat."""

    hand_count: int
    in_foot: bool
    foot_count: int
    known: dict[str, int]


@with_config(_STRICT)
class MeldViewJson(TypedDict):
    owner: int
    rank: str
    cards: list[str]
    wilds: int


@with_config(_STRICT)
class BookCountJson(TypedDict):
    clean: int
    dirty: int
    wild: int


@with_config(_STRICT)
class ViewJson(TypedDict):
    """A seat's view of the hand in play (``protocol.view_json``)."""

    seat: int | None
    hand_index: int
    dealer: int
    turn_seat: int
    to_move: int
    phase: Literal["draw", "play", "answer", "over", "pick_foot"]
    permission: Literal["none", "granted", "refused"]
    hand: list[str]
    foot: list[str]
    seats: list[SeatViewJson]
    melds: list[MeldViewJson]
    red_threes: list[list[str]]
    down: list[bool]
    minimums: list[int]
    books: list[BookCountJson]
    pile_top: str | None
    pile_size: int
    pile: list[str]
    stock_size: int
    last_round_left: int
    out_seat: int | None
    end_reason: str
    move_count: int


@with_config(_STRICT)
class OutlookJson(TypedDict):
    """The seat's position in sentences (``engine.outlook``)."""

    going_out: str | None
    may_go_out: bool
    needs: list[str]
    pile_refusal: str | None
    pile_frozen: bool
    last_turn: bool
    stock: str | None
    card_values: dict[str, int]


@with_config(_STRICT)
class StepJson(TypedDict):
    """One legal step: the engine's move id, the move's text and the cards of the hand it plays."""

    id: int
    move: str
    cards: list[str]


@with_config(_STRICT)
class PlaceJson(TypedDict):
    """Where a card may go now (``engine.offers.Place``)."""

    to: Literal["meld", "staged", "new", "pile", "discard", "lay"]
    rank: str
    steps: list[StepJson]


@with_config(_STRICT)
class CardOfferJson(TypedDict):
    """A card code held outside the staged groups, how many copies, and its places."""

    card: str
    held: int
    places: list[PlaceJson]


@with_config(_STRICT)
class StagedGroupJson(TypedDict):
    """A staged group; ``with_pile``: it goes with the pile's top card."""

    rank: str
    cards: list[str]
    with_pile: bool


@with_config(_STRICT)
class OpeningCountJson(TypedDict):
    """The opening of a side not down yet, counted as the judge counts it."""

    minimum: int
    points: int
    needed: int
    with_top: bool


@with_config(_STRICT)
class PileOfferJson(TypedDict):
    may: bool
    takes: list[StepJson]
    refusal: str | None
    frozen: bool


@with_config(_STRICT)
class WhyNotJson(TypedDict):
    """Why each action is not offered now, one sentence each (null: it is)."""

    draw: str | None
    pile: str | None
    meld: str | None
    discard: str | None
    go_out: str | None


@with_config(_STRICT)
class OffersJson(TypedDict):
    """What the seat to move needs to build a move (``engine.offers``)."""

    cards: list[CardOfferJson]
    staged: list[StagedGroupJson]
    opening: OpeningCountJson | None
    pile: PileOfferJson
    commit: StepJson | None
    cancel: StepJson | None
    why_not: WhyNotJson


class _EventBase(TypedDict):
    type: str
    seat: int
    cards: list[str]
    amount: int
    detail: str


@with_config(_STRICT)
class EventJson(_EventBase, total=False):
    """An engine event; a ``melded`` event of a history entry also has ``rank`` and ``added``."""

    rank: str
    added: bool


@with_config(_STRICT)
class LastMoveJson(TypedDict):
    """A move's public history entry, with the rule facts its events bring up (``tables.step.rule_facts``)."""

    seat: int
    version: int
    move: str
    events: list[EventJson]
    facts: list[str]  # keys of rules.lessons.LESSONS


@with_config(_STRICT)
class SeatingJson(TypedDict):
    side_of: list[int]
    owner_of: list[int]
    sides: list[list[int]]


# --- a table's public summary (also the HTTP API's, server/wire/answers.py) ----------------------
# A rule option's value as JSON (``rules.rules_to_mapping``): a word, a number, a yes/no, a list of
# numbers (one per hand, or per card kind) or numbers by name (card values, book bonuses, decks).
OptionValue = str | bool | int | list[int] | dict[str, int]
# The rules a table was made with: a preset's name, or options over the preset they extend.
RulesSource = str | dict[str, OptionValue]


@with_config(_STRICT)
class SeatSummaryJson(TypedDict):
    """One seat of a table's summary: who plays it, whether they are here, and its side."""

    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    joined: bool
    connected: bool
    away: bool
    stand_in: str | None
    side: int


@with_config(_STRICT)
class ScoreLineJson(TypedDict):
    """One item of a side's score: what it counts, how many, and the points (a side's add up to its
    score)."""

    label: str
    count: int
    points: int


@with_config(_STRICT)
class HandResultJson(TypedDict):
    """A finished hand (``record.hand_json``): each side's score, the seat that went out (or null), why
    it ended, and each side's score item by item."""

    scores: list[int]
    went_out: int | None
    reason: str
    lines: list[list[ScoreLineJson]]


class TableCommonJson(TypedDict):
    """What a table's summary and its short summary in the lobby's list both hold."""

    id: str
    created_at: str
    rules: str
    players: int
    seats: list[SeatSummaryJson]
    spectators: int
    version: int
    hand_index: int
    totals: list[int]
    to_move: int | None
    finished: bool
    winner: int | None
    ended: str | None
    public: bool
    broken: str | None
    waiting_for: list[int]
    read_seconds: int
    reading: list[int]
    reading_left: float


@with_config(_STRICT)
class TableJson(TableCommonJson):
    """A table's public summary (``LiveTable.info``): no token, seed, deal or hidden card; the rules it
    was made with, and each finished hand's scores and score lines."""

    rules_source: RulesSource
    hands: list[HandResultJson]


@with_config(_STRICT)
class WelcomeMessage(TypedDict):
    type: Literal["welcome"]
    protocol: int
    table_id: str
    seat: int | None
    role: Literal["player", "spectator"]
    host: bool
    rules: dict[str, Any]
    seating: SeatingJson
    bots: list[str]
    history: list[LastMoveJson]


@with_config(_STRICT)
class StateMessage(TypedDict):
    type: Literal["state"]
    version: int
    table: TableJson
    view: ViewJson
    legal: list[str]
    last: LastMoveJson | None
    outlook: OutlookJson
    offers: OffersJson | None


@with_config(_STRICT)
class RefusedMessage(TypedDict):
    type: Literal["refused"]
    rule: str
    message: str
    version: int
    move: str


@with_config(_STRICT)
class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str


@with_config(_STRICT)
class TableMessage(TypedDict):
    type: Literal["table"]
    table: TableJson


@with_config(_STRICT)
class HintMessage(TypedDict):
    type: Literal["hint"]
    version: int
    seat: int
    move: str
    reason: str
    groups: list[list[str]]


@with_config(_STRICT)
class PongMessage(TypedDict):
    type: Literal["pong"]


@with_config(_STRICT)
class InviteMessage(TypedDict):
    """A seat's new invitation, sent to the host who asked for it only."""

    type: Literal["invite"]
    seat: int
    token: str
    link: str


ServerMessage = (
    WelcomeMessage
    | StateMessage
    | RefusedMessage
    | ErrorMessage
    | TableMessage
    | HintMessage
    | PongMessage
    | InviteMessage
)
SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def schema_of(adapter: TypeAdapter[Any], title: str) -> dict[str, Any]:
    """The JSON Schema of ``adapter``'s type, its shapes under ``$defs`` and titled ``title``."""
    schema: dict[str, Any] = adapter.json_schema(ref_template="#/$defs/{model}")
    schema["title"] = title
    return schema


def server_message_schema() -> dict[str, Any]:
    """The JSON Schema of every server message (the client's types are generated from it)."""
    return schema_of(SERVER_MESSAGE, "ServerMessage")
