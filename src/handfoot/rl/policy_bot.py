"""Policies as seats: an adapter from any ``(observation, mask) -> action`` callable to a ``Bot``.

``PolicyBot(policy)`` plays a seat wherever a bot can (``handfoot simulate --seats 'policy:model.zip'``
or ``'python:module:factory'``, ``SingleSeatEnv(opponents=...)``, any runner of bots). For each decision
it gives the policy what the environments give an agent: the seat's observation vector (``encode``,
with zeros for the game totals, which a bot's view of the hand does not carry, and the seat's staged
groups) and the action mask over the engine's move ids (the legal ids the runner passes, staging steps
included), and plays the id it returns. An id outside the mask is replaced by a random legal one (the
environments' ``illegal="random"``), so the bot always returns a legal move. A turn of staging steps
cannot cycle (``engine.staging``), so neither can a policy's decisions.

``load_policy(path)`` loads a saved Stable-Baselines3 or sb3-contrib model (``.zip``) as such a
callable: ``model.predict(obs, action_masks=mask, deterministic=True)`` for maskable models, the
observation with the mask appended for ``MaskedDQN`` (``handfoot.rl.masked_dqn``),
``model.predict(obs, deterministic=True)`` otherwise.
"""

from __future__ import annotations

import random
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from handfoot.bots.base import Bot, LegalMoves
from handfoot.engine import Move, Seating
from handfoot.engine.moves import move_id
from handfoot.engine.views import SeatInfo, View, sample_world
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.encode import Encoder

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]


class PolicyBot(Bot):
    """A ``Bot`` playing the actions of ``policy`` (module docstring)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self._encoders: dict[tuple[int, int], Encoder] = {}

    def choose(self, view: View, legal: Sequence[Move], rng: random.Random) -> Move:
        """``choose_seat`` for a runner that hands a frozen ``View``: the seat's ``SeatInfo`` is read from
        a world dealt to fit the view, which holds the same knowledge (no public bounds)."""
        return self.choose_seat(SeatInfo(sample_world(view, rng), view.seat), legal, rng)

    def choose_seat(self, info: SeatInfo, legal: Sequence[Move], rng: random.Random) -> Move:
        """The policy's move for ``info.seat``: one of ``legal`` (the engine's legal ids as moves)."""
        ids = list(legal.ids) if isinstance(legal, LegalMoves) else [move_id(move) for move in legal]
        totals = [0] * Seating(info.rules, info.players).num_sides
        obs = self._encoder(info).encode(info, totals)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[ids] = 1
        action = int(np.asarray(self.policy(obs, mask)).reshape(-1)[0])
        if action not in ids:
            action = ids[rng.randrange(len(ids))]
        return legal[ids.index(action)]

    def _encoder(self, info: SeatInfo) -> Encoder:
        key = (id(info.rules), info.players)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._encoders[key] = Encoder(info.rules, info.players)
        return encoder


def load_policy(path: str | Path) -> Policy:
    """A saved Stable-Baselines3 / sb3-contrib model as an ``(observation, mask) -> action`` callable.
    Raises ValueError for a file that is not such a model."""
    source = Path(path)
    if not zipfile.is_zipfile(source):
        raise ValueError(f"policy:{path}: not a saved model (a .zip written by model.save)")
    try:
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import A2C, DQN, PPO
    except ImportError:
        raise ValueError(
            "policy: seats need stable-baselines3 and sb3-contrib: pip install 'handfoot[train]'"
        ) from None
    from handfoot.rl.masked_dqn import MaskedDQN, with_mask

    errors = []
    for kind in (MaskablePPO, MaskedDQN, PPO, A2C, DQN):
        try:
            model = kind.load(source, device="cpu")
        except Exception as err:  # each loader refuses another algorithm's file in its own way
            errors.append(f"{kind.__name__}: {err}")
            continue

        def policy(
            obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8], _model: Any = model, _kind: Any = kind
        ) -> Any:
            if _kind is MaskablePPO:
                action, _ = _model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
            elif _kind is MaskedDQN:
                action, _ = _model.predict(with_mask(obs, mask), deterministic=True)
            else:
                action, _ = _model.predict(obs, deterministic=True)
            return action

        return policy
    raise ValueError(f"policy:{path}: no Stable-Baselines3 algorithm loads it ({'; '.join(errors)[:300]})")
