"""Simulation: tournaments between bots, comparisons of rule sets, leagues, their statistics and plots.

The library behind ``handfoot simulate``, ``compare`` and ``league`` (docs/research.md, "From Python"):

* ``run_tournament(TournamentConfig(...))`` plays a tournament and returns a ``Summary``, whose
  ``to_json()`` is what ``simulate --json`` prints and whose ``outcomes`` are the games;
* ``compare_rules(config_a, config_b)`` plays one tournament under two rule sets and returns a
  ``Comparison`` (``to_json()``: ``compare --json``);
* ``run_league(LeagueConfig(...))`` plays a round robin and returns a ``LeagueResult`` (``to_json()``:
  ``league --json``; needs openskill).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from handfoot.sim.compare import Comparison, compare_rules
    from handfoot.sim.league import LeagueConfig, LeagueResult, run_league
    from handfoot.sim.tournament import GameOutcome, Summary, TournamentConfig, derive_seed, run_tournament

# Where each name lives: imported when first asked for, so that importing one module of the package
# (``handfoot.sim.stats``, ``handfoot.sim.seats``) does not load the tournament machinery.
_HOMES = {
    "Comparison": "compare",
    "compare_rules": "compare",
    "LeagueConfig": "league",
    "LeagueResult": "league",
    "run_league": "league",
    "GameOutcome": "tournament",
    "Summary": "tournament",
    "TournamentConfig": "tournament",
    "derive_seed": "tournament",
    "run_tournament": "tournament",
}

__all__ = [
    "Comparison",
    "GameOutcome",
    "LeagueConfig",
    "LeagueResult",
    "Summary",
    "TournamentConfig",
    "compare_rules",
    "derive_seed",
    "run_league",
    "run_tournament",
]


def __getattr__(name: str) -> Any:
    """The library's names (``__all__``), from the modules that define them."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'handfoot.sim' has no attribute {name!r}")
    return getattr(importlib.import_module(f"handfoot.sim.{home}"), name)
