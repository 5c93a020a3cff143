"""Anchor worker: OpenSpiel's gin_rummy (C++ core, Python driver) in uniformly random play.

Runs in the anchors' environment (``benchmarks/anchors/requirements.txt``), never handfoot's. Plays whole
games, a uniformly random legal action at every decision and the chance outcomes (the deal, the draws) by
their probabilities, until ``--seconds`` of CPU time are spent, then prints one JSON line:
``{"units": <decisions>, "cpu": <seconds>, "wall": <seconds>}``. Chance nodes are not counted: a unit is
a player's decision, as a handfoot move is.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import pyspiel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="gin_rummy", help="an OpenSpiel game name")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds to play for")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(args.game)
    rng = random.Random(args.seed)
    decisions = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.process_time() - cpu0 < args.seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(json.dumps({"units": decisions, "cpu": cpu, "wall": wall}))


if __name__ == "__main__":
    main()
