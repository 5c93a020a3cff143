"""Anchor worker, handfoot's side: random play or RL env steps for a given CPU time, one JSON line out.

Runs in handfoot's own environment (pure Python, or the mypyc build when ``PYTHONPATH`` puts
``build/compiled`` first). ``--what play``: whole hands by ``bench_engine.py``'s policy (``legal_ids()``
at every decision, ``apply_id``), the figure ``make bench`` reports; ``--what rl``: ``bench_rl.py``'s loop
over ``handfoot.rl.raw_env`` (``last()``, a random action from the mask, ``step``); ``--what rl-batch``:
``bench_rl.py``'s batched loop (``handfoot.rl.BatchEnv``, 32 tables, one move per table a step). Plays until
``--seconds`` of CPU time are spent (whole hands for play), then prints
``{"units": <moves or steps>, "cpu": <seconds>, "wall": <seconds>, "compiled": <bool>}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_engine


def play(rules: str, players: int, seconds: float) -> tuple[int, float, float]:
    """Moves of random play in about ``seconds`` of CPU time: (moves, CPU s, wall s)."""
    moves = 0
    seed = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.process_time() - cpu0 < seconds:
        moves += bench_engine.play_hand(rules, players, seed)
        seed += 1
    return moves, time.process_time() - cpu0, time.perf_counter() - wall0


def rl_steps(rules: str, seconds: float) -> tuple[int, float, float]:
    """RL env steps in about ``seconds`` of CPU time: (steps, CPU s, wall s)."""
    import bench_rl

    steps = 0
    wall_total = cpu_total = 0.0
    chunk = 2_000
    seed = 0
    while cpu_total < seconds:
        wall, cpu = bench_rl.run(rules, chunk, wrapped=False, seed=seed)
        steps += chunk
        wall_total += wall
        cpu_total += cpu
        seed += 1
    return steps, cpu_total, wall_total


def rl_batch_steps(rules: str, seconds: float) -> tuple[int, float, float]:
    """Moves of ``BatchEnv`` (32 tables) in about ``seconds`` of CPU time: (moves, CPU s, wall s)."""
    import bench_rl

    steps = 0
    wall_total = cpu_total = 0.0
    chunk = 2_048
    seed = 0
    while cpu_total < seconds:
        wall, cpu = bench_rl.run_batch(rules, chunk, bench_rl.DEFAULT_BATCH, seed=seed)
        steps += chunk
        wall_total += wall
        cpu_total += cpu
        seed += 1
    return steps, cpu_total, wall_total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--what", choices=("play", "rl", "rl-batch"), default="play")
    parser.add_argument("--rules", default="kitchen-table", help="a preset name")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds to play for")
    args = parser.parse_args()
    if args.what == "play":
        units, cpu, wall = play(args.rules, args.players, args.seconds)
    elif args.what == "rl":
        units, cpu, wall = rl_steps(args.rules, args.seconds)
    else:
        units, cpu, wall = rl_batch_steps(args.rules, args.seconds)
    out = {"units": units, "cpu": cpu, "wall": wall, "compiled": bench_engine.engine_compiled()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
