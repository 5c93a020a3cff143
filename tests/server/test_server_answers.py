"""Every JSON answer of the HTTP API against the shape its route declares (``server/wire/answers.py``):
a running server is asked every endpoint once, over a table made and joined through the API and a
finished private table stored beforehand (record, replay, its rules and a seat's hand review), with
refusals of each kind; each real answer must validate strictly (no field more, none missing or renamed,
no value of another type) against the shape its route declares (as /openapi.json names it), and each
refusal against ``ErrorAnswer``. The committed ``docs/api.schema.json`` is the models' own, and
docs/protocol.md names each route's answer and every field of every answer."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

import httpx
import pytest
from pydantic import TypeAdapter, ValidationError

from handfoot.record import Record
from handfoot.server.app import create_app
from handfoot.server.settings import Settings
from handfoot.server.store.storage import SeatRow, TableRow, now, token_hash
from handfoot.server.tables.reviews import WORLDS_ENV
from handfoot.server.wire import answers as answers_module
from handfoot.server.wire import messages as messages_module
from handfoot.server.wire.answers import (
    ErrorAnswer,
    HealthAnswer,
    ReplayStepAnswer,
    TableJson,
    http_answer_schema,
)
from helpers.server import ONE_HAND, running_server, store_planted_game

ROOT = Path(__file__).resolve().parents[2]
FINISHED = "answers-finished"
TOKENS = [f"seat-{seat}-token-of-the-answers-table" for seat in range(4)]
WATCH = "watch-key-of-the-answers-table"
ERROR: TypeAdapter[ErrorAnswer] = TypeAdapter(ErrorAnswer)
sys.path.insert(0, str(ROOT / "tools"))
import client_types  # noqa: E402


def openapi_document(tmp: Path) -> dict[str, Any]:
    """The application's /openapi.json."""
    document: dict[str, Any] = create_app(Settings(data_dir=tmp, api_docs=True)).openapi()
    return document


def shape_of(schema: dict[str, Any]) -> Any:
    """The type of ``wire.answers`` (or ``wire.messages``) an answer's schema in /openapi.json names."""
    if schema.get("type") == "array":
        return list[shape_of(schema["items"])]
    assert "$ref" in schema, f"not a shape of wire.answers: {schema}"
    name = str(schema["$ref"]).rsplit("/", 1)[-1]
    shape = getattr(answers_module, name, None) or getattr(messages_module, name)
    assert getattr(shape, "__module__", "").startswith("handfoot.server.wire."), name
    return shape


@dataclass(frozen=True)
class Declared:
    """What a route of the API declares in /openapi.json: its good answer's status and shape, and the
    shape of its refusals."""

    status: int
    shape: Any
    refusal: Any

    @property
    def answer(self) -> TypeAdapter[Any]:
        """The shape of its good answer, to validate with."""
        return TypeAdapter(self.shape)

    @property
    def name(self) -> str:
        """The name of that shape (``X[]`` for a list of ``X``), as docs/protocol.md writes it."""
        if get_origin(self.shape) is list:
            return f"{get_args(self.shape)[0].__name__}[]"
        return str(self.shape.__name__)


def declared_routes(tmp: Path) -> dict[tuple[str, str], Declared]:
    """Every route of the API (``/api/...``) by method and path, with what /openapi.json says it
    answers."""
    out = {}
    for path, operations in openapi_document(tmp)["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            responses = operation["responses"]
            good = [status for status in responses if status.startswith("2")]
            assert len(good) == 1, (method, path, responses)
            schema = responses[good[0]].get("content", {}).get("application/json", {}).get("schema", {})
            refused = (
                responses.get("4XX", {}).get("content", {}).get("application/json", {}).get("schema", {})
            )
            out[(method.upper(), path)] = Declared(int(good[0]), shape_of(schema), shape_of(refused))
    return out


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Declared]:
    return declared_routes(tmp_path_factory.mktemp("answers-routes"))


def plant_finished_table(settings: Settings) -> None:
    """Store a private table of four people whose one-hand game is over (the review tests' planted
    hand, played to its end), with known seat tokens and watch key."""

    def row(record: Record) -> TableRow:
        return TableRow(
            FINISHED,
            now(),
            ONE_HAND,
            record.players,
            record.seed,
            record.dealer,
            public=False,
            watch_hash=token_hash(WATCH),
        )

    seats = [SeatRow(seat, "human", None, token_hash(TOKENS[seat]), f"P{seat}") for seat in range(4)]
    store_planted_game(settings, row, seats)


@dataclass(frozen=True)
class Answer:
    """One answer the server gave: the route asked (method and path template), status and body."""

    method: str
    route: str
    status: int
    body: bytes


@dataclass
class Caller:
    """Asks the server at ``base`` and keeps every answer."""

    base: str
    seen: list[Answer] = field(default_factory=list)

    def call(
        self,
        method: str,
        route: str,
        expect: int,
        *,
        key: str | None = None,
        body: Any = None,
        params: dict[str, Any] | None = None,
        **path: Any,
    ) -> Any:
        """Ask ``method`` ``route`` (its path parameters given by name); the status must be ``expect``;
        the answer's JSON."""
        headers = {"Accept": "application/json"} | ({} if key is None else {"X-Handfoot-Key": key})
        response = httpx.request(
            method,
            self.base + route.format(**path),
            json=body,
            params=params,
            headers=headers,
            timeout=60,
        )
        assert response.status_code == expect, (method, route, path, response.text)
        self.seen.append(Answer(method, route, response.status_code, response.content))
        return response.json()


def walk(base: str) -> list[Answer]:
    """Ask every endpoint of the API, with refusals: the answers in order."""
    c = Caller(base)
    c.call("GET", "/api/health", 200)
    c.call("GET", "/api/presets", 200)
    c.call("GET", "/api/presets/{name}", 200, name="family")
    c.call("GET", "/api/presets/{name}", 404, name="no-such-preset")
    c.call("GET", "/api/options", 200)
    c.call("GET", "/api/bots", 200)

    seats = [{"kind": "invite"}, {"kind": "bot", "bot": "medium"}]
    made = c.call(
        "POST",
        "/api/tables",
        201,
        body={"preset": "kitchen-table", "players": 2, "seats": seats, "public": True},
    )
    c.call("POST", "/api/tables", 422, body={"preset": "kitchen-table", "options": {"hand_size": 0}})
    c.call("POST", "/api/tables", 422, body={"preset": "kitchen-table", "colour": "red"})
    table_id, token = made["table"]["id"], made["invites"][0]["token"]
    join = "/api/tables/{table_id}/join"
    c.call("POST", join, 200, table_id=table_id, body={"token": token, "name": "Ann"})
    c.call("POST", join, 403, table_id=table_id, body={"token": "not-a-token-of-this-table", "name": "Bo"})
    c.call("GET", "/api/tables", 200, params={"limit": 5})
    c.call("GET", "/api/tables/{table_id}", 200, table_id=table_id)
    c.call("GET", "/api/tables/{table_id}", 200, table_id=FINISHED, key=WATCH)
    c.call("GET", "/api/tables/{table_id}", 404, table_id=FINISHED)
    c.call("GET", "/api/tables/{table_id}", 404, table_id="no-such-table")

    c.call("GET", "/api/tables/{table_id}/record", 200, table_id=FINISHED, key=WATCH)
    c.call("GET", "/api/tables/{table_id}/record", 409, table_id=table_id)
    listing = c.call("GET", "/api/tables/{table_id}/replay", 200, table_id=FINISHED, key=WATCH)
    c.call("GET", "/api/tables/{table_id}/replay", 409, table_id=table_id)
    steps = listing["steps"]
    ends = [s["step"] for s in steps if s["hand_end"]]
    assert ends, "the finished game's replay has a hand's end"
    for step in (0, 1, ends[0]):
        c.call("GET", "/api/tables/{table_id}/replay/{step}", 200, table_id=FINISHED, step=step, key=WATCH)
    c.call("GET", "/api/tables/{table_id}/replay/{step}", 404, table_id=FINISHED, step=len(steps), key=WATCH)

    c.call("GET", "/api/tables/{table_id}/rules", 200, table_id=FINISHED, key=WATCH)
    c.call("GET", "/api/tables/{table_id}/rules", 200, table_id=table_id)
    c.call("GET", "/api/rules", 200, params={"extends": "family", "options": json.dumps({"hand_size": 13})})
    c.call("GET", "/api/rules", 404, params={"extends": "no-such-preset"})
    c.call("GET", "/api/rules", 422, params={"extends": "family", "options": "[1, 2]"})

    pad = [{"clean_books": 3, "melded_points": 420, "went_out": True}, {"dirty_books": 1, "held_points": 65}]
    c.call("POST", "/api/score", 200, body={"preset": "in-laws", "players": 4, "hands": [pad]})
    c.call("POST", "/api/score", 200, body={"preset": "family", "players": 3})
    twice = [{"went_out": True}, {"went_out": True}]
    c.call("POST", "/api/score", 422, body={"preset": "in-laws", "players": 4, "hands": [twice]})
    c.call("POST", "/api/score", 413, body={"preset": "in-laws", "options": {"name": "x" * 70_000}})

    review = "/api/tables/{table_id}/review"
    c.call("POST", review, 202, table_id=FINISHED, key=TOKENS[0], body={"hand": 0})
    c.call("POST", review, 403, table_id=FINISHED, key=WATCH, body={})
    c.call("POST", review, 422, table_id=FINISHED, key=TOKENS[0], body={"hand": "0"})
    c.call("GET", review, 404, table_id=FINISHED, key=TOKENS[1])
    deadline = time.monotonic() + 300
    while (
        c.call("GET", review, 200, table_id=FINISHED, key=TOKENS[0], params={"hand": 0})["state"] == "running"
    ):
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.5)
    assert json.loads(c.seen[-1].body)["state"] == "done", c.seen[-1].body

    c.call("GET", "/api/no-such-thing", 404)
    return c.seen


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Answer]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("answers-data"), port=0, bot_delay=0.0, rate_limit=0)
    settings.prepare()
    plant_finished_table(settings)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(WORLDS_ENV, "1")  # the review's shape, not its strength: one world per decision
        with running_server(settings) as base:
            yield walk(base)


def found(answers: list[Answer], method: str, route: str) -> Answer:
    """The first good answer of ``method`` ``route``."""
    return next(a for a in answers if (a.method, a.route) == (method, route) and a.status < 300)


def test_every_route_of_the_api_declares_its_answer_and_its_refusals(
    routes: dict[tuple[str, str], Declared],
) -> None:
    """/openapi.json names a shape of ``wire.answers`` for every route's answer (``shape_of`` fails on
    any other) and ``ErrorAnswer`` for its refusals."""
    assert len(routes) >= 17
    assert {path for _method, path in routes} >= {"/api/health", "/api/tables/{table_id}/replay/{step}"}
    for (method, path), route in sorted(routes.items()):
        assert route.refusal is ErrorAnswer, f"{method} {path}"


def test_every_route_was_asked_and_answered(
    answers: list[Answer], routes: dict[tuple[str, str], Declared]
) -> None:
    answered = {(a.method, a.route) for a in answers if a.status < 300}
    assert answered == set(routes)


def test_every_answer_has_the_shape_its_route_declares(
    answers: list[Answer], routes: dict[tuple[str, str], Declared]
) -> None:
    wrong = []
    for answer in answers:
        if answer.status >= 300:
            continue
        route = routes[(answer.method, answer.route)]
        assert answer.status == route.status, (answer.method, answer.route)
        try:
            route.answer.validate_json(answer.body, strict=True)
        except ValidationError as exc:
            wrong.append(f"{answer.method} {answer.route} answered another shape than {route.name}: {exc}")
    assert not wrong, "\n".join(wrong)


def test_every_refusal_is_an_error_answer(answers: list[Answer]) -> None:
    refusals = [a for a in answers if a.status >= 400]
    assert {a.status for a in refusals} == {403, 404, 409, 413, 422}
    wrong = []
    for answer in refusals:
        try:
            ERROR.validate_json(answer.body, strict=True)
        except ValidationError as exc:
            wrong.append(f"{answer.method} {answer.route} ({answer.status}) refused in another shape: {exc}")
    assert not wrong, "\n".join(wrong)


def test_the_answers_cover_the_shapes_variants(answers: list[Answer]) -> None:
    """The walk reached the answers' optional parts: a listed table, a finished game's hands, a hand's
    end, a finished review."""
    assert json.loads(found(answers, "GET", "/api/tables").body), "the lobby lists the public table"
    finished = json.loads(found(answers, "GET", "/api/tables/{table_id}/replay").body)
    assert finished["table"]["hands"] and isinstance(finished["table"]["rules_source"], dict)
    steps = [json.loads(a.body) for a in answers if a.route.endswith("/replay/{step}") and a.status == 200]
    assert any(s["hand_end"] is not None for s in steps) and any(s["hand_end"] is None for s in steps)
    reviews = [json.loads(a.body) for a in answers if a.route.endswith("/review") and a.status < 300]
    assert reviews[-1]["review"]["decisions"]


def with_field(value: dict[str, Any], path: list[str | int], change: str) -> dict[str, Any]:
    """A copy of ``value`` with, at the object at ``path``, a field added (``add``) or one renamed
    (``rename``: its first field gets another name)."""
    copy = json.loads(json.dumps(value))
    target = copy
    for part in path:
        target = target[part]
    if change == "add":
        target["colour"] = "red"
    else:
        first = next(iter(target))
        target[f"{first}_renamed"] = target.pop(first)
    return copy


@pytest.mark.parametrize("change", ["add", "rename"])
def test_a_field_added_or_renamed_on_one_side_is_refused(answers: list[Answer], change: str) -> None:
    """The shapes are strict, down to their nested parts: an answer with a field the model does not
    have, or one named otherwise, does not validate."""
    health = json.loads(found(answers, "GET", "/api/health").body)
    table = json.loads(found(answers, "GET", "/api/tables/{table_id}").body)
    step = json.loads(found(answers, "GET", "/api/tables/{table_id}/replay/{step}").body)
    cases: list[tuple[Any, dict[str, Any], list[str | int]]] = [
        (HealthAnswer, health, []),
        (TableJson, table, []),
        (TableJson, table, ["seats", 0]),
        (ReplayStepAnswer, step, ["view"]),
        (ReplayStepAnswer, step, ["view", "seats", 0]),
    ]
    for shape, value, path in cases:
        adapter: TypeAdapter[Any] = TypeAdapter(shape)
        adapter.validate_python(value, strict=True)  # the real answer validates
        with pytest.raises(ValidationError):
            adapter.validate_python(with_field(value, path, change), strict=True)
    wrong = dict(health, protocol="1")
    with pytest.raises(ValidationError):
        TypeAdapter(HealthAnswer).validate_python(wrong, strict=True)


def test_the_committed_schema_is_the_models_own() -> None:
    committed = json.loads(client_types.API_SCHEMA_OUT.read_text(encoding="utf-8"))
    assert committed == http_answer_schema(), (
        "docs/api.schema.json is stale: run python tools/client_types.py"
    )


def unnamed(shape: dict[str, Any], doc: str) -> list[str]:
    """The fields of ``shape`` that ``doc`` never names as a JSON key or in code."""
    return [name for name in shape.get("properties", {}) if f'"{name}"' not in doc and f"`{name}`" not in doc]


def test_every_field_of_every_answer_is_documented() -> None:
    """docs/protocol.md names every field of every answer; the record's are docs/records.md's."""
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    records = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    shapes = http_answer_schema()["$defs"]
    missing = {
        name: unnamed(shape, records if name in ("RecordJson", "DealJson") else protocol)
        for name, shape in shapes.items()
    }
    assert {name: fields for name, fields in missing.items() if fields} == {}


def test_the_http_table_names_each_routes_answer(routes: dict[tuple[str, str], Declared]) -> None:
    """The table of docs/protocol.md's "HTTP lobby" has a row per route, naming its answer's shape."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+ /api/[^`]*)` \| `(\w+(?:\[\])?)` \|", doc, re.M))
    for (method, path), route in routes.items():
        written = f"{method} {path.replace('{table_id}', '{id}')}"
        assert written in rows, f"docs/protocol.md has no row for {written}"
        assert rows[written] == route.name, written
    assert len(rows) == len(routes), "docs/protocol.md has a row for a route the server does not have"
