"""Decisions of a tournament's seats as learning data (``handfoot simulate --trajectories DIR``).

For every decision of a chosen seat, a ``TrajectoryRecorder`` keeps what the RL environments would show
that seat (``handfoot.rl.Encoder``'s observation vector and the mask of the engine's legal atomic move
ids), the move the bot chose (its action id, or -1 for a compound move, which has no id: an opening of
several groups at once, or a group of four or more cards laid in one move) and its text, and the
reward: the seat's side's score for a hand, given at the seat's last decision of that hand (0
elsewhere; nothing for a hand the move cap cut short).

``write_npz`` stores one game's decisions as a NumPy ``.npz`` file; docs/research.md lists its arrays.
Needs numpy (the ``rl`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from handfoot.engine.game import Game
from handfoot.engine.views import SeatInfo
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.encode import Encoder
from handfoot.rl.layout import SIZE
from handfoot.rules.options import RuleSet


@dataclass
class Trajectory:
    """One game's recorded decisions, row by row (``arrays`` gives them as NumPy arrays)."""

    seat: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    observation: list[npt.NDArray[np.float32]] = field(default_factory=list)
    mask: list[npt.NDArray[np.int8]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    move: list[str] = field(default_factory=list)
    reward: list[float] = field(default_factory=list)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The columns: ``seat`` (int8), ``hand`` (int16), ``observation`` (float32, rows x 781),
        ``mask`` (int8, rows x ``rl.actions.NUM_ACTIONS``), ``action`` (int16, -1 for a compound move),
        ``move`` (text), ``reward`` (float32)."""
        rows = len(self.seat)
        return {
            "seat": np.asarray(self.seat, dtype=np.int8),
            "hand": np.asarray(self.hand, dtype=np.int16),
            "observation": np.stack(self.observation) if rows else np.zeros((0, SIZE), np.float32),
            "mask": np.stack(self.mask) if rows else np.zeros((0, NUM_ACTIONS), np.int8),
            "action": np.asarray(self.action, dtype=np.int16),
            "move": np.asarray(self.move, dtype=np.str_),
            "reward": np.asarray(self.reward, dtype=np.float32),
        }


class TrajectoryRecorder:
    """Records the decisions of ``seats`` in one game (module docstring)."""

    def __init__(self, rules: RuleSet, players: int, seats: Sequence[int]) -> None:
        self.encoder = Encoder(rules, players)
        self.seats = frozenset(seats)
        self.trajectory = Trajectory()

    def decision(self, game: Game, seat: int, info: SeatInfo, legal_ids: Sequence[int]) -> None:
        """Note the position ``seat`` decides in: its observation and mask (``played`` adds the move)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[list(legal_ids)] = 1
        rows = self.trajectory
        rows.seat.append(seat)
        rows.hand.append(game.hand_index)
        rows.observation.append(self.encoder.encode(info, game.totals))
        rows.mask.append(mask)

    def played(self, action: int, text: str) -> None:
        """The move of the decision noted last: its action id (-1: compound) and its text."""
        self.trajectory.action.append(action)
        self.trajectory.move.append(text)

    def finish(self, game: Game) -> Trajectory:
        """Give each seat's last decision of every finished hand its side's score for that hand."""
        rows = self.trajectory
        del rows.seat[len(rows.action) :], rows.hand[len(rows.action) :]  # a decision cut by the cap
        del rows.observation[len(rows.action) :], rows.mask[len(rows.action) :]
        rows.reward = [0.0] * len(rows.action)
        last: dict[tuple[int, int], int] = {}
        for row, (seat, hand) in enumerate(zip(rows.seat, rows.hand, strict=True)):
            last[(seat, hand)] = row
        side_of = game.state.seating.side_of
        for (seat, hand), row in last.items():
            if hand < len(game.results):
                rows.reward[row] = float(game.results[hand].scores[side_of[seat]])
        return rows


def write_npz(path: Path, trajectory: Trajectory, meta: dict[str, Any]) -> None:
    """Write one game's decisions to ``path`` (compressed ``.npz``): the columns of
    ``Trajectory.arrays`` and, as 0-d or 1-d arrays, each entry of ``meta`` (game index, seed, ...)."""
    columns: dict[str, Any] = trajectory.arrays()
    for key, value in meta.items():
        columns[key] = np.asarray(value)
    with path.open("wb") as out:
        np.savez_compressed(out, **columns)
