"""A tournament's progress, counted in hands, with an estimate of how many hands and how long are left.

Games to a target score have no fixed length, so the number of hands is estimated from what is known:
a game that ended counts its hands; a game in progress counts at least one more hand than it has
played, extrapolated from how far its leader is towards the target (``hands * target / lead``);
games not started count the mean of those. Games of a fixed number of hands, and single hands, are
known exactly. The time left is the estimated hands left at the pace of the hands finished so far.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from handfoot.rules.options import GameEnd
from handfoot.sim.stats import mean


@dataclass(frozen=True)
class HandDone:
    """A worker's report after each finished hand: game ``index`` has ``hands`` finished hands and its
    leading side ``lead`` points."""

    hands: int
    lead: int


@dataclass(frozen=True)
class Snapshot:
    """What to show: games and hands finished, the estimated hands in all, time spent and left (s)."""

    games: int
    games_done: int
    hands_done: int
    hands_estimate: int
    elapsed: float
    remaining: float | None

    def text(self, unit: str = "games") -> str:
        """One line, e.g. ``hand 7 of ~16, games 1/4, 2:31 elapsed, ~3:05 left``."""
        hands = "hand" if self.hands_estimate == 1 else "hands"
        parts = [f"{self.hands_done} of ~{self.hands_estimate} {hands}"]
        if unit == "games":
            parts.append(f"games {self.games_done}/{self.games}")
        parts.append(f"{clock(self.elapsed)} elapsed")
        parts.append("time left unknown" if self.remaining is None else f"~{clock(self.remaining)} left")
        return ", ".join(parts)


def clock(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss`` from an hour) of a duration, rounded to the second."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass
class ProgressTracker:
    """Counts finished hands and games of a tournament and estimates the rest (see the module doc)."""

    games: int
    game_end: GameEnd
    hands_per_game: int
    target_score: int
    single_hands: bool = False
    now: Callable[[], float] = time.monotonic
    start: float = field(default=0.0)
    finished: dict[int, int] = field(default_factory=dict)  # game -> hands
    playing: dict[int, HandDone] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.start = self.now()

    def hand_done(self, game: int, report: HandDone) -> None:
        """Game ``game`` finished a hand."""
        if game not in self.finished:
            self.playing[game] = report

    def game_done(self, game: int, hands: int) -> None:
        """Game ``game`` ended after ``hands`` hands."""
        self.playing.pop(game, None)
        self.finished[game] = hands

    def hands_done(self) -> int:
        """Hands finished, in ended games and in games being played."""
        return sum(self.finished.values()) + sum(r.hands for r in self.playing.values())

    def hands_estimate(self) -> int:
        """The estimated number of hands of the whole tournament (at least those already played)."""
        if self.single_hands:
            return self.games
        if self.game_end is GameEnd.HANDS:
            return self.games * self.hands_per_game
        known = list(self.finished.values())
        guesses = [self._guess(report) for report in self.playing.values()]
        per_game = mean([float(h) for h in known] + guesses) if known or guesses else None
        not_started = self.games - len(self.finished) - len(self.playing)
        estimate = sum(known) + sum(guesses) + not_started * (per_game or 0.0)
        done = self.hands_done()
        if per_game is None:  # nothing known yet: at least one hand per game
            return max(done, self.games)
        return max(done + (1 if len(self.finished) < self.games else 0), math.ceil(estimate))

    def _guess(self, report: HandDone) -> float:
        """The hands a game in progress will take: more than it has played, extrapolated from its lead."""
        if report.lead <= 0:
            return float(report.hands + 1)
        return max(report.hands + 1.0, report.hands * self.target_score / report.lead)

    def snapshot(self) -> Snapshot:
        """The counts now, with the time left at the pace so far (None before the first hand)."""
        elapsed = self.now() - self.start
        done = self.hands_done()
        estimate = self.hands_estimate()
        remaining = None if done == 0 else elapsed / done * max(0, estimate - done)
        if len(self.finished) == self.games:
            remaining = 0.0
        return Snapshot(self.games, len(self.finished), done, estimate, elapsed, remaining)
