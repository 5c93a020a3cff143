"""Instructions a fixed piece of random play or RL stepping costs, counted by valgrind's callgrind.

Seconds move with the machine and its load (the same command gives ratios 15% apart from one run to the next
on a shared machine); the instructions a process executes do not. This counts them for a fixed workload:
``--what play`` plays kitchen-table hands 0 to ``--count`` - 1 at four seats (``bench_engine``'s random
player, the anchor runs' loop), ``--what rl`` takes ``--count`` steps of the AEC env (``bench_rl.run``),
``--what heuristic`` plays kitchen-table hands 0 to ``--count`` - 1 at four seats with the heuristic bot in
every seat (each hand a game of one hand, played as ``bench_bots.py speed`` plays it: the legal moves, a
``SeatInfo`` per decision, the move played). Each workload runs twice, with ``--count`` and with 0 (the same
imports and setup, no move), both from a fresh process with ``PYTHONHASHSEED=0``, after a short run that
compiles every module the workload imports to bytecode (compiling them from source at each import, as a
``PYTHONDONTWRITEBYTECODE`` environment does, moved the count of the setup alone by up to 30 million
instructions); the difference is the moves' own. A process's count is still not quite the same from one run to
the next (objects hash by their address), and for the RL env most of the process is its imports, so a short
workload's share moves more: 8,000 env steps moved by up to 1% from run to run, 24,000 (the default) by 0.1%,
and 100 hands of random play by less.

    python benchmarks/bench_instructions.py                       # pure Python, random play, 100 hands
    python benchmarks/bench_instructions.py --what rl             # 24,000 steps of the AEC env
    python benchmarks/bench_instructions.py --what heuristic      # 20 hands, the heuristic in every seat
    python benchmarks/bench_instructions.py --compiled build/compiled   # the mypyc build
    python benchmarks/bench_instructions.py --quick               # smoke run: 3 hands (rl: 200 steps)

Compare two trees by running it from each (a ``git worktree`` of the code before, with its own compiled
build). Needs valgrind (Debian: ``apt-get install valgrind``); under it a run takes about 50 times as
long as without (100 hands: about a minute).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLLECTED = re.compile(r"Collected : (\d+)")
COUNTS = {"play": 100, "heuristic": 20, "rl": 24_000}  # hands or steps of a measurement
QUICK_COUNTS = {"play": 3, "heuristic": 1, "rl": 200}  # of ``--quick``


def workload(what: str, count: int) -> int:
    """Run the workload in this process; returns the moves or steps it made. With ``count`` 0 it does
    the same setup and nothing more (the rules loaded; for ``rl`` the env made and reset), so that the
    difference of two runs is the moves or steps alone."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    if what == "play":
        import bench_engine

        bench_engine.preset("kitchen-table")
        return sum(bench_engine.play_hand("kitchen-table", 4, seed) for seed in range(count))
    if what == "heuristic":
        return heuristic_hands(count)
    import bench_rl

    bench_rl.run("kitchen-table", count, wrapped=False, seed=0)  # 0 steps: the env made and reset
    return count


def heuristic_hands(count: int) -> int:
    """Play kitchen-table hands 0 to ``count`` - 1 at four seats, the heuristic in every seat, each hand
    a game of one hand (``bench_engine.one_hand_rules``), as ``bench_bots.py speed`` plays them; returns
    the moves played. With ``count`` 0 the imports and the rules alone."""
    import random

    import bench_engine
    from handfoot.bots import HeuristicBot, legal_for
    from handfoot.engine import Game
    from handfoot.sim.tournament import play_chosen

    rules = bench_engine.one_hand_rules("kitchen-table")
    bot = HeuristicBot()
    rng = random.Random(0)
    moves = 0
    for seed in range(count):
        game = Game(rules, 4, seed)
        while not game.finished:
            state = game.state
            legal = legal_for(state, game.legal_ids())
            play_chosen(game, legal, bot.choose_seat(game.seat_info(state.to_move), legal, rng))
            moves += 1
    return moves


def worker_env(path: str) -> dict[str, str]:
    """The environment of a worker process: ``path`` first on ``PYTHONPATH``, string hashing fixed, and
    modules compiled to bytecode once and read back after (``PYTHONDONTWRITEBYTECODE`` unset: compiling
    every module from source at each import adds tens of millions of instructions that move from run
    to run)."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=path)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def warm_up(what: str, path: str) -> None:
    """Run a short workload once without callgrind, so that every module it imports is compiled to
    bytecode before anything is counted."""
    count = "200" if what == "rl" else "2"
    command = [sys.executable, __file__, "--worker", "--what", what, "--count", count]
    subprocess.run(command, env=worker_env(path), capture_output=True, check=True)


def counted(what: str, count: int, path: str) -> tuple[int, int]:
    """(instructions, moves or steps) of one fresh process running the workload under callgrind, with
    ``path`` first on ``PYTHONPATH``."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--worker",
            "--what",
            what,
            "--count",
            str(count),
        ],
        env=worker_env(path),
        capture_output=True,
        text=True,
        check=False,
    )
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"valgrind run failed (exit {done.returncode}): {last}")
    return int(found.group(1)), int(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--what", choices=("play", "rl", "heuristic"), default="play")
    parser.add_argument(
        "--count", type=int, default=None, help="hands (play: 100, heuristic: 20) or steps (rl: 24,000)"
    )
    parser.add_argument("--compiled", type=Path, default=None, help="a compiled build's folder")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 3 hands (rl: 200 steps), the same path and line; too short to compare runs by",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:  # one measured process: ``--count`` 0 is the setup alone
        print(workload(args.what, args.count or 0))
        return 0
    if args.quick and args.count is not None:
        parser.error("--quick sets the count itself: give --quick or --count, not both")
    defaults = QUICK_COUNTS if args.quick else COUNTS
    count = args.count if args.count is not None else defaults[args.what]
    if not 1 <= count <= 1_000_000:
        parser.error(f"--count {count}: use 1 to 1,000,000")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.compiled is not None and not (args.compiled / "handfoot").is_dir():
        parser.error(f"--compiled {args.compiled}: no compiled build there (make build/compiled/.built)")
    path = str(args.compiled.resolve()) if args.compiled is not None else str(ROOT / "src")
    warm_up(args.what, path)
    base, _ = counted(args.what, 0, path)
    total, units = counted(args.what, count, path)
    build = "compiled" if args.compiled is not None else "pure Python"
    unit = "step" if args.what == "rl" else "move"
    spent = total - base
    print(
        f"{args.what}, {build}, {ROOT.name} at {path}: {spent:,} instructions for {units:,} {unit}s "
        f"({spent / units:,.0f} a {unit}); the process without the workload: {base:,}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
