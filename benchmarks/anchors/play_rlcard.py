"""Anchor worker: RLCard's gin rummy environment (pure Python), or PettingZoo's gin_rummy_v4 built on it.

Runs in the anchors' environment (``benchmarks/anchors/requirements.txt``), never handfoot's. Steps the
environment with a uniformly random legal action until ``--seconds`` of CPU time are spent (a finished
game is followed by a reset), then prints one JSON line: ``{"units": <steps>, "cpu": <seconds>,
"wall": <seconds>}``.

``--env rlcard``: ``rlcard.make("gin-rummy")``, ``reset``/``step`` with the state's ``legal_actions``
(RLCard builds each step's observation, as an RL loop needs). ``--env pettingzoo``:
``pettingzoo.classic.gin_rummy_v4`` (PettingZoo 1.24, the last release that has it), the loop of
handfoot's ``bench_rl.py`` (``agent_iter``, ``last()``, a random action from the mask, ``step``).
"""

from __future__ import annotations

import argparse
import json
import random
import time


def rlcard_steps(seconds: float, seed: int) -> tuple[int, float, float]:
    """Steps of RLCard's gin rummy env played in about ``seconds`` of CPU time: (steps, CPU s, wall s)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.process_time() - cpu0 < seconds:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - cpu0, time.perf_counter() - wall0


def pettingzoo_steps(seconds: float, seed: int) -> tuple[int, float, float]:
    """Steps of PettingZoo's gin_rummy_v4 played in about ``seconds`` of CPU time: (steps, CPU s, wall s)."""
    import numpy as np
    from pettingzoo.classic import gin_rummy_v4

    env = gin_rummy_v4.raw_env()
    env.reset(seed=seed)
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.process_time() - cpu0 < seconds:
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        env.reset()
    return steps, time.process_time() - cpu0, time.perf_counter() - wall0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=("rlcard", "pettingzoo"), default="rlcard")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds to play for")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    play = rlcard_steps if args.env == "rlcard" else pettingzoo_steps
    steps, cpu, wall = play(args.seconds, args.seed)
    print(json.dumps({"units": steps, "cpu": cpu, "wall": wall}))


if __name__ == "__main__":
    main()
