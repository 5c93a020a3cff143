"""The documentation points only at files in the repository: every relative link and every path written
as code (`src/...`, `tests/...`, `docs/...`, ...) in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/
names something that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")]
DOCS += sorted((ROOT / "docs").glob("*.md"))
TOP = ("src/", "tests/", "docs/", "benchmarks/", "deploy/", "tools/", "web-client/", "examples/", ".ci/")
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s#]+)")
CODE = re.compile(r"`([^`\s]+)`")


def targets(doc: Path) -> list[str]:
    text = doc.read_text("utf-8")
    found = list(LINK.findall(text))
    found += [m for m in CODE.findall(text) if m.startswith(TOP) or m.endswith(".md")]
    return found


def exists(doc: Path, target: str) -> bool:
    path = re.sub(r"<[^>]*>", "*", target.split("::")[0].rstrip(":,."))
    return any(any(base.glob(path)) if "*" in path else (base / path).exists() for base in (doc.parent, ROOT))


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_path_in_the_docs_exists(doc: Path) -> None:
    missing = [t for t in targets(doc) if not exists(doc, t)]
    assert not missing, f"{doc.name} names files that are not in the repository: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_no_file_outside_the_repository_is_cited(doc: Path) -> None:
    text = doc.read_text("utf-8")
    for outside in ("seeds/", "RULES.md", "DESIGN.md"):
        assert outside not in text, f"{doc.name} cites {outside}, which is not in the repository"
