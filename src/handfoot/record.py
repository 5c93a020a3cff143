"""Game records: the rules, the table, the deals and the moves, as JSON that replays to the same game.

A record::

    {"rules": "kitchen-table" | {"extends": "kitchen-table", <option>: <value>, ...},
     "players": 4, "seed": 7, "dealer": 0,
     "deals": [{"hands": [[...], ...], "feet": [[...], ...], "stock": ["top", ...],
                "discard": ["bottom", ..., "top"]}],
     "moves": ["draw", "meld KS KH KD | 8S 8H 2C", "discard 5H", ...]}

docs/records.md describes every key. ``parse_record`` (decoded JSON), ``loads_record`` (JSON text) and
``load_record`` (a file) validate a record completely, explicit deals included, and raise ``RecordError``
saying what is wrong and what is allowed. ``replay`` plays the moves and stops before the first one that
cannot be played; ``report`` describes the resulting position as the JSON object ``handfoot replay
--json`` prints. ``record_of`` turns a game played through ``Game`` back into a record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot import cards as C
from handfoot.decode import DecodeError, decode_json, read_text
from handfoot.engine.deal import DealError, DealSpec, deal, hand_rng
from handfoot.engine.errors import IllegalMove
from handfoot.engine.game import Game
from handfoot.engine.moves import MoveSyntaxError, parse_move
from handfoot.engine.openings import pile_pickup
from handfoot.engine.pile import frozen_refusal
from handfoot.engine.scoring import score_lines
from handfoot.engine.state import HandState, Seating
from handfoot.rules import PRESET_NAMES, RuleError, RuleSet, load_rules, preset, rules_to_mapping
from handfoot.rules.options import GameEnd
from handfoot.text import text_problem
from handfoot.wording import plural, show

RECORD_KEYS = ("rules", "players", "seed", "dealer", "deals", "moves", "names")
# The longest name a record gives a seat. A table's people take at most 32 characters
# (``server.wire.protocol.clean_name``); a record read from a file may come from elsewhere.
NAME_LIMIT = 64
DEAL_KEYS = ("hands", "feet", "stock", "discard")
DEFAULT_RULES = "kitchen-table"
# The ``rule`` of a replay error for a move whose text does not follow the notation.
NOTATION_RULE = "notation"


class RecordError(ValueError):
    """A record that cannot be used: not JSON, an unknown key, a bad value, or cards that do not fit."""


@dataclass(frozen=True)
class Record:
    """A parsed, validated record.

    ``rules_source`` is what the record's ``rules`` key holds (a preset name or an override table) and
    ``rules`` the rule set it makes. ``deals`` has one entry per hand from the first, ``None`` for a hand
    shuffled from the seed. ``moves`` are texts in the move notation, in the order they are played.
    ``names`` gives each seat's player name (None for a seat without one), or is empty (no names).
    """

    rules: RuleSet
    rules_source: str | dict[str, Any]
    players: int
    seed: int = 0
    dealer: int = 0
    deals: tuple[DealSpec | None, ...] = ()
    moves: tuple[str, ...] = ()
    names: tuple[str | None, ...] = ()

    def seat_name(self, seat: int) -> str:
        """``Sam (seat 2)`` where the record names the seat's player, else ``seat 2`` (seats from 0)."""
        name = self.names[seat] if seat < len(self.names) else None
        return f"{name} (seat {seat})" if name else f"seat {seat}"

    def new_game(self) -> Game:
        """A fresh ``Game`` at the record's start, before any move."""
        return Game(self.rules, self.players, self.seed, self.dealer, self.deals)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data, in the record format (cards written as codes).

        ``parse_record(record.to_json()) == record`` holds for every record.
        """
        out: dict[str, Any] = {
            "rules": self.rules_source,
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
        }
        if self.deals:
            out["deals"] = [None if spec is None else deal_to_json(spec) for spec in self.deals]
        out["moves"] = list(self.moves)
        if self.names:
            out["names"] = list(self.names)
        return out

    def dumps(self) -> str:
        """The record as JSON text (two-space indent, a trailing newline)."""
        return json.dumps(self.to_json(), indent=2) + "\n"


def deal_to_json(spec: DealSpec) -> dict[str, Any]:
    """An explicit deal in the record format: ``hands`` always; ``feet``, ``stock``, ``discard`` if given."""
    out: dict[str, Any] = {"hands": [C.codes(hand) for hand in spec.hands]}
    if spec.feet is not None:
        out["feet"] = [C.codes(foot) for foot in spec.feet]
    if spec.stock_top:
        out["stock"] = C.codes(spec.stock_top)
    if spec.discard is not None:
        out["discard"] = C.codes(spec.discard)
    return out


# --- reading --------------------------------------------------------------------------------------
def _whole_number(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{key} is {show(value)}; allowed: a whole number")
    return value


def _card_list(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(
            f'{where} is {show(value)}; allowed: a list of card codes such as ["KS", "TD", "JK"]'
        )
    try:
        return tuple(C.parse_card(v) for v in value)
    except C.CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _per_seat(value: Any, where: str, what: str, players: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(f"{where} is {show(value)}; allowed: a list of {players} {what}s, one per seat")
    if len(value) != players:
        raise RecordError(
            f"{where} lists {len(value)} {what}{'s' if len(value) != 1 else ''}; "
            f"allowed: exactly one per seat ({players})"
        )
    return tuple(_card_list(cards, f"{where}[{seat}]") for seat, cards in enumerate(value))


def _deal_spec(value: Any, where: str, players: int) -> DealSpec:
    if not isinstance(value, Mapping):
        raise RecordError(
            f"{where} is {show(value)}; allowed: an object with hands (feet, stock, discard optional)"
        )
    unknown = sorted(str(key) for key in value if key not in DEAL_KEYS)
    if unknown:
        raise RecordError(
            f"{where}: unknown key {', '.join(map(show, unknown))}; allowed: {', '.join(DEAL_KEYS)}"
        )
    if "hands" not in value:
        raise RecordError(
            f"{where}: 'hands' is missing; every explicit deal gives one complete Hand per seat"
        )
    feet = value.get("feet")
    discard = value.get("discard")
    return DealSpec(
        hands=_per_seat(value["hands"], f"{where}.hands", "hand", players),
        feet=None if feet is None else _per_seat(feet, f"{where}.feet", "foot", players),
        stock_top=_card_list(value.get("stock", []), f"{where}.stock"),
        discard=None if discard is None else _card_list(discard, f"{where}.discard"),
    )


def _rules_of(source: Any) -> tuple[RuleSet, str | dict[str, Any]]:
    allowed = (
        f"a preset name ({', '.join(PRESET_NAMES)}) "
        f'or an object such as {{"extends": "{DEFAULT_RULES}", <option>: <value>}}'
    )
    if isinstance(source, str):
        if source not in PRESET_NAMES:
            raise RecordError(f"rules: {show(source)} is not a preset; allowed: {allowed}")
        return preset(source), source
    if not isinstance(source, Mapping):
        raise RecordError(f"rules is {show(source)}; allowed: {allowed}")
    table = dict(source)
    try:
        return load_rules(table), table
    except RuleError as exc:
        raise RecordError(f"rules: {exc}") from None


def check_deal(rules: RuleSet, players: int, seed: int, dealer: int, index: int, spec: DealSpec) -> None:
    """Deal hand ``index`` (0-based) from ``spec`` as a game would; raise ``RecordError`` if it cannot be.

    Catches every misfit the engine refuses: hand and foot sizes, too many copies of a card for the
    shoe, and too few cards left to deal the shuffled feet.
    """
    minimums = [0] * Seating(rules, players).num_owners
    try:
        deal(rules, players, index, (dealer + index) % players, minimums, hand_rng(seed, index), spec)
    except DealError as exc:
        raise RecordError(f"deals[{index}]: {exc}") from None


def parse_record(data: Any) -> Record:
    """A validated ``Record`` from decoded JSON.

    Raises ``RecordError`` with a message naming what is wrong and what is allowed: an unknown key, a
    preset that does not exist or a bad rule override, a player count the rules do not allow, a dealer
    who is not a seat, a bad card code, a deal of the wrong shape or size, more copies of a card than the
    shoe holds, more deals than the game has hands, or moves that are not texts. Moves are only read here;
    whether they are legal is for ``replay``.
    """
    if not isinstance(data, Mapping):
        raise RecordError(f"a record is a JSON object with the keys {', '.join(RECORD_KEYS)}")
    unknown = sorted(str(key) for key in data if key not in RECORD_KEYS)
    if unknown:
        raise RecordError(f"unknown key {', '.join(map(show, unknown))}; allowed: {', '.join(RECORD_KEYS)}")
    rules, source = _rules_of(data.get("rules", DEFAULT_RULES))
    players = _whole_number(data.get("players", rules.default_players), "players")
    if players not in rules.players_allowed:
        raise RecordError(
            f"players is {players}; {rules.name} allows {', '.join(map(str, rules.players_allowed))}"
        )
    seed = _whole_number(data.get("seed", 0), "seed")
    dealer = _whole_number(data.get("dealer", 0), "dealer")
    if not 0 <= dealer < players:
        raise RecordError(f"dealer is {dealer}; allowed: a seat from 0 to {players - 1}")
    deals_value = data.get("deals", [])
    if not isinstance(deals_value, list):
        raise RecordError(
            f"deals is {show(deals_value)}; allowed: a list with one entry (or null) per hand, in order"
        )
    if rules.game_end is GameEnd.HANDS and len(deals_value) > rules.hands_per_game:
        raise RecordError(
            f"deals lists {len(deals_value)} hands; "
            f"{rules.name} plays {plural(rules.hands_per_game, 'hand')} a game"
        )
    deals = tuple(
        None if value is None else _deal_spec(value, f"deals[{index}]", players)
        for index, value in enumerate(deals_value)
    )
    for index, spec in enumerate(deals):
        if spec is not None:
            check_deal(rules, players, seed, dealer, index, spec)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError(
            f'moves is {show(moves)}; allowed: a list of move texts such as "draw" or "discard 5H"'
        )
    for index, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(
                f'moves[{index}] is {show(move)}; allowed: a move text such as "draw" or "discard 5H"'
            )
    names = _names(data.get("names", []), players)
    return Record(rules, source, players, seed, dealer, deals, tuple(moves), names)


def _names(value: Any, players: int) -> tuple[str | None, ...]:
    """A record's ``names``: empty, or one entry per seat, a name (text of at most ``NAME_LIMIT``
    characters, no control characters) or null."""
    allowed = (
        f"a list of {players} names (text of at most {NAME_LIMIT} characters, or null), one per seat, "
        'such as ["Sam", null, "Ann", "Bob"]'
    )
    if not isinstance(value, list) or (value and len(value) != players):
        raise RecordError(f"names is {show(value)}; allowed: {allowed}")
    out: list[str | None] = []
    for seat, name in enumerate(value):
        if name is not None and not isinstance(name, str):
            raise RecordError(f"names[{seat}] is {show(name)}; allowed: {allowed}")
        problem = text_problem(name, NAME_LIMIT) if name else None
        if problem:
            raise RecordError(f"names[{seat}] is {show(name)}: {problem}")
        out.append(name or None)
    return tuple(out)


def loads_record(text: str, name: str = "the record") -> Record:
    """A validated ``Record`` from JSON text; ``name`` (a file name) is used in the messages.

    Raises ``RecordError`` for text that is not usable JSON (``handfoot.decode``: a syntax error, a key
    repeated in one object, nesting too deep, a number too long) and for everything ``parse_record``
    refuses.
    """
    try:
        data = decode_json(text, name)
    except DecodeError as exc:
        raise RecordError(str(exc)) from None
    return parse_record(data)


def load_record(path: str | Path) -> Record:
    """A validated ``Record`` read from a UTF-8 JSON file (``-``: standard input); raises ``RecordError``
    if it cannot be read or used."""
    try:
        text, name = read_text(path)
    except DecodeError as exc:
        raise RecordError(str(exc)) from None
    return loads_record(text, name)


@dataclass(frozen=True)
class ReplayError:
    """The first move of a record that could not be played: its 0-based index in ``moves``, its text,
    the rule option it breaks (``"notation"`` for text that is not a move) and the reason."""

    index: int
    move: str
    rule: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """The error as the JSON object ``handfoot replay --json`` prints (``code`` is ``refused``: the
        record was read, the game refuses the move; see ``handfoot.commands``)."""
        return {
            "code": "refused",
            "index": self.index,
            "move": self.move,
            "rule": self.rule,
            "message": self.message,
        }


def replay(record: Record, stop: int | None = None) -> tuple[Game, ReplayError | None]:
    """Play the record's moves (only the first ``stop`` of them, if given) through a new ``Game``.

    Returns the game and ``None`` when every move was played, or the game in the position *before* the
    first move that does not parse or is illegal, and that move's ``ReplayError``.
    """
    game = record.new_game()
    moves = record.moves if stop is None else record.moves[:stop]
    for index, text in enumerate(moves):
        try:
            game.apply_written(parse_move(text))
        except MoveSyntaxError as exc:
            return game, ReplayError(index, text, NOTATION_RULE, str(exc))
        except IllegalMove as exc:
            return game, ReplayError(index, text, exc.rule, exc.message)
    return game, None


def sorted_codes(cards: Sequence[int]) -> list[str]:
    """Card codes in display order (``cards.sort_key``)."""
    return C.codes(sorted(cards, key=C.sort_key))


def _hand_cards(counts: Sequence[int]) -> list[int]:
    return [card for card, count in enumerate(counts) for _ in range(count)]


def _foot_state(state: HandState, seat: int) -> str:
    """``in_play`` once picked up; ``next_turn`` when the Hand was emptied by a discard (the Foot is
    picked up at the start of the seat's next turn); ``unplayed`` otherwise."""
    if state.in_foot[seat]:
        return "in_play"
    if state.feet[seat] and state.hand_size(seat) == 0:
        return "next_turn"
    return "unplayed"


def table_of(state: HandState) -> dict[str, Any]:
    """The table of the hand in play (or the last one, once the game is over), as ``report``'s
    ``table``: ``hand`` (0-based), ``dealer``, ``turn`` (whose turn it is: the asker while a partner
    answers), ``phase``, ``owners`` (who builds melds: per side, or per player where each keeps their own,
    with ``seats``, ``side``, ``down``, the opening ``minimum`` and ``books``), ``melds`` (in the order they
    were started: ``owner``, ``rank``, ``cards`` as laid, ``naturals``, ``wilds``, ``clean``, ``closed``),
    ``red_threes`` (laid down, per side), ``pile`` (``top``, ``size``, ``frozen`` and ``why``) and ``feet``
    (each seat's Foot: ``unplayed``, ``next_turn`` or ``in_play``)."""
    rules = state.rules
    seating = state.seating
    owners = []
    for owner in range(seating.num_owners):
        clean, dirty, wild = state.books[owner]
        owners.append(
            {
                "seats": [seat for seat in range(state.players) if seating.owner_of[seat] == owner],
                "side": seating.side_of_owner(owner, rules),
                "down": state.down[owner],
                "minimum": state.minimums[owner],
                "books": {"clean": clean, "dirty": dirty, "wild": wild},
            }
        )
    melds = [
        {
            "owner": meld.owner,
            "rank": C.RANK_LETTER[meld.rank],
            "cards": C.codes(meld.cards),
            "naturals": meld.naturals,
            "wilds": meld.wilds,
            "clean": meld.wilds == 0,
            "closed": len(meld.cards) >= rules.book_size,
        }
        for meld in state.melds
    ]
    frozen = frozen_refusal(state) if state.pile else None
    return {
        "hand": state.hand_index,
        "dealer": state.dealer,
        "turn": state.turn_seat,
        "phase": state.phase.name.lower(),
        "owners": owners,
        "melds": melds,
        "red_threes": [C.codes(cards) for cards in state.red_threes],
        "pile": {
            "top": C.CODE_OF[state.pile[-1]] if state.pile else None,
            "size": len(state.pile),
            "frozen": frozen is not None,
            "why": None if frozen is None else frozen.message,
        },
        "feet": [_foot_state(state, seat) for seat in range(state.players)],
    }


def take_pile_of(game: Game) -> dict[str, Any]:
    """Whether the player to move can take the discard pile now, as ``report``'s ``take_pile``:
    ``can``, one legal ``move`` that takes it (the atomic pickup with the fewest naturals, else a pickup
    that opens with several melds; None when it cannot) and ``opening`` (true when only such an opening
    takes it)."""
    pickup = None if game.finished else pile_pickup(game.state)
    return {
        "can": pickup is not None,
        "move": None if pickup is None else str(pickup),
        "opening": pickup is not None and len(pickup.groups) > 1,
    }


# Why a hand ended, in words (a hand's ``reason`` in ``report``).
END_WORDS = {
    "went_out": "went out",
    "stock_empty": "the stock ran out and nobody could take the pile",
    "last_round": "the last round after melding out ended",
}


def hand_json(game: Game, index: int) -> dict[str, Any]:
    """Finished hand ``index`` of ``game`` as ``report`` gives it: ``scores`` per side, the seat that
    ``went_out`` (or None), the ``reason`` it ended (``went_out``, ``stock_empty``, ``last_round``) and
    ``lines``, each side's score item by item (``label``, ``count``, ``points``: they add up to its
    score)."""
    result = game.results[index]
    rules = game.rules.for_hand(index)
    return {
        "scores": list(result.scores),
        "went_out": result.went_out,
        "reason": result.reason,
        "lines": [
            [{"label": ln.label, "count": ln.count, "points": ln.points} for ln in score_lines(rules, tally)]
            for tally in result.tallies
        ],
    }


def report(game: Game, error: ReplayError | None = None, names: Sequence[str | None] = ()) -> dict[str, Any]:
    """The position of ``game`` as the JSON object ``handfoot replay --json`` prints.

    Keys: ``names`` (each seat's player name from the record, or None), ``hands`` (each finished hand's
    ``hand_json``: scores per side, who went out, why it ended and the score item by item),
    ``totals`` per side, ``finished``, ``winner`` (a side, None while playing or on a tie), ``to_move``
    (None once finished), ``legal`` (the text of every legal atomic move), ``seats`` (each seat's
    ``hand`` and unplayed ``foot``, sorted card codes), ``stock`` (cards left) and ``discard`` (the
    pile's codes, bottom first), ``take_pile`` (``take_pile_of``) and ``table`` (``table_of``: phase,
    melds, books, sides down and their minimums, red 3s, the pile and the Feet); plus ``error`` when
    ``error`` is given.
    """
    state = game.state
    out: dict[str, Any] = {
        "names": [names[seat] if seat < len(names) else None for seat in range(game.players)],
        "hands": [hand_json(game, index) for index in range(len(game.results))],
        "totals": list(game.totals),
        "finished": game.finished,
        "winner": game.winner,
        "to_move": game.to_move,
        "legal": [str(move) for move in game.legal_moves()],
        "seats": [
            {
                "hand": sorted_codes(_hand_cards(state.hand_cards[seat])),
                "foot": sorted_codes(state.feet[seat]),
            }
            for seat in range(game.players)
        ],
        "stock": len(state.stock),
        "discard": C.codes(state.pile),
        "take_pile": take_pile_of(game),
        "table": table_of(state),
    }
    if error is not None:
        out["error"] = error.to_json()
    return out


# --- writing ---------------------------------------------------------------------------------------
def rules_source_of(rules: RuleSet) -> str | dict[str, Any]:
    """The shortest ``rules`` value that makes ``rules``: a preset's name, or the preset it differs
    least from with the differing options (``load_rules`` of the result equals ``rules``)."""
    if rules.name in PRESET_NAMES and preset(rules.name) == rules:
        return rules.name
    wanted = rules_to_mapping(rules)
    best: dict[str, Any] | None = None
    for name in PRESET_NAMES:
        base = rules_to_mapping(preset(name))
        diff: dict[str, Any] = {"extends": name}
        for key, value in wanted.items():
            if key == "card_values":
                changed = {kind: points for kind, points in value.items() if base[key][kind] != points}
                if changed:
                    diff[key] = changed
            elif key != "name" and base[key] != value:
                diff[key] = value
        if wanted["name"] != f"{name}+custom":
            diff["name"] = wanted["name"]
        if best is None or len(diff) < len(best):
            best = diff
    assert best is not None
    if load_rules(best) == rules:
        return best
    full = dict(wanted)
    full["extends"] = DEFAULT_RULES
    return full


def record_of(
    game: Game, rules_source: str | dict[str, Any] | None = None, names: Sequence[str | None] = ()
) -> Record:
    """A record of ``game`` as played so far: its rules (``rules_source`` if given, else the shortest
    form from ``rules_source_of``), table, explicit deals and every move, which replays to the same
    position; ``names``: the players' names by seat (None for a seat without one), if any."""
    source = rules_source if rules_source is not None else rules_source_of(game.rules)
    deals = list(game.deals)
    while deals and deals[-1] is None:
        deals.pop()
    moves = tuple(text for hand in game.history for text in hand)
    named = tuple(names) if any(names) else ()
    return Record(game.rules, source, game.players, game.seed, game.first_dealer, tuple(deals), moves, named)


__all__ = [
    "DEAL_KEYS",
    "END_WORDS",
    "NOTATION_RULE",
    "RECORD_KEYS",
    "Record",
    "RecordError",
    "ReplayError",
    "check_deal",
    "deal_to_json",
    "hand_json",
    "load_record",
    "loads_record",
    "parse_record",
    "record_of",
    "replay",
    "report",
    "rules_source_of",
    "sorted_codes",
    "table_of",
    "take_pile_of",
]
