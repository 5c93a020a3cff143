"""The command line's conventions (README, "The command line"): --version, -h, shell completion, usage
errors under the exit-status contract (as JSON with --json), hint --json and - for standard input, and
the console script itself."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from handfoot.bots import HeuristicBot, legal_for
from handfoot.cli import package_version, run
from handfoot.engine import Game, view
from handfoot.record import record_of
from handfoot.rules import PRESET_NAMES, preset


def invoke(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``handfoot <args>`` in this process, as the console script runs it: (status, stdout, stderr)."""
    with CliRunner().isolation(input=stdin) as streams:
        status = run(args)
        out, err = (stream.getvalue().decode() for stream in streams[:2])
    return status, out, err


def test_version_and_short_help() -> None:
    status, out, _ = invoke(["--version"])
    assert status == 0 and out == f"handfoot {package_version()}\n" and package_version() != "unknown"
    for args in (["-h"], ["score", "-h"], ["rules", "show", "-h"]):
        status, out, _ = invoke(args)
        assert status == 0 and "Usage: handfoot" in out and "--help" in out, args
    status, out, _ = invoke(["simulate", "-h"])
    assert "--json" in out and "<bool>" not in out  # a flag takes no value, and help says so


def test_shell_completion_is_available() -> None:
    """``handfoot --show-completion`` prints the completion script of the shell it is run from (found
    among its parent processes, so the command is run from bash here: run from the test process itself,
    whose parents depend on how the tests were started, it may find no shell and print nothing)."""
    command = f"{sys.executable} -m handfoot --show-completion; exit $?"  # not exec'd: bash stays the parent
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "_handfoot_completion" in done.stdout, done.stderr


def test_usage_errors_exit_2_and_are_json_with_json() -> None:
    status, out, err = invoke(["score", "-r", "family", "--bogus", "x"])
    assert status == 2 and out == "" and "No such option: --bogus" in err
    status, out, err = invoke(["score", "-r", "family", "--json", "--bogus", "x"])
    assert status == 2 and err == ""
    assert json.loads(out) == {"error": {"code": "usage", "message": "No such option: --bogus"}}
    status, out, _ = invoke(["simulate", "--games", "many", "--json"])
    assert status == 2 and json.loads(out)["error"]["code"] == "usage"


def a_record(tmp_path: Path, moves: int = 30) -> tuple[Game, str]:
    game = Game(preset("kitchen-table"), 4, 9)
    bot, rng = HeuristicBot(), random.Random(0)
    for _ in range(moves):
        state = game.state
        game.apply(bot.choose(view(state, state.to_move), legal_for(state), rng))
    return game, json.dumps(record_of(game).to_json())


def test_hint_json_and_standard_input(tmp_path: Path) -> None:
    game, record = a_record(tmp_path)
    status, out, _ = invoke(["hint", "--quick", "--json", "-"], stdin=record)
    assert status == 0, out
    data = json.loads(out)
    assert data["seat"] == game.state.to_move and data["move"] and data["reason"]


def test_hint_at_an_illegal_move_is_refused_with_its_position(tmp_path: Path) -> None:
    """The record is read but the game says no: exit 1, the move named by its index (from 0)."""
    _, record = a_record(tmp_path, 4)
    data = json.loads(record)
    data["moves"].append("discard 5Z")
    status, out, _ = invoke(["hint", "--quick", "--json", "-"], stdin=json.dumps(data))
    error = json.loads(out)["error"]
    assert status == 1 and error["code"] == "refused" and error["index"] == 4
    assert error["move"] == "discard 5Z" and error["rule"] == "notation"
    status, _, err = invoke(["hint", "--quick", "-"], stdin=json.dumps(data))
    assert status == 1 and err.startswith('error: Illegal move at moves[4] ("discard 5Z")')


def test_every_command_reads_standard_input(tmp_path: Path) -> None:
    _, record = a_record(tmp_path, 4)
    assert invoke(["replay", "--json", "-"], stdin=record)[0] == 0
    status, out, _ = invoke(["rules", "show", "--json", "-"], stdin='extends = "marmot"\nhand_size = 12\n')
    assert status == 0 and json.loads(out)["hand_size"] == 12
    status, out, _ = invoke(["rules", "diff", "marmot", "-"], stdin='extends = "marmot"\nhand_size = 12\n')
    assert status == 0 and "1 option differs" in out


def test_rules_show_json_reads_back_as_a_rule_file(tmp_path: Path) -> None:
    """Every preset, and a custom file, round-trips through rules show --json."""
    house = tmp_path / "house.toml"
    house.write_text('extends = "in-laws"\nhand_size = 12\nfoot_size = 12\n', "utf-8")
    for source in [*("kitchen-table", "head-and-foot", "family", "marmot", "in-laws"), str(house)]:
        status, out, _ = invoke(["rules", "show", "--json", source])
        assert status == 0
        copy = tmp_path / "copy.json"
        copy.write_text(out, "utf-8")
        status, again, _ = invoke(["rules", "show", "--json", str(copy)])
        assert status == 0 and json.loads(again) == json.loads(out), source
        status, diff, _ = invoke(["rules", "diff", source, str(copy)])
        assert "have the same rules" in " ".join(diff.split())


def test_rules_show_describes_a_rule_file_and_lists_choices(tmp_path: Path) -> None:
    house = tmp_path / "thirteen.toml"
    house.write_text('extends = "kitchen-table"\nhand_size = 13\nfoot_size = 13\n', "utf-8")
    status, out, _ = invoke(["rules", "show", str(house)])
    assert status == 0
    assert "thirteen: a rule file that extends kitchen-table" in out
    assert "It changes 2 options of kitchen-table" in out
    assert "Title: thirteen: kitchen-table with house changes" in out
    assert "Summary: kitchen-table, changing hand_size = 13, foot_size = 13." in out
    assert "Allowed: target, hands." in " ".join(out.split())  # game_end's words
    titled = tmp_path / "ours.toml"
    titled.write_text('extends = "family"\ntitle = "Our table"\nsummary = "As grandma plays."\n', "utf-8")
    status, out, _ = invoke(["rules", "show", str(titled)])
    assert "Title: Our table" in out and "Summary: As grandma plays." in out
    assert "It plays exactly as family" in out


def test_the_console_script_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "handfoot", "score", "--json", "-r", "family", "-"],
        input='{"sides": [{"went_out": true}, {}, {}]}',
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout) == {"scores": [100, 0, 0]}


def test_the_readme_documents_the_contract() -> None:
    """The README's command section gives every exit status and the JSON error shape the code uses."""
    from handfoot.commands import ERROR_CODES, error_object

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    section = readme[readme.index("## The command line") : readme.index("## House rules")]
    for status in ("| 0 |", "| 1 |", "| 2 |"):
        assert status in section
    example = section[
        section.index("```json") + len("```json") : section.index("```", section.index("```json") + 7)
    ]
    shown = json.loads(example)
    assert set(shown) == set(error_object("x", "refused")) and set(shown["error"]) == {"code", "message"}
    for code in (*ERROR_CODES.values(), "usage"):
        assert f"`{code}`" in section


def test_rules_list_as_json() -> None:
    status, out, _ = invoke(["rules", "list", "--json"])
    presets = json.loads(out)
    assert status == 0 and [p["name"] for p in presets] == list(PRESET_NAMES)
    assert all(p["title"] and p["summary"] for p in presets)


def test_hostile_records_and_rule_files_are_clean_errors(tmp_path: Path) -> None:
    """Nesting that would exhaust the recursion limit and numbers longer than Python converts: one
    error line and exit 2, for records (replay, hint) and rule files (rules show, score --rules)."""
    deep = "[" * 5000 + "]" * 5000
    long_number = "9" * 5000
    for stdin, words in [
        (deep, "nests lists or objects too deeply; allowed: at most 64 levels"),
        ('{"seed": ' + long_number + "}", "a number has more than 4300 digits"),
        ('{"moves": [], "moves": []}', 'the key "moves" appears twice in one object'),
    ]:
        for command in (["replay", "-"], ["hint", "--quick", "-"]):
            status, out, err = invoke(command, stdin)
            assert status == 2 and out == "" and words in err and err.count("\n") == 1, (command, err)
    for text, words in [
        ("hand_size = " + "[" * 3000 + "]" * 3000, "nests lists or objects too deeply"),
        ("hand_size = " + long_number, "a number has more than 4300 digits"),
        ('{"hand_size": ' + long_number + "}", "a number has more than 4300 digits"),
        ("hand_size = 1" + "0" * 4000, "(a number of about 4001 digits) is not allowed"),
    ]:
        path = tmp_path / "house.toml"
        path.write_text(text, "utf-8")
        for command in (["rules", "show", str(path)], ["score", "-r", str(path), "-"]):
            status, out, err = invoke(command, '{"sides": [{}, {}]}')
            assert status == 2 and out == "" and words in err and err.count("\n") == 1, (command, err)


def test_a_plot_that_cannot_be_written_is_refused_before_playing(tmp_path: Path) -> None:
    args = ["simulate", "--games", "1", "--workers", "1", "--quiet", "--plot"]
    status, out, err = invoke([*args, str(tmp_path / "missing" / "p.png")])
    assert status == 2 and "does not exist" in err and out == ""
    status, _, err = invoke([*args, str(tmp_path / "out.txt")])
    assert status == 2 and '".txt" is not an image type; allowed: ' in err and "png" in err
    status, out, _ = invoke([*args, str(tmp_path), "--json"])
    assert status == 2 and "is a folder" in json.loads(out)["error"]["message"]


def test_a_long_bad_value_is_shortened_in_usage_errors() -> None:
    status, out, _ = invoke(["simulate", "--games", "9" * 5000, "--json"])
    message = json.loads(out)["error"]["message"]
    assert status == 2 and "(5000 characters) is not a valid int" in message and len(message) < 200
