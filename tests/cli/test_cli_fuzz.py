"""Fuzzing the command line: whatever the records, rule files, score pads and flags, every command ends
with a clean message and the contract's exit status (README, "The command line"): 0, 1 (the game says
no) or 2 (the input cannot be used); never a traceback, never the exit status of a bug (70).

Each input is either built from the real shapes (record keys, option names, pad keys) with values of
every JSON/TOML kind, or hostile text: deeply nested brackets, numbers of thousands of digits, repeated
keys, NaN, invalid UTF-8 escapes. The command runs in this process through ``handfoot.cli.run``, the
console script's own wrapper, with the input in a file or on standard input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from handfoot.cli import run
from handfoot.pad import SIDE_KEYS
from handfoot.record import DEAL_KEYS, RECORD_KEYS
from handfoot.rules import OPTION_NAMES, PRESET_NAMES

CONTRACT = {0, 1, 2}
FUZZ = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)

# --- values and hostile text ---------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["KS", "JK", "3B", "10H", "draw", "discard 5H", "meld QS QH QD", *PRESET_NAMES]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
hostile_text = st.one_of(
    st.integers(min_value=100, max_value=3000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=100, max_value=3000).map(lambda n: '{"a": ' * n + "1" + "}" * n),
    st.integers(min_value=4000, max_value=6000).map(lambda n: '{"seed": ' + "9" * n + "}"),
    st.just('{"moves": [], "moves": []}'),
    st.just("[NaN, Infinity]"),
    st.just('{"rules": "\\ud800"}'),
    st.text(max_size=40),
)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- records, rule files, score pads -------------------------------------------------------------------

records = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "rules": st.one_of(
                st.sampled_from([*PRESET_NAMES, "poker"]),
                st.dictionaries(st.sampled_from(["extends", *OPTION_NAMES]), json_values, max_size=3),
                json_values,
            ),
            "players": st.one_of(st.integers(min_value=-2, max_value=9), json_values),
            "seed": st.one_of(st.integers(), json_values),
            "dealer": st.one_of(st.integers(min_value=-2, max_value=9), json_values),
            "deals": st.lists(
                st.one_of(st.none(), st.dictionaries(st.sampled_from([*DEAL_KEYS, "x"]), json_values)),
                max_size=2,
            ),
            "moves": st.one_of(
                st.lists(st.sampled_from(["draw", "discard 5H", "meld KS KH KD", "pickup", "yes", "x"])),
                json_values,
            ),
        },
    ).map(dumps),
    st.dictionaries(st.sampled_from([*RECORD_KEYS, "colour"]), json_values, max_size=4).map(dumps),
    hostile_text,
)


def toml_value(value: Any) -> str:
    """A TOML rendering of a JSON-like value (strings as JSON strings, which TOML reads the same)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '""'
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"


rule_tables = st.dictionaries(
    st.sampled_from(["extends", *OPTION_NAMES, "hand_sise"]),
    st.one_of(json_values, st.sampled_from(PRESET_NAMES), st.integers(min_value=0, max_value=40)),
    max_size=4,
)
rule_files = st.one_of(
    rule_tables.map(lambda t: "".join(f"{k} = {toml_value(v)}\n" for k, v in t.items())),
    rule_tables.map(dumps),
    st.integers(min_value=200, max_value=3000).map(lambda n: "a = " + "[" * n + "]" * n),
    st.integers(min_value=4400, max_value=6000).map(lambda n: "hand_size = " + "1" * n),
    st.just("hand_size = = 1"),
    hostile_text,
)
pads = st.one_of(
    st.fixed_dictionaries(
        {"sides": st.lists(st.dictionaries(st.sampled_from([*SIDE_KEYS, "books"]), json_values), max_size=7)}
    ).map(dumps),
    st.fixed_dictionaries(
        {
            "sides": st.lists(
                st.dictionaries(
                    st.sampled_from(SIDE_KEYS[:-1]), st.integers(min_value=0, max_value=10**12), max_size=4
                ),
                min_size=1,
                max_size=4,
            )
        }
    ).map(dumps),
    json_values.map(dumps),
    hostile_text,
)

# --- running a command ---------------------------------------------------------------------------------


def invoke(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run ``handfoot <args>`` in this process as the console script does: (status, stdout, stderr)."""
    with CliRunner().isolation(input=stdin.encode("utf-8", "surrogatepass")) as streams:
        status = run(args)
        out, err = (stream.getvalue().decode("utf-8", "replace") for stream in streams[:2])
    return status, out, err


def check(args: list[str], stdin: str = "") -> None:
    """The command keeps the contract: a status of 0, 1 or 2; no traceback; a failure says why, on stderr
    as ``error: ...`` (or a usage message), or with --json as one JSON error object on stdout."""
    status, out, err = invoke(args, stdin)
    assert status in CONTRACT, (args, status, err[-2000:])
    assert "Traceback" not in out + err, (args, err[-2000:])
    if status == 0:
        return
    if "--json" in args:
        lines = out.strip().splitlines()
        assert lines, (args, out, err)
        error = json.loads(out)["error"] if len(lines) == 1 or out.lstrip().startswith('{"error"') else None
        if error is None:  # replay --json at an illegal move: the position, with its error
            error = json.loads(out)["error"]
        assert error["code"] in {"usage", "bad_input", "refused"} and error["message"], (args, out)
        assert {1: "refused", 2: "bad_input"}.get(status) == error["code"] or error["code"] == "usage"
    else:
        usage = status == 2 and "Usage:" in out + err  # a usage error, or help shown for a bare group
        assert err.startswith("error: ") or usage or (status == 1 and "Illegal move" in out), (
            args,
            out[-500:],
            err[-500:],
        )


json_flag = st.sampled_from([[], ["--json"]])


@FUZZ
@given(record=records, flag=json_flag, via_stdin=st.booleans())
def test_replay_any_record(tmp_path: Path, record: str, flag: list[str], via_stdin: bool) -> None:
    path = tmp_path / "record.json"
    path.write_text(record, "utf-8", errors="surrogatepass")
    check(["replay", "-" if via_stdin else str(path), *flag], stdin=record if via_stdin else "")


@FUZZ
@given(record=records, flag=json_flag)
def test_hint_any_record(tmp_path: Path, record: str, flag: list[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(record, "utf-8", errors="surrogatepass")
    check(["hint", "--quick", str(path), *flag])


@FUZZ
@given(rules=rule_files, flag=json_flag, command=st.sampled_from(["show", "diff"]))
def test_rules_any_rule_file(tmp_path: Path, rules: str, flag: list[str], command: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(rules, "utf-8", errors="surrogatepass")
    extra = ["kitchen-table"] if command == "diff" else []
    check(["rules", command, *extra, str(path), *flag])


@FUZZ
@given(pad=pads, rules=st.one_of(st.sampled_from(PRESET_NAMES), rule_files), flag=json_flag)
def test_score_any_pad_and_rules(tmp_path: Path, pad: str, rules: str, flag: list[str]) -> None:
    if rules in PRESET_NAMES:
        source = rules
    else:
        (tmp_path / "house.toml").write_text(rules, "utf-8", errors="surrogatepass")
        source = str(tmp_path / "house.toml")
    check(["score", "--rules", source, "-", *flag], stdin=pad)


@FUZZ
@given(rules=rule_files, flag=json_flag)
def test_simulate_any_rule_file(tmp_path: Path, rules: str, flag: list[str]) -> None:
    """A short tournament (one game, at most 30 moves) under any rule file."""
    path = tmp_path / "house.toml"
    path.write_text(rules, "utf-8", errors="surrogatepass")
    args = ["simulate", "--rules", str(path), "--games", "1", "--max-moves", "30", "--seats", "random"]
    check([*args, "--workers", "1", "--quiet", *flag])


words = st.one_of(
    st.sampled_from(
        [
            "rules",
            "show",
            "diff",
            "list",
            "score",
            "replay",
            "simulate",
            "hint",
            "serve",
            "-",
            "--json",
            "--rules",
            "-r",
            "--players",
            "--seats",
            "--games",
            "--seed",
            "--workers",
            "--plot",
            "--hands",
            "--max-moves",
            "--quick",
            "--iterations",
            "--seconds",
            "--port",
            "-h",
            "--version",
            "--",
            "x.png",
            "kitchen-table",
            "family",
            "0",
            "-1",
            "99999999999999999999",
            "nan",
            "1e400",
            "ismcts:x",
        ]
    ),
    st.text(max_size=8),
)


@FUZZ
@given(args=st.lists(words, max_size=6))
def test_any_flags(tmp_path: Path, args: list[str]) -> None:
    """Any words on the command line (simulate and serve kept from running long or listening)."""
    if "serve" in args and not {"-h", "--version"} & set(args):
        args = [a for a in args if a != "serve"]
    if "simulate" in args:
        args = [*args, "--games", "1", "--max-moves", "20", "--workers", "1", "--quiet"]
    if "hint" in args:
        args = [*args, "--quick"]
    check([str(tmp_path / a) if a == "x.png" else a for a in args], stdin="")
