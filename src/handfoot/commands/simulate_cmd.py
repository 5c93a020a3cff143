"""``handfoot simulate``: a tournament between bots, with statistics (and optionally plots).

    handfoot simulate --rules kitchen-table --players 4 --seats heuristic,ismcts --games 200 \\
        --seed 1 --workers 4 [--json] [--plot out.png] [--hands] [--max-moves 8000]

Games are played in parallel and are reproducible for a seed whatever the worker count. Without
``--json`` a table per side is printed (wins with a 95% Wilson interval, mean score per hand, how often
the side went out, decision times); ``--json`` prints one JSON object (see ``Summary.to_json``). The
progress bar goes to standard error. Bad input exits with status 2 and one ``error:`` line.
"""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from handfoot.commands import fail, rules_or_fail
from handfoot.sim.tournament import DEFAULT_MAX_MOVES, Summary, TournamentConfig, check_config, parse_seats
from handfoot.sim.tournament import run_tournament as run


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""
    app.command("simulate")(simulate_command)


RulesOpt = Annotated[str, typer.Option("--rules", help="A preset name or a TOML rule file.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Players (default: the rules' own).")]
SeatsOpt = Annotated[
    str,
    typer.Option(
        "--seats",
        help="Bot per seat, comma separated (random, heuristic, ismcts[:BUDGET], easy, medium, hard); "
        "one or two names repeat around the table.",
    ),
]
GamesOpt = Annotated[int, typer.Option("--games", help="Games to play.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Tournament seed.")]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Processes (0: one per core).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
PlotOpt = Annotated[str | None, typer.Option("--plot", help="Draw score distributions and win rates here.")]
HandsOpt = Annotated[bool, typer.Option("--hands", help="Play single hands instead of whole games.")]
MaxMovesOpt = Annotated[
    int, typer.Option("--max-moves", help="Stop a game after this many moves (then decided by its totals).")
]


def simulate_command(
    rules: RulesOpt = "kitchen-table",
    players: PlayersOpt = None,
    seats: SeatsOpt = "heuristic,random",
    games: GamesOpt = 100,
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    json_output: JsonOpt = False,
    plot: PlotOpt = None,
    hands: HandsOpt = False,
    max_moves: MaxMovesOpt = DEFAULT_MAX_MOVES,
) -> None:
    """Play bots against each other and report who wins, by how much and how fast."""
    rule_set = rules_or_fail(rules)
    count = rule_set.default_players if players is None else players
    try:
        config = TournamentConfig(rule_set, count, parse_seats(seats, count), games, seed, hands, max_moves)
        check_config(config)
    except ValueError as err:
        fail(str(err))
    if workers < 0:
        fail("--workers must be 0 (one per core) or more")
    pool = workers or os.cpu_count() or 1
    err_console = Console(stderr=True)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    ) as progress:
        task = progress.add_task("hands" if hands else "games", total=games)
        summary = run(config, pool, lambda done: progress.update(task, completed=done))
    data = summary.to_json()
    if json_output:
        typer.echo(json.dumps(data))
    else:
        console = Console()
        print_summary(summary, console if console.is_terminal else Console(width=120))
    if plot:
        try:
            from handfoot.sim.plot import plot_summary
        except ImportError:
            fail("--plot needs matplotlib: pip install 'handfoot[sim]'")
        plot_summary(summary, plot)
        if not json_output:
            typer.echo(f"plot written to {plot}")


def print_summary(summary: Summary, console: Console) -> None:
    """The tables of a tournament: one row per side, then the pace of play and any capped games."""
    data = summary.to_json()
    config = summary.config
    unit = "hands" if config.single_hands else "games"
    table = Table(
        title=f"{config.rules.name}, {config.players} players, {data['games']} {unit}, seed {config.seed}"
    )
    for column in (
        "side (seats)",
        "bots",
        "wins",
        "win rate",
        "95% CI",
        "score/hand",
        "went out",
        "ms/decision",
    ):
        table.add_column(column, justify="left" if column in ("side (seats)", "bots") else "right")
    for side in data["sides"]:
        low, high = side["ci95"]
        ms = side["decision_ms"]
        table.add_row(
            ",".join(str(s) for s in side["seats"]),
            ",".join(side["bots"]),
            f"{side['wins']:g}",
            f"{100 * side['win_rate']:.1f}%",
            f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{side['mean_hand_score']:.0f}",
            f"{100 * side['went_out_rate']:.0f}%",
            f"{ms['mean']:.2f} (max {ms['max']:.0f})",
        )
    console.print(table)
    ms = data["decision_ms"]
    console.print(
        f"hands per game {data['hands_per_game']:.2f}, moves per hand {data['moves_per_hand']:.1f}, "
        f"decision time mean {ms['mean']:.2f} ms, worst {ms['max']:.1f} ms"
    )
    if data["capped"]:
        console.print(
            f"note: {data['capped']} of {data['games']} {unit} did not end within {config.max_moves} moves; "
            "they were stopped there and decided by the totals of their finished hands."
        )
