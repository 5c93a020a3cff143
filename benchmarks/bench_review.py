"""How long a hand review takes, and how well it finds a planted bad move (figures in docs/bots.md).

    python benchmarks/bench_review.py time [--worlds 32]            # the review tests' fixed hands
    python benchmarks/bench_review.py planted --kind wild|feed [--seeds 40] [--worlds 32] [--rounds 2]

``time``: CPU and wall seconds of ``review_hand`` for seat 0 of each record in tests/fixtures/review
(kitchen-table, 4 players), one core; run it with ``PYTHONPATH=build/compiled`` for the compiled engine
and bots. ``planted``: for each seed, a kitchen-table hand played by the heuristic in which seat 0's
first discard early in the hand is replaced by a bad one (``tests/fixtures/review/make_records.py``'s
rule), reviewed; prints the rank of the decision the planted discard ends (0: the first listed; the
mistakes come first, the costliest first), and the share ranked among the first three. The review
tests' larger corpus (five kinds, four presets) is ``tests/review/corpus.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from handfoot.record import parse_record
from handfoot.review import ReviewSettings, review_hand

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "review"


def time_reviews(worlds: int) -> None:
    settings = ReviewSettings(worlds=worlds)
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text())
        record = parse_record(data.get("record", data))
        cpu, wall = time.process_time(), time.perf_counter()
        review = review_hand(record, 0, settings=settings)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        judged = sum(1 for d in review.decisions if d.cost.worlds)
        print(
            f"{path.stem}: {len(review.decisions)} decisions, {judged} judged on worlds, "
            f"{sum(d.mistake for d in review.decisions)} mistakes, "
            f"{cpu:.1f} s CPU, {wall:.1f} s wall",
            flush=True,
        )


def planted(kind: str, seeds: int, worlds: int, rounds: int) -> None:
    sys.path.insert(0, str(FIXTURES))
    from make_records import planted as plant  # the tests' own planting rule

    top3 = tried = 0
    for seed in range(1, seeds + 1):
        try:
            data, at = plant(seed, kind)
        except AssertionError:
            continue  # nothing to plant in this hand
        tried += 1
        review = review_hand(parse_record(data), 0, settings=ReviewSettings(worlds=worlds, rounds=rounds))
        record = parse_record(data)
        ends = [d.index <= at and d.played.endswith(record.moves[at]) for d in review.decisions]
        rank = ends.index(True)  # the decision (lay-down and discard) the planted discard ends
        top3 += rank < 3
        d = review.decisions[rank]
        print(
            f"seed {seed}: rank {rank} of {len(review.decisions)}, cost {d.cost.mean:.0f} "
            f"[{d.cost.low:.0f}, {d.cost.high:.0f}], costly {d.costly}",
            flush=True,
        )
    print(f"{kind}: {top3} of {tried} planted moves among the three costliest", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    timing = sub.add_parser("time")
    timing.add_argument("--worlds", type=int, default=32)
    plant = sub.add_parser("planted")
    plant.add_argument("--kind", choices=("wild", "feed"), required=True)
    plant.add_argument("--seeds", type=int, default=40)
    plant.add_argument("--worlds", type=int, default=32)
    plant.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.what == "time":
        time_reviews(args.worlds)
    else:
        planted(args.kind, args.seeds, args.worlds, args.rounds)


if __name__ == "__main__":
    main()
