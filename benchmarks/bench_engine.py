"""Engine speed in random play: complete hands per second and moves per second, per preset, on one core.

    python benchmarks/bench_engine.py                 # 40 hands per preset, median of 5 runs
    python benchmarks/bench_engine.py --quick         # CI smoke: 3 hands per preset, one run
    python benchmarks/bench_engine.py --hands 100 --repeats 7 --players 6
    python benchmarks/bench_engine.py --profile       # cProfile of one run, top functions by own time
    python benchmarks/bench_engine.py --memory        # RSS with 1,000 games in play in one process

Each hand is a fresh game of that one hand (seed = hand number; the preset's rules with the game ending
after it, ``one_hand_rules``, so no hand is dealt that is not played), played to its end by
``RandomPlayer`` from ``tests/helpers/play.py``, the policy the random-play tests use (openings and melds
preferred). The timed loop is the engine's work plus the policy's: ``legal_ids()`` for every decision,
``opening_moves`` where the policy looks for an opening, and ``apply``/``apply_id``. Times are
``time.perf_counter`` (wall); CPU time (``time.process_time``) is printed beside it because other jobs on
a shared machine inflate wall time.
The figures the engine aims at, legal-move generation included: 80,000 moves/s or more in pure
Python, 150,000 compiled with mypyc. The median run finds the engine's meld memo (``engine/meld_legal``)
filled by the runs before it, as a long game or tournament does; the first run's figure, which fills it,
is printed too.

``--memory``: 1,000 kitchen-table games in one process, each played 80 random moves in (the same
policy), and the process's resident memory (VmRSS, and its peak VmHWM, from /proc/self/status) with all
of them in play; the target is under 64 MB.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import platform
import pstats
import random
import statistics
import sys
import time
from functools import cache
from pathlib import Path
from types import ModuleType

from handfoot.engine import Game, Move
from handfoot.rules import PRESET_NAMES, RuleSet, preset
from handfoot.rules.load import apply_overrides

# The targets for random play on one core of the development machine: pure Python, and the mypyc build.
TARGET_PURE = 80_000
TARGET_COMPILED = 150_000


def engine_compiled() -> bool:
    """True if the engine imported is the mypyc build (an extension module, not a .py source)."""
    import handfoot.engine.legal as legal

    return not str(legal.__file__).endswith(".py")


def _policy_module() -> ModuleType:
    """tests/helpers/play.py, loaded by path (it holds RandomPlayer and imports nothing but handfoot)."""
    path = Path(__file__).resolve().parent.parent / "tests" / "helpers" / "play.py"
    spec = importlib.util.spec_from_file_location("handfoot_random_policy", path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RandomPlayer = _policy_module().RandomPlayer


@cache
def one_hand_rules(name: str) -> RuleSet:
    """A preset's rules with the game ending after its first hand: the same hand, move for move (no
    option read during a hand depends on how a game ends), without dealing a second hand that
    ``play_hand`` would not play. Random play counts one deal a hand, as OpenSpiel's anchor does."""
    return apply_overrides(preset(name), {"game_end": "hands", "hands_per_game": 1})


def play_hand(name: str, players: int, seed: int) -> int:
    """Play one complete hand at random under a preset (game and policy seeded with ``seed``); returns
    the number of moves played. The game is one hand long (``one_hand_rules``)."""
    game = Game(one_hand_rules(name), players, seed=seed)
    player = RandomPlayer(random.Random(seed))
    state = game.state
    moves = 0
    while not game.finished:  # a game of one hand (``one_hand_rules``): it ends with the hand
        choice = player.choose(state, game.legal_ids())
        if isinstance(choice, Move):
            game.apply(choice)
        else:
            game.apply_id(choice)
        moves += 1
    return moves


def play_hands(name: str, players: int, hands: int) -> int:
    """Play ``hands`` complete hands at random under a preset (seeds 0 to ``hands - 1``); returns the
    number of moves played."""
    return sum(play_hand(name, players, seed) for seed in range(hands))


def bench(name: str, players: int, hands: int, repeats: int) -> dict[str, float]:
    """Median hands/s and moves/s (wall and CPU) over ``repeats`` runs of ``hands`` hands, and the CPU
    moves/s of the first run (the one that fills the engine's meld memo for the preset's rules)."""
    walls: list[float] = []
    cpus: list[float] = []
    moves = 0
    for _ in range(repeats):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        moves = play_hands(name, players, hands)
        walls.append(time.perf_counter() - wall0)
        cpus.append(time.process_time() - cpu0)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return {
        "hands_s": hands / wall,
        "moves_s": moves / wall,
        "cpu_moves_s": moves / cpu,
        "first_cpu_moves_s": moves / cpus[0],
        "moves_per_hand": moves / hands,
    }


def profile(hands: int, players: int | None, top: int) -> str:
    """cProfile of one run over every preset: the ``top`` functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for name in PRESET_NAMES:
        play_hands(name, players or preset(name).default_players, hands)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def rss_mb() -> tuple[float, float]:
    """This process's resident memory and its peak, MB (Linux /proc; 0 elsewhere)."""
    now = peak = 0.0
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    now = int(line.split()[1]) / 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    return now, peak


def games_in_play(games: int, moves: int, name: str = "kitchen-table") -> list[Game]:
    """``games`` games of a preset, each played ``moves`` random moves in (fewer if a game ends)."""
    rules = preset(name)
    out = []
    for seed in range(games):
        game = Game(rules, None, seed=seed)
        player = RandomPlayer(random.Random(seed))
        for _ in range(moves):
            if game.finished:
                break
            choice = player.choose(game.state, game.legal_ids())
            if isinstance(choice, Move):
                game.apply(choice)
            else:
                game.apply_id(choice)
        out.append(game)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=40, help="complete hands per preset and run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per preset (the median is shown)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: each preset's)")
    parser.add_argument("--quick", action="store_true", help="CI smoke run: 3 hands, one run")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary instead")
    parser.add_argument("--memory", action="store_true", help="RSS with 1,000 games in play instead")
    args = parser.parse_args(argv)
    hands, repeats = (3, 1) if args.quick else (args.hands, args.repeats)

    print(f"python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    print(f"command: python {' '.join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])])}")
    if args.memory:
        before, _ = rss_mb()
        kept = games_in_play(1000, 80)
        now, peak = rss_mb()
        print(
            f"{len(kept)} kitchen-table games in play, 80 moves in: RSS {now:.1f} MB "
            f"(peak {peak:.1f} MB; {before:.1f} MB before the first game; target under 64 MB)"
        )
        return 0
    if args.profile:
        print(f"cProfile of one run of {hands} hands per preset, one core")
        print(profile(hands, args.players, 25))
        return 0
    print(f"{hands} hands per preset, median of {repeats} run(s), one core, time.perf_counter")
    print(f"{'preset':<15}{'players':>8}{'hands/s':>10}{'moves/s':>10}{'cpu moves/s':>13}{'moves/hand':>12}")
    all_moves = all_wall = all_cpu = all_first_cpu = 0.0
    for name in PRESET_NAMES:
        players = args.players or preset(name).default_players
        if players not in preset(name).players_allowed:
            print(f"{name:<15}{players:>8}   (not a player count of this preset)")
            continue
        row = bench(name, players, hands, repeats)
        all_moves += row["moves_per_hand"] * hands
        all_wall += hands / row["hands_s"]
        all_cpu += row["moves_per_hand"] * hands / row["cpu_moves_s"]
        all_first_cpu += row["moves_per_hand"] * hands / row["first_cpu_moves_s"]
        print(
            f"{name:<15}{players:>8}{row['hands_s']:>10.1f}{row['moves_s']:>10.0f}"
            f"{row['cpu_moves_s']:>13.0f}{row['moves_per_hand']:>12.0f}"
        )
    if all_wall:
        overall = all_moves / all_wall
        compiled = engine_compiled()
        build, target = ("compiled", TARGET_COMPILED) if compiled else ("pure Python", TARGET_PURE)
        print(
            f"all presets: {overall:,.0f} moves/s, {all_moves / all_cpu:,.0f} moves per CPU second "
            f"({build}: target {target:,})"
        )
        if repeats > 1:
            first = all_moves / all_first_cpu
            print(f"first run (the meld memo filling up): {first:,.0f} moves per CPU second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
