"""The pre-commit hooks check with the tools `make lint` and `make typecheck` use, at the locked versions."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = (ROOT / ".pre-commit-config.yaml").read_text("utf-8")
LOCK = (ROOT / "requirements-lock.txt").read_text("utf-8")


def locked(name: str) -> str:
    found = re.search(rf"^{name}==(\S+)$", LOCK, re.MULTILINE)
    assert found, f"{name} is not in requirements-lock.txt"
    return found[1]


def test_ruff_hook_is_the_locked_ruff() -> None:
    rev = re.search(r"repo: https://github.com/astral-sh/ruff-pre-commit\n\s+rev: v(\S+)", CONFIG)
    assert rev, "no ruff-pre-commit repo with a rev in .pre-commit-config.yaml"
    assert rev[1] == locked("ruff"), "bump the ruff-pre-commit rev to the ruff of requirements-lock.txt"
    assert "id: ruff-check" in CONFIG and "id: ruff-format" in CONFIG


def test_mypy_hook_runs_the_venv_s_mypy() -> None:
    """mypy runs from .venv, where make installs the locked mypy and the packages whose types it reads."""
    assert locked("mypy")
    assert re.search(r"id: mypy\n(\s+\w+: .*\n)*\s+entry: \.venv/bin/mypy\n", CONFIG)
    assert "pass_filenames: false" in CONFIG  # pyproject.toml's [tool.mypy] files, as make typecheck
