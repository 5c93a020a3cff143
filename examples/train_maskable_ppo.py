"""Train a masked policy (sb3-contrib's MaskablePPO, PyTorch on the CPU) for one seat against random bots,
and plot its win rate against the random and the heuristic bot as training goes.

    pip install -e '.[train]'            # handfoot[rl] + sb3-contrib + torch (docs/rl.md: the CPU build)
    python examples/train_maskable_ppo.py --minutes 25 --out ~/handfoot-runs/ppo
    python examples/train_maskable_ppo.py --smoke --out /tmp/ppo-smoke     # a few hundred steps

The table: two players under kitchen-table rules, one hand per episode (``game_end = "hands"``,
``hands_per_game = 1``), reward the zero-sum hand score / 1000. The policy is evaluated before training
(step 0) and every ``--eval-every`` steps after: deterministic and masked, it plays ``--eval-games``
hands against each opponent; a hand is won when the learner's side scores more. Everything goes to the
folder ``--out`` (made if missing; by default ``~/handfoot-runs/maskable-ppo``, outside the repository):
``curve.json`` (the points, rewritten after each evaluation), ``curve.png`` (the plot) and ``model.zip``
(the trained policy: ``MaskablePPO.load(path)``). One core: ``torch.set_num_threads(1)``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from handfoot.rl import SingleSeatEnv

MAX_CYCLES = 400  # a hand is cut after 400 moves per seat (a policy that only stages and cancels)
RULES: dict[str, Any] = {"extends": "kitchen-table", "game_end": "hands", "hands_per_game": 1}


DEFAULT_OUT = Path.home() / "handfoot-runs" / "maskable-ppo"
# --smoke: enough steps for one PPO update and two evaluations, in seconds
SMOKE = {"steps": 300, "n_steps": 128, "batch_size": 64, "eval_every": 256, "eval_games": 2}


def make_env(opponent: str, rules: dict[str, Any] = RULES, players: int = 2) -> SingleSeatEnv:
    """The learner in seat 0, ``opponent`` bots elsewhere, one hand per episode."""
    return SingleSeatEnv(
        rules,
        players,
        seat=0,
        opponents=opponent,
        reward="zero_sum",
        reward_scale=0.001,
        max_cycles=MAX_CYCLES,
    )


def win_rate(model: MaskablePPO, opponent: str, games: int, seed: int) -> float:
    """Share of ``games`` hands the policy wins (ties count half) against ``opponent``."""
    env = make_env(opponent)
    wins = 0.0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        done = False
        total = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        wins += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    return wins / games


class Evaluate(BaseCallback):  # type: ignore[misc]
    """Evaluate every ``every`` steps; record the curve; stop after ``seconds`` of training."""

    def __init__(self, every: int, games: int, seconds: float, out: Path) -> None:
        super().__init__()
        self.every = every
        self.games = games
        self.seconds = seconds
        self.out = out
        self.start = time.perf_counter()
        self.train_seconds = 0.0
        self.points: list[dict[str, float]] = []
        self.next_eval = every

    def _on_training_start(self) -> None:
        self.evaluate()  # the untrained policy, at step 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.evaluate()
            self.next_eval += self.every
        return time.perf_counter() - self.start < self.seconds

    def _on_training_end(self) -> None:
        if not self.points or self.points[-1]["steps"] != self.num_timesteps:
            self.evaluate()

    def evaluate(self) -> None:
        began = time.perf_counter()
        point = {
            "steps": float(self.num_timesteps),
            "minutes": (began - self.start) / 60,
            "vs_random": win_rate(self.model, "random", self.games, 10_000),
            "vs_heuristic": win_rate(self.model, "heuristic", self.games, 20_000),
        }
        self.points.append(point)
        print(json.dumps(point), flush=True)
        (self.out / "curve.json").write_text(json.dumps(self.points, indent=1))


def plot(points: list[dict[str, float]], out: Path, title: str) -> None:
    """Win rate against each opponent by training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [p["steps"] for p in points]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, [p["vs_random"] for p in points], marker="o", label="vs random bot")
    ax.plot(steps, [p["vs_heuristic"] for p in points], marker="s", label="vs heuristic bot")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("hands won")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv: list[str] | None = None) -> None:
    """Parse the options, train, evaluate, plot."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=25.0, help="wall-clock training budget")
    parser.add_argument("--steps", type=int, default=10_000_000, help="training step budget")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO rollout length")
    parser.add_argument("--batch-size", type=int, default=256, help="PPO minibatch size")
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="folder for curve.json, curve.png and model.zip"
    )
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
    env = make_env("random")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    callback = Evaluate(args.eval_every, args.eval_games, args.minutes * 60, out)
    began = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=callback)
    minutes = (time.perf_counter() - began) / 60
    title = f"MaskablePPO vs random bots, 2-player kitchen-table hands ({minutes:.0f} min, one core)"
    plot(callback.points, out / "curve.png", title)
    model.save(out / "model.zip")
    print(f"trained {model.num_timesteps} steps in {minutes:.1f} min; curve, plot and model in {out}")


if __name__ == "__main__":
    main()
