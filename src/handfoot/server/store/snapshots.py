"""Snapshots of a table's game: what one records, reading one back into a game, and checking a game
against one.

A snapshot is taken every ``snapshot_every`` moves and at the end of every hand (``tables.moves``): the
totals, every finished hand's result (scores, tallies, who went out and why) and the full state of the
hand in play. It is secret (the stock's order, every hand): snapshots never leave the server.

``tables.rebuild`` makes a table's ``Game`` from what is stored: from its latest snapshot plus the moves after
it when the snapshot holds the results (one hand's moves at most, whatever the game's length), else by
replaying every move from the deal and checking the replay against the snapshot (snapshots written
before they held results; and ``full=True``, which is how a table whose engine may have changed is
checked). Either way the moves are the truth; the snapshot only saves replaying them.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from handfoot.engine import Game, HandResult, Tally
from handfoot.engine.serialize import state_from_json, state_to_json
from handfoot.rules import RuleSet


def snapshot_of(game: Game, version: int) -> dict[str, Any]:
    """What a snapshot records after ``version`` moves: totals, results and the full hand state."""
    data = {
        "version": version,
        "hand_index": game.hand_index,
        "totals": list(game.totals),
        "scores": [list(r.scores) for r in game.results],
        "results": [
            {
                "scores": list(r.scores),
                "tallies": [asdict(t) for t in r.tallies],
                "went_out": r.went_out,
                "reason": r.reason,
            }
            for r in game.results
        ],
        "finished": game.finished,
        "winner": game.winner,
        "state": state_to_json(game.state),
    }
    normal: dict[str, Any] = json.loads(json.dumps(data))
    return normal


def matches(game: Game, version: int, stored: dict[str, Any]) -> bool:
    """True if ``game`` after ``version`` moves is what the ``stored`` snapshot recorded (only the keys it
    holds are compared: a snapshot written before a key was added still matches)."""
    now = snapshot_of(game, version)
    return all(now.get(key) == value for key, value in stored.items())


def _tally(data: dict[str, Any]) -> Tally:
    values = dict(data)
    values["priced_books"] = tuple(tuple(pair) for pair in values.get("priced_books", ()))
    return Tally(**values)


def game_from_snapshot(
    rules: RuleSet, players: int, seed: int, dealer: int, snap: dict[str, Any]
) -> Game | None:
    """The game a snapshot recorded, ready to take the moves after it, or None if the snapshot does not
    hold the finished hands' results (then only a replay rebuilds the game). Its ``history`` starts at
    the snapshot (the moves before it are in storage)."""
    if "results" not in snap:
        return None
    game = Game(rules, players, seed, dealer)
    state = state_from_json(snap["state"], rules)
    game.state = state
    game.results = [
        HandResult(
            tuple(int(x) for x in r["scores"]),
            tuple(_tally(t) for t in r["tallies"]),
            None if r["went_out"] is None else int(r["went_out"]),
            str(r["reason"]),
        )
        for r in snap["results"]
    ]
    game.totals = [int(x) for x in snap["totals"]]
    game.finished = bool(snap["finished"])
    game.winner = None if snap["winner"] is None else int(snap["winner"])
    game.moves = [[] for _ in range(state.hand_index + 1)]
    return game
