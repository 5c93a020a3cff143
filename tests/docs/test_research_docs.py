"""docs/research.md against the code: its Python examples (``pycon`` blocks) run as doctests, and every
table it publishes is one that tools/research_tables.py makes, which the script still makes (in its
quick form) in the columns and rows the page shows. (Its ``sh`` blocks are studies of minutes to hours;
tests/sim runs their options on small tournaments.)"""

from __future__ import annotations

import doctest
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "research.md").read_text("utf-8")
FENCE = re.compile(r"^```(?P<lang>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def tables_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("research_tables", ROOT / "tools" / "research_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["research_tables"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TABLES = tables_script()
PYCON = [
    (DOC.count("\n", 0, m.start()) + 1, m["body"])
    for m in FENCE.finditer(DOC)
    if m["lang"].strip() == "pycon"
]


def shape(body: str) -> list[tuple[str, str, int]]:
    """Each markdown table of ``body``: its header line, its alignment line and its number of rows."""
    tables = []
    for block in re.split(r"\n\s*\n", body.strip()):
        lines = [line for line in block.splitlines() if line.startswith("|")]
        if lines:
            tables.append((lines[0], lines[1], len(lines) - 2))
    return tables


def test_python_examples_give_the_output_shown() -> None:
    """The page's ``pycon`` blocks, in order, in one namespace (a later block uses what an earlier one
    imported), each output compared."""
    assert len(PYCON) >= 3
    names: dict[str, object] = {}
    for line, body in PYCON:
        test = doctest.DocTestParser().get_doctest(body, names, "research.md", "docs/research.md", line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        assert runner.failures == 0 and runner.tries > 0, "".join(report)
        names = test.globs


def test_every_table_of_the_page_is_made_by_the_script() -> None:
    found = {m["name"]: m["body"] for m in TABLES.MARKER.finditer(DOC)}
    assert set(found) == set(TABLES.SECTIONS)
    for name, body in found.items():
        assert shape(body), f"the table {name} is empty"
        assert re.search(
            rf"<!-- table {name}: python tools/research_tables.py --only {name} --write \(run ", DOC
        )


@pytest.mark.parametrize("name", sorted(TABLES.SECTIONS))
def test_the_script_still_makes_each_table_as_the_page_shows_it(name: str) -> None:
    found = {m["name"]: m["body"] for m in TABLES.MARKER.finditer(DOC)}
    made = TABLES.SECTIONS[name](TABLES.Size(quick=True))
    assert shape(made) == shape(found[name])


def test_the_script_refuses_unknown_tables_and_quick_writes(capsys: pytest.CaptureFixture[str]) -> None:
    assert TABLES.main(["--only", "nothing"]) == 2
    assert "error: no table nothing; allowed: seat-effect" in capsys.readouterr().err
    assert TABLES.main(["--quick", "--write"]) == 2
    assert "allowed: --quick or --write" in capsys.readouterr().err
