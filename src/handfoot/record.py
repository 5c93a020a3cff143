"""Game records: a deal plus moves, as JSON, that replay to the same game.

A record::

    {"rules": "kitchen-table" | {"extends": "kitchen-table", <option>: <value>, ...},
     "players": 4, "seed": 7, "dealer": 0,
     "deals": [{"hands": [[...], ...], "feet": [[...], ...], "stock": ["top", ...],
                "discard": ["bottom", ..., "top"]}],
     "moves": ["draw", "meld KS KH KD | 8S 8H 2C", "discard 5H", ...]}

See docs/records.md. ``load_record`` validates and raises ``RecordError`` with a message saying what
is wrong and what is allowed; ``replay`` plays the moves and stops at the first illegal one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handfoot import cards as C
from handfoot.engine.deal import DealError, DealSpec
from handfoot.engine.errors import IllegalMove
from handfoot.engine.game import Game
from handfoot.engine.moves import MoveSyntaxError, parse_move
from handfoot.rules import RuleError, RuleSet, load_rules, rules_to_mapping
from handfoot.rules.load import PRESET_NAMES

RECORD_KEYS = ("rules", "players", "seed", "dealer", "deals", "moves")


class RecordError(ValueError):
    """A record that cannot be read or whose cards do not fit the shoe."""


@dataclass(frozen=True)
class Record:
    """A parsed record: the rule set, the table, the explicit deals, and the moves as text."""

    rules: RuleSet
    rules_source: str | dict[str, Any]
    players: int
    seed: int = 0
    dealer: int = 0
    deals: tuple[DealSpec, ...] = ()
    moves: tuple[str, ...] = field(default_factory=tuple)

    def new_game(self) -> Game:
        """A fresh game at the record's start (raises RecordError if the deals do not fit)."""
        try:
            return Game(self.rules, self.players, self.seed, self.dealer, self.deals)
        except DealError as exc:
            raise RecordError(f"deals[0]: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (deals written out in card codes)."""
        out: dict[str, Any] = {
            "rules": self.rules_source,
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
        }
        if self.deals:
            out["deals"] = [_deal_to_json(d) for d in self.deals]
        out["moves"] = list(self.moves)
        return out


def _deal_to_json(spec: DealSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": [C.codes(h) for h in spec.hands]}
    if spec.feet is not None:
        out["feet"] = [C.codes(f) for f in spec.feet]
    if spec.stock_top:
        out["stock"] = C.codes(spec.stock_top)
    if spec.discard is not None:
        out["discard"] = C.codes(spec.discard)
    return out


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f">= {low}"
        raise RecordError(f"{key!r} is {value!r}; allowed: a whole number {span}")
    return value


def _card_list(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where} must be a list of card codes such as [\"KS\", \"JK\"]")
    try:
        return tuple(C.parse_card(v) for v in value)
    except C.CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _deal_spec(value: Any, index: int, players: int) -> DealSpec:
    where = f"deals[{index}]"
    if not isinstance(value, Mapping):
        raise RecordError(f"{where} must be an object with hands (and optionally feet, stock, discard)")
    unknown = set(value) - {"hands", "feet", "stock", "discard"}
    if unknown:
        raise RecordError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: hands, feet, stock, discard")
    if "hands" not in value:
        raise RecordError(f"{where}: 'hands' is required, one complete Hand per seat")
    hands = value["hands"]
    if not isinstance(hands, list) or len(hands) != players:
        raise RecordError(f"{where}.hands must list one Hand per seat ({players})")
    feet = value.get("feet")
    if feet is not None and (not isinstance(feet, list) or len(feet) != players):
        raise RecordError(f"{where}.feet must list one Foot per seat ({players}), or be left out")
    return DealSpec(
        hands=tuple(_card_list(h, f"{where}.hands[{i}]") for i, h in enumerate(hands)),
        feet=None if feet is None else tuple(_card_list(f, f"{where}.feet[{i}]") for i, f in enumerate(feet)),
        stock_top=_card_list(value.get("stock", []), f"{where}.stock"),
        discard=None if value.get("discard") is None else _card_list(value["discard"], f"{where}.discard"),
    )


def parse_record(data: Any) -> Record:
    """A Record from decoded JSON; raises RecordError naming what is wrong and what is allowed."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with rules, players, seed, dealer, deals and moves")
    unknown = set(data) - set(RECORD_KEYS)
    if unknown:
        raise RecordError(f"unknown key(s) {sorted(unknown)}; allowed: {', '.join(RECORD_KEYS)}")
    source = data.get("rules", "kitchen-table")
    try:
        if isinstance(source, str):
            if source not in PRESET_NAMES:
                raise RecordError(f"rules {source!r} is not a preset; allowed: {', '.join(PRESET_NAMES)} or an object")
            rules = load_rules(source)
        elif isinstance(source, Mapping):
            rules = load_rules(dict(source))
        else:
            raise RecordError("rules must be a preset name or an object {\"extends\": preset, option: value}")
    except RuleError as exc:
        raise RecordError(f"rules: {exc}") from None
    players = _int(data, "players", rules.default_players, 2, 6)
    if players not in rules.players_allowed:
        raise RecordError(f"players is {players}; {rules.name} allows {list(rules.players_allowed)}")
    seed = _int(data, "seed", 0, 0)
    dealer = _int(data, "dealer", 0, 0, players - 1)
    deals_value = data.get("deals", [])
    if not isinstance(deals_value, list):
        raise RecordError("deals must be a list, one entry per hand in order")
    deals = tuple(_deal_spec(d, i, players) for i, d in enumerate(deals_value))
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("moves must be a list of move texts such as \"draw\" or \"discard 5H\"")
    record = Record(rules, dict(source) if isinstance(source, Mapping) else source, players, seed, dealer, deals,
                    tuple(moves))
    # Check every explicit deal against the shoe now, so a bad record is refused before any move.
    for index, spec in enumerate(deals):
        try:
            Game(rules, players, seed, dealer, [None] * index + [spec])
        except DealError as exc:
            raise RecordError(f"deals[{index}]: {exc}") from None
    return record


def load_record(path: str | Path) -> Record:
    """Read and parse a record file (``-`` is not handled here: pass the text to ``parse_record``)."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    return parse_record(data)


@dataclass(frozen=True)
class ReplayError:
    """The first move of a record that could not be played."""

    index: int
    move: str
    rule: str
    message: str


def replay(record: Record, stop: int | None = None) -> tuple[Game, ReplayError | None]:
    """Play the record's moves (the first ``stop`` of them); stops before the first illegal move."""
    game = record.new_game()
    moves = record.moves if stop is None else record.moves[:stop]
    for index, text in enumerate(moves):
        try:
            move = parse_move(text)
            game.apply(move)
        except MoveSyntaxError as exc:
            return game, ReplayError(index, text, "notation", str(exc))
        except IllegalMove as exc:
            return game, ReplayError(index, text, exc.rule, exc.message)
    return game, None


def record_of(game: Game, rules_source: str | dict[str, Any] | None = None) -> Record:
    """A record of a game played so far (its moves in order), replayable to the same position."""
    source: str | dict[str, Any] = rules_source if rules_source is not None else (
        game.rules.name if game.rules.name in PRESET_NAMES else rules_to_mapping(game.rules)
    )
    if isinstance(source, dict):
        source = {k: v for k, v in source.items() if k not in ("name",)}
        source.setdefault("extends", "kitchen-table")
    moves = tuple(text for hand in game.history for text in hand)
    return Record(game.rules, source, game.players, game.seed, game.first_dealer, tuple(
        d for d in game.deals if d is not None), moves)
