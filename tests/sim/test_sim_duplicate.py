"""Duplicate deals (every deal played once per rotation of the seats, results paired by deal), score
margins per hand, measures with no spread, the league's outputs and intervals, the library API, the
provenance's commit and package versions, and ``python:`` seats found in the current folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from handfoot.commands import compare_cmd, league_cmd, simulate_cmd
from handfoot.rules import preset
from handfoot.sim import (
    LeagueConfig,
    TournamentConfig,
    compare_rules,
    derive_seed,
    run_league,
    run_tournament,
)
from handfoot.sim.compare import paired
from handfoot.sim.league import matchups
from handfoot.sim.seats import load_factory
from handfoot.sim.stats import hand_margins, interval_json, is_constant
from handfoot.sim.tournament import GameOutcome, bot_seed, package_versions, source_commit

KT = preset("kitchen-table")


def invoke(*args: str) -> Any:
    app = typer.Typer()
    for module in (simulate_cmd, compare_cmd, league_cmd):
        module.register(app)
    return CliRunner().invoke(app, list(args))


def outcome(index: int, hands: list[list[int]], deal: int | None = None, rotation: int = 0) -> GameOutcome:
    """A made-up game of two sides with these hand scores."""
    totals = [sum(h[s] for h in hands) for s in range(2)]
    return GameOutcome(
        index, totals, hands, [None] * len(hands), [10] * len(hands), [0.0] * 2, [0] * 2, [0.0] * 2,
        deal=index if deal is None else deal, rotation=rotation,
    )  # fmt: skip


# --- margins and measures with no spread ------------------------------------------------------------
def test_a_margin_is_the_score_less_the_other_sides_mean() -> None:
    assert hand_margins([[300, -100]]) == [[400.0, -400.0]]
    assert hand_margins([[900, 300, 0]]) == [[750.0, -150.0, -600.0]]  # 900 - (300 + 0) / 2, ...
    assert hand_margins([]) == []


def test_a_measure_with_no_spread_is_flagged() -> None:
    assert is_constant([1.0, 1.0, 1.0]) and is_constant([2.0]) and is_constant([])
    assert not is_constant([1.0, 1.0, 0.0])
    assert interval_json([1.0, 1.0]) == (1.0, [1.0, 1.0], True)
    centre, (low, high), constant = interval_json([1.0, 3.0])
    assert centre == 2.0 and low < 2.0 < high and not constant


def test_compare_says_a_difference_the_same_on_every_deal_is_no_interval() -> None:
    # side 0 wins every game under both rules: its win share differs by 0 on every deal
    a = [outcome(0, [[500, 100]]), outcome(1, [[300, 200]])]
    b = [outcome(0, [[900, 100]]), outcome(1, [[400, 350]])]
    rows = {row["measure"]: row for row in paired(a, b, 2, single_hands=True)}
    win = rows["side_0_win"]
    assert win["difference"] == 0.0 and win["ci95"] == [0.0, 0.0] and win["constant"]
    margin = rows["side_0_hand_margin"]
    assert margin["a"] == (400 + 100) / 2 and margin["b"] == (800 + 50) / 2 and not margin["constant"]
    assert rows["side_1_hand_margin"]["difference"] == -margin["difference"]


def test_simulate_says_a_mean_with_no_spread_is_all_equal() -> None:
    args = [
        "simulate",
        "--players",
        "2",
        "--seats",
        "heuristic,random",
        "--games",
        "3",
        "--hands",
        "--workers",
        "1",
    ]
    data = json.loads(invoke(*args, "--json", "-q").stdout)
    assert data["hands_per_game"] == 1.0 and data["hands_per_game_constant"]  # one hand a "game"
    assert not data["moves_per_hand_constant"] and not data["sides"][0]["mean_hand_score_constant"]
    table = invoke(*args, "-q")
    assert table.exit_code == 0 and "hands per game 1.00 (all equal)" in table.stdout


def test_compare_prints_none_for_a_difference_with_no_spread() -> None:
    result = invoke(
        "compare", "kitchen-table", "kitchen-table", "--players", "2", "--seats", "heuristic,random",
        "--games", "2", "--hands", "--seed", "1", "--workers", "1", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "none: every hand +0" in result.stdout  # the same rules: every difference is 0
    assert "+0 to +0" not in result.stdout


# --- duplicate deals -------------------------------------------------------------------------------
def test_each_deal_is_played_in_every_rotation_and_rotation_0_is_the_plain_game() -> None:
    plain = run_tournament(TournamentConfig(KT, 2, ("heuristic", "random"), 3, seed=4, single_hands=True))
    dup = run_tournament(
        TournamentConfig(KT, 2, ("heuristic", "random"), 3, seed=4, single_hands=True, duplicate=True)
    )
    assert len(dup.outcomes) == 6 and [(o.deal, o.rotation) for o in dup.outcomes] == [
        (d, r) for d in range(3) for r in range(2)
    ]
    for game in dup.outcomes:
        assert game.seed == derive_seed(4, game.deal) and game.dealer == game.deal % 2
        assert game.seats == (["heuristic", "random"] if game.rotation == 0 else ["random", "heuristic"])
        assert game.side_of_lineup(0) == game.rotation  # the heuristic's side
    for first in dup.outcomes[::2]:
        again = plain.outcomes[first.deal]
        assert first.hand_scores == again.hand_scores and first.moves_per_hand == again.moves_per_hand
    assert bot_seed(4, 2, 1) == derive_seed(4, 2, 1) and bot_seed(4, 2, 1, 1) == derive_seed(4, 2, 1, 1)


def test_duplicate_lineups_are_paired_by_deal() -> None:
    summary = run_tournament(
        TournamentConfig(KT, 2, ("heuristic", "random"), 4, seed=2, single_hands=True, duplicate=True)
    )
    data = summary.to_json()
    block = data["duplicate"]
    assert block["rotations"] == 2 and block["deals"] == 4 and data["hands"] == 8
    heuristic, random_bot = block["lineups"]
    assert heuristic["bots"] == ["heuristic"] and random_bot["bots"] == ["random"]
    # the lineup's result on a deal is the mean of its two games, wherever it sat
    per_deal = []
    for deal in summary.by_deal():
        margins = [m for game in deal for m in game.margins(game.side_of_lineup(0))]
        per_deal.append(sum(margins) / len(margins))
    assert heuristic["mean_hand_margin"] == pytest.approx(sum(per_deal) / 4)
    assert random_bot["mean_hand_margin"] == pytest.approx(-heuristic["mean_hand_margin"])
    low, high = heuristic["mean_hand_margin_ci95"]
    assert low <= heuristic["mean_hand_margin"] <= high
    # by seat position, both bots sat at both seats; a position's result on a deal is its games' mean
    assert [side["bots"] for side in data["sides"]] == [["heuristic", "random"], ["random", "heuristic"]]
    seat_0 = [sum(game.shares()[0] for game in deal) / 2 for deal in summary.by_deal()]
    position = block["positions"][0]
    assert position["side"] == 0 and position["win_share"] == pytest.approx(sum(seat_0) / 4)
    assert position["deals"] == 4 and position["bots"] == ["heuristic", "random"]


def test_a_partnership_table_rotates_by_one_seat_so_partners_change_sides_together() -> None:
    config = TournamentConfig(KT, 4, ("heuristic", "random") * 2, 1, duplicate=True)
    assert config.rotations() == 2 and config.total_games() == 2
    assert config.seats_of(1) == ("random", "heuristic", "random", "heuristic")


def test_simulate_duplicate_on_the_command_line(tmp_path: Path) -> None:
    lines = tmp_path / "games.jsonl"
    result = invoke(
        "simulate", "--players", "3", "--seats", "heuristic,random,random", "--games", "2", "--hands",
        "--seed", "3", "--workers", "2", "--duplicate", "--json", "-q", "--games-out", str(lines),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 6 and data["duplicate"]["rotations"] == 3
    prov = data["provenance"]
    assert prov["duplicate"] is True and prov["deals"] == 2 and prov["rotations"] == 3
    assert "rotation" in prov["seeds"]
    games = [json.loads(line) for line in lines.read_text().splitlines()]
    assert [(g["deal"], g["rotation"]) for g in games] == [(d, r) for d in range(2) for r in range(3)]
    assert games[1]["seats"] == ["random", "heuristic", "random"]  # seat 0's bot moved to seat 1
    assert len({g["seed"] for g in games[:3]}) == 1
    assert games[0]["hand_margins"] == hand_margins(games[0]["hand_scores"])
    table = invoke(
        "simulate", "--players", "2", "--seats", "heuristic,random", "--games", "2", "--hands",
        "--seed", "3", "--workers", "1", "--duplicate", "-q",
    )  # fmt: skip
    assert table.exit_code == 0, table.output
    assert "by lineup, paired over 2 deals" in table.stdout and "margin/hand" in table.stdout


def test_compare_duplicate_pairs_per_deal() -> None:
    family_kt = preset("family")
    a = TournamentConfig(KT, 2, ("heuristic", "random"), 2, seed=1, single_hands=True, duplicate=True)
    b = TournamentConfig(family_kt, 2, ("heuristic", "random"), 2, seed=1, single_hands=True, duplicate=True)
    comparison = compare_rules(a, b)
    data = comparison.to_json()
    assert data["duplicate"] and data["deals"] == 2 and data["hands"] == 4
    assert data["a"]["label"] == "kitchen-table" and data["b"]["label"] == "family"
    rows = {row["measure"]: row for row in data["paired"]}
    assert all(row["n"] == 2 for row in rows.values())
    # the heuristic's lineup's score, averaged over each deal's two games, then over the deals
    expected = []
    for summary in (comparison.a, comparison.b):
        deals = [
            sum(game.hand_scores[0][game.side_of_lineup(0)] for game in deal) / 2
            for deal in summary.by_deal()
        ]
        expected.append(sum(deals) / 2)
    assert rows["side_0_hand_score"]["a"] == pytest.approx(expected[0])
    assert rows["side_0_hand_score"]["b"] == pytest.approx(expected[1])


def test_compare_rules_refuses_runs_that_differ_beyond_the_rules() -> None:
    a = TournamentConfig(KT, 2, ("heuristic", "random"), 2, seed=1)
    with pytest.raises(ValueError, match="differ in their rules alone"):
        compare_rules(a, TournamentConfig(KT, 2, ("heuristic", "random"), 2, seed=2))


# --- the league ------------------------------------------------------------------------------------
def test_league_duplicate_plays_one_matchup_per_choice_over_the_same_deals() -> None:
    plain = LeagueConfig(KT, 2, ("random", "heuristic", "easy"), 2, seed=1, single_hands=True)
    dup = LeagueConfig(KT, 2, ("random", "heuristic", "easy"), 2, seed=1, single_hands=True, duplicate=True)
    assert len(matchups(plain)) == 6 and len(matchups(dup)) == 3
    result = run_league(dup)
    data = result.to_json()
    assert data["duplicate"] and data["matchups"] == 3
    assert all(row["games"] == 8 for row in data["entrants"])  # 2 matchups x 2 deals x 2 rotations
    for matchup, summary in zip(result.matchups, result.summaries, strict=True):
        for game in summary.outcomes:
            order = matchup.entrants_of(game)
            assert [dup.entrants[e] for e in order] == game.seats  # one seat a side at two players
    head = data["head_to_head"]
    for i, row in enumerate(head["rate"]):
        for j, rate in enumerate(row):
            interval = head["ci95"][i][j]
            if i == j:
                assert rate is None and interval is None
            else:
                assert interval[0] <= rate <= interval[1] and head["games"][i][j] == 4


def test_league_writes_every_game_and_carries_a_tournaments_provenance(tmp_path: Path) -> None:
    lines, records = tmp_path / "games.jsonl", tmp_path / "records"
    result = invoke(
        "league", "--players", "2", "--seats", "random,heuristic", "--games", "2", "--hands",
        "--seed", "1", "--workers", "1", "--json", "-q", "--games-out", str(lines), "--records",
        str(records),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    games = [json.loads(line) for line in lines.read_text().splitlines()]
    assert [(g["matchup"], g["index"]) for g in games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert games[0]["entrants"] == ["random", "heuristic"] and games[2]["entrants"] == ["heuristic", "random"]
    assert sorted(p.name for p in (records / "matchup-001").iterdir()) == [
        "game-000000.json",
        "game-000001.json",
    ]
    simulate = invoke(
        "simulate", "--players", "2", "--games", "1", "--hands", "--workers", "1", "--json", "-q"
    )
    prov = data["provenance"]
    assert set(json.loads(simulate.stdout)["provenance"]) <= set(prov)
    assert [m["seats"] for m in prov["matchups"]] == [["random", "heuristic"], ["heuristic", "random"]]
    assert prov["matchups"][1]["seed"] == derive_seed(1, 1)
    for row in data["entrants"]:
        low, high = row["mean_hand_margin_ci95"]
        assert low <= row["mean_hand_margin"] <= high
    again = invoke(
        "league", "--players", "2", "--seats", "random,heuristic", "--games", "1", "--records", str(records),
    )  # fmt: skip
    assert again.exit_code == 2 and "already holds matchup-" in again.output


# --- provenance and the library --------------------------------------------------------------------
def test_provenance_names_the_commit_and_the_packages_that_shape_results() -> None:
    summary = run_tournament(TournamentConfig(KT, 2, ("heuristic", "random"), 1, single_hands=True))
    prov = summary.provenance()
    commit = source_commit()
    assert prov["commit"] == commit
    if (Path(__file__).resolve().parents[2] / ".git").exists():  # run from a checkout
        assert commit is not None and len(commit["commit"]) == 40 and isinstance(commit["dirty"], bool)
    packages = package_versions()
    assert prov["packages"] == packages
    assert "numpy" in packages  # the tests need it installed
    from importlib.metadata import version

    assert packages["numpy"] == version("numpy")


def test_python_seats_are_found_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_seat_here.py").write_text("from handfoot.bots.registry import make_bot\n"
                                               "def make():\n    return make_bot('random')\n")  # fmt: skip
    monkeypatch.chdir(tmp_path)
    here = str(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", here, ".")])
    factory = load_factory("my_seat_here:make")
    assert callable(factory) and sys.path[-1] == here
    with pytest.raises(ValueError, match="cannot import"):
        load_factory("no_such_seat_module_here:make")


# --- policy seats --------------------------------------------------------------------------------
def test_a_policy_seat_without_torch_is_refused_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util
    import zipfile

    model = tmp_path / "model.zip"
    with zipfile.ZipFile(model, "w") as archive:
        archive.writestr("data", "{}")
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    result = invoke("simulate", "--players", "2", "--seats", f"policy:{model},random", "--games", "1", "-q")
    assert result.exit_code == 2
    assert f"error: policy:{model}: policy seats need torch: pip install 'handfoot[train]'" in result.output
    (tmp_path / "notes.zip").write_text("not a zip")
    result = invoke("simulate", "--players", "2", "--seats", f"policy:{tmp_path / 'notes.zip'},random", "-q")
    assert result.exit_code == 2 and "not a saved model" in result.output


def test_a_policy_is_loaded_once_per_process_not_once_per_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import handfoot.rl.policy_bot as policy_bot
    from handfoot.sim import seats

    loads: list[str] = []

    def load(path: str) -> Any:
        loads.append(path)
        return lambda observation, mask: 0

    monkeypatch.setattr(policy_bot, "load_policy", load)
    seats._loaded_policy.cache_clear()
    model = tmp_path / "model.zip"
    model.write_bytes(b"PK")
    first, second = seats.make_seat(f"policy:{model}"), seats.make_seat(f"policy:{model}")
    assert loads == [str(model.resolve())] and first is not second
    model.write_bytes(b"PK again")  # saved again: loaded again
    seats.make_seat(f"policy:{model}")
    assert len(loads) == 2
    seats._loaded_policy.cache_clear()


def test_league_duplicate_on_the_command_line() -> None:
    result = invoke(
        "league", "--players", "2", "--seats", "random,heuristic", "--games", "2", "--hands", "--seed", "1",
        "--workers", "1", "--duplicate", "--json", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["duplicate"] and data["matchups"] == 1 and data["provenance"]["duplicate"] is True
    assert [row["games"] for row in data["entrants"]] == [4, 4]  # 2 deals, each from both sides
    table = invoke("league", "--players", "2", "--seats", "random,heuristic", "--games", "2", "--hands",
                   "--workers", "1", "--duplicate", "-q")  # fmt: skip
    assert table.exit_code == 0 and "95% CI, paired by deal" in table.stdout
