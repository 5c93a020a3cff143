"""A tournament's per-game files: ``--games-out`` (JSON lines), ``--records`` (game records) and
``--trajectories`` (decisions as ``.npz``), written game by game as the games finish.

``check_outputs`` refuses, before anything is played, a path that cannot be written; ``GameFiles``
writes each finished game, ``LeagueFiles`` each game of a league (a folder per matchup).
docs/research.md describes every file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from handfoot.engine.state import Seating
from handfoot.sim.stats import hand_margins
from handfoot.sim.tournament import GameOutcome, TournamentConfig

if TYPE_CHECKING:
    from handfoot.sim.league import Matchup


def game_line(
    config: TournamentConfig, sides: Sequence[Sequence[int]], outcome: GameOutcome
) -> dict[str, Any]:
    """One game as a ``--games-out`` line: ``{"index", "deal", "rotation", "seed", "dealer", "seats",
    "sides", "totals", "hand_scores", "hand_margins", "went_out", "moves_per_hand", "winner", "capped"}``
    (``seats``: the specs of this game's seats, rotated with duplicate deals)."""
    return {
        "index": outcome.index,
        "deal": outcome.deal,
        "rotation": outcome.rotation,
        "seed": outcome.seed,
        "dealer": outcome.dealer,
        "seats": outcome.seats or list(config.seats),
        "sides": [list(seats) for seats in sides],
        "totals": outcome.totals,
        "hand_scores": outcome.hand_scores,
        "hand_margins": hand_margins(outcome.hand_scores),
        "went_out": outcome.went_out,
        "moves_per_hand": outcome.moves_per_hand,
        "winner": outcome.winner(),
        "capped": outcome.capped,
    }


def record_name(index: int) -> str:
    """The file name of game ``index``'s record: ``game-000042.json``."""
    return f"game-{index:06d}.json"


def trajectory_name(index: int) -> str:
    """The file name of game ``index``'s decisions: ``game-000042.npz``."""
    return f"game-{index:06d}.npz"


def check_file(path: Path, option: str) -> None:
    """Raise ValueError unless ``path`` can be written as a file (an existing folder that is writable)."""
    if path.is_dir():
        raise ValueError(f"{option} {path} is a folder; give a file name such as {path / 'games.jsonl'}")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{option} {path}: the folder {folder} cannot be written to")


def check_folder(path: Path, option: str, pattern: str) -> None:
    """Raise ValueError unless ``path`` is, or can be made as, a writable folder holding no files of an
    earlier run (``pattern``): files are never overwritten."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path} is a file; give a folder (made if missing)")
    if path.is_dir():
        if not os.access(path, os.W_OK):
            raise ValueError(f"{option} {path}: the folder cannot be written to")
        earlier = next(path.glob(pattern), None)
        if earlier is not None:
            raise ValueError(f"{option} {path} already holds {earlier.name}: give an empty or new folder")
        return
    parent = path.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise ValueError(f"{option} {path}: the folder {parent} does not exist or cannot be written to")


def check_outputs(
    games_out: Path | None, records: Path | None, trajectories: Path | None, league: bool = False
) -> None:
    """Refuse (ValueError, saying what is allowed) outputs that cannot be written, before any game;
    ``league``: the folders are a league's (one sub-folder per matchup)."""
    if games_out is not None:
        check_file(games_out, "--games-out")
    if records is not None:
        check_folder(records, "--records", "matchup-*" if league else "game-*.json")
    if trajectories is not None:
        check_folder(trajectories, "--trajectories", "matchup-*" if league else "game-*.npz")
        try:
            import numpy  # noqa: F401
        except ImportError:
            raise ValueError("--trajectories needs numpy: pip install 'handfoot[rl]'") from None


class GameFiles:
    """Writes each finished game to the files asked for (a context manager: the lines file is closed
    on exit). ``write`` is called in game order."""

    def __init__(
        self,
        config: TournamentConfig,
        games_out: Path | None = None,
        records: Path | None = None,
        trajectories: Path | None = None,
    ) -> None:
        self.config = config
        self.sides = [tuple(seats) for seats in Seating(config.rules, config.players).side_seats]
        self.records = records
        self.trajectories = trajectories
        self._lines: IO[str] | None = None
        if records is not None:
            records.mkdir(exist_ok=True)
        if trajectories is not None:
            trajectories.mkdir(exist_ok=True)
        if games_out is not None:
            self._lines = games_out.open("w", encoding="utf-8")

    def __enter__(self) -> GameFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the lines file."""
        if self._lines is not None:
            self._lines.close()
            self._lines = None

    def write(self, outcome: GameOutcome) -> None:
        """Write ``outcome``'s line, record and decisions (those asked for)."""
        if self._lines is not None:
            self._lines.write(json.dumps(game_line(self.config, self.sides, outcome)) + "\n")
            self._lines.flush()
        if self.records is not None and outcome.record is not None:
            path = self.records / record_name(outcome.index)
            path.write_text(json.dumps(outcome.record, indent=2) + "\n", encoding="utf-8")
        if self.trajectories is not None and outcome.trajectory is not None:
            from handfoot.sim.trajectories import write_npz

            meta = {
                "game": outcome.index,
                "game_seed": outcome.seed,
                "dealer": outcome.dealer,
                "seats": outcome.seats or list(self.config.seats),
                "totals": outcome.totals,
            }
            write_npz(self.trajectories / trajectory_name(outcome.index), outcome.trajectory, meta)


def matchup_folder(index: int) -> str:
    """The folder of matchup ``index``'s records or decisions in a league's output: ``matchup-003``."""
    return f"matchup-{index:03d}"


class LeagueFiles:
    """Writes each finished game of a league (``handfoot league``) to the files asked for: one
    ``--games-out`` file of lines (a tournament's line with ``matchup`` and ``entrants``, the entrant
    of each side of that game), and each matchup's records and decisions in its own folder,
    ``DIR/matchup-000/game-000000.json``. A context manager, as ``GameFiles``; ``write(matchup,
    outcome)`` is called in game order within each matchup."""

    def __init__(
        self,
        entrants: Sequence[str],
        matchups: Sequence[Matchup],
        games_out: Path | None = None,
        records: Path | None = None,
        trajectories: Path | None = None,
    ) -> None:
        self.entrants = list(entrants)
        self.matchups = list(matchups)
        self._lines: IO[str] | None = None
        self._files: dict[int, GameFiles] = {}
        self.records = records
        self.trajectories = trajectories
        for folder in (records, trajectories):
            if folder is not None:
                folder.mkdir(exist_ok=True)
        if games_out is not None:
            self._lines = games_out.open("w", encoding="utf-8")

    def __enter__(self) -> LeagueFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the lines file."""
        if self._lines is not None:
            self._lines.close()
            self._lines = None

    def write(self, index: int, outcome: GameOutcome) -> None:
        """Write game ``outcome`` of matchup ``index``: its line, record and decisions (those asked
        for)."""
        matchup = self.matchups[index]
        files = self._files.get(index)
        if files is None:
            name = matchup_folder(index)
            records = None if self.records is None else self.records / name
            trajectories = None if self.trajectories is None else self.trajectories / name
            files = self._files[index] = GameFiles(matchup.config, None, records, trajectories)
        files.write(outcome)
        if self._lines is not None:
            line = game_line(matchup.config, files.sides, outcome)
            named = {"matchup": index, "entrants": [self.entrants[e] for e in matchup.entrants_of(outcome)]}
            self._lines.write(json.dumps({**named, **line}) + "\n")
            self._lines.flush()
