"""The rule files of examples/rules/: each loads, names the peer program it follows, and plays hands with
the heuristic bots to their end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from handfoot.bots import HeuristicBot, legal_for
from handfoot.engine import Game, view
from handfoot.rules import load_rules

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "rules").glob("*.toml"))


def test_the_examples_are_there() -> None:
    names = {path.stem for path in EXAMPLES}
    assert {"jcj59-east-coast", "zacharyyung-style"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_example_rule_file_loads_and_plays(path: Path) -> None:
    """The file loads under its own name, says which program it follows, and two hands of heuristic play
    under it end (went out or the stock ran out)."""
    rules = load_rules(path)
    assert rules.name == path.stem
    assert "hand-and-foot" in path.read_text(encoding="utf-8").split("\n", 1)[0]
    bot = HeuristicBot()
    for seed in (1, 2):
        game = Game(rules, rules.default_players, seed=seed, dealer=0)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.results:
                break
            s = game.state
            legal = legal_for(s, game.legal_ids())
            game.apply(bot.choose(view(s, s.to_move), legal, rng))
        assert game.results, f"{path.name}: a hand never ended"
