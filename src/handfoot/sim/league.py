"""Leagues (``handfoot league``): a round robin between seat specs, rated with openskill.

Each *matchup* puts one entrant on every side of the table: every choice of as many entrants as the
table has sides, in every rotation around the sides (so each entrant sits in each position equally
often; with two sides, A against B and B against A). A side's seats all get its entrant's bot. Matchup
``m`` is a tournament of ``games`` games with seed ``derive_seed(seed, m)``.

The games are rated in a fixed order, game 0 of every matchup, then game 1, ...: each game is one
openskill Plackett-Luce update with one team per side ranked by the game's totals (tied totals share a
rank). An entrant's rating is its ``mu`` and ``sigma`` (the rating's standard deviation); the table
reports ``mu ± 1.96 sigma`` as its 95% interval, sorts by ``mu - 3 sigma`` (openskill's conservative
ordinal), and adds each entrant's share of wins over its games with a Wilson interval. Needs openskill
(the ``sim`` extra).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from handfoot.engine.state import Seating
from handfoot.rules.options import RuleSet
from handfoot.sim.progress import Snapshot
from handfoot.sim.stats import Z95, wilson
from handfoot.sim.tournament import (
    DEFAULT_MAX_MOVES,
    GameOutcome,
    Summary,
    TournamentConfig,
    check_config,
    derive_seed,
    run_tournament,
)


@dataclass(frozen=True)
class LeagueConfig:
    """What to play: the rules, the table, the entrants (seat specs), games per matchup, the seed."""

    rules: RuleSet
    players: int
    entrants: tuple[str, ...]
    games: int
    seed: int = 0
    single_hands: bool = False
    max_moves: int = DEFAULT_MAX_MOVES


@dataclass(frozen=True)
class Matchup:
    """One entrant per side, in side order, and the tournament that plays them."""

    sides: tuple[int, ...]  # entrant index per side
    config: TournamentConfig


def matchups(league: LeagueConfig) -> list[Matchup]:
    """Every matchup of the league (module docstring), in a fixed order. Raises ValueError for an
    entrant named twice, fewer entrants than sides, or a table or bot the tournament refuses."""
    if len(set(league.entrants)) != len(league.entrants):
        raise ValueError("--seats names an entrant twice: name each once")
    seating = Seating(league.rules, league.players)
    sides = seating.num_sides
    if len(league.entrants) < max(sides, 2):
        raise ValueError(
            f"a league needs at least {max(sides, 2)} entrants for {sides} sides; --seats names "
            f"{len(league.entrants)}"
        )
    out: list[Matchup] = []
    for group in itertools.combinations(range(len(league.entrants)), sides):
        for turn in range(sides):
            order = group[turn:] + group[:turn]
            seats = [""] * league.players
            for side, seat_list in enumerate(seating.side_seats):
                for seat in seat_list:
                    seats[seat] = league.entrants[order[side]]
            config = TournamentConfig(
                league.rules,
                league.players,
                tuple(seats),
                league.games,
                derive_seed(league.seed, len(out)),
                league.single_hands,
                league.max_moves,
            )
            check_config(config)
            out.append(Matchup(order, config))
    return out


@dataclass
class LeagueResult:
    """The league's matchups and their summaries (``to_json`` rates them)."""

    league: LeagueConfig
    matchups: list[Matchup]
    summaries: list[Summary] = field(default_factory=list)

    def games_in_order(self) -> list[tuple[Matchup, GameOutcome]]:
        """Every game, in the rating order (game 0 of each matchup, then game 1, ...)."""
        played = [list(s.outcomes) for s in self.summaries]
        out = []
        for index in range(max((len(p) for p in played), default=0)):
            for matchup, outcomes in zip(self.matchups, played, strict=True):
                if index < len(outcomes):
                    out.append((matchup, outcomes[index]))
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"unit", <unit>: games per matchup, "matchups": n, "entrants": [...], "head_to_head":
        [[...]], "provenance"}``; entrants best first (docs/research.md)."""
        from openskill.models import PlackettLuce

        league = self.league
        names = league.entrants
        model = PlackettLuce()
        ratings = [model.rating(name=name) for name in names]
        wins = [0.0] * len(names)
        played = [0] * len(names)
        pair_wins = [[0.0] * len(names) for _ in names]
        pair_games = [[0] * len(names) for _ in names]
        for matchup, outcome in self.games_in_order():
            order = matchup.sides
            teams = [[ratings[entrant]] for entrant in order]
            standing = outcome.standing()  # a forfeit ranks its side last
            rated = model.rate(teams, ranks=[-value for value in standing])
            for entrant, team in zip(order, rated, strict=True):
                ratings[entrant] = team[0]
            shares = outcome.shares()
            for side, entrant in enumerate(order):
                wins[entrant] += shares[side]
                played[entrant] += 1
                for other_side, other in enumerate(order):
                    if other != entrant:
                        # against one opponent: 1 for finishing above it, a half for the same total
                        mine, theirs = standing[side], standing[other_side]
                        pair_wins[entrant][other] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                        pair_games[entrant][other] += 1
        rows = []
        for index, name in enumerate(names):
            rating = ratings[index]
            low, high = wilson(wins[index], played[index])
            rows.append(
                {
                    "entrant": name,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "ci95": [rating.mu - Z95 * rating.sigma, rating.mu + Z95 * rating.sigma],
                    "ordinal": rating.ordinal(),
                    "games": played[index],
                    "wins": wins[index],
                    "win_rate": wins[index] / played[index] if played[index] else 0.0,
                    "win_ci95": [low, high],
                }
            )
        best = sorted(range(len(names)), key=lambda i: -ratings[i].ordinal())
        head = [
            [pair_wins[i][j] / pair_games[i][j] if pair_games[i][j] else None for j in best] for i in best
        ]
        unit = "hands" if league.single_hands else "games"
        first = self.summaries[0].provenance() if self.summaries else {}
        return {
            "unit": unit,
            unit: league.games,
            "matchups": len(self.matchups),
            "entrants": [rows[i] for i in best],
            "head_to_head": {"order": [names[i] for i in best], "rate": head},
            "provenance": {
                **{k: v for k, v in first.items() if k not in ("seats", "seed", "started", "seconds")},
                "entrants": list(names),
                "seed": league.seed,
                "seeds": "matchup m is a tournament with seed derive_seed(seed, m); its game i is dealt "
                "from derive_seed(that seed, i)",
                "model": "openskill PlackettLuce, default parameters",
                "started": first.get("started", ""),
                "seconds": sum(s.timing.seconds for s in self.summaries),
            },
        }


def run_league(
    league: LeagueConfig,
    workers: int = 1,
    progress: Callable[[int, Snapshot], None] | None = None,
    scheduler: str | None = None,
) -> LeagueResult:
    """Play every matchup (``progress(matchup index, snapshot)`` as ``run_tournament`` reports)."""
    result = LeagueResult(league, matchups(league))
    for index, matchup in enumerate(result.matchups):
        report = None if progress is None else (lambda snap, i=index: progress(i, snap))
        result.summaries.append(run_tournament(matchup.config, workers, report, scheduler))
    return result


def entrant_names(matchup: Matchup, entrants: Sequence[str]) -> str:
    """``a v b`` for display."""
    return " v ".join(entrants[i] for i in matchup.sides)
