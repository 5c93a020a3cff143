"""RL environment speed: PettingZoo AEC steps per second with random masked actions, per preset, one core.

    python benchmarks/bench_rl.py                  # 20,000 steps per preset, median of 5 runs
    python benchmarks/bench_rl.py --quick          # smoke: 500 steps per preset, one run
    python benchmarks/bench_rl.py --steps 50000 --repeats 7 --wrapped
    python benchmarks/bench_rl.py --profile        # cProfile of one run, top functions by own time
    python benchmarks/bench_rl.py --batch 0        # the AEC loop alone, no batched figure

The timed loop is what a user's loop does: ``for agent in env.agent_iter()``, ``env.last()`` (the agent's
observation vector and action mask, built fresh), a uniformly random legal action from the mask, and
``env.step``; a finished game is followed by ``reset()``. Environment: ``handfoot.rl.raw_env`` at the
preset's default player count, or with ``--wrapped`` ``handfoot.rl.env`` (PettingZoo's order-enforcing
wrapper). Times are wall (``time.perf_counter``) and CPU (``time.process_time``).

The batched figure (``--batch N``, default 32 tables): ``handfoot.rl.BatchEnv`` stepping N self-play
tables at once, as a trainer with a batched policy does: one ``step`` over N actions, each a uniformly
random legal action drawn for all tables at once from the mask array (numpy); a step counts each
table's move. Its ratio to the AEC loop is measured in the same run, preset by preset.
Ratios to other programs (RLCard's gin rummy env) come from ``bench_anchors.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import statistics
import time
from typing import Any

import numpy as np

import handfoot.rl as rl
from handfoot.rules import PRESET_NAMES

DEFAULT_BATCH = 32


def run(rules: str, steps: int, wrapped: bool, seed: int = 0) -> tuple[float, float]:
    """Play ``steps`` environment steps; returns (wall seconds, CPU seconds)."""
    make: Any = rl.env if wrapped else rl.raw_env
    env = make(rules=rules)
    env.reset(seed=seed)
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    done = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return time.perf_counter() - wall, time.process_time() - cpu


def run_batch(rules: str, steps: int, tables: int, seed: int = 0) -> tuple[float, float]:
    """Play about ``steps`` moves on ``tables`` tables of ``BatchEnv`` (whole batched steps); returns
    (wall seconds, CPU seconds) scaled to ``steps`` moves."""
    env = rl.BatchEnv(tables, rules=rules)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    masks = env.action_masks
    batches = max(1, steps // tables)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(batches):
        scores = rng.random(masks.shape)
        scores[masks == 0] = -1.0  # a uniformly random legal action per table: the best random score
        env.step(scores.argmax(axis=1))
    scale = steps / (batches * tables)
    return (time.perf_counter() - wall) * scale, (time.process_time() - cpu) * scale


def main() -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="500 steps per preset, one run")
    parser.add_argument("--wrapped", action="store_true", help="time handfoot.rl.env (wrapped)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--batch",
        type=int,
        default=DEFAULT_BATCH,
        help=f"tables of BatchEnv (default {DEFAULT_BATCH}; 0: none)",
    )
    args = parser.parse_args()
    steps, repeats = (500, 1) if args.quick else (args.steps, args.repeats)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run("kitchen-table", steps, args.wrapped)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
        return
    kind = "env (wrapped)" if args.wrapped else "raw_env"
    python = platform.python_version()
    print(f"{kind}: {steps} steps per preset, median of {repeats} run(s), one core, Python {python}")
    batch = f"batch of {args.batch}" if args.batch else ""
    print(f"{'preset':<15} {'steps/s':>9} {'cpu steps/s':>12} {batch + ' cpu steps/s':>26} {'ratio':>6}")
    totals = {"steps": 0.0, "wall": 0.0, "cpu": 0.0, "batch_cpu": 0.0}
    for name in PRESET_NAMES:
        runs = [run(name, steps, args.wrapped, seed) for seed in range(repeats)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        line = f"{name:<15} {steps / wall:>9.0f} {steps / cpu:>12.0f}"
        if args.batch:
            batch_cpu = statistics.median(
                run_batch(name, steps, args.batch, seed)[1] for seed in range(repeats)
            )
            line += f" {steps / batch_cpu:>26.0f} {cpu / batch_cpu:>6.2f}"
            totals["batch_cpu"] += batch_cpu
        print(line)
        totals["steps"] += steps
        totals["wall"] += wall
        totals["cpu"] += cpu
    line = (
        f"all presets: {totals['steps'] / totals['wall']:,.0f} steps/s "
        f"(cpu {totals['steps'] / totals['cpu']:,.0f})"
    )
    if args.batch:
        rate = totals["steps"] / totals["batch_cpu"]
        line += f"; {batch} cpu {rate:,.0f} steps/s, {totals['cpu'] / totals['batch_cpu']:.2f}x the AEC loop"
    print(line)


if __name__ == "__main__":
    main()
