"""Bot strength and speed benchmarks (run by hand; the figures go into docs/bots.md).

    python benchmarks/bench_bots.py speed [--hands 200]
    python benchmarks/bench_bots.py random [--games 200] [--workers 2]
    python benchmarks/bench_bots.py ismcts [--games 100] [--budget 30] [--workers 2]
    python benchmarks/bench_bots.py all

``speed``: complete 4-player kitchen-table hands per second on one core, the heuristic in every seat
(the runner's work included: legal moves, openings and a view per decision, as in a tournament).
``random``: heuristic vs random under every preset (whole games). ``ismcts``: ISMCTS vs heuristic
on kitchen-table (4 players, partnerships) and family (individuals), single hands.
Targets: heuristic >= 95% against random everywhere; ISMCTS > 55% against the heuristic with the
95% interval above 50%.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from handfoot.bots import HeuristicBot, legal_for
from handfoot.engine import Game, view
from handfoot.rules import PRESET_NAMES, preset
from handfoot.sim.stats import wilson
from handfoot.sim.tournament import TournamentConfig, parse_seats, play_chosen, run_tournament


def bench_speed(hands: int, repeats: int = 5) -> float:
    """Complete 4-player kitchen-table hands per second, heuristic in every seat, on this core: the
    median of ``repeats`` runs, by CPU time (process time, which other jobs on the machine inflate less
    than wall time; wall time printed too). The runner's work is counted as in a tournament: legal
    ids, openings, a view per decision, and playing the move."""
    rules = preset("kitchen-table")
    cpu_rates: list[float] = []
    wall_rates: list[float] = []
    moves = 0
    for _ in range(repeats):
        bot = HeuristicBot()
        rng = random.Random(0)
        wall, cpu = time.perf_counter(), time.process_time()
        moves = 0
        for seed in range(hands):
            game = Game(rules, 4, seed)
            while not game.results:
                state = game.state
                legal = legal_for(state, game.legal_ids())
                play_chosen(game, legal, bot.choose(view(state, state.to_move), legal, rng))
                moves += 1
        cpu_rates.append(hands / (time.process_time() - cpu))
        wall_rates.append(hands / (time.perf_counter() - wall))
    rate = statistics.median(cpu_rates)
    print(
        f"speed: {hands} hands x {repeats}, {moves / hands:.0f} moves/hand: median {rate:.1f} hands/s "
        f"by CPU time (runs {', '.join(f'{r:.0f}' for r in sorted(cpu_rates))}), "
        f"median {statistics.median(wall_rates):.1f} hands/s by wall time"
    )
    return rate


def report(name: str, seats: str, games: int, workers: int, hands: bool, seed: int = 1) -> Any:
    """Run one tournament and print its line: the first side's win rate and interval."""
    rules = preset(name)
    config = TournamentConfig(
        rules, rules.default_players, parse_seats(seats, rules.default_players), games, seed, hands
    )
    start = time.perf_counter()
    data = run_tournament(config, workers).to_json()
    bot = config.seats[0]
    mine = [side for side in data["sides"] if side["bots"][0] == bot]  # every side the first bot plays
    wins = sum(side["wins"] for side in mine)
    low, high = wilson(wins, games)
    score = sum(side["mean_hand_score"] for side in mine) / len(mine)
    ms = mine[0]["decision_ms"]
    unit = "hands" if hands else "games"
    print(
        f"{name:14s} {seats:22s} {games} {unit}: {bot} wins {100 * wins / games:.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}], score/hand {score:.0f}, "
        f"decision mean {ms['mean']:.1f} ms max {ms['max']:.0f} ms, "
        f"capped {data['capped']}, {time.perf_counter() - start:.0f} s"
    )
    return data


def main() -> None:
    """Parse the arguments and run the chosen benchmarks."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("which", choices=("speed", "random", "ismcts", "all"))
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--budget", default="30")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.which in ("speed", "all"):
        bench_speed(args.hands)
    if args.which in ("random", "all"):
        for name in sorted(PRESET_NAMES):
            report(name, "heuristic,random", args.games or 200, args.workers, hands=False)
    if args.which in ("ismcts", "all"):
        for name in ("kitchen-table", "family"):
            report(name, f"ismcts:{args.budget},heuristic", args.games or 100, args.workers, hands=True)


if __name__ == "__main__":
    main()
