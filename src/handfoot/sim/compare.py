"""Paired comparison of two rule sets (``handfoot compare``): the same tournament (seats, seed, games)
played under rules A and B, so game ``i`` of both starts from the same seed and dealer, and every
measure is compared game by game: the mean of the per-game differences B - A with its 95% interval
(Student's t over the games), which is far narrower than comparing two independent means when the
games' luck is shared.

Per game the measures are: hands played, moves per hand, and for each side its share of the win (1, a
half on a two-way tie, 0), its mean score per hand and its game total. docs/research.md describes the
JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from handfoot.engine.state import Seating
from handfoot.sim.stats import mean, mean_interval
from handfoot.sim.tournament import GameOutcome, Summary, TournamentConfig


@dataclass(frozen=True)
class Measure:
    """One per-game measure: its name, what it means, and how to read it off a game."""

    name: str
    doc: str
    of: Callable[[GameOutcome], float]


def _hands(outcome: GameOutcome) -> float:
    return float(len(outcome.hand_scores))


def _moves_per_hand(outcome: GameOutcome) -> float:
    hands = len(outcome.moves_per_hand)
    return sum(outcome.moves_per_hand) / hands if hands else 0.0


def _win_share(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: outcome.shares()[side]


def _hand_score(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: mean([hand[side] for hand in outcome.hand_scores])


def _game_score(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: float(outcome.totals[side])


def measures(sides: int, single_hands: bool = False) -> list[Measure]:
    """The measures compared for a table of ``sides`` sides (module docstring); of single hands, the
    ones that would repeat (hands per game, game totals) are left out."""
    out = [] if single_hands else [Measure("hands_per_game", "hands played in the game", _hands)]
    out.append(Measure("moves_per_hand", "moves per finished hand", _moves_per_hand))
    for side in range(sides):
        out.append(Measure(f"side_{side}_win", f"side {side}'s share of the win", _win_share(side)))
        out.append(Measure(f"side_{side}_hand_score", f"side {side}'s score per hand", _hand_score(side)))
        if not single_hands:
            out.append(Measure(f"side_{side}_game_score", f"side {side}'s game total", _game_score(side)))
    return out


def same_sides(a: TournamentConfig, b: TournamentConfig) -> bool:
    """Whether both tables seat their players in the same sides (needed to compare sides)."""
    return Seating(a.rules, a.players).side_seats == Seating(b.rules, b.players).side_seats


def paired(
    a: Sequence[GameOutcome], b: Sequence[GameOutcome], sides: int, single_hands: bool = False
) -> list[dict[str, Any]]:
    """For every measure: ``{"measure", "meaning", "a", "b", "difference", "ci95", "n"}``: the means
    under A and B, the mean of the per-game differences B - A and its 95% interval, over games played
    under both (matched by index). Raises ValueError when the games do not match."""
    if [o.index for o in a] != [o.index for o in b]:
        raise ValueError("the two runs did not play the same games")
    rows = []
    for measure in measures(sides, single_hands):
        values_a = [measure.of(o) for o in a]
        values_b = [measure.of(o) for o in b]
        differences = [vb - va for va, vb in zip(values_a, values_b, strict=True)]
        rows.append(
            {
                "measure": measure.name,
                "meaning": measure.doc,
                "a": mean(values_a),
                "b": mean(values_b),
                "difference": mean(differences),
                "ci95": list(mean_interval(differences)),
                "n": len(differences),
            }
        )
    return rows


def comparison_json(a: Summary, b: Summary) -> dict[str, Any]:
    """``{"unit", <unit>: count, "paired": [...], "a": summary A, "b": summary B}`` (``paired`` as above;
    each summary is ``Summary.to_json`` with its own provenance)."""
    sides = len(a.side_seats())
    unit = a.unit()
    return {
        "unit": unit,
        unit: len(a.outcomes),
        "paired": paired(a.outcomes, b.outcomes, sides, a.config.single_hands),
        "a": a.to_json(),
        "b": b.to_json(),
    }
