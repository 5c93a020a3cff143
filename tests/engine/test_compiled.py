"""The mypyc build (``hatch_build.py``): the modules it compiles exist, and under ``make test-compiled``
(``HANDFOOT_EXPECT_COMPILED=1``, the wheel's modules first on the path) they are what Python imports."""

from __future__ import annotations

import ast
import importlib
import os
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compiled_modules() -> list[str]:
    """``MYPYC_MODULES`` of hatch_build.py (read from its source: hatchling is not installed here)."""
    tree = ast.parse((ROOT / "hatch_build.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "MYPYC_MODULES" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return [str(path) for path in value]
    raise AssertionError("hatch_build.py has no MYPYC_MODULES")


def test_every_compiled_module_is_a_module_of_the_package() -> None:
    modules = compiled_modules()
    assert "handfoot/bots/heuristic.py" in modules and "handfoot/engine/views.py" in modules
    for path in modules:
        assert (ROOT / "src" / path).is_file(), f"hatch_build.py compiles {path}, which does not exist"


@pytest.mark.skipif(
    not os.environ.get("HANDFOOT_EXPECT_COMPILED"), reason="checks the compiled build: make test-compiled"
)
def test_the_compiled_modules_are_the_ones_imported() -> None:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for path in compiled_modules():
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert str(module.__file__).endswith(suffix), f"{module.__name__} runs from {module.__file__}"
