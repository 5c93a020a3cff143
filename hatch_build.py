"""Wheel build hook: the engine and the bots' hot path compiled with mypyc, when asked for.

A plain ``pip install .`` builds a pure-Python wheel (under a minute). With ``HANDFOOT_COMPILE=1`` in the
environment, the wheel build compiles ``MYPYC_MODULES`` with mypyc into C extensions that the wheel
carries beside the same modules' Python sources (several minutes); Python imports an extension before
a source of the same name, so the compiled modules are what runs. Where no C compiler is found, or
compiling fails, that build says so and the wheel is pure Python (the same code, slower);
``HANDFOOT_COMPILE=required`` turns a failed compile into a failed build (``make build/compiled/.built``,
``make wheel``, CI). Editable installs (``pip install -e .``, what ``make`` does) are always pure
Python. Only a compiling build installs mypy into its build environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The modules compiled, under src/: the engine (dealing, judging, listing and playing moves, scoring, the
# game), the rule set (its options are read at every judgement) and the cache of values worked out from it
# (the meld memo's), the seat views, the bot interface and the heuristic, and the RL observation's
# item-by-item writing (``rl/fill.py``: it needs no numpy).
MYPYC_MODULES = (
    "handfoot/cards.py",
    "handfoot/rules/options.py",
    "handfoot/rules/cache.py",
    "handfoot/engine/errors.py",
    "handfoot/engine/events.py",
    "handfoot/engine/state.py",
    "handfoot/engine/moves.py",
    "handfoot/engine/melding.py",
    "handfoot/engine/meld_legal.py",
    "handfoot/engine/pile.py",
    "handfoot/engine/judge.py",
    "handfoot/engine/legal.py",
    "handfoot/engine/apply.py",
    "handfoot/engine/openings.py",
    "handfoot/engine/completion.py",
    "handfoot/engine/staging.py",
    "handfoot/engine/steps.py",
    "handfoot/engine/shuffle.py",
    "handfoot/engine/deal.py",
    "handfoot/engine/tally.py",
    "handfoot/engine/scoring.py",
    "handfoot/engine/facts.py",
    "handfoot/engine/game.py",
    "handfoot/engine/views.py",
    "handfoot/bots/base.py",
    "handfoot/bots/plan.py",
    "handfoot/bots/heuristic.py",
    "handfoot/rl/fill.py",
)
BUILD_DEPENDENCIES = ["mypy>=1.10", "setuptools>=65"]


def compile_requested() -> bool:
    """True when ``HANDFOOT_COMPILE`` asks for the compiled build (``1``, ``yes``, ``true``, ``required``)."""
    return os.environ.get("HANDFOOT_COMPILE", "").strip().lower() in ("1", "yes", "true", "required")


def c_compiler() -> str | None:
    """The C compiler Python's build would use, if it is installed."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


class MypycBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles ``MYPYC_MODULES`` into the wheel, falling back to pure Python (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """mypy (which brings mypyc) and setuptools (which drives the C compiler), when compiling."""
        return list(BUILD_DEPENDENCIES) if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile and add the extensions to the wheel (standard wheels only, when asked for)."""
        if self.target_name != "wheel" or version == "editable" or not compile_requested():
            return
        required = os.environ.get("HANDFOOT_COMPILE") == "required"
        count = len(MYPYC_MODULES)
        self.app.display_info(f"handfoot: compiling {count} modules with mypyc (several minutes)")
        if c_compiler() is None:
            self._fall_back("no C compiler was found", required)
            return
        work = Path(tempfile.mkdtemp(prefix="handfoot-mypyc-"))
        try:
            built = self._compile(work)
        except (OSError, subprocess.CalledProcessError) as err:
            self._fall_back(f"compiling with mypyc failed ({err})", required)
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        keep = Path(self.directory) / "mypyc"
        shutil.rmtree(keep, ignore_errors=True)
        for path in built:
            relative = path.relative_to(work)
            target = keep / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
            build_data["force_include"][str(target)] = str(relative)
        shutil.rmtree(work, ignore_errors=True)
        self.app.display_info(f"handfoot: {len(MYPYC_MODULES)} modules compiled with mypyc")

    def _compile(self, work: Path) -> list[Path]:
        """Run mypyc on a copy of the package in ``work``; returns the extension files it made."""
        shutil.copytree(Path(self.root) / "src" / "handfoot", work / "handfoot")
        log = work / "mypyc.log"
        with log.open("w") as out:
            # --ignore-missing-imports: ``rl/fill.py`` is imported through the ``handfoot.rl`` package,
            # whose ``__init__`` imports numpy and PettingZoo; the build environment has neither, and
            # what it does not compile it need not type (``mypy --strict`` checks it, stubs and all)
            flags = ["--no-site-packages", "--ignore-missing-imports"]
            result = subprocess.run(
                [sys.executable, "-m", "mypyc", *flags, *MYPYC_MODULES],
                cwd=work,
                stdout=out,
                stderr=subprocess.STDOUT,
                check=False,
            )
        if result.returncode != 0:
            tail = log.read_text(errors="replace").strip().splitlines()[-5:]
            raise OSError(f"mypyc exited with {result.returncode}: " + " | ".join(tail))
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        built = [p for p in work.rglob(f"*{suffix}") if "build" not in p.relative_to(work).parts]
        expected = {m.removesuffix(".py") + suffix for m in MYPYC_MODULES}
        missing = expected - {p.relative_to(work).as_posix() for p in built}
        if missing:
            raise OSError(f"mypyc did not build {sorted(missing)}")
        return built

    def _fall_back(self, why: str, required: bool) -> None:
        if required:
            raise RuntimeError(f"handfoot: {why}, and HANDFOOT_COMPILE=required")
        self.app.display_warning(f"handfoot: {why}; installing pure Python (the same code, slower)")
