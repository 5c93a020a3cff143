"""Tournaments: Wilson intervals, half wins for draws, reproducibility whatever the worker count, the
move cap, and the simulate and hint commands end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from handfoot.bots import HeuristicBot, legal_for
from handfoot.commands import hint_cmd, simulate_cmd
from handfoot.engine import Game, view
from handfoot.record import record_of
from handfoot.rules import preset
from handfoot.sim.stats import game_points, wilson
from handfoot.sim.tournament import GameOutcome, Summary, TournamentConfig, parse_seats, run_tournament


def test_wilson_matches_published_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(81, 100)
    assert low == pytest.approx(0.7222, abs=1e-4) and high == pytest.approx(0.8749, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(7.5, 15)  # half wins are fractional successes
    assert low < 0.5 < high and high - 0.5 == pytest.approx(0.5 - low)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_draws_count_half_a_win_to_each_tied_side() -> None:
    assert game_points([300, 300, 100]) == [0.5, 0.5, 0.0]
    assert game_points([100, 300]) == [0.0, 1.0]
    assert game_points([5, 5, 5]) == pytest.approx([1 / 3] * 3)
    config = TournamentConfig(preset("kitchen-table"), 4, ("heuristic", "random") * 2, 3)

    def outcome(index: int, totals: list[int]) -> GameOutcome:
        return GameOutcome(index, totals, [totals], [None], [100], [0.0, 0.0], [1, 1], [0.0, 0.0])

    summary = Summary(config, [outcome(0, [500, 500]), outcome(1, [900, 100]), outcome(2, [0, 10])])
    data = summary.to_json()
    assert [side["wins"] for side in data["sides"]] == [1.5, 1.5]
    assert data["sides"][0]["win_rate"] == pytest.approx(0.5)
    assert data["sides"][0]["ci95"] == pytest.approx(list(wilson(1.5, 3)))
    assert data["sides"][0]["seats"] == [0, 2] and data["sides"][1]["bots"] == ["random", "random"]


def strip_times(outcomes: list[GameOutcome]) -> list[tuple[object, ...]]:
    return [
        (o.index, o.totals, o.hand_scores, o.went_out, o.moves_per_hand, o.decision_count) for o in outcomes
    ]


def test_a_seed_gives_the_same_tournament_whatever_the_worker_count() -> None:
    config = TournamentConfig(preset("marmot"), 4, parse_seats("heuristic,random", 4), 4, seed=3)
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert strip_times(one.outcomes) == strip_times(two.outcomes)
    other = run_tournament(TournamentConfig(config.rules, 4, config.seats, 4, seed=4), workers=1)
    assert strip_times(other.outcomes) != strip_times(one.outcomes)
    assert one.to_json()["hands_per_game"] == 4.0


def test_games_that_cannot_end_stop_at_the_move_cap() -> None:
    config = TournamentConfig(preset("kitchen-table"), 4, ("random",) * 4, 2, seed=1, max_moves=150)
    summary = run_tournament(config)
    data = summary.to_json()
    assert data["capped"] == 2
    assert all(sum(o.moves_per_hand) <= 150 for o in summary.outcomes)


def test_parse_seats_repeats_one_or_two_names() -> None:
    assert parse_seats("heuristic", 4) == ("heuristic",) * 4
    assert parse_seats("a,b", 4) == ("a", "b", "a", "b")
    assert parse_seats("a,b,c", 3) == ("a", "b", "c")


def cli() -> typer.Typer:
    app = typer.Typer()
    simulate_cmd.register(app)
    hint_cmd.register(app)
    return app


def test_simulate_command_prints_json_and_tables(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "--rules", "head-and-foot", "--seats", "heuristic,random", "--games", "2", "--hands"]
    result = runner.invoke(cli(), [*args, "--workers", "1", "--json", "--seed", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # with --hands the count is of hands, and labelled so
    assert data["unit"] == "hands" and data["hands"] == 2 and "games" not in data and len(data["sides"]) == 2
    assert set(data["sides"][0]) >= {
        "seats",
        "bots",
        "wins",
        "win_rate",
        "ci95",
        "mean_hand_score",
        "went_out_rate",
    }
    assert set(data["decision_ms"]) == {"mean", "max"} and data["hands_per_game"] == 1.0
    table = runner.invoke(cli(), [*args, "--workers", "1", "--max-moves", "40"])
    assert table.exit_code == 0 and "95% CI" in table.stdout and "did not end within 40 moves" in table.stdout
    bad = runner.invoke(cli(), ["simulate", "--rules", "in-laws", "--players", "3"])
    assert bad.exit_code == 1 and "in-laws is played by 4 players, not 3" in bad.output  # the rules say no
    bad = runner.invoke(cli(), ["simulate", "--seats", "heuristic,wizard"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output


def test_simulate_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plot.png"
    args = ["simulate", "--rules", "marmot", "--games", "1", "--hands", "--workers", "1", "--plot", str(out)]
    result = CliRunner().invoke(cli(), args)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hint_command_suggests_a_move_at_the_end_of_a_record(tmp_path: Path) -> None:
    game = Game(preset("kitchen-table"), 4, 9)
    bot, rng = HeuristicBot(), random.Random(0)
    for _ in range(30):
        state = game.state
        game.apply(bot.choose(view(state, state.to_move), legal_for(state), rng))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(game).to_json()))
    result = CliRunner().invoke(cli(), ["hint", str(path), "--iterations", "3"])
    assert result.exit_code == 0, result.output
    first, reason = result.stdout.strip().splitlines()
    assert first.startswith(f"seat {game.state.to_move}: ")
    assert reason.endswith(".") and len(reason) > 10
    missing = CliRunner().invoke(cli(), ["hint", str(tmp_path / "none.json")])
    assert missing.exit_code == 2


def test_a_forfeit_is_a_loss_wherever_games_are_counted() -> None:
    """A side that forfeited loses the game whatever its total: its standing, share of the win and the
    winner, which the summary, compare's win share, a league's ratings and wins and the games file all
    read (the summary's count with a failing bot program: tests/cli/test_bot_protocol.py)."""
    forfeit = GameOutcome(
        0, [900, 100], [[900, 100]], [0], [100], [0.0, 0.0], [1, 1], [0.0, 0.0], forfeited=0
    )
    assert forfeit.standing() == [0.0, 1.0]
    assert forfeit.shares() == [0.0, 1.0] and forfeit.winner() == 1
    three = GameOutcome(
        0, [0, 900, 900], [[0, 900, 900]], [1], [100], [0.0] * 3, [1] * 3, [0.0] * 3, forfeited=2
    )
    assert three.shares() == [0.5, 0.5, 0.0] and three.winner() is None
    plain = GameOutcome(0, [900, 100], [[900, 100]], [0], [100], [0.0, 0.0], [1, 1], [0.0, 0.0])
    assert plain.shares() == [1.0, 0.0] and plain.winner() == 0
