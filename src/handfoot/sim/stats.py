"""Statistics for tournaments: Wilson and t intervals, win counting with half wins for draws, score
margins, and whether a measure has any spread at all."""

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
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


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


def t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom, ``t >= 0``: the closed forms of
    Abramowitz and Stegun 26.7.3 and 26.7.4 (finite sums in cos(theta), theta = atan(t / sqrt(df)))."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2 == 1:
        term, total = math.cos(theta), 0.0
        if df > 1:
            total = term
            for k in range(3, df - 1, 2):  # (2·4···(k-1)) / (3·5···k) cos^k
                term *= cos2 * (k - 1) / k
                total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term, total = 1.0, 1.0
    for k in range(2, df - 1, 2):  # (1·3···(k-1)) / (2·4···k) cos^k
        term *= cos2 * (k - 1) / k
        total += term
    return math.sin(theta) * total


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (the multiplier of a two-sided
    95% interval): ``t_two_sided`` inverted by bisection up to 1000 degrees of freedom (to 1e-12), the
    Cornish-Fisher expansion of Abramowitz and Stegun 26.7.5 above (within 1e-9 there). Raises
    ValueError for ``df < 1``."""
    if df < 1:
        raise ValueError(f"need at least 1 degree of freedom, got {df}")
    if df <= 1000:
        low, high = 0.0, 20.0  # t(1) = 12.71 is the largest
        while high - low > 1e-12:
            middle = (low + high) / 2
            if t_two_sided(middle, df) < 0.95:
                low = middle
            else:
                high = middle
        return (low + high) / 2
    z = Z95
    n = float(df)
    return (
        z
        + (z**3 + z) / (4 * n)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * n**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * n**4)
    )


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The two-sided 95% interval of the mean of ``values``: mean ± t(n-1) · s / √n, s the sample
    standard deviation. ``(mean, mean)`` for one value (no spread known), ``(0.0, 0.0)`` for none."""
    n = len(values)
    centre = mean(values)
    if n < 2:
        return (centre, centre)
    spread = math.sqrt(sum((v - centre) ** 2 for v in values) / (n - 1))
    half = t_quantile_975(n - 1) * spread / math.sqrt(n)
    return (centre - half, centre + half)


def is_constant(values: Sequence[float]) -> bool:
    """Whether every value is the same (true of one value and of none): a measure with no spread, whose
    interval would only repeat its mean."""
    return all(value == values[0] for value in values[1:]) if values else True


def interval_json(values: Sequence[float]) -> tuple[float, list[float], bool]:
    """``(mean, [low, high], constant)``: the mean of ``values``, its 95% interval (``mean_interval``),
    and whether the values are all equal (``is_constant``; the interval is then no interval at all)."""
    return mean(values), list(mean_interval(values)), is_constant(values)


def hand_margins(hand_scores: Sequence[Sequence[float]]) -> list[list[float]]:
    """Per hand, each side's score margin: its score less the mean score of the other sides (with two
    sides, the difference of the two scores). A table of one side has no margin: ``[0.0]`` a hand."""
    out = []
    for scores in hand_scores:
        sides = len(scores)
        total = sum(scores)
        if sides < 2:
            out.append([0.0] * sides)
            continue
        out.append([score - (total - score) / (sides - 1) for score in scores])
    return out
