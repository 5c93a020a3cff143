"""``handfoot simulate``: a tournament between bots, with statistics (and optionally plots).

    handfoot simulate --rules kitchen-table --players 4 --seats heuristic,ismcts --games 200 \\
        --seed 1 --workers 4 [--json] [--plot out.png] [--hands] [--max-moves 8000]
    handfoot simulate ... --scheduler tcp://10.0.0.5:8786     # on a Dask cluster (docs/cluster.md)
    handfoot simulate ... --games-out games.jsonl --records records/ --trajectories decisions/
    handfoot simulate --seats 'cmd:python examples/bots/first_legal.py',heuristic --move-time 2 \\
        --on-bot-error fallback                                 # a program as a seat (docs/bot-protocol.md)

Games are played in parallel and are reproducible for a seed whatever the worker count. Without
``--json`` a table per side is printed (wins with a 95% Wilson interval, mean score per hand, how often
the side went out, decision times); ``--json`` prints one JSON object (see ``Summary.to_json``): every
mean with its 95% interval and the study's provenance (version, rules in full, seeds, seats, timing).
``--games-out``, ``--records`` and ``--trajectories`` write each game as it finishes (docs/research.md).
``--duplicate`` plays each of the ``--games`` deals once per rotation of the seats and adds the results
of each lineup and seat position paired by deal.
Progress goes to standard error after every hand: hands played of the estimated total, games finished,
time spent and left (a bar on a terminal, else a line every few seconds; ``--quiet`` hides it). Bad
input, ``--plot`` included, is refused before anything is played. Ctrl-C or SIGTERM stops the worker
processes (on a cluster: calls the run's tasks off) and exits with 130 or 143. With ``--scheduler`` the
games are played by an existing Dask cluster's workers, with the same results for a seed.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from handfoot.commands import fail, json_errors, players_or_fail, rules_or_fail
from handfoot.sim.cluster import ClusterError, scheduler_address
from handfoot.sim.outputs import GameFiles, check_outputs
from handfoot.sim.progress import Snapshot
from handfoot.sim.seats import DEFAULT_MOVE_TIME
from handfoot.sim.tournament import DEFAULT_MAX_MOVES, Summary, TournamentConfig, check_config, parse_seats
from handfoot.sim.tournament import run_tournament as run
from handfoot.wording import plural, show


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""
    app.command("simulate")(simulate_command)


RulesOpt = Annotated[
    str, typer.Option("--rules", help="A preset name, a rule file, or - for a rule file on standard input.")
]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Players (default: the rules' own).")]
SeatsOpt = Annotated[
    str,
    typer.Option(
        "--seats",
        help="Player per seat, comma separated: a bot (random, heuristic, ismcts[:BUDGET], easy, medium, "
        "hard), cmd:COMMAND (a program speaking docs/bot-protocol.md), policy:MODEL.zip (a saved "
        "Stable-Baselines3 model) or python:MODULE:FACTORY; one or two repeat around the table.",
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


GamesOutOpt = Annotated[
    Path | None,
    typer.Option("--games-out", help="Write one JSON line per game here (seeds, seats, scores, winner)."),
]
RecordsOpt = Annotated[
    Path | None,
    typer.Option(
        "--records",
        help="Write each game's record (docs/records.md; handfoot replay reads it) to this folder.",
    ),
]
TrajectoriesOpt = Annotated[
    Path | None,
    typer.Option(
        "--trajectories",
        help="Write each game's decisions (observation, mask, action, reward) as .npz files to this folder; "
        "needs handfoot[rl].",
    ),
]
TrajectorySeatsOpt = Annotated[
    str,
    typer.Option(
        "--trajectory-seats", help="The seats whose decisions --trajectories keeps: all, or 0,2,..."
    ),
]
MoveTimeOpt = Annotated[
    float, typer.Option("--move-time", help="Seconds a cmd: program has for each decision.")
]
OnBotErrorOpt = Annotated[
    str,
    typer.Option(
        "--on-bot-error",
        help="When a cmd: program fails (crashes, hangs, garbage, an illegal move, floods): forfeit (its "
        "side loses the game) or fallback (--fallback-bot plays the seat to the end).",
    ),
]
FallbackOpt = Annotated[str, typer.Option("--fallback-bot", help="The bot that takes a failed seat over.")]
DuplicateOpt = Annotated[
    bool,
    typer.Option(
        "--duplicate",
        help="Play each deal once per rotation of the seats (--games counts deals) and pair the results "
        "by deal.",
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on standard error.")]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Play on the Dask cluster whose scheduler is at this address (tcp://HOST:PORT) instead of "
        "local processes; needs handfoot[cluster].",
    ),
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
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
    games_out: GamesOutOpt = None,
    records: RecordsOpt = None,
    trajectories: TrajectoriesOpt = None,
    trajectory_seats: TrajectorySeatsOpt = "all",
    move_time: MoveTimeOpt = DEFAULT_MOVE_TIME,
    on_bot_error: OnBotErrorOpt = "forfeit",
    fallback_bot: FallbackOpt = "heuristic",
    duplicate: DuplicateOpt = False,
) -> None:
    """Play bots against each other and report who wins, by how much and how fast."""
    json_errors(json_output)
    rule_set = rules_or_fail(rules)
    count = players_or_fail(rule_set, players)
    try:
        recorded = parse_seat_list(trajectory_seats, count) if trajectories is not None else ()
        config = TournamentConfig(
            rule_set,
            count,
            parse_seats(seats, count),
            games,
            seed,
            hands,
            max_moves,
            move_time=move_time,
            on_bot_error=on_bot_error,
            fallback=fallback_bot,
            records=records is not None,
            trajectory_seats=recorded,
            duplicate=duplicate,
        )
        check_config(config)
        check_outputs(games_out, records, trajectories)
    except ValueError as err:
        fail(str(err))
    if workers < 0:
        fail("--workers must be 0 (one per core) or more")
    address = None
    if scheduler is not None:
        try:
            address = scheduler_address(scheduler)
        except ValueError as err:
            fail(str(err))
        if workers:
            fail("--workers is for local processes: with --scheduler the cluster's workers play")
    if plot:
        check_plot_path(plot)
    pool = workers or os.cpu_count() or 1
    unit = "hands" if hands else "games"
    try:
        with (
            stop_on_sigterm(),
            progress_display(Console(stderr=True), unit, quiet) as report,
            GameFiles(config, games_out, records, trajectories) as files,
        ):
            summary = run(config, pool, report, address, files.write)
    except ClusterError as err:
        fail(str(err))
    except (KeyboardInterrupt, Terminated) as stop:
        stopped(stop)
    data = summary.to_json()
    if json_output:
        typer.echo(json.dumps(data))
    else:
        console = Console()
        print_summary(summary, console if console.is_terminal else Console(width=120))
    if plot:
        from handfoot.sim.plot import plot_summary

        plot_summary(summary, plot)
        if not json_output:
            typer.echo(f"plot written to {plot}")


def parse_seat_list(text: str, players: int) -> tuple[int, ...]:
    """Seats from ``all`` or ``0,2,...`` (each from 0 to ``players - 1``, no repeats); ValueError
    saying what is allowed otherwise."""
    if text.strip() == "all":
        return tuple(range(players))
    try:
        seats = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(
            f"--trajectory-seats {show(text)}: give all, or seat numbers 0 to {players - 1} "
            "separated by commas"
        ) from None
    if len(set(seats)) != len(seats) or not all(0 <= s < players for s in seats):
        raise ValueError(
            f"--trajectory-seats {show(text)}: each seat once, from 0 to {players - 1} at {players} players"
        )
    return seats


def check_plot_path(plot: str) -> None:
    """Fail (before anything is played) when the plot cannot be written: matplotlib missing, a file
    type it cannot draw, or a folder that does not exist or cannot be written."""
    try:
        from handfoot.sim.plot import supported_formats
    except ImportError:
        fail("--plot needs matplotlib: pip install 'handfoot[sim]'")
    if Path(plot).is_dir():
        fail(f"--plot {plot} is a folder; give a file name such as {Path(plot) / 'plot.png'}")
    formats = supported_formats()
    suffix = Path(plot).suffix.lower().lstrip(".")
    if suffix not in formats:
        given = show("." + suffix) if suffix else "no extension"
        fail(f"--plot {plot}: {given} is not an image type; allowed: {', '.join(sorted(formats))}")
    folder = Path(plot).parent
    if not folder.is_dir():
        fail(f"--plot {plot}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        fail(f"--plot {plot}: the folder {folder} cannot be written to")


class Terminated(Exception):
    """Raised in the main thread when the process receives SIGTERM (see ``stop_on_sigterm``)."""


def stopped(stop: KeyboardInterrupt | Terminated) -> NoReturn:
    """End a command stopped by Ctrl-C (exit 130) or SIGTERM (143), saying so on standard error."""
    signal_name = "SIGTERM" if isinstance(stop, Terminated) else "Ctrl-C"
    typer.echo(f"stopped by {signal_name}: no results", err=True)
    raise typer.Exit(143 if isinstance(stop, Terminated) else 130) from None


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into ``Terminated`` while the block runs, so cleanup (stopping worker processes)
    happens as on Ctrl-C; the previous handler is restored after."""

    def handler(signum: int, frame: object) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# Without a terminal, a progress line at most this often (seconds): a log gets the pace, not every hand.
LINE_EVERY = 2.0


@contextmanager
def progress_display(console: Console, unit: str, quiet: bool) -> Iterator[Callable[[Snapshot], None]]:
    """A callback showing a tournament's progress on ``console`` (standard error): on a terminal a bar
    redrawn after every hand, hands played of the estimated total, games finished and the time left;
    otherwise the same as text lines, at most one per LINE_EVERY seconds, and the last one. Nothing
    when ``quiet``."""
    if quiet:
        yield lambda snapshot: None
        return
    if not console.is_terminal:
        last = [-LINE_EVERY]

        def line(snapshot: Snapshot) -> None:
            final = snapshot.games_done == snapshot.games
            if final or snapshot.elapsed - last[0] >= LINE_EVERY:
                last[0] = snapshot.elapsed
                console.print(f"progress: {snapshot.text(unit)}", highlight=False, soft_wrap=True)

        yield line
        return
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[line]}"),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("playing", total=None, line="waiting for the first hand")

        def bar(snapshot: Snapshot) -> None:
            progress.update(
                task,
                total=snapshot.hands_estimate,
                completed=snapshot.hands_done,
                line=snapshot.text(unit),
            )

        yield bar


def half(interval: list[float]) -> float:
    """Half the width of an interval (the ± of a symmetric one)."""
    return (interval[1] - interval[0]) / 2


def plus_minus(value: float, interval: list[float], constant: bool, digits: int = 0) -> str:
    """``value ±half`` of a mean and its interval, or ``value (all equal)`` when the measure has no
    spread (an interval of no width is not a finding)."""
    if constant:
        return f"{value:.{digits}f} (all equal)"
    return f"{value:.{digits}f} ±{half(interval):.{digits}f}"


def interval_words(interval: list[float], constant: bool, unit: str, value: float) -> str:
    """``low to high`` of a signed interval, or ``none: every UNIT +value`` when the values are all the
    same."""
    if constant:
        return f"none: every {unit} {value:+.4g}"
    low, high = interval
    return f"{low:+.4g} to {high:+.4g}"


def print_summary(summary: Summary, console: Console) -> None:
    """The tables of a tournament: one row per side, then the pace of play and any capped games."""
    data = summary.to_json()
    config = summary.config
    unit = summary.unit()
    dealt = f" ({plural(config.games, 'deal')} x {config.rotations()} rotations)" if config.duplicate else ""
    table = Table(
        title=f"{config.rules.name}, {config.players} players, {plural(data[unit], unit[:-1])}{dealt}, "
        f"seed {config.seed}" + (": by seat position, the bots rotating" if config.duplicate else "")
    )
    for column in (
        "side (seats)",
        "bots",
        "wins",
        "win rate",
        "95% CI",
        "score/hand",
        "margin/hand",
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
            plus_minus(
                side["mean_hand_score"], side["mean_hand_score_ci95"], side["mean_hand_score_constant"]
            ),
            plus_minus(
                side["mean_hand_margin"], side["mean_hand_margin_ci95"], side["mean_hand_margin_constant"]
            ),
            f"{100 * side['went_out_rate']:.0f}%",
            f"{ms['mean']:.2f} (max {ms['max']:.0f})",
        )
    console.print(table)
    if data["duplicate"] is not None:
        print_lineups(data["duplicate"], console)
    ms = data["decision_ms"]
    console.print(
        "hands per game "
        + plus_minus(data["hands_per_game"], data["hands_per_game_ci95"], data["hands_per_game_constant"], 2)
        + ", moves per hand "
        + plus_minus(data["moves_per_hand"], data["moves_per_hand_ci95"], data["moves_per_hand_constant"], 1)
        + " (95% CI), "
        + f"decision time mean {ms['mean']:.2f} ms, worst {ms['max']:.1f} ms"
    )
    if data["bot_errors"]:
        failures = len(data["bot_errors"])
        forfeits = data["forfeits"]
        then = f"{plural(forfeits, unit[:-1])} forfeited" if forfeits else f"{config.fallback} finished them"
        console.print(
            f"note: {plural(failures, 'bot failure')} (each named on standard error above); {then}.",
            highlight=False,
        )
    if data["capped"]:
        console.print(
            f"note: {data['capped']} of {plural(data[unit], unit[:-1])} did not end within "
            f"{config.max_moves} moves; "
            "they were stopped there and decided by the totals of their finished hands."
        )


def print_lineups(duplicate: dict[str, Any], console: Console) -> None:
    """The duplicate deals' tables: per lineup (the bots given a side's seats) and per seat position,
    its share of the win and its margin per hand, each a mean over the deals with its paired 95%
    interval."""
    for key, name in (("lineups", "lineup"), ("positions", "seat position")):
        table = Table(
            title=f"by {name}, paired over {plural(duplicate['deals'], 'deal')} "
            f"(each played in {duplicate['rotations']} rotations)"
        )
        for column in (f"{name} (seats)", "bots", "win share", "95% CI", "margin/hand", "95% CI "):
            table.add_column(column, justify="left" if column in (f"{name} (seats)", "bots") else "right")
        for row in duplicate[key]:
            low, high = row["win_share_ci95"]
            share = "all equal" if row["win_share_constant"] else f"{100 * low:.1f}–{100 * high:.1f}%"
            margin_low, margin_high = row["mean_hand_margin_ci95"]
            margin = (
                "all equal"
                if row["mean_hand_margin_constant"]
                else f"{margin_low:+.0f} to {margin_high:+.0f}"
            )
            table.add_row(
                ",".join(str(s) for s in row["seats"]),
                ",".join(row["bots"]),
                f"{100 * row['win_share']:.1f}%",
                share,
                f"{row['mean_hand_margin']:+.0f}",
                margin,
            )
        console.print(table)
