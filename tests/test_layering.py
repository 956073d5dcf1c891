"""The import contract of the code base, checked by import-linter.

``pyproject.toml`` declares two contracts (``[tool.importlinter]``): imports only
go down the layers ``graphs -> apsp -> semiring``, and no package has an import
cycle between its modules.  CI runs ``lint-imports``; these tests run the same
check and show that it fails when an upward import or a cycle is added.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("semiring", "apsp", "graphs")

pytest.importorskip("importlinter")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """Run ``lint-imports`` on the packages under ``root`` (its own pyproject.toml)."""
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "", "HOME": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the three packages and pyproject.toml, to plant bad imports in."""
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.cu", "*.cuh"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_code_base_keeps_its_import_contracts():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_an_upward_import_breaks_the_layers_contract(tree: Path):
    with open(tree / "semiring" / "dense.py", "a") as f:
        f.write("\nimport apsp  # planted: semiring must not know apsp\n")
    run = lint_imports(tree)
    assert run.returncode == 1
    assert "semiring is not allowed to import apsp" in run.stdout
    assert "semiring.dense -> apsp" in run.stdout


def test_an_import_inside_a_function_counts_too(tree: Path):
    with open(tree / "apsp" / "errors.py", "a") as f:
        f.write("\n\ndef _planted():\n    import graphs\n\n    return graphs\n")
    run = lint_imports(tree)
    assert run.returncode == 1
    assert "apsp is not allowed to import graphs" in run.stdout


def test_a_module_cycle_breaks_the_acyclic_contract(tree: Path):
    # semiring.core imports semiring.dense; importing core back from dense closes a cycle.
    with open(tree / "semiring" / "dense.py", "a") as f:
        f.write("\nfrom . import core  # planted cycle\n")
    run = lint_imports(tree)
    assert run.returncode == 1
    assert "No cycles are allowed in semiring.\n" in run.stdout
    assert ".core -> .dense" in run.stdout or ".dense -> .core" in run.stdout
