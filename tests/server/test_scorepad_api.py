"""``POST /api/score``: the score pad's endpoint, against a real server. The numbers are worked out by
hand from RULES.md section 6 (kitchen-table and in-laws), not by calling the scorer again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from handfoot.server.settings import Settings
from helpers.server import running_server


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("scorepad-data")
    with running_server(Settings(data_dir=data, port=0, bot_delay=0.0)) as url:
        yield url


def score(base: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/score", json=body)


def test_kitchen_table_hand_scores_totals_and_next_minimum(base: str) -> None:
    # Side 1: a clean book (500), 250 on the table, went out (100), two red 3s once melded (2 x 100).
    # Side 2: nothing melded, one red 3 (-100 unmelded), 40 left in hand.
    hand1 = [
        {"clean_books": 1, "melded_points": 250, "went_out": True, "red_threes": 2},
        {"held_points": 40, "red_threes": 1},
    ]
    answer = score(base, preset="kitchen-table", hands=[hand1])
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["sides"] == [[0, 2], [1, 3]]
    assert data["hands"][0]["scores"] == [1050, -140]
    labels = {line["label"]: line["points"] for line in data["hands"][0]["lines"][0]}
    assert labels == {
        "clean books": 500,
        "cards on the table": 250,
        "red 3s laid down": 200,
        "going out": 100,
    }
    assert data["totals"] == [1050, -140]
    assert data["next_minimums"] == [50, 50]  # both below 3,000
    # A second hand takes side 1 past 3,000 and past 5,000: its minimum rises to 120.
    hand2 = [{"clean_books": 8, "melded_points": 500}, {"dirty_books": 1, "melded_points": 100}]
    data = score(base, preset="kitchen-table", hands=[hand1, hand2]).json()
    assert data["hands"][1]["totals"] == [1050 + 4500, -140 + 400]
    assert data["next_minimums"] == [120, 50]
    assert data["finished"] is False and data["winner"] is None


def test_in_laws_paper_items_and_game_end(base: str) -> None:
    # in-laws: exact deal +100, short opening -300, going out 200; minimums by round 50, 90, 120, 150.
    hand = [{"exact_deals": 1, "went_out": True, "melded_points": 100}, {"short_melds": 1}]
    data = score(base, preset="in-laws", hands=[hand]).json()
    assert data["hands"][0]["scores"] == [400, -300]
    assert data["next_minimums"] == [90, 90]
    data = score(base, preset="in-laws", hands=[hand] * 4).json()
    assert data["finished"] is True and data["winner"] == 0
    assert data["totals"] == [1600, -1200]


def test_options_and_players_change_the_sides(base: str) -> None:
    data = score(base, preset="kitchen-table", players=3, hands=[]).json()
    assert data["sides"] == [[0], [1], [2]]
    data = score(base, preset="kitchen-table", options={"going_out_bonus": 250}, hands=[]).json()
    assert data["rules"] == "kitchen-table+custom"
    hand = [{"went_out": True}, {}]
    data = score(base, preset="kitchen-table", options={"going_out_bonus": 250}, hands=[hand]).json()
    assert data["hands"][0]["scores"] == [250, 0]


def test_a_table_of_ten_scores_ten_sides(base: str) -> None:
    """marmot (003), Requirements: "Two more decks of playing cards than players in the game" names no
    most players: ten players, each for themselves, make ten sides. The first goes out with a red and a
    black book (500 + 300) and 330 on the table (no going-out bonus); the others hold 40 each."""
    hand = [{"clean_books": 1, "dirty_books": 1, "melded_points": 330, "went_out": True}] + [
        {"held_points": 40}
    ] * 9
    data = score(base, preset="marmot", players=10, hands=[hand]).json()
    assert data["sides"] == [[seat] for seat in range(10)]
    assert data["hands"][0]["scores"] == [1130] + [-40] * 9
    assert data["next_minimums"] == [90] * 10  # "Round 2: 90 points"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "nope"}, 'preset "nope" does not exist'),
        ({"preset": "kitchen-table", "players": 7}, "players is 7"),
        ({"preset": "marmot", "players": 11}, "players is 11; marmot allows 2, 3, 4, 5, 6, 7, 8, 9, 10"),
        ({"preset": "kitchen-table", "options": {"hand_size": 0}}, "hand_size"),
        ({"preset": "kitchen-table", "hands": [[{}]]}, "hands[0] lists 1 side;"),
        ({"preset": "kitchen-table", "hands": [[{"went_out": True}, {"went_out": True}]]}, "only one side"),
        ({"preset": "kitchen-table", "hands": [[{"clean_books": -1}, {}]]}, "clean_books"),
        ({"preset": "kitchen-table", "hands": [[{"books": 1}, {}]]}, 'hands[0][0]: unknown key "books"'),
    ],
)
def test_a_bad_sheet_is_refused_with_the_reason(base: str, body: dict[str, Any], words: str) -> None:
    answer = score(base, **body)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert words in error["message"]


def test_unknown_fields_are_refused(base: str) -> None:
    answer = score(base, preset="kitchen-table", sheet=[])
    assert answer.status_code == 422
    assert "unknown field" in answer.json()["error"]["message"]


def test_option_catalogue_names_the_choices(base: str) -> None:
    """The lobby builds its option form from /api/presets/{name}: enumerations list their words."""
    options = {o["name"]: o for o in httpx.get(f"{base}/api/presets/family").json()["options"]}
    assert options["game_end"]["choices"] == ["target", "hands"]
    assert options["permission"]["choices"] == ["none", "required", "optional"]
    assert options["hand_size"]["choices"] is None


def test_options_given_per_hand_are_marked_and_a_table_takes_a_list(base: str) -> None:
    """The catalogue marks the options a list gives one value per hand, and a table is created with one."""
    options = {o["name"]: o for o in httpx.get(f"{base}/api/presets/family").json()["options"]}
    assert options["going_out_bonus"]["per_hand"] and options["go_out_clean"]["per_hand"]
    assert not options["hand_size"]["per_hand"]
    body = {"preset": "family", "options": {"going_out_bonus": [100, 200, 300]}, "players": 2}
    created = httpx.post(f"{base}/api/tables", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["table"]["rules_source"]["going_out_bonus"] == [100, 200, 300]


def test_the_pad_asks_only_for_what_the_rules_score(base: str) -> None:
    """Exact deals and short openings are items of the in-laws sheet only (its paper bonus and penalty);
    wild books only exist where melds of wilds are allowed (no preset's sheet allows them)."""

    def fields(preset: str, options: dict[str, object] | None = None) -> list[str]:
        body = {"preset": preset, "options": options or {}, "hands": []}
        return [f["name"] for f in httpx.post(f"{base}/api/score", json=body).json()["fields"]]

    common = ["clean_books", "dirty_books", "melded_points", "red_threes", "held_points", "went_out"]
    assert fields("kitchen-table") == common
    assert fields("in-laws") == [*common[:5], "exact_deals", "short_melds", "went_out"]
    assert "wild_books" in fields("kitchen-table", {"wild_melds": True})
    assert "open_wild_melds" not in fields("kitchen-table", {"wild_melds": True, "wild_meld_penalty": 0})
