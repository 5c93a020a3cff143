"""Train a masked DQN (``handfoot.rl.masked_dqn``: Stable-Baselines3's DQN over legal actions only) for
one seat of a two-player kitchen-table table, against random bots or against frozen copies of itself.

    pip install -e '.[train]'
    python examples/train_dqn.py --out ~/handfoot-runs/dqn                   # vs random bots, 3 CPU minutes
    python examples/train_dqn.py --opponent self --out ~/handfoot-runs/dqn2  # self-play
    python examples/train_dqn.py --smoke --out /tmp/dqn-smoke                # a few hundred steps

The table is the one of examples/train_maskable_ppo.py: one hand per episode (``game_end = "hands"``,
``hands_per_game = 1``), reward the zero-sum hand score in thousands (``reward_scale="normal"``).
``--opponent self`` is self-play against frozen copies: the other seat plays the learner's own network
as it was at the last refresh (every ``--refresh`` steps), deterministic and masked, through
``PolicyBot``. Training stops after ``--minutes`` of CPU time or ``--steps``. The policy is evaluated
before training and after it: deterministic, ``--eval-games`` hands against the random and the
heuristic bot (a hand is won when the learner's side scores more, a tie counts half). Into the folder
``--out`` (made if missing; by default ``~/handfoot-runs/dqn``, outside the repository): ``curve.json``
(the two points and the settings) and ``model.zip`` (``MaskedDQN.load(path)``, or a
``policy:model.zip`` seat). One core: ``torch.set_num_threads(1)``.

examples/dqn/model.zip is the model this script trained with its defaults (its curve beside it);
docs/rl.md ("Baselines") gives the figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from stable_baselines3.common.callbacks import BaseCallback

from handfoot.rl import SingleSeatEnv
from handfoot.rl.masked_dqn import MaskedDQN, MaskedDQNPolicy, MaskObservation, with_mask
from handfoot.rl.policy_bot import PolicyBot

MAX_CYCLES = 400  # a hand is cut after 400 moves per seat
RULES: dict[str, Any] = {"extends": "kitchen-table", "game_end": "hands", "hands_per_game": 1}
DEFAULT_OUT = Path.home() / "handfoot-runs" / "dqn"
# --smoke: enough steps for a few gradient steps and one refresh of the frozen copy, in seconds
SMOKE = {"steps": 400, "learning_starts": 100, "refresh": 200, "eval_games": 2, "buffer": 2_000}


class FrozenCopy:
    """An ``(observation, mask) -> action`` policy: a copy of the learner's network, made again by
    ``refresh``; the first legal action until the first copy is made."""

    def __init__(self) -> None:
        self.policy: MaskedDQNPolicy | None = None

    def refresh(self, model: Any) -> None:
        """Copy ``model``'s policy (a ``MaskedDQN``'s) as it is now."""
        self.policy = copy.deepcopy(model.policy)

    def __call__(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        if self.policy is None:
            return int(np.flatnonzero(mask)[0])
        action, _ = self.policy.predict(with_mask(obs, mask), deterministic=True)
        return int(action)


def make_env(opponent: str | PolicyBot) -> MaskObservation:
    """The learner in seat 0, ``opponent`` in seat 1, one hand per episode, the mask in the observation."""
    return MaskObservation(
        SingleSeatEnv(RULES, 2, seat=0, opponents=opponent, reward_scale="normal", max_cycles=MAX_CYCLES)
    )


def win_rate(model: MaskedDQN, opponent: str, games: int, seed: int) -> float:
    """Share of ``games`` hands the deterministic policy wins (ties count half) against ``opponent``."""
    env = make_env(opponent)
    wins = 0.0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        done = False
        total = 0.0
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(np.int64(action))
            total += float(reward)
            done = terminated or truncated
        wins += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    return wins / games


class Budget(BaseCallback):
    """Stop after ``seconds`` of CPU time (this process's: other jobs on the machine do not shorten
    the training); refresh the frozen copy every ``refresh`` steps."""

    def __init__(self, seconds: float, refresh: int, frozen: FrozenCopy | None) -> None:
        super().__init__()
        self.seconds = seconds
        self.refresh = refresh
        self.frozen = frozen
        self.start = time.process_time()

    def _on_training_start(self) -> None:
        if self.frozen is not None:
            self.frozen.refresh(self.model)

    def _on_step(self) -> bool:
        if self.frozen is not None and self.num_timesteps % self.refresh == 0:
            self.frozen.refresh(self.model)
        return time.process_time() - self.start < self.seconds


def evaluate(model: MaskedDQN, steps: int, minutes: float, games: int) -> dict[str, float]:
    """One point of the curve: the win rates against the random and the heuristic bot."""
    point = {
        "steps": float(steps),
        "minutes": minutes,
        "vs_random": win_rate(model, "random", games, 10_000),
        "vs_heuristic": win_rate(model, "heuristic", games, 20_000),
    }
    print(json.dumps(point), flush=True)
    return point


def main(argv: list[str] | None = None) -> None:
    """Parse the options, train, evaluate, save."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=["random", "heuristic", "self"], default="random")
    parser.add_argument("--minutes", type=float, default=5.0, help="a cap on training, in CPU minutes")
    parser.add_argument("--steps", type=int, default=60_000, help="training steps (exploration spans half)")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--refresh", type=int, default=5_000, help="self-play: steps between copies")
    parser.add_argument("--learning-starts", type=int, default=1_000)
    parser.add_argument("--buffer", type=int, default=50_000, help="replay buffer size")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for curve.json and model.zip")
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps: checks the set-up")
    args = parser.parse_args(argv)
    if args.smoke:
        for key, value in SMOKE.items():
            setattr(args, key, value)
    out: Path = args.out.expanduser()
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out} is a file: give a folder")
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    np.random.seed(args.seed)
    frozen = FrozenCopy() if args.opponent == "self" else None
    env = make_env(PolicyBot(frozen, name="frozen") if frozen is not None else args.opponent)
    model = MaskedDQN(
        "MaskedMlpPolicy",
        env,
        learning_rate=1e-3,
        buffer_size=args.buffer,
        learning_starts=args.learning_starts,
        batch_size=64,
        gamma=0.99,
        train_freq=4,
        target_update_interval=1_000,
        exploration_fraction=0.5,
        exploration_final_eps=0.05,
        policy_kwargs={"net_arch": [32]},
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    points = [evaluate(model, 0, 0.0, args.eval_games)]
    began = time.process_time()
    model.learn(total_timesteps=args.steps, callback=Budget(args.minutes * 60, args.refresh, frozen))
    minutes = (time.process_time() - began) / 60
    points.append(evaluate(model, model.num_timesteps, minutes, args.eval_games))
    settings = {"opponent": args.opponent, "seed": args.seed, "eval_games": args.eval_games}
    (out / "curve.json").write_text(json.dumps({"settings": settings, "points": points}, indent=1) + "\n")
    model.save(out / "model.zip")
    print(f"trained {model.num_timesteps} steps in {minutes:.1f} CPU min; curve and model in {out}")


if __name__ == "__main__":
    main()
