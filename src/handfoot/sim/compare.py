"""Paired comparison of two rule sets (``handfoot compare``): the same tournament (seats, seed, games)
played under rules A and B, so game ``i`` of both starts from the same seed and dealer, and every
measure is compared game by game: the mean of the per-game differences B - A with its 95% interval
(Student's t over the games), which is far narrower than comparing two independent means when the
games' luck is shared.

Per game the measures are: hands played, moves per hand, and for each side its share of the win (1, a
half on a two-way tie, 0), its mean score per hand, its mean score margin per hand (its score less the
other sides' mean) and its game total. With duplicate deals every deal is played once per rotation of
the seats under both rule sets, a side's measures follow its lineup (its bots, wherever they sat), and
the differences are taken per deal, each deal's value being the mean of its rotations. A difference
that is the same on every deal is flagged ``constant``: its interval has no width and shows nothing.
``compare_rules`` plays both runs from Python. docs/research.md describes the JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from handfoot.engine.state import Seating
from handfoot.sim.progress import Snapshot
from handfoot.sim.stats import interval_json, mean
from handfoot.sim.tournament import GameOutcome, Summary, TournamentConfig, check_config, run_tournament


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


# A side's measures read the side at which its lineup sat (the side itself without duplicate deals).
def _win_share(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: outcome.shares()[outcome.side_of_lineup(side)]


def _hand_score(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: mean([hand[outcome.side_of_lineup(side)] for hand in outcome.hand_scores])


def _hand_margin(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: mean(outcome.margins(outcome.side_of_lineup(side)))


def _game_score(side: int) -> Callable[[GameOutcome], float]:
    return lambda outcome: float(outcome.totals[outcome.side_of_lineup(side)])


def measures(sides: int, single_hands: bool = False) -> list[Measure]:
    """The measures compared for a table of ``sides`` sides (module docstring); of single hands, the
    ones that would repeat (hands per game, game totals) are left out. With duplicate deals, side ``S``
    means lineup ``S``: the bots given side S's seats, wherever the rotation put them."""
    out = [] if single_hands else [Measure("hands_per_game", "hands played in the game", _hands)]
    out.append(Measure("moves_per_hand", "moves per finished hand", _moves_per_hand))
    for side in range(sides):
        out.append(Measure(f"side_{side}_win", f"side {side}'s share of the win", _win_share(side)))
        out.append(Measure(f"side_{side}_hand_score", f"side {side}'s score per hand", _hand_score(side)))
        out.append(
            Measure(
                f"side_{side}_hand_margin",
                f"side {side}'s score margin per hand (its score less the other sides' mean)",
                _hand_margin(side),
            )
        )
        if not single_hands:
            out.append(Measure(f"side_{side}_game_score", f"side {side}'s game total", _game_score(side)))
    return out


def per_deal(outcomes: Sequence[GameOutcome], measure: Measure) -> list[float]:
    """``measure`` on each deal, in deal order: its mean over the deal's games (one game a deal without
    duplicate deals, one per rotation with them)."""
    groups: dict[int, list[float]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.deal, []).append(measure.of(outcome))
    return [mean(groups[deal]) for deal in sorted(groups)]


def same_sides(a: TournamentConfig, b: TournamentConfig) -> bool:
    """Whether both tables seat their players in the same sides (needed to compare sides)."""
    return Seating(a.rules, a.players).side_seats == Seating(b.rules, b.players).side_seats


def paired(
    a: Sequence[GameOutcome], b: Sequence[GameOutcome], sides: int, single_hands: bool = False
) -> list[dict[str, Any]]:
    """For every measure: ``{"measure", "meaning", "a", "b", "difference", "ci95", "constant", "n"}``:
    the means under A and B, the mean of the per-deal differences B - A and its 95% interval over the
    ``n`` deals played under both (matched by index; a deal's value is its games' mean), and whether the
    differences are all equal (``constant``: the interval has no width and says nothing). Raises
    ValueError when the games do not match."""
    if [(o.index, o.deal) for o in a] != [(o.index, o.deal) for o in b]:
        raise ValueError("the two runs did not play the same games")
    rows = []
    for measure in measures(sides, single_hands):
        values_a = per_deal(a, measure)
        values_b = per_deal(b, measure)
        differences = [vb - va for va, vb in zip(values_a, values_b, strict=True)]
        difference, interval, constant = interval_json(differences)
        rows.append(
            {
                "measure": measure.name,
                "meaning": measure.doc,
                "a": mean(values_a),
                "b": mean(values_b),
                "difference": difference,
                "ci95": interval,
                "constant": constant,
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
        "deals": len(a.by_deal()),
        "duplicate": a.config.duplicate,
        "paired": paired(a.outcomes, b.outcomes, sides, a.config.single_hands),
        "a": a.to_json(),
        "b": b.to_json(),
    }


@dataclass
class Comparison:
    """Two runs of one tournament under two rule sets (``compare_rules``); ``to_json`` is what
    ``handfoot compare --json`` prints."""

    a: Summary
    b: Summary
    labels: tuple[str, str] = ("a", "b")

    def to_json(self) -> dict[str, Any]:
        """``comparison_json`` of the two runs, each summary labelled with its rules."""
        data = comparison_json(self.a, self.b)
        data["a"]["label"], data["b"]["label"] = self.labels
        return data


def compare_rules(
    a: TournamentConfig,
    b: TournamentConfig,
    workers: int = 1,
    labels: tuple[str, str] | None = None,
    progress: Callable[[str, Snapshot], None] | None = None,
    on_game: Callable[[str, GameOutcome], None] | None = None,
) -> Comparison:
    """Play the tournament ``a`` and then ``b`` (the same table, seats, games and seed under two rule
    sets) in ``workers`` processes and pair them; ``progress("a" or "b", snapshot)`` and ``on_game("a"
    or "b", outcome)`` as ``run_tournament`` calls them. ``labels`` name the runs (their rule sets' names
    by default). Raises ValueError (saying what is allowed) when the two configs differ in anything but
    their rules, or seat the players in different sides."""
    from dataclasses import replace

    if replace(b, rules=a.rules) != a:
        raise ValueError("the two tournaments must differ in their rules alone")
    check_config(a)
    check_config(b)
    if not same_sides(a, b):
        raise ValueError(
            f"{a.rules.name} and {b.rules.name} seat {a.players} players in different sides; compare "
            "needs the same"
        )
    summaries = []
    for name, config in zip("ab", (a, b), strict=True):
        report = None if progress is None else partial(progress, name)
        game = None if on_game is None else partial(on_game, name)
        summaries.append(run_tournament(config, workers, report, None, game))
    return Comparison(summaries[0], summaries[1], labels or (a.rules.name, b.rules.name))
