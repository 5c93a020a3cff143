"""Python's cyclic garbage collector, set for a long-running server process.

With 500 tables in play a server holds a few hundred thousand objects the collector tracks (games, their
moves, connections, tasks). At the interpreter's default thresholds a full collection walks all of them
every few seconds and finds nothing to free, holding up every table for 100 to 300 ms: it was the p99 of
``benchmarks/bench_server.py --think 1 --tables 500``. ``tune_collector`` makes collections rarer and
keeps what start-up made (modules, functions, the application) out of them; cycles are still freed.
"""

from __future__ import annotations

import gc

# Young collections after 50,000 net allocations (the default: 700), the middle generation every 20 of
# them, the oldest every 100 of those (and only when it grew by a quarter, as always).
SERVER_THRESHOLDS = (50_000, 20, 100)


def tune_collector() -> None:
    """Set the collector for a server process (call once, after the application is made, before serving):
    what exists now is frozen (never walked again) and the thresholds are ``SERVER_THRESHOLDS``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_THRESHOLDS)


__all__ = ["SERVER_THRESHOLDS", "tune_collector"]
