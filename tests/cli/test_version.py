"""The version is written once, in pyproject.toml, and everything else reads the package's metadata:
``handfoot --version`` (tests/cli/test_cli_conventions.py), ``handfoot.__version__``, the server's
``/api/health`` and, through it, the browser client's lobby (tests/browser/test_browser.py)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import httpx

import handfoot
from handfoot import package_version
from handfoot.server.settings import Settings
from helpers.server import running_server

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def test_the_metadata_is_pyproject_s_version() -> None:
    """The installed metadata is the version pyproject.toml gives (an editable install made before the
    version moved fails here: `make` installs again when pyproject.toml changes)."""
    version = PYPROJECT["project"]["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert package_version() == version
    assert handfoot.__version__ == version


def test_no_other_copy_of_the_version() -> None:
    """No module assigns a version of its own and the browser client's package has none."""
    version = PYPROJECT["project"]["version"]
    for path in sorted((ROOT / "src" / "handfoot").rglob("*.py")):
        text = path.read_text("utf-8")
        assert "__version__ =" not in text, f"{path.relative_to(ROOT)} writes a version of its own"
        assert f'"{version}"' not in text, f"{path.relative_to(ROOT)} writes the version {version}"
    package = json.loads((ROOT / "web-client" / "package.json").read_text("utf-8"))
    lock = json.loads((ROOT / "web-client" / "package-lock.json").read_text("utf-8"))
    assert "version" not in package, "web-client/package.json has a version: the client shows the server's"
    assert "version" not in lock and "version" not in lock["packages"][""], "the npm lock has a version"


def test_the_server_says_its_version(tmp_path: Path) -> None:
    with running_server(Settings(data_dir=tmp_path, port=0)) as url:
        health = httpx.get(f"{url}/api/health").json()
    assert health == {"ok": True, "protocol": 1, "version": package_version()}
