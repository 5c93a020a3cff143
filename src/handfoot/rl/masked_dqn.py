"""A DQN that only ever values legal actions: Stable-Baselines3's ``DQN`` with the action mask in the
observation (extra ``[train]``: torch and stable-baselines3).

Stable-Baselines3's DQN knows nothing of masks: its greedy action is the best of all 375 actions, most
of them illegal in any position, and its exploration samples all of them. ``MaskedDQN`` reads the mask
that ``MaskObservation`` appends to the single-seat environment's observation vector:

* the Q-network sees the observation vector only (``VectorPart``), and an action the mask forbids is
  valued ``MASKED`` (far below any return), so the greedy action and the bootstrapped target
  ``max_a Q(s', a)`` are taken over legal actions; a position with no legal action (the episode is
  over) is valued 0;
* exploration samples a legal action (``MaskedDQN.predict``);
* a saved model keeps its networks and not the optimiser's state (``model.save``: a few hundred KB).

``examples/train_dqn.py`` trains one; ``policy:MODEL.zip`` seats load it (``handfoot.rl.policy_bot``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from gymnasium import spaces
from stable_baselines3 import DQN
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.dqn.policies import DQNPolicy, QNetwork

from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rl.layout import HIGH, LOW, SIZE

MASKED = -1e6  # the value of a forbidden action: below any return a game can pay


def with_mask(observation: npt.NDArray[np.float32], mask: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """The observation vector (``SIZE`` floats) followed by the action mask (``NUM_ACTIONS``, 0 or 1)."""
    return np.concatenate([np.asarray(observation, np.float32), np.asarray(mask, np.float32)])


Vector = npt.NDArray[np.float32]


class MaskObservation(gymnasium.ObservationWrapper[Vector, np.int64, Vector]):
    """A single-seat environment (``SingleSeatEnv``) whose observation carries the learner's action mask
    after the vector: ``Box((SIZE + NUM_ACTIONS,))``, what ``MaskedDQN`` reads."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        low = np.concatenate([np.full(SIZE, LOW, np.float32), np.zeros(NUM_ACTIONS, np.float32)])
        high = np.concatenate([np.full(SIZE, HIGH, np.float32), np.ones(NUM_ACTIONS, np.float32)])
        self.observation_space = spaces.Box(low, high, dtype=np.float32)

    def observation(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The vector and the learner's mask now."""
        return with_mask(observation, self.env.unwrapped.action_masks())  # type: ignore[attr-defined]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions (as ``SingleSeatEnv.action_masks``)."""
        mask: npt.NDArray[np.bool_] = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return mask


class VectorPart(BaseFeaturesExtractor):
    """The observation vector, without the mask appended to it."""

    def __init__(self, observation_space: spaces.Box) -> None:
        super().__init__(observation_space, features_dim=SIZE)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        """The first ``SIZE`` columns."""
        return observations[:, :SIZE]


class MaskedQNetwork(QNetwork):
    """Q-values with every forbidden action at ``MASKED`` (all 0 where nothing is legal)."""

    def forward(self, obs: torch.Tensor | dict[str, torch.Tensor]) -> torch.Tensor:
        """Q-values of every action for each observation of the batch, masked."""
        assert isinstance(obs, torch.Tensor), "MaskedQNetwork reads MaskObservation's vectors"
        values: torch.Tensor = self.q_net(self.extract_features(obs, self.features_extractor))
        legal = obs[:, SIZE:] > 0.5
        masked = torch.where(legal, values, torch.full_like(values, MASKED))
        return torch.where(legal.any(dim=1, keepdim=True), masked, torch.zeros_like(values))


class MaskedDQNPolicy(DQNPolicy):
    """``DQNPolicy`` with ``MaskedQNetwork`` (online and target) over ``VectorPart``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", VectorPart)
        super().__init__(*args, **kwargs)

    def make_q_net(self) -> MaskedQNetwork:
        """A masked Q-network with a features extractor of its own."""
        net_args = self._update_features_extractor(self.net_args, features_extractor=None)
        return MaskedQNetwork(**net_args).to(self.device)


class MaskedDQN(DQN):
    """``DQN`` over legal actions only (module docstring); its observations are ``MaskObservation``'s."""

    policy_aliases = {"MaskedMlpPolicy": MaskedDQNPolicy}  # noqa: RUF012 (as DQN declares it)

    def predict(
        self,
        observation: npt.NDArray[Any] | dict[str, npt.NDArray[Any]],
        state: tuple[npt.NDArray[Any], ...] | None = None,
        episode_start: npt.NDArray[Any] | None = None,
        deterministic: bool = False,
    ) -> tuple[npt.NDArray[Any], tuple[npt.NDArray[Any], ...] | None]:
        """The greedy legal action, or while exploring (probability ``exploration_rate``, never when
        ``deterministic``) a random legal one; one observation or a batch."""
        if deterministic or np.random.rand() >= self.exploration_rate:
            action, state = self.policy.predict(observation, state, episode_start, deterministic)
            return action, state
        assert isinstance(observation, np.ndarray), "MaskedDQN reads MaskObservation's vectors"
        batch = observation.reshape(-1, SIZE + NUM_ACTIONS)
        chosen = [_random_legal(row[SIZE:]) for row in batch]
        action = np.array(chosen) if observation.ndim > 1 else np.array(chosen[0])
        return action, state

    def _get_torch_save_params(self) -> tuple[list[str], list[str]]:
        """Save the policy's networks, not the optimiser's state (a loaded model trains on afresh)."""
        return ["policy"], []


def _random_legal(mask: npt.NDArray[np.float32]) -> int:
    legal = np.flatnonzero(mask > 0.5)
    return int(np.random.choice(legal)) if len(legal) else 0
