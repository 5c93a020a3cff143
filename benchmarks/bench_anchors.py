"""handfoot's speed as ratios to anchors measured in the same run: OpenSpiel and RLCard on the same core.

    make bench-anchors            # makes .venv-anchors and the compiled engine, then runs this
    python benchmarks/bench_anchors.py --rounds 7 --seconds 3
    python benchmarks/bench_anchors.py --quick    # smoke: one short round
    python benchmarks/bench_anchors.py --only handfoot   # no anchors' environment needed
    python benchmarks/bench_anchors.py --json

An absolute figure (moves per second) depends on the machine it was measured on; a ratio to another
program measured on the same core in the same minutes does not, or much less. Two figures, each with
its own anchor:

* **play**: random play with legal-move generation, decisions per CPU second. handfoot plays whole
  4-player kitchen-table hands by ``bench_engine.py``'s policy (``legal_ids()`` at every decision); the
  anchor is OpenSpiel's ``gin_rummy`` (its C++ core driven from Python, a uniformly random legal action
  at every decision, chance outcomes not counted); RLCard's gin rummy environment is shown beside it.
* **rl**: reinforcement-learning environment steps per CPU second with random masked actions. handfoot's
  PettingZoo AEC env (``bench_rl.py``'s loop), and its batched env (``BatchEnv``, 32 tables, one move
  per table a step), each pure and compiled; the anchor is RLCard's gin rummy env; PettingZoo's own
  ``gin_rummy_v4`` (built on RLCard) is shown beside it.

Each candidate is a separate process pinned to one core (``--core``), run for ``--seconds`` of CPU time,
and the candidates take turns: every round runs each of them once, in an order that reverses from one
round to the next, so a slow minute on the machine falls on all of them. A candidate's figure is the
median over the rounds with its minimum and maximum; its ratio to the anchor is worked out round by
round (both measured in the same round) and shown as the median with its minimum and maximum.

The anchors run in their own virtual environment (``--anchor-python``, default ``.venv-anchors``, made
by ``make bench-anchors`` from ``benchmarks/anchors/requirements.txt``), never in handfoot's: they are no
dependency of handfoot. The compiled candidate runs where ``--compiled`` (default ``build/compiled``,
made by ``make build/compiled/.built``) holds the mypyc build; a candidate that cannot run is left out,
with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS = Path(__file__).resolve().parent / "anchors"


@dataclass(frozen=True)
class Candidate:
    """One program measured: its figure ("play" or "rl"), a name, and the command that prints its JSON."""

    figure: str
    name: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    anchor: bool = False


@dataclass
class Result:
    """A candidate's rates (units per CPU second), one per round, or why it could not run."""

    candidate: Candidate
    rates: list[float] = field(default_factory=list)
    error: str | None = None


def candidates(python: str, anchor_python: str, compiled: Path, only_handfoot: bool) -> list[Candidate]:
    """Every candidate this run measures, given the two environments and the compiled build's folder."""
    pure_env = (("PYTHONPATH", str(ROOT / "src")),)
    compiled_env = (("PYTHONPATH", str(compiled)),)
    handfoot = str(WORKERS / "play_handfoot.py")
    openspiel = str(WORKERS / "play_openspiel.py")
    rlcard = str(WORKERS / "play_rlcard.py")
    out: list[Candidate] = []
    for figure, anchor, beside in (
        (
            "play",
            ("OpenSpiel gin_rummy", openspiel, "--game", "gin_rummy"),
            ("RLCard gin-rummy env", rlcard, "--env", "rlcard"),
        ),
        (
            "rl",
            ("RLCard gin-rummy env", rlcard, "--env", "rlcard"),
            ("PettingZoo gin_rummy_v4", rlcard, "--env", "pettingzoo"),
        ),
    ):
        out.append(Candidate(figure, "handfoot pure", (python, handfoot, "--what", figure), pure_env))
        out.append(Candidate(figure, "handfoot compiled", (python, handfoot, "--what", figure), compiled_env))
        if figure == "rl":
            batched = (python, handfoot, "--what", "rl-batch")
            out.append(Candidate(figure, "handfoot batched pure (32 tables)", batched, pure_env))
            out.append(Candidate(figure, "handfoot batched compiled", batched, compiled_env))
        if not only_handfoot:
            out.append(Candidate(figure, anchor[0], (anchor_python, *anchor[1:]), anchor=True))
            out.append(Candidate(figure, beside[0], (anchor_python, *beside[1:])))
    return out


def run_once(candidate: Candidate, seconds: float, core: int | None) -> float:
    """Run a candidate once (pinned to ``core``); returns its units per CPU second. Raises RuntimeError
    with the worker's last line of stderr if it fails."""
    env = dict(os.environ)
    env.update(candidate.env)
    env["PYTHONHASHSEED"] = "0"

    def pin() -> None:
        if core is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {core})

    done = subprocess.run(
        [*candidate.argv, "--seconds", str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=pin,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"exit {done.returncode}: {last}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if "compiled" in candidate.name and not report.get("compiled"):
        raise RuntimeError("the engine imported is not the mypyc build (make build/compiled/.built)")
    return float(report["units"]) / float(report["cpu"])


def measure(cands: list[Candidate], rounds: int, seconds: float, core: int | None) -> list[Result]:
    """Every candidate once per round, the order reversed every other round; a candidate that fails
    once is left out of the later rounds."""
    results = [Result(c) for c in cands]
    for index in range(rounds):
        order = results if index % 2 == 0 else results[::-1]
        for result in order:
            if result.error is not None:
                continue
            try:
                result.rates.append(run_once(result.candidate, seconds, core))
            except (RuntimeError, OSError, ValueError, KeyError) as err:
                result.error = str(err)
            print(
                f"round {index + 1}/{rounds}: {result.candidate.figure} {result.candidate.name}",
                file=sys.stderr,
            )
    return results


def spread(values: list[float]) -> dict[str, float]:
    """Median, minimum and maximum."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summary(results: list[Result]) -> list[dict[str, object]]:
    """One row per candidate: its rate's spread, and its ratio to its figure's anchor round by round."""
    anchors = {r.candidate.figure: r for r in results if r.candidate.anchor and r.error is None and r.rates}
    rows: list[dict[str, object]] = []
    for r in results:
        row: dict[str, object] = {
            "figure": r.candidate.figure,
            "name": r.candidate.name,
            "anchor": r.candidate.anchor,
        }
        if r.error is not None and not r.rates:
            row["error"] = r.error
            rows.append(row)
            continue
        row["per_cpu_second"] = spread(r.rates)
        anchor = anchors.get(r.candidate.figure)
        if anchor is not None:
            paired = [mine / theirs for mine, theirs in zip(r.rates, anchor.rates, strict=False)]
            row["ratio_to_anchor"] = spread(paired)
            row["anchor_name"] = anchor.candidate.name
        if r.error is not None:
            row["error"] = r.error
        rows.append(row)
    return rows


def table(rows: list[dict[str, object]], rounds: int, seconds: float) -> str:
    """The rows as text: figure, candidate, ratio to the anchor [min, max], units per CPU second."""
    lines = [
        f"{rounds} round(s) of {seconds:g} CPU s per candidate, one core each, interleaved; "
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores",
        f"{'figure':<6} {'candidate':<34} {'ratio to anchor [min, max]':<30} {'per CPU second [min, max]'}",
    ]
    for row in rows:
        head = f"{row['figure']:<6} {row['name']:<34} "
        if "per_cpu_second" not in row:
            lines.append(head + f"not measured: {row['error']}")
            continue
        rate = row["per_cpu_second"]
        assert isinstance(rate, dict)
        rate_text = f"{rate['median']:,.0f} [{rate['min']:,.0f}, {rate['max']:,.0f}]"
        ratio = row.get("ratio_to_anchor")
        if row["anchor"]:
            ratio_text = "1.00 (the anchor)"
        elif isinstance(ratio, dict):
            ratio_text = f"{ratio['median']:.2f} [{ratio['min']:.2f}, {ratio['max']:.2f}]"
        else:
            ratio_text = "(no anchor measured)"
        lines.append(head + f"{ratio_text:<30} {rate_text}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=7, help="runs of each candidate (default 7)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per run (default 3)")
    parser.add_argument(
        "--core", type=int, default=None, help="the core every run is pinned to (default: the last)"
    )
    parser.add_argument("--anchor-python", default=str(ROOT / ".venv-anchors" / "bin" / "python"))
    parser.add_argument("--compiled", type=Path, default=ROOT / "build" / "compiled")
    parser.add_argument("--only", choices=("handfoot",), default=None, help="leave the anchors out")
    parser.add_argument("--quick", action="store_true", help="smoke: one round of 0.3 s")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or not 0 < args.seconds <= 600:
        parser.error("--rounds must be 1 or more and --seconds between 0 and 600")
    rounds, seconds = (1, 0.3) if args.quick else (args.rounds, args.seconds)
    core = args.core
    if core is None and hasattr(os, "sched_getaffinity"):
        core = max(os.sched_getaffinity(0))
    cands = candidates(sys.executable, args.anchor_python, args.compiled, args.only == "handfoot")
    rows = summary(measure(cands, rounds, seconds, core))
    if args.json:
        print(json.dumps({"rounds": rounds, "seconds": seconds, "core": core, "rows": rows}, indent=2))
    else:
        print(table(rows, rounds, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
