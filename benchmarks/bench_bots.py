"""Bot strength and speed benchmarks (run by hand; the figures go into docs/bots.md).

    python benchmarks/bench_bots.py speed [--hands 200]
    python benchmarks/bench_bots.py random [--games 200] [--workers 2]
    python benchmarks/bench_bots.py ismcts [--games 200] [--budget 24] [--workers 2] [--seed 1]
                                           [--only kitchen-table|family]
    python benchmarks/bench_bots.py search-time [--budget 24]
    python benchmarks/bench_bots.py planner [--games 24] [--budget 0.2cpu] [--against heuristic,ismcts]
                                            [--only kitchen-table|family|head-and-foot|marmot|in-laws]
                                            [--workers 1] [--seed 1] [--quick]
    python benchmarks/bench_bots.py planner-time [--budget 0.2cpu] [--hands 2]
    python benchmarks/bench_bots.py all

``speed``: complete 4-player kitchen-table hands per second on one core, the heuristic in every seat
(the runner's work included: legal moves, openings and a SeatInfo per decision, as in a tournament).
``random``: heuristic vs random under every preset (whole games). ``ismcts``: ISMCTS vs heuristic
on kitchen-table (4 players, partnerships) and family (3 players, individuals), single hands.
``search-time``: CPU time and worlds searched per ISMCTS decision at a budget, over the positions of 3
hands (``--budget 1s``: how many worlds a second of search covers).
``planner``: the turn planner against each bot of ``--against`` at the same budget, in duplicate
deals (each deal played once per rotation of the seats, so each side's cards are played by both
lineups): its win share paired by deal with a 95% interval (Student's t over the deals), and its mean
margin per hand; kitchen-table with 4 players (partnerships: the planner in seats 0 and 2) and family
with 3 (individuals: one planner against two), or each preset of ``--only`` at its usual player count.
``--quick`` plays one deal of kitchen-table against the heuristic at 2 worlds a decision (a smoke run).
``planner-time``: time per planner decision (every decision, and the searched ones), the planner in
seats 0 and 2 of 4-player kitchen-table hands against the heuristic.
Targets: heuristic >= 95% against random everywhere; ISMCTS > 55% against the heuristic with the
95% interval above 50%.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from contextlib import closing
from typing import Any

import bench_engine  # the random-play benchmark beside this file
from handfoot.bots import Budget, HeuristicBot, IsmctsBot, legal_for
from handfoot.bots.planner import PlannerBot
from handfoot.engine import Game
from handfoot.rules import PRESET_NAMES, preset
from handfoot.sim.stats import wilson
from handfoot.sim.tournament import Summary, TournamentConfig, iter_outcomes, parse_seats, play_chosen


def bench_speed(hands: int, repeats: int = 5) -> float:
    """Complete 4-player kitchen-table hands per second, heuristic in every seat, on this core: the
    median of ``repeats`` runs, by CPU time (process time, which other jobs on the machine inflate less
    than wall time; wall time printed too). The runner's work is counted as in a tournament: legal
    ids, openings, a SeatInfo per decision (``choose_seat``), and playing the move."""
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
                play_chosen(game, legal, bot.choose_seat(game.seat_info(state.to_move), legal, rng))
                moves += 1
        cpu_rates.append(hands / (time.process_time() - cpu))
        wall_rates.append(hands / (time.perf_counter() - wall))
    rate = statistics.median(cpu_rates)
    print(
        f"speed: {hands} hands x {repeats}, {moves / hands:.0f} moves/hand: median {rate:.1f} hands/s "
        f"by CPU time (runs {', '.join(f'{r:.0f}' for r in sorted(cpu_rates))}), "
        f"median {statistics.median(wall_rates):.1f} hands/s by wall time"
    )
    random_rates = []
    for _ in range(repeats):  # random play on the same table, as bench_engine.py plays it
        cpu = time.process_time()
        played = bench_engine.play_hands("kitchen-table", 4, 40)
        random_rates.append(played / (time.process_time() - cpu))
    random_rate = statistics.median(random_rates)
    print(
        f"random play, 4-player kitchen-table (bench_engine.py's policy): median {random_rate:,.0f} moves "
        f"per CPU second; heuristic hands/s per 1,000 random moves/s: {1000 * rate / random_rate:.2f}"
    )
    return rate


def bench_search_time(budget: str, hands: int = 3) -> None:
    """CPU time per searched ISMCTS decision at ``budget``: every position of ``hands`` 4-player
    kitchen-table hands played by the heuristic, searched by ISMCTS for the seat to move (one core)."""
    rules = preset("kitchen-table")
    heuristic = HeuristicBot()
    bot = IsmctsBot(Budget.parse(budget))
    rng = random.Random(0)
    times: list[float] = []
    worlds: list[int] = []
    for seed in range(hands):
        game = Game(rules, 4, 1000 + seed)
        while not game.results:
            state = game.state
            info = game.seat_info(state.to_move)
            legal = legal_for(state, game.legal_ids())
            start = time.process_time()
            bot.choose_seat(info, legal, rng)
            spent = time.process_time() - start
            if bot.last_iterations:
                times.append(spent)
                worlds.append(bot.last_iterations)
            play_chosen(game, legal, heuristic.choose_seat(info, legal, rng))
    times.sort()
    print(
        f"ismcts:{budget}: {len(times)} searched decisions in {hands} hands, CPU time per decision: "
        f"mean {1000 * statistics.mean(times):.0f} ms, median {1000 * statistics.median(times):.0f} ms, "
        f"95th percentile {1000 * times[int(0.95 * (len(times) - 1))]:.0f} ms, "
        f"max {1000 * times[-1]:.0f} ms; "
        f"worlds per decision: mean {statistics.mean(worlds):.0f}, median {statistics.median(worlds):.0f}, "
        f"{sum(worlds) / sum(times):.0f} worlds per CPU second"
    )


PLANNER_TABLES = {  # preset -> players for the planner's measurement (the usual count; family: 3)
    "kitchen-table": 4,
    "family": 3,
    "head-and-foot": 4,
    "marmot": 4,
    "in-laws": 4,
}


def planner_seats(budget: str, against: str, players: int, partnerships: bool) -> str:
    """The seats of a planner measurement: partnerships alternate the planner and ``against``; with
    individuals one planner plays against the rest."""
    planner = f"planner:{budget}"
    opponent = against if against == "heuristic" else f"{against}:{budget}"
    if partnerships:
        return f"{planner},{opponent}"
    return ",".join([planner] + [opponent] * (players - 1))


def report_duplicate(
    name: str, players: int, seats: str, deals: int, workers: int, seed: int
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of single hands and print the first lineup's win share and
    margin paired by deal, with 95% intervals (a running line after every finished deal)."""
    rules = preset(name)
    config = TournamentConfig(
        rules, players, parse_seats(seats, players), deals, seed, single_hands=True, duplicate=True
    )
    summary = Summary(config)
    rotations = config.rotations()
    start = time.perf_counter()
    decision_sum = decision_count = 0.0
    decision_max = 0.0
    with closing(iter_outcomes(config, workers)) as outcomes:
        for outcome in outcomes:
            summary.outcomes.append(outcome)
            side = outcome.side_of_lineup(0)
            decision_sum += outcome.decision_sum[side]
            decision_count += outcome.decision_count[side]
            decision_max = max(decision_max, outcome.decision_max[side])
            complete = [games for games in summary.by_deal() if len(games) == rotations]
            if len(summary.outcomes) % rotations == 0 and len(complete) < deals:
                row = _paired(summary, rotations)
                print(f"  {name} {seats}: {row}, {time.perf_counter() - start:.0f} s", flush=True)
    row = _paired(summary, rotations)
    ms = 1000 * decision_sum / max(decision_count, 1)
    print(
        f"{name:14s} {players}p {seats}: {row}; planner decision mean {ms:.0f} ms, "
        f"max {1000 * decision_max:.0f} ms (wall); {time.perf_counter() - start:.0f} s",
        flush=True,
    )
    return summary.to_json()


def _paired(summary: Summary, rotations: int) -> str:
    """The first lineup's win share and hand margin paired by the deals played in every rotation."""
    kept = Summary(summary.config)
    kept.outcomes = [o for games in summary.by_deal() if len(games) == rotations for o in games]
    if not kept.outcomes:
        return "no deal finished"
    mine = kept.lineup_rows()[0]
    low, high = mine["win_share_ci95"]
    m_low, m_high = mine["mean_hand_margin_ci95"]
    return (
        f"{mine['deals']} deals x {rotations}: wins {100 * mine['win_share']:.1f}% [{100 * low:.1f}, "
        f"{100 * high:.1f}], margin/hand {mine['mean_hand_margin']:+.0f} [{m_low:+.0f}, {m_high:+.0f}]"
    )


def bench_planner(args: argparse.Namespace) -> None:
    """The planner against each of ``args.against`` in duplicate deals (see the module docstring)."""
    if args.quick:
        report_duplicate("kitchen-table", 4, planner_seats("2", "heuristic", 4, True), 1, 1, args.seed)
        return
    names = [args.only] if args.only else ["kitchen-table", "family"]
    for against in args.against.split(","):
        for name in names:
            players = PLANNER_TABLES[name]
            partnerships = preset(name).partnerships(players)
            seats = planner_seats(args.budget, against, players, partnerships)
            report_duplicate(name, players, seats, args.games or 24, args.workers, args.seed)


def bench_planner_time(budget: str, hands: int) -> None:
    """Time per planner decision (CPU and wall), the planner in seats 0 and 2 of ``hands`` 4-player
    kitchen-table hands against the heuristic: every decision, and the searched ones."""
    rules = preset("kitchen-table")
    bots = [
        PlannerBot(Budget.parse(budget)),
        HeuristicBot(),
        PlannerBot(Budget.parse(budget)),
        HeuristicBot(),
    ]
    rngs = [random.Random(seat) for seat in range(4)]
    cpu_all: list[float] = []
    wall_all: list[float] = []
    cpu_searched: list[float] = []
    plans: list[int] = []
    worlds: list[int] = []
    for seed in range(hands):
        game = Game(rules, 4, 2000 + seed)
        while not game.results:
            state = game.state
            seat = state.to_move
            legal = legal_for(state, game.legal_ids())
            bot = bots[seat]
            wall, cpu = time.perf_counter(), time.process_time()
            move = bot.choose_seat(game.seat_info(seat), legal, rngs[seat])
            if isinstance(bot, PlannerBot):
                cpu_all.append(time.process_time() - cpu)
                wall_all.append(time.perf_counter() - wall)
                if bot.last_iterations:
                    cpu_searched.append(cpu_all[-1])
                    plans.append(bot.last_plans)
                    worlds.append(bot.last_iterations)
            play_chosen(game, legal, move)
    print(
        f"planner:{budget}: {len(cpu_all)} decisions in {hands} hands, {len(cpu_searched)} searched "
        f"({statistics.mean(plans) if plans else 0:.1f} plans, "
        f"{statistics.mean(worlds) if worlds else 0:.0f} worlds each on average); "
        f"CPU per decision: median {1000 * statistics.median(cpu_all):.0f} ms, "
        f"max {1000 * max(cpu_all):.0f} ms; searched: median "
        f"{1000 * statistics.median(cpu_searched) if cpu_searched else 0:.0f} ms; wall per decision: median "
        f"{1000 * statistics.median(wall_all):.0f} ms, max {1000 * max(wall_all):.0f} ms"
    )


def report(
    name: str, seats: str, games: int, workers: int, hands: bool, seed: int = 1, players: int = 0
) -> Any:
    """Run one tournament and print its line: the first bot's wins (over every side it plays) and
    interval."""
    rules = preset(name)
    players = players or rules.default_players
    config = TournamentConfig(rules, players, parse_seats(seats, players), games, seed, hands)
    start = time.perf_counter()
    summary = Summary(config)
    bot = config.seats[0]
    with closing(iter_outcomes(config, workers)) as outcomes:
        for done, outcome in enumerate(outcomes, start=1):
            summary.outcomes.append(outcome)
            if done % 10 == 0 and done < games:  # a running line, so a long run tells as it goes
                wins = sum(s["wins"] for s in summary.to_json()["sides"] if s["bots"][0] == bot)
                low, high = wilson(wins, done)
                print(
                    f"  {name} {seats}: {done}/{games}, {bot} wins {100 * wins / done:.1f}% "
                    f"[{100 * low:.1f}, {100 * high:.1f}], {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    data = summary.to_json()
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
        f"capped {data['capped']}, {time.perf_counter() - start:.0f} s",
        flush=True,
    )
    return data


def main() -> None:
    """Parse the arguments and run the chosen benchmarks."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "which", choices=("speed", "random", "ismcts", "search-time", "planner", "planner-time", "all")
    )
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--budget", default="24")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=tuple(PLANNER_TABLES), default=None)
    parser.add_argument("--against", default="heuristic,ismcts")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.which == "planner":
        bench_planner(args)
    if args.which == "planner-time":
        bench_planner_time(args.budget, args.hands if args.hands != 200 else 2)
    if args.which in ("speed", "all"):
        bench_speed(args.hands)
    if args.which in ("random", "all"):
        for name in sorted(PRESET_NAMES):
            report(name, "heuristic,random", args.games or 200, args.workers, hands=False)
    if args.which in ("search-time", "all"):
        bench_search_time(args.budget)
    if args.which in ("ismcts", "all"):
        games = args.games or 200
        if args.only in (None, "kitchen-table"):  # partnerships: ISMCTS in seats 0 and 2
            seats = f"ismcts:{args.budget},heuristic"
            report("kitchen-table", seats, games, args.workers, True, args.seed, players=4)
        if args.only in (None, "family"):  # individuals: ISMCTS in seat 0 against two heuristics
            seats = f"ismcts:{args.budget},heuristic,heuristic"
            report("family", seats, games, args.workers, True, args.seed, players=3)


if __name__ == "__main__":
    main()
