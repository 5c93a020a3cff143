"""Statistics for tournaments: Wilson intervals and win counting with half wins for draws."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / trials`` (successes may be fractional,
    as with half wins). ``(0.0, 1.0)`` when there are no trials. Raises ValueError for counts outside
    ``0 <= successes <= trials``."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def game_points(totals: Sequence[float]) -> list[float]:
    """Each side's share of one game's win: 1 to a sole leader, split evenly between tied leaders
    (two tied sides get half a win each), 0 to the others."""
    if not totals:
        return []
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    share = 1.0 / len(leaders)
    return [share if i in leaders else 0.0 for i in range(len(totals))]


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (0.0 for no values)."""
    return sum(values) / len(values) if values else 0.0
