"""The examples of README.md, docs/engine.md and docs/records.md run, so they cannot drift from the code.

Every fenced block of these documents says what it is by its language, and is checked accordingly:

- ``pycon``: a doctest, run with its outputs compared (``...`` stands for any text);
- ``python``: executed on its own, in a folder holding ``game.json`` (docs/records.md's first example
  record), and must not raise;
- ``sh``: each ``handfoot`` line is run through the command line in that folder (``< FILE`` is read as
  standard input, ``# ...`` is a comment) and must exit 0; each ``make`` line names targets of the Makefile;
- ``json``: in docs/records.md an example record or output, marked ``<!-- example NAME: ... -->``, that
  tests/records/test_record_docs.py replays and compares; in README.md an output that ``JSON_OUTPUTS`` below
  produces with the command that prints it;
- ``toml``: a rule file, which must load;
- ``text``: a sketch (the layout, a format's outline), not run.

A block of any other language, or of none, fails: a new example must say which of these it is.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handfoot.cli import run
from handfoot.rules import load_rules

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/engine.md", "docs/records.md")
FENCE = re.compile(r"^```(?P<lang>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
KINDS = {"pycon", "python", "sh", "json", "toml", "text"}
RECORD_EXAMPLE = re.compile(r"<!-- example [\w-]+: (record|output, exit \d) -->\n$")
# README.md's JSON outputs: each block's text, the command that prints it and what it reads on stdin.
JSON_OUTPUTS = {
    '{"error": {"code": "refused", "message": "went_out is true for sides[0] and sides[2]; only one side '
    'goes out in a hand"}}': (
        ["score", "--rules", "kitchen-table", "--json", "-"],
        json.dumps({"sides": [{"went_out": True}, {}, {"went_out": True}]}),
    ),
}


def blocks() -> list[tuple[str, int, str, str, str]]:
    """(document, line, language, body, the text before the block) for every fenced block."""
    found = []
    for name in DOCS:
        text = (ROOT / name).read_text("utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((name, line, match["lang"].strip(), match["body"], text[: match.start()]))
    return found


BLOCKS = blocks()


def by_kind(kind: str) -> list[tuple[str, int, str, str, str]]:
    return [block for block in BLOCKS if block[2] == kind]


def ids(found: list[tuple[str, int, str, str, str]]) -> list[str]:
    return [f"{name}:{line}" for name, line, *_ in found]


@contextmanager
def in_example_folder(tmp_path: Path) -> Iterator[Path]:
    """Work in ``tmp_path``, holding docs/records.md's first example record as ``game.json``."""
    records = (ROOT / "docs" / "records.md").read_text("utf-8")
    first = re.search(r"<!-- example [\w-]+: record -->\n```json\n(.*?)```", records, re.DOTALL)
    assert first, "docs/records.md has no example record"
    (tmp_path / "game.json").write_text(first[1], "utf-8")
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


def invoke(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``handfoot <args>`` in this process: (status, stdout, stderr)."""
    with CliRunner().isolation(input=stdin) as streams:
        status = run(args)
        out, err = (stream.getvalue().decode() for stream in streams[:2])
    return status, out, err


def test_every_block_says_what_it_is() -> None:
    assert len(BLOCKS) >= 10, "the fence pattern no longer finds the documents' examples"
    unknown = [
        f"{name}:{line} ({lang or 'no language'})" for name, line, lang, *_ in BLOCKS if lang not in KINDS
    ]
    assert not unknown, f"blocks of no known kind (one of {sorted(KINDS)}): {unknown}"
    assert by_kind("pycon") and by_kind("python") and by_kind("sh")


@pytest.mark.parametrize(
    ("name", "line", "lang", "body", "before"), by_kind("pycon"), ids=ids(by_kind("pycon"))
)
def test_pycon_block_gives_the_output_shown(
    name: str, line: int, lang: str, body: str, before: str, tmp_path: Path
) -> None:
    test = doctest.DocTestParser().get_doctest(body, {}, name, name, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    with in_example_folder(tmp_path):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


@pytest.mark.parametrize(
    ("name", "line", "lang", "body", "before"), by_kind("python"), ids=ids(by_kind("python"))
)
def test_python_block_runs(name: str, line: int, lang: str, body: str, before: str, tmp_path: Path) -> None:
    with in_example_folder(tmp_path):
        exec(compile(body, f"{name}:{line}", "exec"), {"__name__": "__doc_example__"})


@pytest.mark.parametrize(("name", "line", "lang", "body", "before"), by_kind("sh"), ids=ids(by_kind("sh")))
def test_sh_block_runs(name: str, line: int, lang: str, body: str, before: str, tmp_path: Path) -> None:
    targets = set(re.findall(r"^([\w.-]+):", (ROOT / "Makefile").read_text("utf-8"), re.MULTILINE))
    with in_example_folder(tmp_path) as folder:
        for command in body.splitlines():
            words = shlex.split(command, comments=True)
            if not words:
                continue
            if words[0] == "make":
                missing = [w for w in words[1:] if "=" not in w and w not in targets]
                assert not missing, f"{name}:{line}: the Makefile has no target {missing}"
                continue
            assert words[0] == "handfoot", f"{name}:{line}: {command!r} is neither handfoot nor make"
            stdin = ""
            if "<" in words:
                at = words.index("<")
                stdin = (folder / words[at + 1]).read_text("utf-8")
                words = words[:at] + words[at + 2 :]
            status, out, err = invoke(words[1:], stdin)
            assert status == 0, f"{name}:{line}: {command!r} exited {status}: {err or out}"
            if "--json" in words:
                json.loads(out)


@pytest.mark.parametrize(
    ("name", "line", "lang", "body", "before"), by_kind("json"), ids=ids(by_kind("json"))
)
def test_json_block_is_checked(name: str, line: int, lang: str, body: str, before: str) -> None:
    shown = json.loads(body)
    if name == "docs/records.md":
        assert RECORD_EXAMPLE.search(before), (
            f"{name}:{line}: a JSON block of docs/records.md is an example record or output, marked "
            "<!-- example NAME: record --> or <!-- example NAME: output, exit N --> for test_record_docs.py"
        )
        return
    key = body.strip()
    assert key in JSON_OUTPUTS, f"{name}:{line}: add the command that prints this output to JSON_OUTPUTS"
    args, stdin = JSON_OUTPUTS[key]
    _status, out, _err = invoke(args, stdin)
    assert json.loads(out) == shown


@pytest.mark.parametrize(
    ("name", "line", "lang", "body", "before"), by_kind("toml"), ids=ids(by_kind("toml"))
)
def test_toml_block_loads(name: str, line: int, lang: str, body: str, before: str, tmp_path: Path) -> None:
    path = tmp_path / "example.toml"
    path.write_text(body, "utf-8")
    rules = load_rules(str(path))
    assert rules.name, f"{name}:{line}"
