"""The bot protocol's cost: a decision of an example bot program (a separate process, fed JSON lines)
against the same seat's decision by the in-process heuristic.

    .venv/bin/python benchmarks/bench_protocol.py                 # 20 two-player hands per bot
    .venv/bin/python benchmarks/bench_protocol.py --hands 5 --quick

For each example bot (Python, and Node when ``node`` is on the PATH) it plays ``--hands`` single
kitchen-table hands against the heuristic, one process (no workers), and prints the program seat's mean
and worst decision time (the runner's view: the decision line written, the answer read and checked)
beside the heuristic seat's, and the whole hands per second. Wall-clock times: run it on a quiet
machine.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import time
from pathlib import Path

from handfoot.rules import preset
from handfoot.sim.seats import parse_seats
from handfoot.sim.tournament import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parent.parent


def bots() -> list[tuple[str, str]]:
    """(label, seat spec) of each example bot this machine can run."""
    found = [("python", f"cmd:{shlex.quote(sys.executable)} {ROOT / 'examples/bots/first_legal.py'}")]
    if shutil.which("node"):
        found.append(("node", f"cmd:node {ROOT / 'examples/bots/first_legal.js'}"))
    return found


def main() -> None:
    """Measure each bot and print one line per bot."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="CI smoke: 2 hands")
    args = parser.parse_args()
    hands = 2 if args.quick else args.hands
    rules = preset("kitchen-table")
    for label, spec in bots():
        config = TournamentConfig(
            rules, 2, parse_seats(f"{spec},heuristic", 2), games=hands, seed=args.seed, single_hands=True
        )
        began = time.perf_counter()
        data = run_tournament(config).to_json()
        spent = time.perf_counter() - began
        program, heuristic = data["sides"][0]["decision_ms"], data["sides"][1]["decision_ms"]
        print(
            f"{label}: {hands} hands in {spent:.1f} s ({hands / spent:.2f} hands/s); decision "
            f"mean {program['mean']:.2f} ms (worst {program['max']:.0f}) vs heuristic "
            f"{heuristic['mean']:.2f} ms (worst {heuristic['max']:.0f}); failures {len(data['bot_errors'])}"
        )


if __name__ == "__main__":
    main()
