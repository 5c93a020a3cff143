"""The shapes of the HTTP API's JSON answers, as typed dictionaries: what docs/protocol.md describes,
what each route of ``server.http`` declares (so ``/openapi.json`` gives them), checked against the real
answers by the server tests, and written as a JSON Schema (``tools/client_types.py``,
``docs/api.schema.json``) from which the browser client's types are generated.

The routes and the table domain build the answers; this module only says what they hold. A shape the
WebSocket messages share (a view, an event, the seating) is ``wire.messages``'s own.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict

from handfoot.server.wire.messages import (
    EventJson,
    HandResultJson,
    OptionValue,
    RulesSource,
    ScoreLineJson,
    SeatingJson,
    TableCommonJson,
    TableJson,
    ViewJson,
    schema_of,
)

_STRICT = ConfigDict(extra="forbid")


# --- errors ---------------------------------------------------------------------------------------
@with_config(_STRICT)
class ErrorJson(TypedDict):
    """What went wrong: a short code (``no_table``, ``rate_limited``...) and a sentence saying what was
    wrong and what is allowed."""

    code: str
    message: str


@with_config(_STRICT)
class ErrorAnswer(TypedDict):
    """Every refusal of the HTTP API, whatever its status (``http.errors``)."""

    error: ErrorJson


# --- the catalogue --------------------------------------------------------------------------------
@with_config(_STRICT)
class HealthAnswer(TypedDict):
    """``GET /api/health``: the server is up, the protocol it speaks and the handfoot version it runs."""

    ok: bool
    protocol: int
    version: str


@with_config(_STRICT)
class PresetSummaryJson(TypedDict):
    """A rule preset: its name, title, one-line summary and the player counts it seats."""

    name: str
    title: str
    summary: str
    players_allowed: list[int]
    default_players: int


@with_config(_STRICT)
class OptionJson(TypedDict):
    """A rule option of the catalogue (``http.lobby.option_catalogue``): its section and plain-words
    group with their titles, its help, the allowed words of an option that takes one of a few (else
    null), and whether a list gives one value per hand."""

    name: str
    section: str
    section_title: str
    group: str
    group_title: str
    help: str
    choices: list[str] | None
    per_hand: bool


@with_config(_STRICT)
class PresetOptionJson(OptionJson):
    """A rule option of a preset: the catalogue's entry and the preset's value."""

    value: OptionValue


@with_config(_STRICT)
class PresetDetailAnswer(PresetSummaryJson):
    """``GET /api/presets/{name}``: the preset and every option with its value."""

    options: list[PresetOptionJson]


@with_config(_STRICT)
class BotsAnswer(TypedDict):
    """``GET /api/bots``: the names a bot seat may take."""

    bots: list[str]


# --- tables ---------------------------------------------------------------------------------------
@with_config(_STRICT)
class TableListingJson(TableCommonJson):
    """A table's short public summary, as the lobby lists it (``LiveTable.summary``): the summary without
    the rules' source and score lines, with the number of finished hands instead."""

    hands_done: int


@with_config(_STRICT)
class InviteJson(TypedDict):
    """A person's seat's secret invitation: its token and the link that holds it."""

    seat: int
    token: str
    link: str


@with_config(_STRICT)
class HostLinkJson(TypedDict):
    """The host's secret key and the link that holds it."""

    key: str
    link: str


@with_config(_STRICT)
class CreatedAnswer(TypedDict):
    """``POST /api/tables`` (201): the new table's summary, and every secret of it, given only here."""

    table: TableJson
    invites: list[InviteJson]
    watch: str
    watch_key: str
    host: HostLinkJson
    websocket: str


@with_config(_STRICT)
class JoinedAnswer(TypedDict):
    """``POST /api/tables/{id}/join``: the seat taken, under its display name, and the table."""

    seat: int
    name: str
    table: TableJson


class _DealBase(TypedDict):
    hands: list[list[str]]


@with_config(_STRICT)
class DealJson(_DealBase, total=False):
    """An explicit deal of a record (docs/records.md): each seat's hand, and, if given, the feet, the
    top of the stock and the discard pile."""

    feet: list[list[str]]
    stock: list[str]
    discard: list[str]


class _RecordBase(TypedDict):
    rules: RulesSource
    players: int
    seed: int
    dealer: int
    moves: list[str]


@with_config(_STRICT)
class RecordJson(_RecordBase, total=False):
    """``GET /api/tables/{id}/record``: a finished game's record, the JSON ``handfoot replay`` reads
    (docs/records.md); ``deals`` only for explicit deals, ``names`` only when a seat has one."""

    deals: list[DealJson | None]
    names: list[str | None]


# --- replay ---------------------------------------------------------------------------------------
@with_config(_STRICT)
class ReplayListedStepJson(TypedDict):
    """One step of a finished game's list: the move that made it (none for step 0, the first deal), its
    seat, its hand, and whether it ended the hand."""

    step: int
    hand_index: int
    seat: int | None
    move: str | None
    hand_end: bool


@with_config(_STRICT)
class ReplayAnswer(TypedDict):
    """``GET /api/tables/{id}/replay``: a finished game's summary, rules, seating and steps."""

    table: TableJson
    rules: dict[str, OptionValue]
    seating: SeatingJson
    steps: list[ReplayListedStepJson]


@with_config(_STRICT)
class CardsLeftJson(TypedDict):
    """What a seat still held when a hand ended: its Hand (or Foot, once in it) and its unplayed Foot."""

    hand: list[str]
    foot: list[str]


@with_config(_STRICT)
class HandEndJson(HandResultJson):
    """A hand as it ended, at the replay step of its last move: the hand's result and the cards each
    seat still held."""

    hand_index: int
    cards_left: list[CardsLeftJson]


@with_config(_STRICT)
class ReplayStepAnswer(TypedDict):
    """``GET /api/tables/{id}/replay/{step}``: the public view of a finished game after ``step`` moves,
    the move that made it and its public events, the totals, and how the hand ended at its last step."""

    step: int
    steps: int
    hand_index: int
    seat: int | None
    move: str | None
    events: list[EventJson]
    view: ViewJson
    totals: list[int]
    hands_done: int
    hand_end: HandEndJson | None


# --- hand reviews ---------------------------------------------------------------------------------
@with_config(_STRICT)
class ReviewedDecisionJson(TypedDict):
    """One judged decision of a hand review (``review.DecisionReview``): where it was, which part of a
    turn it is (``kind``: draw, play, answer or foot), what the seat played and the better line, what
    it cost in points with a 95% interval over ``worlds`` worlds, whether it is a mistake (listed) and
    costly, and for a mistake a sentence."""

    index: int
    kind: str
    step: int
    hand_move: int
    move: str
    part: int
    played: str
    bot: str
    cost: float
    low: float
    high: float
    worlds: int
    costly: bool
    mistake: bool
    sentence: str


@with_config(_STRICT)
class HandReviewJson(TypedDict):
    """A seat's finished review of one hand (``review.HandReview``): its settings, its decisions (the
    mistakes first, each group the costliest first), how many were mistakes and costly, and the points
    the costly ones lost."""

    hand: int
    seat: int
    side: int
    worlds: int
    search_worlds: int
    seed: int
    decisions: list[ReviewedDecisionJson]
    costly: int
    mistakes: int
    lost: float


@with_config(_STRICT)
class ReviewAnswer(TypedDict):
    """``POST`` (202) and ``GET /api/tables/{id}/review``: a seat's review of a hand, being worked out
    (``done`` of ``total`` decisions) or finished (``review``), or why it failed."""

    table: str
    seat: int
    hand: int
    state: Literal["running", "done", "failed"]
    done: int
    total: int
    review: HandReviewJson | None
    error: str | None


# --- house rules in plain words -------------------------------------------------------------------
@with_config(_STRICT)
class RuleLineJson(TypedDict):
    """One option in plain words; ``base_value`` is the extended preset's value where it differs."""

    name: str
    help: str
    value: str
    differs: bool
    base_value: str | None


@with_config(_STRICT)
class RuleGroupJson(TypedDict):
    """The options of one plain-words group (dealing, melding...)."""

    key: str
    title: str
    lines: list[RuleLineJson]


@with_config(_STRICT)
class RuleSheetAnswer(TypedDict):
    """``GET /api/rules``: a rule set in plain words (``rules.plain.sheet_json``), its options grouped
    as the lobby groups them, the scoring and opening minimums as [label, points] rows."""

    name: str
    title: str
    summary: str
    base: str | None
    players: str
    groups: list[RuleGroupJson]
    scoring: list[tuple[str, str]]
    openings: list[tuple[str, str]]
    opening_note: str


@with_config(_STRICT)
class TableRulesAnswer(RuleSheetAnswer):
    """``GET /api/tables/{id}/rules``: a table's rules in plain words, with each rule fact's one-line
    explanation as the table plays it (``rules.lessons``) and the address of its print page."""

    lessons: dict[str, str]
    print: str


# --- the score pad --------------------------------------------------------------------------------
@with_config(_STRICT)
class PadFieldJson(TypedDict):
    """An item of the score pad that the rules score: a count or a yes/no, with its help."""

    name: str
    help: str
    kind: Literal["count", "flag"]


@with_config(_STRICT)
class ScoredHandJson(TypedDict):
    """One hand of the score pad: each side's score and its lines, and the totals after it."""

    scores: list[int]
    lines: list[list[ScoreLineJson]]
    totals: list[int]


@with_config(_STRICT)
class ScoreAnswer(TypedDict):
    """``POST /api/score``: a paper game's sheet scored by the engine: the seating, the pad's items, each
    hand, the totals, each side's opening minimum next hand, and whether the game is over (and who
    won)."""

    rules: str
    players: int
    sides: list[list[int]]
    fields: list[PadFieldJson]
    hands: list[ScoredHandJson]
    totals: list[int]
    next_minimums: list[int]
    game_end: str
    finished: bool
    winner: int | None


HttpAnswer = (
    HealthAnswer
    | list[PresetSummaryJson]
    | PresetDetailAnswer
    | list[OptionJson]
    | BotsAnswer
    | list[TableListingJson]
    | TableJson
    | CreatedAnswer
    | JoinedAnswer
    | RecordJson
    | ReplayAnswer
    | ReplayStepAnswer
    | ReviewAnswer
    | TableRulesAnswer
    | RuleSheetAnswer
    | ScoreAnswer
    | ErrorAnswer
)
HTTP_ANSWER: TypeAdapter[HttpAnswer] = TypeAdapter(HttpAnswer)


def http_answer_schema() -> dict[str, Any]:
    """The JSON Schema of every answer of the HTTP API (the client's types are generated from it)."""
    return schema_of(HTTP_ANSWER, "HttpAnswer")
