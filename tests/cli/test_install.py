"""The install: the lock matches pyproject.toml and pins every dependency inside its declared range,
runtime dependencies are bounded above, and ``make run`` prints only the program's output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import lock  # noqa: E402

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]


def locked() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements-lock.txt").read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def all_requirements() -> list[Requirement]:
    reqs = [Requirement(r) for r in PROJECT["dependencies"]]
    for extra in PROJECT["optional-dependencies"].values():
        reqs += [Requirement(r) for r in extra if canonicalize_name(Requirement(r).name) != "handfoot"]
    return reqs


def test_the_lock_was_refreshed_after_the_last_dependency_change() -> None:
    assert lock.stale_reason() is None, "run `make lock` and commit requirements-lock.txt"


def test_the_lock_pins_every_declared_dependency_inside_its_range() -> None:
    pins = locked()
    for req in all_requirements():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in requirements-lock.txt"
        assert req.specifier.contains(pins[name], prereleases=True), f"{req} but the lock has {pins[name]}"


def test_runtime_dependencies_have_upper_bounds() -> None:
    for text in PROJECT["dependencies"]:
        assert any(spec.operator in ("<", "<=", "==", "~=") for spec in Requirement(text).specifier), text


def test_check_reports_a_lock_made_from_other_dependencies(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    pyproject.write_text(text, "utf-8")
    copy = tmp_path / "requirements-lock.txt"
    copy.write_text((ROOT / "requirements-lock.txt").read_text("utf-8"), "utf-8")
    assert lock.stale_reason(copy, pyproject) is None
    pyproject.write_text(text.replace('"pydantic>=2.6,<3",', '"pydantic>=2.6,<3",\n    "six",'), "utf-8")
    assert "other dependencies" in (lock.stale_reason(copy, pyproject) or "")
    assert "missing" in (lock.stale_reason(tmp_path / "none.txt", pyproject) or "")


def test_torch_is_a_range_for_users_and_the_tested_version_in_the_lock() -> None:
    """[train] must not replace a researcher's own torch build: a range in pyproject.toml; the lock
    (what make and CI install) holds the version [tool.handfoot.lock] prefers, inside that range."""
    (torch,) = [Requirement(r) for r in PROJECT["optional-dependencies"]["train"] if r.startswith("torch")]
    assert not any(spec.operator == "==" for spec in torch.specifier), torch
    prefer = lock.project_inputs().prefer
    assert "torch==2.13.0" in prefer and "torch==2.13.0" in lock.requirements(lock.project_inputs())
    assert locked()["torch"] == "2.13.0" and torch.specifier.contains("2.13.0")


def test_a_changed_preference_makes_the_lock_stale(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    pyproject.write_text(text.replace('prefer = ["torch==2.13.0"]', 'prefer = ["torch==2.12.0"]'), "utf-8")
    assert "other dependencies" in (lock.stale_reason(ROOT / "requirements-lock.txt", pyproject) or "")


def test_own_extras_are_expanded_not_locked() -> None:
    reqs = lock.requirements(lock.project_inputs())
    assert not any(canonicalize_name(Requirement(r).name) == "handfoot" for r in reqs)
    assert any(Requirement(r).name == "matplotlib" for r in reqs)


@pytest.mark.skipif(not (Path(sys.prefix) / "bin" / "handfoot").exists(), reason="needs the venv's handfoot")
def test_make_run_prints_only_the_program_output_with_paths_relative_to_the_caller(tmp_path: Path) -> None:
    """`make -s -C REPO run` from another folder: the file is found relative to where make was started,
    and stdout is the JSON alone (no echoed command, no make messages)."""
    pad = {"sides": [{"clean_books": 1, "melded_points": 250, "went_out": True}, {}]}
    (tmp_path / "pad.json").write_text(json.dumps(pad), "utf-8")
    env = {**os.environ, "PWD": str(tmp_path)}
    args = "score --json -r kitchen-table pad.json"
    command = ["make", "-s", "-C", str(ROOT), "run", f"VENV={sys.prefix}", f"ARGS={args}"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"scores": [850, 0]}
    # From the repository itself, without -s: still nothing but the program's output on stdout.
    relative = os.path.relpath(tmp_path / "pad.json", ROOT)
    env["PWD"] = str(ROOT)
    command = ["make", "run", f"VENV={sys.prefix}", f"ARGS=score --json -r kitchen-table {relative}"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"scores": [850, 0]}


def test_make_run_keeps_the_data_in_the_project_folder(tmp_path: Path) -> None:
    """`make run` (from any folder, with make -C) gives the server the project folder's handfoot-data/,
    unless HANDFOOT_DATA says otherwise; an installed `handfoot serve` uses the platform's folder."""
    env = {k: v for k, v in os.environ.items() if k != "HANDFOOT_DATA"} | {"PWD": str(tmp_path)}
    command = ["make", "-s", "-n", "-C", str(ROOT), "run", f"VENV={sys.prefix}", "ARGS=serve"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f'HANDFOOT_DATA="${{HANDFOOT_DATA:-{ROOT}/handfoot-data}}"' in done.stdout


def test_make_run_stopped_by_ctrl_c_exits_quietly(tmp_path: Path) -> None:
    """Ctrl+C in the terminal (SIGINT to make and the server alike) stops `make run` without make's
    "make: *** [Makefile:..: run] Error 130", which reads as a failure."""
    port = 20000 + os.getpid() % 20000
    env = {**os.environ, "PWD": str(tmp_path), "HANDFOOT_DATA": str(tmp_path)}
    args = f"ARGS=serve --port {port}"
    command = ["make", "-C", str(ROOT), "run", f"VENV={sys.prefix}", args]
    log = tmp_path / "out.txt"
    with log.open("w") as out:
        run = subprocess.Popen(
            command, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 60
        while "is ready" not in log.read_text():
            assert run.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        os.killpg(run.pid, signal.SIGINT)  # what a terminal sends its foreground group on Ctrl+C
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert "***" not in log.read_text() and "Error" not in log.read_text(), log.read_text()
