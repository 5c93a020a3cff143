"""The heuristic's decisions, replayed: fixed seeds under every preset, the heuristic in every seat, and
the sequence of moves it chose compared with a recording (``fixtures/heuristic_decisions.json``).

The recording was taken from the heuristic before its hot path was reworked for speed; the rework must
not change a single decision. Regenerate it only when the rules themselves change what is legal (never
to cover a change of the bot):

    .venv/bin/python tests/bots/test_heuristic_replay.py --record
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from handfoot.bots import HeuristicBot, legal_for
from handfoot.engine import Game, move_text, view
from handfoot.engine.views import seat_info
from handfoot.rules import PRESET_NAMES, preset
from handfoot.sim.tournament import play_chosen

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "heuristic_decisions.json"
SEEDS = (0, 1, 2)
HANDS_PER_GAME = 2  # the second hand is dealt with other opening minimums and dealer
MAX_MOVES = 3000


def cases() -> list[tuple[str, int]]:
    """Every preset at its default player count, and kitchen-table at 4 (partnerships) and 3."""
    out = [(name, preset(name).default_players) for name in sorted(PRESET_NAMES)]
    for players in (3, 4):
        if ("kitchen-table", players) not in out and players in preset("kitchen-table").players_allowed:
            out.append(("kitchen-table", players))
    return out


def decisions(name: str, players: int, seed: int, through: str = "view") -> list[str]:
    """The moves the heuristic chose, in order, over the first hands of game ``seed`` (its own view and
    the runner's legal moves per decision); ``through``: ``"view"`` (``choose`` with the frozen View)
    or ``"seat"`` (``choose_seat`` with the SeatInfo, as a tournament plays it)."""
    game = Game(preset(name), players, seed)
    bot = HeuristicBot()
    rng = random.Random(seed)
    out: list[str] = []
    while not game.finished and len(game.results) < HANDS_PER_GAME and len(out) < MAX_MOVES:
        state = game.state
        legal = legal_for(state, game.legal_ids())
        if through == "view":
            move = bot.choose(view(state, state.to_move), legal, rng)
        else:
            move = bot.choose_seat(seat_info(state, state.to_move), legal, rng)
        out.append(move_text(move))
        play_chosen(game, legal, move)
    return out


def record() -> dict[str, list[str]]:
    """Every case's decisions, keyed ``preset/players/seed``."""
    return {
        f"{name}/{players}/{seed}": decisions(name, players, seed)
        for name, players in cases()
        for seed in SEEDS
    }


def load() -> dict[str, list[str]]:
    recorded: dict[str, list[str]] = json.loads(FIXTURE.read_text())
    return recorded


@pytest.mark.parametrize(("name", "players"), cases())
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("through", ["view", "seat"])
def test_heuristic_decisions_match_the_recording(name: str, players: int, seed: int, through: str) -> None:
    expected = load()[f"{name}/{players}/{seed}"]
    got = decisions(name, players, seed, through)
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, (
            f"{name}/{players}/{seed}: decision {index} is {have!r}, recorded {want!r} (a change of the "
            "bot must keep its decisions; after a change of what is legal, record again: "
            "python tests/bots/test_heuristic_replay.py --record)"
        )
    assert len(got) == len(expected)


def test_recording_covers_every_case() -> None:
    assert sorted(load()) == sorted(f"{n}/{p}/{s}" for n, p in cases() for s in SEEDS)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: python tests/bots/test_heuristic_replay.py --record")
    data = record()
    FIXTURE.write_text(
        "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()) + "\n}\n"
    )
    print(f"recorded {sum(map(len, data.values()))} decisions in {len(data)} games to {FIXTURE}")
