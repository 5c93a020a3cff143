"""``handfoot compare RULES_A RULES_B``: one tournament under two rule sets, on the same seeds, compared
game by game.

    handfoot compare kitchen-table variant.toml --seats heuristic --games 2000 --seed 1 \\
        [--json] [--plot p.png]

Game ``i`` under A and under B starts from the same seed and dealer with the same bots in the same
seats; the table shows each measure's mean under A and B and the mean of the per-game differences B - A
with its 95% interval (``handfoot.sim.compare``). ``--json`` prints the comparison with both runs'
summaries (provenance included); ``--plot`` draws the differences; ``--duplicate`` plays each deal in
every rotation of the seats under both and pairs by deal; ``--games-out DIR`` writes both runs'
games as JSON lines (``DIR/a.jsonl``, ``DIR/b.jsonl``). The other options are ``simulate``'s.
"""

from __future__ import annotations

import json
import os
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from handfoot.commands import fail, json_errors, players_or_fail, rules_or_fail
from handfoot.commands.simulate_cmd import (
    DuplicateOpt,
    GamesOpt,
    HandsOpt,
    JsonOpt,
    MaxMovesOpt,
    PlayersOpt,
    QuietOpt,
    SeatsOpt,
    SeedOpt,
    Terminated,
    WorkersOpt,
    check_plot_path,
    interval_words,
    progress_display,
    stop_on_sigterm,
    stopped,
)
from handfoot.sim.compare import compare_rules, same_sides
from handfoot.sim.outputs import GameFiles, check_folder
from handfoot.sim.tournament import DEFAULT_MAX_MOVES, TournamentConfig, check_config, parse_seats
from handfoot.wording import plural


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app``."""
    app.command("compare")(compare_command)


RulesArg = Annotated[str, typer.Argument(help="A preset name or a rule file.", show_default=False)]
PlotOpt = Annotated[
    str | None, typer.Option("--plot", help="Draw each measure's paired difference B - A here.")
]
GamesOutDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--games-out",
        help="Write each run's games as JSON lines (simulate's --games-out) to a.jsonl and b.jsonl in this "
        "folder (made if missing).",
    ),
]


def compare_command(
    rules_a: RulesArg,
    rules_b: RulesArg,
    players: PlayersOpt = None,
    seats: SeatsOpt = "heuristic",
    games: GamesOpt = 100,
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    json_output: JsonOpt = False,
    plot: PlotOpt = None,
    hands: HandsOpt = False,
    max_moves: MaxMovesOpt = DEFAULT_MAX_MOVES,
    quiet: QuietOpt = False,
    games_out: GamesOutDirOpt = None,
    duplicate: DuplicateOpt = False,
) -> None:
    """Play the same games under two rule sets and report the paired differences B - A."""
    json_errors(json_output)
    if rules_a == "-" and rules_b == "-":
        fail("RULES_A and RULES_B cannot both be read from standard input")
    first, second = rules_or_fail(rules_a), rules_or_fail(rules_b)
    count = players_or_fail((first, second), players)
    try:
        seat_specs = parse_seats(seats, count)
        configs = [
            TournamentConfig(rule_set, count, seat_specs, games, seed, hands, max_moves, duplicate=duplicate)
            for rule_set in (first, second)
        ]
        for config in configs:
            check_config(config)
        if games_out is not None:
            check_folder(games_out, "--games-out", "[ab].jsonl")
    except ValueError as err:
        fail(str(err))
    if not same_sides(*configs):
        fail(
            f"{first.name} and {second.name} seat {count} players in different sides; compare needs the same"
        )
    if workers < 0:
        fail("--workers must be 0 (one per core) or more")
    if plot:
        check_plot_path(plot)
    pool = workers or os.cpu_count() or 1
    unit = "hands" if hands else "games"
    try:
        with stop_on_sigterm(), ExitStack() as stack:
            if games_out is not None:
                games_out.mkdir(exist_ok=True)
            files = {
                name: stack.enter_context(
                    GameFiles(config, None if games_out is None else games_out / f"{name}.jsonl")
                )
                for name, config in zip("ab", configs, strict=True)
            }
            report = stack.enter_context(progress_display(Console(stderr=True), unit, quiet))
            comparison = compare_rules(
                configs[0],
                configs[1],
                pool,
                (rules_a, rules_b),
                lambda name, snapshot: report(snapshot),
                lambda name, outcome: files[name].write(outcome),
            )
    except (KeyboardInterrupt, Terminated) as stop:
        stopped(stop)
    data = comparison.to_json()
    if json_output:
        typer.echo(json.dumps(data))
    else:
        console = Console()
        print_comparison(data, rules_a, rules_b, console if console.is_terminal else Console(width=120))
    if plot:
        from handfoot.sim.plot import plot_comparison

        plot_comparison(data, plot, f"B = {rules_b} minus A = {rules_a}, {plural(data[unit], unit[:-1])}")
        if not json_output:
            typer.echo(f"plot written to {plot}")


def print_comparison(data: dict[str, Any], label_a: str, label_b: str, console: Console) -> None:
    """The table of paired differences: one row per measure."""
    unit = str(data["unit"])
    count = data[unit]
    paired_by = (
        f", paired over {plural(data['deals'], 'deal')} (each in every rotation)" if data["duplicate"] else ""
    )
    table = Table(
        title=f"A = {label_a}, B = {label_b}: the same {plural(count, unit[:-1])} under both{paired_by}"
    )
    for column in ("measure", "A", "B", "B - A", "95% CI"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    rows = data["paired"]
    for row in rows:
        table.add_row(
            row["measure"],
            f"{row['a']:.4g}",
            f"{row['b']:.4g}",
            f"{row['difference']:+.4g}",
            interval_words(
                row["ci95"], row["constant"], "deal" if data["duplicate"] else unit[:-1], row["difference"]
            ),
        )
    console.print(table)
