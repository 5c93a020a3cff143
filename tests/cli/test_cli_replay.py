"""``handfoot replay FILE [--json]``: the JSON object, the text report, stdin, and exit statuses 0 and 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner, Result

from handfoot.commands import replay_cmd
from handfoot.record import parse_record, replay, report

HAND_0 = ["5S", "5H", "6S", "6H", "7S", "7H", "4S", "4H", "9C", "TC", "TS"]
HAND_1 = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "JD"]
FOOT_0 = ["QC", "JC", "TH", "TD", "6D", "6C", "5D", "5C", "4D", "7D", "7C"]
FOOT_1 = ["AS", "AH", "AD", "AC", "9S", "9H", "9D", "8S", "8H", "8D", "4C"]


# The finished hand of OUT as --json gives it: the scores, who went out, why the hand ended, and each
# side's score item by item (docs/records.md).
FINISHED_HANDS = [
    {
        "scores": [-145, 870],
        "went_out": 1,
        "reason": "went_out",
        "lines": [
            [{"label": "cards left in hand and foot", "count": 0, "points": -145}],
            [
                {"label": "clean books", "count": 1, "points": 500},
                {"label": "cards on the table", "count": 0, "points": 270},
                {"label": "going out", "count": 1, "points": 100},
            ],
        ],
    }
]


def record(moves: list[str], **changes: Any) -> dict[str, Any]:
    """Two players alone; seat 1 plays first and can go out at once (docs/records.md, first example)."""
    data: dict[str, Any] = {
        "rules": {"extends": "kitchen-table", "target_score": 500},
        "players": 2,
        "seed": 1,
        "dealer": 0,
        "deals": [
            {"hands": [HAND_0, HAND_1], "feet": [FOOT_0, FOOT_1], "stock": ["JS", "JH"], "discard": ["4H"]}
        ],
        "moves": moves,
    }
    data.update(changes)
    return data


OUT = [
    "draw",
    "meld KS KS KH KH KD KD KC | QS QH QD | JD JS JH",
    "meld AS AH AD AC | 9S 9H 9D | 8S 8H 8D",
    "discard 4C",
]


def app() -> typer.Typer:
    """A command line holding just ``replay``, as ``handfoot.cli`` registers it."""
    cli = typer.Typer()

    @cli.callback()
    def main() -> None:
        """Test command line."""

    replay_cmd.register(cli)
    return cli


def run(tmp_path: Path, data: dict[str, Any] | str, *options: str) -> Result:
    """``handfoot replay FILE [options]`` on ``data`` written to a file."""
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return CliRunner().invoke(app(), ["replay", str(path), *options])


# --- JSON -------------------------------------------------------------------------------------------


def test_json_of_a_finished_game(tmp_path: Path) -> None:
    result = run(tmp_path, record(OUT), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["hands"] == FINISHED_HANDS
    assert out["totals"] == [-145, 870]
    assert (out["finished"], out["winner"], out["to_move"], out["legal"]) == (True, 1, None, [])
    assert out["seats"][1] == {"hand": [], "foot": []}
    assert out["seats"][0]["hand"] == ["TS", "TC", "9C", "7S", "7H", "6S", "6H", "5S", "5H", "4S", "4H"]
    assert (out["stock"], out["discard"]) == (115, ["4H", "4C"])
    assert "error" not in out


def test_json_of_a_game_in_progress(tmp_path: Path) -> None:
    """Seat 1 has drawn and laid down its whole Hand: it is in its Foot and must play on."""
    result = run(tmp_path, record(OUT[:2]), "--json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert (out["finished"], out["winner"], out["to_move"], out["hands"]) == (False, None, 1, [])
    assert out["seats"][1] == {"hand": FOOT_1, "foot": []}  # FOOT_1 is listed in display order
    game, _ = replay(parse_record(record(OUT[:2])))
    assert out["legal"] == [str(move) for move in game.legal_moves()]
    assert "discard 4C" in out["legal"] and "meld AS AH AD" in out["legal"]


def test_json_at_an_illegal_move_shows_the_position_before_it(tmp_path: Path) -> None:
    moves = [*OUT[:2], "discard 5S", "discard 4C"]  # seat 1 holds no 5S
    result = run(tmp_path, record(moves), "--json")
    assert result.exit_code == 1  # read, but the game says no
    out = json.loads(result.stdout)
    assert out["error"] == {
        "code": "refused",
        "index": 2,
        "move": "discard 5S",
        "rule": "hand",
        "message": "You do not hold 5S.",
    }
    before, error = replay(parse_record(record(moves[:2])))
    assert error is None
    del out["error"]
    assert out == report(before)
    assert len(out["seats"][1]["hand"]) == 11 and out["to_move"] == 1


def test_json_at_a_rule_broken(tmp_path: Path) -> None:
    """Three queens (30) are short of the opening minimum of 50: the rule is named."""
    result = run(tmp_path, record(["draw", "meld QS QH QD"]), "--json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert (error["index"], error["rule"]) == (1, "opening_minimums")
    assert "at least 50" in error["message"]


def test_json_at_a_move_after_the_game_is_over(tmp_path: Path) -> None:
    """docs/records.md: a move once the game is over is refused under rule ``game_end`` (seat 1 goes out
    past the 500 the game is played to, then a draw follows): the position is the finished game."""
    result = run(tmp_path, record([*OUT, "draw"]), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["error"] == {
        "code": "refused",
        "index": len(OUT),
        "move": "draw",
        "rule": "game_end",
        "message": "The game is over.",
    }
    assert out["finished"] is True and out["to_move"] is None and out["totals"] == [-145, 870]


def test_json_at_text_that_is_not_a_move(tmp_path: Path) -> None:
    result = run(tmp_path, record(["drew"]), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["error"]["index"] == 0 and out["error"]["rule"] == "notation"
    assert out["to_move"] == 1 and out["legal"] == ["draw"]


def test_stdin(tmp_path: Path) -> None:
    result = CliRunner().invoke(app(), ["replay", "-", "--json"], input=json.dumps(record(OUT)))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["totals"] == [-145, 870]


def test_json_of_a_bad_record(tmp_path: Path) -> None:
    cases = {
        "{not json": "is not JSON",
        json.dumps(record(OUT, colour="red")): 'unknown key "colour"',
        json.dumps(record(OUT, dealer=5)): "dealer is 5",
        json.dumps(record(OUT, players=7)): "players is 7",
        json.dumps(record(OUT, rules={"extends": "kitchen-table", "hand_size": 99})): "rule option hand_size",
    }
    for text, message in cases.items():
        result = run(tmp_path, text, "--json")
        assert result.exit_code == 2
        out = json.loads(result.stdout)
        assert list(out) == ["error"] and list(out["error"]) == ["code", "message"]
        assert out["error"]["code"] == "bad_input"
        assert message in out["error"]["message"]


def test_bad_card_and_cards_that_do_not_fit(tmp_path: Path) -> None:
    bad = record(OUT)
    bad["deals"][0]["stock"] = ["JS", "ZZ"]
    out = json.loads(run(tmp_path, bad, "--json").stdout)
    assert 'deals[0].stock: "ZZ" is not a card' in out["error"]["message"]
    bad["deals"][0]["stock"] = ["KS", "KS"]
    out = json.loads(run(tmp_path, bad, "--json").stdout)
    assert "too many copies of KS" in out["error"]["message"]


def test_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app(), ["replay", str(tmp_path / "nope.json"), "--json"])
    assert result.exit_code == 2
    assert "cannot read" in json.loads(result.stdout)["error"]["message"]


# --- text -------------------------------------------------------------------------------------------


def test_text_of_a_finished_game(tmp_path: Path) -> None:
    result = run(tmp_path, record(OUT))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "-145" in text and "870" in text and "seat 1" in text
    assert "Game over: seat 1 wins" in text
    assert "To move: nobody" in text and "Legal moves (0): none" in text
    assert "Seat 0 hand: TS TC 9C 7S 7H 6S 6H 5S 5H 4S 4H" in text
    assert "Seat 0 foot: QC JC TH TD 7D 7C 6D 6C 5D 5C 4D" in text
    assert "Seat 1 hand: -" in text and "Seat 1 foot: -" in text
    assert "Stock: 115 cards" in text
    assert "Discard pile (bottom first): 4H 4C" in text
    assert "Illegal" not in text


def test_text_shows_the_table(tmp_path: Path) -> None:
    """The table as text: the hand and phase, who is down and the minimum the others need, books, each
    meld, the pile and the Feet, and whether the pile can be taken (000 kitchen-table)."""
    result = run(tmp_path, record(OUT[:2]))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Hand 0, dealer seat 0: seat 1's turn, phase play" in text
    assert "Seat 0: not down (opening minimum 50), books 0 clean, 0 dirty" in text
    assert "Seat 1: down, books 1 clean, 0 dirty" in text
    assert "  K: KS KS KH KH KD KD KC (7 + 0 wild, clean, closed)" in text
    assert "  Q: QS QH QD (3 + 0 wild, clean)" in text
    assert "Pile: 4H on top, 1 card" in text
    assert "Feet: seat 0 unplayed, seat 1 in_play" in text
    assert "Take the pile: no" in text


def test_text_names_partnership_sides(tmp_path: Path) -> None:
    data = {"rules": "kitchen-table", "players": 4, "seed": 3, "moves": ["draw"]}
    result = run(tmp_path, data)
    assert result.exit_code == 0
    assert "side 0 (seats 0, 2)" in result.stdout and "side 1 (seats 1, 3)" in result.stdout
    assert (
        "Game in progress: hand 0" in result.stdout
    )  # hands counted from 0, as in the JSON and "To move: seat 1" in result.stdout


def test_text_at_an_illegal_move(tmp_path: Path) -> None:
    result = run(tmp_path, record(["draw", "meld QS QH QD"]))
    assert result.exit_code == 1
    text = result.stdout
    assert 'Illegal move at moves[1] ("meld QS QH QD")' in text
    assert "[rule: opening_minimums]" in text
    # kings, queens and jacks open together: staging them is offered beside the discards
    assert "Legal moves (6): discard KS, discard QS, discard JS, stage KS KS KH" in text
    assert "Seat 1 hand: KS KS KH KH KD KD KC QS QH QD JS JH JD" in text


def test_text_of_a_bad_record(tmp_path: Path) -> None:
    result = run(tmp_path, json.dumps(record(OUT, seeds=1)))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith('error: unknown key "seeds"')


def test_replay_is_a_command_of_handfoot(tmp_path: Path) -> None:
    """The ``handfoot`` command line itself runs ``replay`` (imported here so that a problem elsewhere in
    the command line fails this test only)."""
    from handfoot.cli import app as handfoot

    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(OUT)), "utf-8")
    result = CliRunner().invoke(handfoot, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hands"] == FINISHED_HANDS
    result = CliRunner().invoke(handfoot, ["replay", str(path)])
    assert result.exit_code == 0 and "Game over: seat 1 wins" in result.stdout


def test_text_names_players_by_the_records_names(tmp_path: Path) -> None:
    """A record's ``names`` name the players: "Sam (seat 1) went out", and each side's score item by
    item, as the JSON's ``lines`` give it (docs/records.md, first example)."""
    result = run(tmp_path, record(OUT, names=["Ann", "Sam"]))
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "Hand 0: Sam (seat 1) went out" in text
    assert "Sam (seat 1): 870 = clean books x1 +500; cards on the table +270; going out x1 +100" in text
    assert "Ann (seat 0): -145 = cards left in hand and foot -145" in text
    assert "Sam (seat 1) hand: -" in text
    out = json.loads(run(tmp_path, record(OUT, names=["Ann", "Sam"]), "--json").stdout)
    assert out["names"] == ["Ann", "Sam"]


def test_text_says_why_a_hand_ended_without_going_out() -> None:
    """A hand nobody went out of says why it ended; one somebody went out of names them."""
    rec = parse_record(record(OUT, names=[None, "Sam"]))
    assert replay_cmd.hand_end_text(rec, {"went_out": None, "reason": "stock_empty"}) == (
        "the stock ran out and nobody could take the pile"
    )
    assert replay_cmd.hand_end_text(rec, {"went_out": 0, "reason": "went_out"}) == "seat 0 went out"
    assert replay_cmd.hand_end_text(rec, {"went_out": 1, "reason": "went_out"}) == "Sam (seat 1) went out"


def test_bad_names_are_refused_with_what_is_allowed(tmp_path: Path) -> None:
    for names, words in (
        (["Ann"], "a list of 2 names"),
        (["Ann", 7], "names[1] is 7"),
        (["Ann", "x" * 65], "at most 64"),
        (["Ann", "S\x07m"], "control character"),
    ):
        out = json.loads(run(tmp_path, record(OUT, names=names), "--json").stdout)
        assert out["error"]["code"] == "bad_input" and words in out["error"]["message"], out
