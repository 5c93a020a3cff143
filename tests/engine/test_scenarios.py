"""Faithful-rules scenarios: game records under tests/scenarios/<preset>/<name>.json, replayed and checked.

Each file is ``{"sheet", "rule", "description", "record", "expect"}``. ``sheet`` names the rule sheet it
reads by its preset (the folder's name; docs/rules.md, "The five presets", gives each preset's sheet and
title). ``rule`` begins with the section it tests, sections joined by ``/`` (``"4. take the discard pile:
..."``): the sheet's own number where the sheet numbers its sections (family), else the topic's number
(1 table and deal, 2 game length and opening minimum, 3 melds and books, 4 a turn, 5 the Foot and going
out, 6 scoring); or with the option it tests (``"option ..."``, ``"options ..."``, ``"per-hand settings
..."``) where the rule is one the sheet does not have. ``record`` is a game record (see
``handfoot.record``) with explicit deals, so every outcome is reasoned from the rule sheet.
``expect`` uses this vocabulary (every key optional):

- ``error``: ``{"index": i, "rule": option}``: move ``i`` must be refused for that rule option, every move
  before it played. Without it every move must play. The other checks look at the game as the replay left it.
- ``legal``: move texts the player to move may make now (``check`` accepts them, and an atomic move's id is
  among ``legal_ids``).
- ``illegal``: move texts (or ``{"move": text, "rule": option}``) refused now, never among ``legal_ids``.
- ``to_move``, ``phase`` (draw / play / answer / over), ``hand_index``, ``dealer``, ``first_player``.
- ``sides``: the side of each seat. ``partners``: each seat's partners.
- ``hand_sizes``, ``foot_sizes`` (an unplayed Foot's cards), ``in_foot``: one entry per seat.
- ``stock_size``, ``pile_size``, ``pile_top`` (a card code, or null), ``shoe`` (every card of the hand).
- ``melds``: the table in the order melds were started, each ``"<owner> <rank> <naturals>+<wilds>"``.
- ``books``: ``[clean, dirty]`` per meld owner. ``down``: per owner. ``minimums``: opening minimum per owner.
- ``red_threes``: red 3s laid down, per side.
- ``hands_played``; ``hand_scores``: each finished hand's score per side; ``score_lines``: the last finished
  hand's breakdown per side (``{label: points}``, every line); ``hand_end``: the last finished hand's
  ``{"reason", "went_out"}``; ``totals``; ``finished``; ``winner``.
- ``at``: a list of checkpoints ``{"after": n, <keys above but error>}``, checked after the first ``n`` moves.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from handfoot import cards as C
from handfoot.engine.game import Game
from handfoot.engine.judge import check
from handfoot.engine.moves import Move, MoveSyntaxError, decode_id, move_id, parse_move
from handfoot.engine.scoring import score_lines
from handfoot.engine.state import HandState
from handfoot.record import parse_record, replay

SCENARIOS = Path(__file__).parent.parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*/*.json"))
PRESETS = ("kitchen-table", "head-and-foot", "family", "marmot", "in-laws")
# What a scenario's "rule" begins with: a section of the sheet ("3.", "1./3.", "4./5."), or an option.
CITATION = re.compile(r"(\d+\.(/\d+\.)*|options?|per-hand settings) ")
TOP_KEYS = {"sheet", "rule", "description", "record", "expect"}


def _meld_text(state: HandState) -> list[str]:
    return [f"{m.owner} {C.KIND_NAMES[m.rank]} {m.naturals}+{m.wilds}" for m in state.melds]


def _shoe(state: HandState) -> int:
    total = sum(state.hand_size(seat) + len(state.feet[seat]) for seat in range(state.players))
    total += len(state.stock) + len(state.pile) + sum(len(m.cards) for m in state.melds)
    return total + sum(len(r) for r in state.red_threes)


def _state_values(game: Game) -> dict[str, Any]:
    """What each state expectation key reads from the game."""
    s = game.state
    seats = range(s.players)
    last = game.results[-1] if game.results else None
    return {
        "to_move": lambda: s.to_move,
        "phase": lambda: s.phase.name.lower(),
        "hand_index": lambda: s.hand_index,
        "dealer": lambda: s.dealer,
        "first_player": lambda: s.first_player,
        "sides": lambda: list(s.seating.side_of),
        "partners": lambda: [list(p) for p in s.seating.partners],
        "hand_sizes": lambda: [s.hand_size(seat) for seat in seats],
        "foot_sizes": lambda: [len(s.feet[seat]) for seat in seats],
        "in_foot": lambda: list(s.in_foot),
        "stock_size": lambda: len(s.stock),
        "pile_size": lambda: len(s.pile),
        "pile_top": lambda: C.CODE_OF[s.pile[-1]] if s.pile else None,
        "shoe": lambda: _shoe(s),
        "melds": lambda: _meld_text(s),
        "books": lambda: [list(b[:2]) for b in s.books],
        "down": lambda: list(s.down),
        "minimums": lambda: list(s.minimums),
        "red_threes": lambda: [len(r) for r in s.red_threes],
        "hands_played": lambda: len(game.results),
        "hand_scores": lambda: [list(r.scores) for r in game.results],
        "score_lines": lambda: (
            None
            if last is None
            else [
                {
                    line.label: line.points
                    for line in score_lines(game.rules.for_hand(len(game.results) - 1), t)
                }
                for t in last.tallies
            ]
        ),
        "hand_end": lambda: None if last is None else {"reason": last.reason, "went_out": last.went_out},
        "totals": lambda: list(game.totals),
        "finished": lambda: game.finished,
        "winner": lambda: game.winner,
    }


def _atomic_id(move: Move) -> int:
    """The move's id if it is an atomic move (one ``decode_id`` knows), else -1."""
    mid = move_id(move)
    try:
        decode_id(mid)
    except ValueError:
        return -1
    return mid


def _check_moves(game: Game, expect: dict[str, Any], problems: list[str]) -> None:
    ids = set(game.legal_ids())
    for text in expect.get("legal", []):
        move = parse_move(text)
        why = None if game.finished else check(game.state, move)
        if why is not None:
            problems.append(f"legal: {text!r} was refused [{why.rule}]: {why.message}")
        elif _atomic_id(move) >= 0 and _atomic_id(move) not in ids:
            problems.append(
                f"legal: {text!r} is accepted by check but its id {move_id(move)} is not in legal_ids"
            )
    for item in expect.get("illegal", []):
        text, rule = (item, None) if isinstance(item, str) else (item["move"], item.get("rule"))
        try:
            move = parse_move(text)
        except MoveSyntaxError as exc:
            problems.append(f"illegal: {text!r} is not notation: {exc}")
            continue
        why = None if game.finished else check(game.state, move)
        if why is None and not game.finished:
            problems.append(f"illegal: {text!r} was accepted")
        elif rule is not None and why is not None and why.rule != rule:
            problems.append(f"illegal: {text!r} refused for {why.rule!r} ({why.message}), expected {rule!r}")
        if _atomic_id(move) >= 0 and _atomic_id(move) in ids:
            problems.append(f"illegal: {text!r} has its id {move_id(move)} in legal_ids")


def _check_state(game: Game, expect: dict[str, Any], problems: list[str], where: str) -> None:
    found: list[str] = []
    _check_moves(game, expect, found)
    values = _state_values(game)
    unknown = set(expect) - set(values) - {"error", "legal", "illegal", "at", "after"}
    assert not unknown, f"unknown expectation key(s) {sorted(unknown)}"
    for key, want in expect.items():
        if key in values:
            got = values[key]()
            if got != want:
                found.append(f"{key}: expected {want!r}, got {got!r}")
    problems.extend(where + line for line in found)


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text("utf-8"))
    assert set(data) == TOP_KEYS, f"{path.name}: keys must be exactly {sorted(TOP_KEYS)}, got {sorted(data)}"
    preset = path.parent.name
    assert preset in PRESETS, f"{path}: folder {preset!r} is not a preset"
    assert data["sheet"] == preset, f"{path.name}: sheet should be the preset {preset!r}"
    assert CITATION.match(data["rule"]), (
        f"{path.name}: rule should begin with the sheet's section (e.g. '4. ') or the option, "
        f"got {data['rule'][:40]!r}"
    )
    source = data["record"].get("rules")
    named = source if isinstance(source, str) else source.get("extends")
    assert named == preset, f"{path.name}: the record plays {named!r}, not {preset!r}"
    return data


def test_every_preset_has_scenarios() -> None:
    have = {path.parent.name for path in FILES}
    assert have == set(PRESETS), f"presets without scenarios: {sorted(set(PRESETS) - have)}"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    data = _load(path)
    expect = data["expect"]
    game, error = replay(parse_record(data["record"]))
    moves = data["record"].get("moves", [])
    wanted = expect.get("error")
    problems: list[str] = []
    if wanted is None and error is not None:
        problems.append(f"move {error.index} {error.move!r} was refused [{error.rule}]: {error.message}")
    elif wanted is not None and error is None:
        problems.append(
            f"move {wanted['index']} {moves[wanted['index']]!r} should be refused, all moves played"
        )
    elif wanted is not None and error is not None:
        if error.index != wanted["index"]:
            problems.append(
                f"move {error.index} {error.move!r} was refused [{error.rule}]: {error.message}; "
                f"expected move {wanted['index']} to be refused"
            )
        elif error.rule != wanted["rule"]:
            problems.append(
                f"move {error.index} {error.move!r} refused for {error.rule!r} ({error.message}), "
                f"expected {wanted['rule']!r}"
            )
    _check_state(game, expect, problems, "")
    for point in expect.get("at", []):
        stopped, early = replay(parse_record(data["record"]), stop=point["after"])
        if early is not None:
            problems.append(
                f"at {point['after']}: move {early.index} {early.move!r} was refused [{early.rule}]"
            )
            continue
        _check_state(stopped, point, problems, f"after move {point['after']}: ")
    if problems:
        pytest.fail(f"{data['rule']}: {data['description']}\n  " + "\n  ".join(problems), pytrace=False)
