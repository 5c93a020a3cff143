"""The tables of docs/research.md, made by the runs their text describes (through ``handfoot.sim``).

    python tools/research_tables.py                      # every table, printed
    python tools/research_tables.py --only league        # one of them
    python tools/research_tables.py --write              # and written into docs/research.md
    python tools/research_tables.py --quick              # tiny runs: the tables' shape, not their figures

Each table of docs/research.md sits between ``<!-- table NAME: ... -->`` and ``<!-- end NAME -->``;
``--write`` replaces what is between them and writes on the opening line the command, the date and the
CPU time the run took (and draws the 2,000-game study's figure, docs/research-draw-one.png). ``--quick``
plays a handful of games per run (tests/docs/test_research_docs.py runs it to check that every table is
still made, in the columns the document shows); never ``--write`` with it. The full runs take about
5 minutes of CPU on one core.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from handfoot.rules import load_rules, preset
from handfoot.sim import LeagueConfig, Summary, TournamentConfig, compare_rules, run_league, run_tournament
from handfoot.sim.stats import interval_json, wilson

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "research.md"
MARKER = re.compile(
    r"^<!-- table (?P<name>[\w-]+): .*?-->\n(?P<body>.*?)^<!-- end (?P=name) -->$", re.M | re.S
)


@dataclass(frozen=True)
class Size:
    """How big each run is: the full study, or the quick form."""

    quick: bool
    figures: Path | None = None  # where a table's figure is drawn too (with --write: docs/)

    def of(self, full: int, quick: int = 2) -> int:
        """``full`` games, or ``quick`` in the quick form."""
        return quick if self.quick else full


def percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def between(low: float, high: float, digits: int = 1, scale: float = 100.0, sign: bool = False) -> str:
    """``low to high`` (scaled: percentages by default)."""
    form = f"{{:{'+' if sign else ''},.{digits}f}}"
    return f"{form.format(scale * low)} to {form.format(scale * high)}"


def table(header: Sequence[str], align: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table (``align``: ``l`` or ``r`` per column)."""
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if a == "l" else "---:" for a in align) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# --- is there a seat effect? -----------------------------------------------------------------------
def self_play(games: int, seed: int, duplicate: bool = False) -> Summary:
    """The heuristic against itself, two players, whole kitchen-table games."""
    config = TournamentConfig(
        preset("kitchen-table"), 2, ("heuristic", "heuristic"), games, seed, duplicate=duplicate
    )
    return run_tournament(config)


def seat_effect(size: Size) -> str:
    """Seat 0's share of the wins in heuristic self-play, three ways; then what a hand's order of play
    and the score bands are worth, per hand, in the largest plain run."""
    rows = []
    seeds = [self_play(size.of(200), seed) for seed in (1, 2, 3)]
    wins = sum(s.outcomes[i].shares()[0] for s in seeds for i in range(len(s.outcomes)))
    games = sum(len(s.outcomes) for s in seeds)
    low, high = wilson(wins, games)
    rows.append(
        [
            f"seeds 1, 2 and 3, {games // 3:,} games each",
            f"{games:,} games",
            f"{wins:g}",
            percent(wins / games),
            between(low, high),
        ]
    )
    big = self_play(size.of(2000), 0)
    wins = sum(o.shares()[0] for o in big.outcomes)
    games = len(big.outcomes)
    low, high = wilson(wins, games)
    rows.append(
        [
            f"seed 0, {games:,} games",
            f"{games:,} games",
            f"{wins:g}",
            percent(wins / games),
            between(low, high),
        ]
    )
    dup = self_play(size.of(1000), 1, duplicate=True)
    position = dup.duplicate_json()["positions"][0]
    deals = position["deals"]
    low, high = position["win_share_ci95"]
    rows.append(
        [f"`--duplicate`, seed 1, {deals:,} deals (seat position 0, paired by deal)", f"{deals:,} deals",
         f"{position['win_share'] * deals:g}", percent(position["win_share"]),
         "all equal" if position["win_share_constant"] else between(low, high)]
    )  # fmt: skip
    shares = table(["run", "played", "seat 0 wins", "seat 0 rate", "95% CI"], "lrrrr", rows)
    return shares + "\n" + mechanism(big)


def mechanism(summary: Summary) -> str:
    """Per hand of ``summary`` (whole two-player kitchen-table games): the first player's margin over
    the dealer, and the margin of the side in the higher score band over the other."""
    rules = summary.config.rules
    first, higher = [], []
    unequal = hands = 0
    opener_shares = []
    for game in summary.outcomes:
        totals = [0, 0]
        opener_shares.append(game.shares()[(game.dealer + 1) % 2])
        for number, scores in enumerate(game.hand_scores):
            dealer = (game.dealer + number) % 2
            leader = (dealer + 1) % 2
            first.append(float(scores[leader] - scores[dealer]))
            minimums = [rules.opening_minimum(number, total) for total in totals]
            if minimums[0] != minimums[1]:
                up = 0 if minimums[0] > minimums[1] else 1
                higher.append(float(scores[up] - scores[1 - up]))
                unequal += 1
            hands += 1
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
    rows = []
    for what, values in (
        ("the first player's score less the dealer's, per hand", first),
        ("the side with the higher minimum's score less the other's, per hand", higher),
    ):
        centre, (low, high), _ = interval_json(values)
        rows.append([what, f"{len(values):,} hands", f"{centre:+,.0f}", between(low, high, 0, 1.0, True)])
    centre, (low, high), _ = interval_json(opener_shares)
    rows.append(
        ["the first player of a game's first hand: share of the game's wins", f"{len(opener_shares):,} games",
         percent(centre), between(low, high)]
    )  # fmt: skip
    rows.append(
        [
            "hands dealt with the sides in different score bands",
            f"{hands:,} hands",
            percent(unequal / hands),
            "",
        ]
    )
    return table(["measure", "over", "mean", "95% CI"], "lrrr", rows)


# --- the league ------------------------------------------------------------------------------------
def league(size: Size) -> str:
    """``handfoot league --rules kitchen-table --players 2 --seats random,heuristic,ismcts:4 --games 8
    --hands --seed 1``: the ratings table."""
    config = LeagueConfig(
        preset("kitchen-table"),
        2,
        ("random", "heuristic", "ismcts:4"),
        size.of(8, 1),
        seed=1,
        single_hands=True,
    )
    data = run_league(config).to_json()
    rows = []
    for row in data["entrants"]:
        low, high = row["ci95"]
        win_low, win_high = row["win_ci95"]
        margin_low, margin_high = row["mean_hand_margin_ci95"]
        rows.append(
            [row["entrant"], f"{row['mu']:.2f}", f"{low:.2f} to {high:.2f}", f"{row['ordinal']:.2f}",
             str(row["games"]), percent(row["win_rate"]), between(win_low, win_high),
             f"{row['mean_hand_margin']:+,.0f}", between(margin_low, margin_high, 0, 1.0, True)]
        )  # fmt: skip
    ratings = table(
        [
            "entrant",
            "mu",
            "95% CI",
            "mu - 3σ",
            "hands",
            "win rate",
            "win 95% CI",
            "margin/hand",
            "margin 95% CI",
        ],
        "lrrrrrrrr",
        rows,
    )
    head = data["head_to_head"]
    pairs = []
    for i, name in enumerate(head["order"]):
        for j, other in enumerate(head["order"]):
            if i < j:
                low, high = head["ci95"][i][j]
                pairs.append(
                    [
                        f"{name} above {other}",
                        str(head["games"][i][j]),
                        percent(head["rate"][i][j]),
                        between(low, high),
                    ]
                )
    return ratings + "\n" + table(["head to head", "hands", "rate", "95% CI"], "lrrr", pairs)


# --- drawing one card instead of two ---------------------------------------------------------------
def draw_one(games: int) -> Callable[[Size], str]:
    """``handfoot compare kitchen-table examples/study/draw-one.toml --seats heuristic --games GAMES
    --seed 1``: the paired differences."""

    def make(size: Size) -> str:
        a = TournamentConfig(preset("kitchen-table"), 4, ("heuristic",) * 4, size.of(games), seed=1)
        b = TournamentConfig(
            load_rules(ROOT / "examples" / "study" / "draw-one.toml"),
            4,
            ("heuristic",) * 4,
            size.of(games),
            seed=1,
        )
        data = compare_rules(a, b).to_json()
        rows = []
        for row in data["paired"]:
            low, high = row["ci95"]
            digits = {"hands_per_game": 2, "moves_per_hand": 1}.get(row["measure"], 0)
            digits = 3 if row["measure"].endswith("_win") else digits
            interval = (
                f"none: every game {row['difference']:+.{digits}f}"
                if row["constant"]
                else between(low, high, digits, 1.0, True)
            )
            rows.append(
                [f"`{row['measure']}`", f"{row['a']:,.{digits}f}", f"{row['b']:,.{digits}f}",
                 f"{row['difference']:+,.{digits}f}", interval]
            )  # fmt: skip
        if size.figures is not None and games == 2000:
            from handfoot.sim.plot import plot_comparison

            title = f"B = examples/study/draw-one.toml minus A = kitchen-table, {a.games:,} games"
            plot_comparison(data, str(size.figures / "research-draw-one.png"), title)
        return table(["measure", "A: draw 2 (kitchen-table)", "B: draw 1", "B - A", "95% CI"], "lrrrl", rows)

    return make


SECTIONS: dict[str, Callable[[Size], str]] = {
    "seat-effect": seat_effect,
    "league": league,
    "draw-one-2000": draw_one(2000),
    "draw-one-200": draw_one(200),
}


def written(doc: str, name: str, body: str, seconds: float) -> str:
    """``doc`` with the table ``name`` replaced by ``body``, its opening line saying how it was made."""
    when = datetime.now(UTC).strftime("%Y-%m-%d")
    command = f"python tools/research_tables.py --only {name} --write"
    opening = f"<!-- table {name}: {command} (run {when}, {seconds:.0f} s on one core) -->\n"
    pattern = re.compile(
        rf"^<!-- table {re.escape(name)}: .*?-->\n.*?^<!-- end {re.escape(name)} -->$", re.M | re.S
    )
    if not pattern.search(doc):
        raise SystemExit(f"error: docs/research.md has no table {name}; allowed: {', '.join(SECTIONS)}")
    return pattern.sub(lambda _: opening + body + f"<!-- end {name} -->", doc, count=1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the tables of docs/research.md.")
    parser.add_argument("--only", action="append", default=[], help="a table's name (repeatable)")
    parser.add_argument("--quick", action="store_true", help="tiny runs: the tables' shape only")
    parser.add_argument("--write", action="store_true", help="write the tables into docs/research.md")
    args = parser.parse_args(argv)
    unknown = [name for name in args.only if name not in SECTIONS]
    if unknown:
        print(f"error: no table {unknown[0]}; allowed: {', '.join(SECTIONS)}", file=sys.stderr)
        return 2
    if args.quick and args.write:
        print("error: --quick tables are not the study's; allowed: --quick or --write", file=sys.stderr)
        return 2
    for name in args.only or list(SECTIONS):
        start = time.process_time()
        body = SECTIONS[name](Size(args.quick, DOC.parent if args.write else None))
        seconds = time.process_time() - start
        print(f"<!-- {name} ({seconds:.0f} s) -->\n{body}")
        if args.write:
            DOC.write_text(written(DOC.read_text("utf-8"), name, body, seconds), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
