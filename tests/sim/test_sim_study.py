"""Studies: intervals for every mean, the provenance in simulate --json, the per-game lines, the records
(replayed by the record reader and by handfoot replay), the decisions for imitation learning, the paired
comparison of two rule sets (handfoot compare) and the ratings of a league (handfoot league)."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from handfoot import package_version
from handfoot.commands import compare_cmd, league_cmd, replay_cmd, simulate_cmd
from handfoot.record import load_record, replay
from handfoot.rl.actions import NUM_ACTIONS
from handfoot.rules import load_rules, preset, rules_to_mapping
from handfoot.sim.compare import paired
from handfoot.sim.league import LeagueConfig, matchups
from handfoot.sim.stats import mean_interval, t_quantile_975
from handfoot.sim.tournament import TournamentConfig, derive_seed, run_tournament


def cli() -> typer.Typer:
    app = typer.Typer()
    for module in (simulate_cmd, compare_cmd, league_cmd, replay_cmd):
        module.register(app)
    return app


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli(), list(args))


# --- intervals -------------------------------------------------------------------------------------
def test_t_quantiles_match_the_tables() -> None:
    # Student's t, 0.975 quantile, from the standard tables
    tables = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 10: 2.228, 30: 2.042, 120: 1.98, 1000: 1.962}
    for df, table in tables.items():
        assert t_quantile_975(df) == pytest.approx(table, abs=5e-4), df
    assert t_quantile_975(1001) == pytest.approx(t_quantile_975(1000), abs=1e-5)  # where the methods meet
    assert t_quantile_975(100_000) == pytest.approx(1.95996, abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile_975(0)


def test_mean_interval_is_mean_plus_minus_t_times_the_standard_error() -> None:
    values = [3.0, 7.0, 8.0, 1.0, 6.0]
    low, high = mean_interval(values)
    half = 2.776 * statistics.stdev(values) / math.sqrt(5)  # t(4) = 2.776
    assert low == pytest.approx(5.0 - half, abs=1e-3) and high == pytest.approx(5.0 + half, abs=1e-3)
    assert mean_interval([4.0]) == (4.0, 4.0) and mean_interval([]) == (0.0, 0.0)


# --- simulate --json and the per-game files ---------------------------------------------------------
def test_simulate_json_carries_the_provenance_and_an_interval_for_every_mean(tmp_path: Path) -> None:
    rules_file = tmp_path / "short.toml"
    rules_file.write_text(
        'extends = "marmot"\nname = "marmot-short"\ngame_end = "hands"\nhands_per_game = 2\n'
    )
    result = invoke(
        "simulate", "--rules", str(rules_file), "--seats", "heuristic,random", "--games", "3",
        "--seed", "5", "--workers", "1", "--json", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["unit"] == "games" and data["games"] == 3
    prov = data["provenance"]
    rules = load_rules(rules_file)
    assert prov["rules"] == rules_to_mapping(rules) and load_rules(prov["rules"]) == rules  # in full
    assert load_rules(prov["rules_source"]) == rules
    assert prov["seats"] == ["heuristic", "random", "heuristic", "random"] and prov["players"] == 4
    assert prov["seed"] == 5 and prov["games"] == 3 and prov["handfoot"] == package_version()
    assert prov["seconds"] > 0 and prov["started"].endswith("+00:00") and prov["workers"] == 1
    for key in ("hands_per_game", "moves_per_hand"):
        low, high = data[f"{key}_ci95"]
        assert low <= data[key] <= high
    for side in data["sides"]:
        for key in ("mean_hand_score", "mean_game_score"):
            low, high = side[f"{key}_ci95"]
            assert low <= side[key] <= high and low < high
        low, high = side["went_out_ci95"]
        assert low <= side["went_out_rate"] <= high


def test_games_out_records_and_trajectories_describe_the_same_games(tmp_path: Path) -> None:
    lines, records, decisions = tmp_path / "games.jsonl", tmp_path / "records", tmp_path / "decisions"
    result = invoke(
        "simulate", "--rules", "kitchen-table", "--players", "2", "--seats", "heuristic,random",
        "--games", "3", "--hands", "--seed", "9", "--workers", "2", "--json", "-q",
        "--games-out", str(lines), "--records", str(records), "--trajectories", str(decisions),
        "--trajectory-seats", "0",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    games = [json.loads(line) for line in lines.read_text().splitlines()]
    assert [g["index"] for g in games] == [0, 1, 2]
    config = TournamentConfig(preset("kitchen-table"), 2, ("heuristic", "random"), 3, 9, True)
    again = run_tournament(config)
    for game, outcome in zip(games, again.outcomes, strict=True):
        assert game["seed"] == derive_seed(9, game["index"]) and game["dealer"] == game["index"] % 2
        assert game["seats"] == ["heuristic", "random"] and game["sides"] == [[0], [1]]
        assert game["totals"] == outcome.totals and game["hand_scores"] == outcome.hand_scores
        leader = max(range(2), key=lambda s: game["totals"][s])
        assert game["winner"] == (None if game["totals"][0] == game["totals"][1] else leader)
        # the record replays to the same scores
        record = load_record(records / f"game-{game['index']:06d}.json")
        assert record.seed == game["seed"] and record.dealer == game["dealer"]
        played, error = replay(record)
        assert error is None and list(played.results[0].scores) == game["hand_scores"][0]
        # the decisions: seat 0's only, each action legal under its mask, the hand's score at the end
        with np.load(decisions / f"game-{game['index']:06d}.npz") as npz:
            assert set(npz["seat"].tolist()) == {0} and int(npz["game"]) == game["index"]
            rows = len(npz["action"])
            assert npz["observation"].shape == (rows, 781) and npz["mask"].shape == (rows, NUM_ACTIONS)
            for action, mask, move in zip(npz["action"], npz["mask"], npz["move"], strict=True):
                assert (mask[action] == 1) if action >= 0 else str(move).startswith(("meld", "pickup"))
            assert float(npz["reward"].sum()) == game["hand_scores"][0][0]
            assert float(npz["reward"][-1]) == game["hand_scores"][0][0]
            assert npz["totals"].tolist() == game["totals"]
    assert summary["hands"] == 3
    shown = invoke("replay", str(records / "game-000000.json"), "--json")
    assert shown.exit_code == 0
    assert json.loads(shown.stdout)["hands"][0]["scores"] == games[0]["hand_scores"][0]


def earlier_records(folder: Path) -> Path:
    (folder / "r").mkdir()
    (folder / "r" / "game-000000.json").write_text("{}")
    return folder / "r"


@pytest.mark.parametrize(
    ("option", "make", "message"),
    [
        ("--games-out", lambda p: p / "missing" / "g.jsonl", "does not exist"),
        ("--games-out", lambda p: p, "is a folder"),
        ("--records", lambda p: (p / "f.txt", (p / "f.txt").write_text(""))[0], "is a file"),
        ("--records", earlier_records, "already holds game-000000.json"),
        ("--trajectories", lambda p: p / "missing" / "t", "does not exist"),
    ],
)
def test_outputs_that_cannot_be_written_are_refused_before_playing(
    tmp_path: Path, option: str, make: Any, message: str
) -> None:
    target = make(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    result = invoke("simulate", "--games", "1", "--hands", "--workers", "1", "-q", option, str(target))
    assert result.exit_code == 2 and message in result.output
    assert sorted(tmp_path.rglob("*")) == before


def test_trajectory_seats_are_checked() -> None:
    cases = (("0,9", "from 0 to 3"), ("x", "give all, or seat numbers"), ("1,1", "each seat once"))
    for text, message in cases:
        result = invoke("simulate", "--games", "1", "--trajectories", "/tmp/none", "--trajectory-seats", text)
        assert result.exit_code == 2 and message in result.output


# --- compare -------------------------------------------------------------------------------------
def test_compare_pairs_the_same_games_under_two_rule_sets(tmp_path: Path) -> None:
    variant = tmp_path / "draw-one.toml"
    variant.write_text('extends = "kitchen-table"\nname = "draw-one"\ndraw_count = 1\n')
    plot, lines = tmp_path / "compare.png", tmp_path / "lines"
    result = invoke(
        "compare", "kitchen-table", str(variant), "--players", "2", "--seats", "heuristic", "--games", "4",
        "--hands", "--seed", "3", "--workers", "1", "--json", "-q", "--plot", str(plot),
        "--games-out", str(lines),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["unit"] == "hands" and data["hands"] == 4
    assert data["a"]["provenance"]["rules"]["draw_count"] == 2
    assert data["b"]["provenance"]["rules"]["draw_count"] == 1
    assert data["a"]["provenance"]["seed"] == data["b"]["provenance"]["seed"] == 3
    rows = {row["measure"]: row for row in data["paired"]}
    side_measures = {f"side_{s}_{m}" for s in (0, 1) for m in ("win", "hand_score", "hand_margin")}
    assert set(rows) == side_measures | {"moves_per_hand"}
    # recompute one measure from the two runs, game by game
    base = TournamentConfig(preset("kitchen-table"), 2, ("heuristic",) * 2, 4, 3, True)
    a = run_tournament(base)
    b = run_tournament(TournamentConfig(load_rules(variant), 2, ("heuristic",) * 2, 4, 3, True))
    pairs = zip(a.outcomes, b.outcomes, strict=True)
    differences = [ob.hand_scores[0][0] - oa.hand_scores[0][0] for oa, ob in pairs]
    row = rows["side_0_hand_score"]
    assert row["difference"] == pytest.approx(statistics.mean(differences)) and row["n"] == 4
    assert row["ci95"] == pytest.approx(list(mean_interval(differences)))
    # the lines of both runs: the same games (index, seed, dealer), the scores the differences came from
    runs = [[json.loads(x) for x in (lines / f"{n}.jsonl").read_text().splitlines()] for n in "ab"]
    assert [(g["index"], g["seed"], g["dealer"]) for g in runs[0]] == [
        (g["index"], g["seed"], g["dealer"]) for g in runs[1]
    ]
    assert [gb["totals"][0] - ga["totals"][0] for ga, gb in zip(*runs, strict=True)] == differences
    again = invoke("compare", "kitchen-table", str(variant), "--games", "1", "--games-out", str(lines))
    assert again.exit_code == 2 and "already holds" in again.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = invoke("compare", "kitchen-table", str(variant), "--players", "2", "--games", "2", "--hands")
    assert table.exit_code == 0 and "B - A" in table.stdout and "95% CI" in table.stdout


def test_compare_of_a_rule_set_with_itself_finds_no_difference() -> None:
    config = TournamentConfig(preset("marmot"), 4, ("heuristic", "random") * 2, 3, 1, True)
    one, two = run_tournament(config), run_tournament(config)
    for row in paired(one.outcomes, two.outcomes, 2, True):
        assert row["difference"] == 0 and row["ci95"] == [0, 0]


def test_compare_refuses_tables_seated_differently() -> None:
    result = invoke("compare", "kitchen-table", "family", "--players", "4", "--games", "1")
    assert result.exit_code == 2 and "different sides" in result.output
    result = invoke("compare", "kitchen-table", "in-laws", "--players", "2", "--games", "1")
    assert result.exit_code == 1 and "in-laws is played by 4 players, not 2" in result.output


# --- league -----------------------------------------------------------------------------------------
def test_league_rates_every_entrant_from_a_round_robin() -> None:
    result = invoke(
        "league", "--rules", "kitchen-table", "--players", "2", "--seats", "random,heuristic,easy",
        "--games", "3", "--hands", "--seed", "2", "--workers", "1", "--json", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["matchups"] == 6 and data["hands"] == 3  # 3 pairs, each way round
    entrants = data["entrants"]
    assert [e["ordinal"] for e in entrants] == sorted((e["ordinal"] for e in entrants), reverse=True)
    assert entrants[0]["entrant"] == "heuristic"
    for entrant in entrants:
        assert entrant["games"] == 12  # 4 matchups of 3 hands
        low, high = entrant["ci95"]
        assert low < entrant["mu"] < high and high - low == pytest.approx(2 * 1.959964 * entrant["sigma"])
        assert entrant["ordinal"] == pytest.approx(entrant["mu"] - 3 * entrant["sigma"])
    rate = data["head_to_head"]["rate"]
    for i in range(3):
        assert rate[i][i] is None
        for j in range(3):
            if i != j:
                assert rate[i][j] + rate[j][i] == pytest.approx(1.0)
    assert data["provenance"]["entrants"] == ["random", "heuristic", "easy"]
    table = invoke("league", "--players", "2", "--seats", "random,heuristic", "--games", "1", "--hands", "-q")
    assert table.exit_code == 0 and "mu - 3σ" in table.stdout and "head to head" in table.stdout


def test_league_matchups_put_each_entrant_on_every_side() -> None:
    league = LeagueConfig(preset("family"), 3, ("random", "heuristic", "easy", "medium"), 1)
    planned = matchups(league)
    assert len(planned) == 4 * 3  # 4 choices of 3 entrants, 3 rotations each
    for entrant in range(4):
        sides = [m.sides.index(entrant) for m in planned if entrant in m.sides]
        assert sorted(sides) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    partners = matchups(LeagueConfig(preset("kitchen-table"), 4, ("random", "heuristic"), 1))
    assert [m.config.seats for m in partners] == [
        ("random", "heuristic", "random", "heuristic"),
        ("heuristic", "random", "heuristic", "random"),
    ]


@pytest.mark.parametrize(
    ("seats", "message"), [("random,random", "names an entrant twice"), ("random", "at least 2 entrants")]
)
def test_league_refuses_a_bad_field(seats: str, message: str) -> None:
    result = invoke("league", "--seats", seats, "--games", "1")
    assert result.exit_code == 2 and message in result.output


def test_the_study_variant_differs_from_kitchen_table_in_the_draw_only() -> None:
    """docs/research.md's study: examples/study/draw-one.toml is kitchen-table drawing one card."""
    root = Path(__file__).resolve().parents[2]
    variant = rules_to_mapping(load_rules(root / "examples" / "study" / "draw-one.toml"))
    base = rules_to_mapping(preset("kitchen-table"))
    changed = {key for key in base if base[key] != variant[key]} - {"name", "title", "summary"}
    assert changed == {"draw_count"} and (base["draw_count"], variant["draw_count"]) == (2, 1)
