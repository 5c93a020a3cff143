"""Leagues (``handfoot league``): a round robin between seat specs, rated with openskill.

Each *matchup* puts one entrant on every side of the table: every choice of as many entrants as the
table has sides, in every rotation around the sides (so each entrant sits in each position equally
often; with two sides, A against B and B against A). A side's seats all get its entrant's bot. Matchup
``m`` is a tournament of ``games`` games with seed ``derive_seed(seed, m)``.

The games are rated in a fixed order, game 0 of every matchup, then game 1, ...: each game is one
openskill Plackett-Luce update with one team per side ranked by the game's totals (tied totals share a
rank). An entrant's rating is its ``mu`` and ``sigma`` (the rating's standard deviation); the table
reports ``mu ± 1.96 sigma`` as its 95% interval, sorts by ``mu - 3 sigma`` (openskill's conservative
ordinal), and adds each entrant's share of wins over its games with a Wilson interval and its mean
score margin per hand with a t interval. Head to head, how often each entrant finished above each other
one, with a Wilson interval over their games.

With ``duplicate`` there is one matchup per choice of entrants, a duplicate tournament
(``sim.tournament``) whose rotations move the entrants round the sides over the same deals; the
head-to-head intervals are then Student's t over the deals (each deal's rate the mean of its rotations),
paired by deal. Needs openskill (the ``sim`` extra).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from handfoot.engine.state import Seating
from handfoot.rules.options import RuleSet
from handfoot.sim.progress import Snapshot
from handfoot.sim.stats import Z95, interval_json, mean, mean_interval, wilson
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
    duplicate: bool = False  # one matchup per choice of entrants, its deals played in every rotation
    records: bool = False  # keep each game's record in its outcome (for --records)
    trajectory_seats: tuple[int, ...] = ()  # record these seats' decisions (for --trajectories)


@dataclass(frozen=True)
class Matchup:
    """One entrant per side, in side order (as seated in rotation 0), and the tournament that plays
    them."""

    sides: tuple[int, ...]  # entrant index per side
    config: TournamentConfig

    def entrants_of(self, outcome: GameOutcome) -> list[int]:
        """The entrant at each side of ``outcome`` (one of this matchup's games), in side order: with
        duplicate deals the entrants move round with the rotation."""
        order = [0] * len(self.sides)
        for lineup, entrant in enumerate(self.sides):
            order[outcome.side_of_lineup(lineup)] = entrant
        return order


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
        for turn in range(1 if league.duplicate else sides):
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
                records=league.records,
                trajectory_seats=league.trajectory_seats,
                duplicate=league.duplicate,
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
        """``{"unit", <unit>: games per matchup, "matchups": n, "duplicate", "entrants": [...],
        "head_to_head": {"order", "rate", "ci95", "games"}, "provenance"}``; entrants best first
        (docs/research.md)."""
        from openskill.models import PlackettLuce

        league = self.league
        names = league.entrants
        count = len(names)
        model = PlackettLuce()
        ratings = [model.rating(name=name) for name in names]
        wins = [0.0] * count
        played = [0] * count
        margins: list[list[float]] = [[] for _ in names]
        pair_wins = [[0.0] * count for _ in names]
        pair_games = [[0] * count for _ in names]
        # with duplicate deals: per pair, per (matchup, deal), the results of the deal's games
        pair_deals: list[list[dict[tuple[int, int], list[float]]]] = [[{} for _ in names] for _ in names]
        number = {id(m): i for i, m in enumerate(self.matchups)}
        for matchup, outcome in self.games_in_order():
            order = matchup.entrants_of(outcome)
            teams = [[ratings[entrant]] for entrant in order]
            standing = outcome.standing()  # a forfeit ranks its side last
            rated = model.rate(teams, ranks=[-value for value in standing])
            for entrant, team in zip(order, rated, strict=True):
                ratings[entrant] = team[0]
            shares = outcome.shares()
            for side, entrant in enumerate(order):
                wins[entrant] += shares[side]
                played[entrant] += 1
                margins[entrant].extend(outcome.margins(side))
                for other_side, other in enumerate(order):
                    if other != entrant:
                        # against one opponent: 1 for finishing above it, a half for the same total
                        mine, theirs = standing[side], standing[other_side]
                        result = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                        pair_wins[entrant][other] += result
                        pair_games[entrant][other] += 1
                        key = (number[id(matchup)], outcome.deal)
                        pair_deals[entrant][other].setdefault(key, []).append(result)
        rows = []
        for index, name in enumerate(names):
            rating = ratings[index]
            low, high = wilson(wins[index], played[index])
            margin, margin_ci, margin_constant = interval_json(margins[index])
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
                    "mean_hand_margin": margin,
                    "mean_hand_margin_ci95": margin_ci,
                    "mean_hand_margin_constant": margin_constant,
                }
            )
        best = sorted(range(count), key=lambda i: -ratings[i].ordinal())

        def pair_interval(i: int, j: int) -> list[float] | None:
            if not pair_games[i][j]:
                return None
            if not league.duplicate:
                return list(wilson(pair_wins[i][j], pair_games[i][j]))
            per_deal = [mean(results) for results in pair_deals[i][j].values()]
            low, high = mean_interval(per_deal)
            return [max(0.0, low), min(1.0, high)]

        head = [
            [pair_wins[i][j] / pair_games[i][j] if pair_games[i][j] else None for j in best] for i in best
        ]
        unit = "hands" if league.single_hands else "games"
        return {
            "unit": unit,
            unit: league.games,
            "matchups": len(self.matchups),
            "duplicate": league.duplicate,
            "entrants": [rows[i] for i in best],
            "head_to_head": {
                "order": [names[i] for i in best],
                "rate": head,
                "ci95": [[pair_interval(i, j) for j in best] for i in best],
                "games": [[pair_games[i][j] for j in best] for i in best],
            },
            "provenance": self.provenance(),
        }

    def provenance(self) -> dict[str, Any]:
        """What reproduces the league: every key of a tournament's provenance (``Summary.provenance``:
        version, commit, packages, rules in full, table, seeds, timing...), with the entrants, every
        matchup's entrants, seats and seed, and the rating model."""
        league = self.league
        first = self.summaries[0].provenance() if self.summaries else {}
        unit = "hands" if league.single_hands else "games"
        return {
            **first,
            "seats": None,
            "entrants": list(league.entrants),
            "seed": league.seed,
            "seeds": "matchup m is a tournament with seed derive_seed(seed, m), its seeds derived as "
            f"its own tournament's: {first.get('seeds', '')}",
            unit: league.games,
            "matchups": [
                {
                    "entrants": [league.entrants[i] for i in matchup.sides],
                    "seats": list(matchup.config.seats),
                    "seed": matchup.config.seed,
                }
                for matchup in self.matchups
            ],
            "model": "openskill PlackettLuce, default parameters",
            "started": first.get("started", ""),
            "seconds": sum(s.timing.seconds for s in self.summaries),
        }


def run_league(
    league: LeagueConfig,
    workers: int = 1,
    progress: Callable[[int, Snapshot], None] | None = None,
    scheduler: str | None = None,
    on_game: Callable[[int, GameOutcome], None] | None = None,
) -> LeagueResult:
    """Play every matchup (``progress(matchup index, snapshot)`` as ``run_tournament`` reports;
    ``on_game(matchup index, outcome)`` after each game, in game order within a matchup, with its record
    and decisions when the league asks for them)."""
    result = LeagueResult(league, matchups(league))
    for index, matchup in enumerate(result.matchups):
        report = None if progress is None else partial(progress, index)
        game = None if on_game is None else partial(on_game, index)
        result.summaries.append(run_tournament(matchup.config, workers, report, scheduler, game))
    return result


def entrant_names(matchup: Matchup, entrants: Sequence[str]) -> str:
    """``a v b`` for display."""
    return " v ".join(entrants[i] for i in matchup.sides)
