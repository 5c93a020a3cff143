"""``handfoot league --seats a,b,c,...``: a round robin between bots, rated with openskill.

    handfoot league --rules kitchen-table --players 2 --seats random,heuristic,ismcts:24 --games 50 \\
        --seed 1 [--json] [--hands]

Every choice of one entrant per side, in every rotation, plays ``--games`` games (``handfoot.sim.league``;
with ``--duplicate`` the rotations of one choice play the same deals); the table lists the entrants best
first with their rating (mu, its 95% interval mu ± 1.96 sigma, the conservative mu - 3 sigma), games, win
rate with its 95% Wilson interval and margin per hand, then the head-to-head rates with their intervals.
``--json`` prints the same with the league's provenance; ``--games-out``, ``--records`` and
``--trajectories`` write every game as simulate does (a folder per matchup). Needs openskill
(``handfoot[sim]``).
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from handfoot.commands import fail, json_errors, players_or_fail, rules_or_fail
from handfoot.commands.simulate_cmd import (
    DuplicateOpt,
    GamesOutOpt,
    HandsOpt,
    JsonOpt,
    MaxMovesOpt,
    PlayersOpt,
    QuietOpt,
    RecordsOpt,
    RulesOpt,
    SeedOpt,
    Terminated,
    TrajectoriesOpt,
    TrajectorySeatsOpt,
    WorkersOpt,
    parse_seat_list,
    plus_minus,
    progress_display,
    stop_on_sigterm,
    stopped,
)
from handfoot.sim.league import LeagueConfig, entrant_names, matchups, run_league
from handfoot.sim.outputs import LeagueFiles, check_outputs
from handfoot.sim.tournament import DEFAULT_MAX_MOVES, parse_seats
from handfoot.wording import plural


def register(app: typer.Typer) -> None:
    """Add the ``league`` command to ``app``."""
    app.command("league")(league_command)


EntrantsOpt = Annotated[
    str,
    typer.Option(
        "--seats",
        help="The entrants, comma separated: bot specs as simulate's --seats takes them, each once.",
    ),
]
GamesOpt = Annotated[int, typer.Option("--games", help="Games per matchup.")]


def league_command(
    seats: EntrantsOpt = "random,heuristic",
    rules: RulesOpt = "kitchen-table",
    players: PlayersOpt = None,
    games: GamesOpt = 20,
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    json_output: JsonOpt = False,
    hands: HandsOpt = False,
    max_moves: MaxMovesOpt = DEFAULT_MAX_MOVES,
    quiet: QuietOpt = False,
    duplicate: DuplicateOpt = False,
    games_out: GamesOutOpt = None,
    records: RecordsOpt = None,
    trajectories: TrajectoriesOpt = None,
    trajectory_seats: TrajectorySeatsOpt = "all",
) -> None:
    """Play a round robin between bots and rate them (openskill)."""
    json_errors(json_output)
    try:
        import openskill  # noqa: F401
    except ImportError:
        fail("league needs openskill: pip install 'handfoot[sim]'")
    rule_set = rules_or_fail(rules)
    count = players_or_fail(rule_set, players)
    if workers < 0:
        fail("--workers must be 0 (one per core) or more")
    try:
        # the entrants as listed (one seat each, so one or two names are not repeated around a table)
        entrants = parse_seats(seats, 1)
        recorded = parse_seat_list(trajectory_seats, count) if trajectories is not None else ()
        league = LeagueConfig(
            rule_set,
            count,
            entrants,
            games,
            seed,
            hands,
            max_moves,
            duplicate=duplicate,
            records=records is not None,
            trajectory_seats=recorded,
        )
        planned = matchups(league)
        check_outputs(games_out, records, trajectories, league=True)
    except ValueError as err:
        fail(str(err))
    pool = workers or os.cpu_count() or 1
    unit = "hands" if hands else "games"
    try:
        with (
            stop_on_sigterm(),
            progress_display(Console(stderr=True), unit, quiet) as report,
            LeagueFiles(entrants, planned, games_out, records, trajectories) as files,
        ):
            last = [-1]

            def progress(index: int, snapshot: Any) -> None:
                if index != last[0] and not quiet:
                    last[0] = index
                    typer.echo(
                        f"matchup {index + 1} of {len(planned)}: {entrant_names(planned[index], entrants)}",
                        err=True,
                    )
                report(snapshot)

            result = run_league(league, pool, progress, None, files.write)
    except (KeyboardInterrupt, Terminated) as stop:
        stopped(stop)
    data = result.to_json()
    if json_output:
        typer.echo(json.dumps(data))
        return
    console = Console()
    print_league(data, rule_set.name, count, console if console.is_terminal else Console(width=120))


def print_league(data: dict[str, Any], rules: str, players: int, console: Console) -> None:
    """The ratings table, best first, then the head-to-head rates."""
    unit = data["unit"]
    table = Table(
        title=f"{rules}, {players} players: {data['matchups']} matchups of "
        f"{plural(data[unit], unit[:-1])}, rated with openskill"
    )
    for column in ("entrant", "mu", "95% CI", "mu - 3σ", unit, "win rate", "win 95% CI", "margin/hand"):
        table.add_column(column, justify="left" if column == "entrant" else "right")
    for row in data["entrants"]:
        low, high = row["ci95"]
        win_low, win_high = row["win_ci95"]
        table.add_row(
            row["entrant"],
            f"{row['mu']:.2f}",
            f"{low:.2f}–{high:.2f}",
            f"{row['ordinal']:.2f}",
            str(row["games"]),
            f"{100 * row['win_rate']:.1f}%",
            f"{100 * win_low:.1f}–{100 * win_high:.1f}%",
            plus_minus(
                row["mean_hand_margin"], row["mean_hand_margin_ci95"], row["mean_hand_margin_constant"]
            ),
        )
    console.print(table)
    head = data["head_to_head"]
    paired = ", paired by deal" if data["duplicate"] else ""
    grid = Table(title=f"head to head: how often the row finished above the column (95% CI{paired})")
    grid.add_column("")
    for name in head["order"]:
        grid.add_column(name, justify="right")
    for name, rates, intervals in zip(head["order"], head["rate"], head["ci95"], strict=True):
        grid.add_row(name, *(head_cell(r, ci) for r, ci in zip(rates, intervals, strict=True)))
    console.print(grid)


def head_cell(rate: float | None, interval: list[float] | None) -> str:
    """A head-to-head cell: ``62% (41–79)``; ``100% (every deal)`` for an interval of no width (the
    same result on every deal, which no interval describes); a dash on the diagonal."""
    if rate is None or interval is None:
        return "–"
    if interval[0] == interval[1]:
        return f"{100 * rate:.0f}% (every deal)"
    return f"{100 * rate:.0f}% ({100 * interval[0]:.0f}–{100 * interval[1]:.0f})"
