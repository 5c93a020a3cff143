"""Pin every dependency of handfoot, all extras included, in requirements-lock.txt (``make lock``).

    python tools/lock.py           # resolve pyproject.toml's dependencies again and rewrite the lock
    python tools/lock.py --check   # exit 1, saying what to run, when the lock is older than pyproject.toml

The lock is a pip constraints file: one ``name==version`` line per package that the runtime
dependencies and every extra need, resolved together by plain pip (``pip install --dry-run --report``),
so it sees what pip sees on this machine (its indexes, find-links and constraints). ``make`` installs
with ``pip install -c requirements-lock.txt -e '.[EXTRAS]'``: only what those extras need, at the
locked versions. Its first line records a digest of the dependency lists it was resolved from, which
``--check`` compares with pyproject.toml, so a dependency added without refreshing the lock stops
``make`` with a message instead of installing an unpinned version.

Where pyproject.toml gives a range for users (``torch>=2.3,<3``, so a torch already installed is kept),
``[tool.handfoot.lock] prefer`` narrows what the lock resolves to the version CI tests (``torch==2.13.0``,
the CPU build make finds in /opt/wheels), without narrowing the package's own requirements. Local
version labels (``2.13.0+cpu``) are dropped: ``torch==2.13.0`` takes the build pip prefers here (a CPU
build on disk) and the plain release elsewhere. Needs only the standard library and pip >= 23.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
LOCK = ROOT / "requirements-lock.txt"
REFRESH = "make lock"
_DIGEST_LINE = re.compile(r"^# inputs: sha256 ([0-9a-f]{64})$", re.MULTILINE)
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[([^\]]*)\])?")


def canonical(name: str) -> str:
    """A distribution name as pip compares it (PEP 503): lower case, runs of ``-_.`` as one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Inputs:
    """What the lock is resolved from: the project's name, requires-python, dependencies and extras."""

    name: str
    requires_python: str
    dependencies: tuple[str, ...]
    extras: dict[str, tuple[str, ...]]
    prefer: tuple[str, ...] = ()  # [tool.handfoot.lock] prefer: resolved with the rest, lock only


def project_inputs(pyproject: Path = PYPROJECT) -> Inputs:
    """The lock's inputs as pyproject.toml gives them."""
    data = tomllib.loads(pyproject.read_text("utf-8"))
    project = data["project"]
    extras = project.get("optional-dependencies", {})
    prefer = data.get("tool", {}).get("handfoot", {}).get("lock", {}).get("prefer", [])
    return Inputs(
        name=str(project["name"]),
        requires_python=str(project.get("requires-python", "")),
        dependencies=tuple(project.get("dependencies", [])),
        extras={str(name): tuple(reqs) for name, reqs in extras.items()},
        prefer=tuple(str(r) for r in prefer),
    )


def digest(inputs: Inputs) -> str:
    """A sha256 of ``inputs`` that changes with any dependency and ignores comments and layout."""
    return hashlib.sha256(json.dumps(asdict(inputs), sort_keys=True).encode()).hexdigest()


def requirements(inputs: Inputs) -> list[str]:
    """Every requirement of the project and all its extras, without references to the project's own
    extras (``handfoot[sim]``), whose requirements are in the list already."""
    own = canonical(inputs.name)
    out: list[str] = []
    for requirement in [*inputs.dependencies, *(r for rs in inputs.extras.values() for r in rs)]:
        match = _NAME.match(requirement)
        if match and canonical(match.group(1)) == own:
            continue  # its extras are listed anyway, all of them being resolved
        if requirement not in out:
            out.append(requirement)
    return [*out, *(r for r in inputs.prefer if r not in out)]


def resolve(reqs: list[str]) -> dict[str, str]:
    """``{name: version}`` of everything pip would install for ``reqs`` in an empty environment."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--quiet",  # errors only: not the warnings a machine's extra indexes may print per package
            "--disable-pip-version-check",
            "--report",
            str(report),
            *reqs,
        ]
        env = {**os.environ, "PIP_REQUIRE_VIRTUALENV": "0"}
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            sys.exit(
                f"pip could not resolve the dependencies (exit {done.returncode}): see its message above"
            )
        data = json.loads(report.read_text("utf-8"))
    pins: dict[str, str] = {}
    for item in data["install"]:
        metadata = item["metadata"]
        pins[metadata["name"]] = metadata["version"].split("+", 1)[0]
    return pins


def render(pins: dict[str, str], inputs: Inputs) -> str:
    """The lock file's text: a header saying how it was made, then ``name==version`` lines by name."""
    header = [
        f"# inputs: sha256 {digest(inputs)}",
        f"# Every package handfoot and its extras need, pinned. Generated by `{REFRESH}`",
        "# (tools/lock.py) from pyproject.toml: do not edit by hand. make installs with",
        "#     pip install -c requirements-lock.txt -e '.[EXTRAS]'",
        f"# Resolved with Python {sys.version_info.major}.{sys.version_info.minor} on {sys.platform}.",
    ]
    lines = [f"{name}=={pins[name]}" for name in sorted(pins, key=canonical)]
    return "\n".join([*header, *lines]) + "\n"


def stale_reason(lock: Path = LOCK, pyproject: Path = PYPROJECT) -> str | None:
    """Why the lock does not match pyproject.toml (missing, or resolved from other dependencies), or None."""
    if not lock.exists():
        return f"{lock.name} is missing"
    found = _DIGEST_LINE.search(lock.read_text("utf-8"))
    if found is None or found.group(1) != digest(project_inputs(pyproject)):
        return f"{lock.name} was resolved from other dependencies than pyproject.toml lists now"
    return None


def main() -> None:
    """Refresh the lock, or with ``--check`` only say whether it is current (exit 1 when not)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check that the lock is current")
    args = parser.parse_args()
    if args.check:
        reason = stale_reason()
        if reason:
            sys.exit(f"error: {reason}: run `{REFRESH}` and commit {LOCK.name}")
        return
    inputs = project_inputs()
    pins = resolve(requirements(inputs))
    LOCK.write_text(render(pins, inputs), "utf-8")
    print(f"{LOCK.name}: {len(pins)} packages pinned")


if __name__ == "__main__":
    main()
