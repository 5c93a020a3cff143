"""How to cite handfoot: CITATION.cff names the version pyproject.toml gives (which ``handfoot --version``
prints) and the license, and LICENSE holds the license's text."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from typer.testing import CliRunner

from handfoot.cli import app

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]


def cff_field(name: str) -> str:
    """A top-level scalar of CITATION.cff (quotes removed)."""
    text = (ROOT / "CITATION.cff").read_text("utf-8")
    found = re.search(rf"^{name}: *(.+)$", text, re.MULTILINE)
    assert found is not None, name
    return found[1].strip().strip('"')


def test_citation_names_the_version_the_program_reports() -> None:
    version = PROJECT["version"]
    assert cff_field("version") == version
    assert cff_field("cff-version") == "1.2.0" and cff_field("type") == "software"
    printed = CliRunner().invoke(app, ["--version"])
    assert printed.exit_code == 0 and version in printed.stdout


def test_license_file_and_citation_agree_with_pyproject() -> None:
    license_name = PROJECT["license"]["text"]
    assert license_name == "MIT" == cff_field("license")
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text


def test_the_docs_name_the_version_the_program_reports() -> None:
    """The newest release in CHANGELOG.md and every version the docs show (the health answer of
    docs/protocol.md) are the one ``handfoot --version`` prints."""
    version = PROJECT["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d\d-\d\d$", changelog, re.MULTILINE)
    assert released and released[0] == version
    shown = [
        (path.name, found)
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        for found in re.findall(r'"version": "(\d+\.\d+\.\d+)"', path.read_text("utf-8"))
    ]
    assert shown and all(found == version for _, found in shown), shown
