"""The import contract of the code base, checked by import-linter and by a walk of every module's syntax tree.

``pyproject.toml`` declares two contracts (``[tool.importlinter]``): imports only
go down the layers ``graphs -> apsp -> semiring``, and no package has an import
cycle between its modules, imports under ``if TYPE_CHECKING:`` included.  CI
runs ``lint-imports``; these tests run the same check and show that it fails
when an upward import or a cycle is added.

A third rule has no import-linter contract: ``apsp`` and ``graphs`` reach
``semiring`` only through its public modules (:mod:`semiring.kernels`,
:mod:`semiring.cuda_kernels`, :mod:`semiring.cpu_ops` for the kernels), never
a private one (:func:`semiring_private`).  :func:`private_semiring_imports`
walks the syntax tree of every module, so imports inside functions and under
``if TYPE_CHECKING:`` count too.

A fourth: no module imports another module's private names.  A sibling that
needs something gets it under a public name of the module that owns it;
``from . import _kernels`` (a package-private *module*) is fine, ``from .sssp
import _helper`` is not, and nothing imports NetworkX's private names or
modules (:func:`private_name_imports`, the same walk).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("semiring", "apsp", "graphs")

#: Modules of ``semiring`` that are private though their names do not start with ``_``: the CUDA
#: package and the dispatchers and engines behind the public functions.
SEMIRING_INTERNAL = frozenset({"cuda", "dense.dispatch", "sparse.dispatch", "generic", "dense.batched",
                               "dense.einsum_engine"})


def semiring_private(module: str) -> bool:
    """Whether the dotted name ``module`` is private to ``semiring`` (a module, or a name imported from one).

    Private: any part after ``semiring`` that starts with ``_`` (``semiring._cpu``,
    ``semiring.kernels._helper``), and the modules of :data:`SEMIRING_INTERNAL` with
    everything below them.

    >>> semiring_private("semiring._cpu.threads"), semiring_private("semiring.cuda.ops")
    (True, True)
    >>> semiring_private("semiring.kernels.run_rows"), semiring_private("semiring.cuda_kernels")
    (False, False)
    >>> semiring_private("semiring.dense.dispatch.sentinels"), semiring_private("semiring.dense")
    (True, False)
    """
    parts = module.split(".")
    if parts[0] != "semiring" or len(parts) < 2:
        return False
    internal = any(".".join(parts[1:k]) in SEMIRING_INTERNAL for k in range(2, len(parts) + 1))
    return internal or any(p.startswith("_") and not p.startswith("__") for p in parts[1:])


def _imported_names(node: ast.AST) -> list[str]:
    """The dotted names an import statement (or an ``importlib.import_module("...")`` call) reaches."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return [node.args[0].value]
    return []


def private_semiring_imports(root: Path) -> list[str]:
    """``"apsp/x.py:12 semiring._cpu.threads"`` for every private ``semiring`` name that ``apsp`` or ``graphs`` imports.

    Every node of every module's syntax tree is visited: module level, function
    bodies, ``if TYPE_CHECKING:`` blocks, and ``importlib.import_module`` calls
    with a literal name.
    """
    found = []
    for pkg in ("apsp", "graphs"):
        for path in sorted((root / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                private = [name for name in _imported_names(node) if semiring_private(name)]
                if private:
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {private[0]}")
    return found

def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _import_base(path: Path, node: ast.ImportFrom, root: Path) -> Path:
    """The folder that ``from <module> import name`` looks ``name`` up in (a package's, or a module's stem)."""
    if node.level == 0:
        base = root
    else:
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
    return base.joinpath(*node.module.split(".")) if node.module else base


def private_name_imports(root: Path) -> list[str]:
    """``"graphs/x.py:12 from .sssp import _helper"`` for every import of another module's private name.

    In every module of :data:`PACKAGES` (every node of its syntax tree, so imports
    inside functions and under ``if TYPE_CHECKING:`` count): ``from <module> import
    _name`` of one of the packages, unless ``_name`` is itself a module or package
    (``from . import _kernels``); and any import of a private NetworkX name or
    module (``networkx._x``, ``from networkx.y import _z``).
    """
    found = []
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    found += [f"{where}:{node.lineno} import {a.name}" for a in node.names
                              if a.name.split(".")[0] == "networkx" and any(map(_private, a.name.split(".")))]
                    continue
                if not isinstance(node, ast.ImportFrom):
                    continue
                module = node.module or ""
                stmt = f"from {'.' * node.level}{module} import"
                if node.level == 0 and module.split(".")[0] == "networkx":
                    found += [f"{where}:{node.lineno} {stmt} {a.name}" for a in node.names
                              if any(map(_private, module.split("."))) or _private(a.name)]
                    continue
                if node.level == 0 and module.split(".")[0] not in PACKAGES:
                    continue
                base = _import_base(path, node, root)
                found += [f"{where}:{node.lineno} {stmt} {a.name}" for a in node.names
                          if _private(a.name) and not (base / f"{a.name}.py").is_file() and not (base / a.name).is_dir()]
    return found


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
    """A copy of the packages (the three layers and the ``semiring_paths`` umbrella) and pyproject.toml, to plant
    bad imports in."""
    for pkg in (*PACKAGES, "semiring_paths"):
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


def test_apsp_and_graphs_import_no_private_semiring_module():
    assert private_semiring_imports(ROOT) == []


def test_a_private_semiring_import_is_found_wherever_it_hides(tree: Path):
    with open(tree / "apsp" / "errors.py", "a") as f:
        f.write("\n\ndef _planted():\n    from semiring._cpu.threads import run_rows\n\n    return run_rows\n")
    with open(tree / "graphs" / "errors.py", "a") as f:
        f.write("\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from semiring.dense.dispatch import sentinels\n")
    with open(tree / "graphs" / "validate.py", "a") as f:
        f.write("\n\ndef _planted():\n    import importlib\n\n    return importlib.import_module('semiring.cuda.ops')\n")
    with open(tree / "apsp" / "fw.py", "a") as f:
        f.write("\nfrom semiring import _cpu  # planted\n")
    found = private_semiring_imports(tree)
    assert any(x.startswith("apsp/errors.py:") and x.endswith(" semiring._cpu.threads") for x in found), found
    assert any(x.startswith("graphs/errors.py:") and x.endswith(" semiring.dense.dispatch") for x in found), found
    assert any(x.startswith("graphs/validate.py:") and x.endswith(" semiring.cuda.ops") for x in found), found
    assert any(x.startswith("apsp/fw.py:") and x.endswith(" semiring._cpu") for x in found), found
    assert len(found) == 4, found


def _count_type_checking_imports(tree: Path) -> None:
    """Make the copy's import-linter contracts count imports under ``if TYPE_CHECKING:`` too."""
    toml = tree / "pyproject.toml"
    text = toml.read_text().replace("exclude_type_checking_imports = true", "exclude_type_checking_imports = false")
    assert "exclude_type_checking_imports = false" in text
    toml.write_text(text)


def test_the_contracts_hold_counting_type_checking_imports(tree: Path):
    _count_type_checking_imports(tree)
    run = lint_imports(tree)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_a_cycle_through_type_hints_breaks_the_acyclic_contract(tree: Path):
    # semiring.core imports semiring.dense; a type-hint import of core from dense closes a cycle.
    with open(tree / "semiring" / "dense" / "__init__.py", "a") as f:
        f.write("\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from ..core import Semiring  # planted\n")
    _count_type_checking_imports(tree)
    run = lint_imports(tree)
    assert run.returncode == 1
    assert "No cycles are allowed in semiring.\n" in run.stdout


def test_no_module_imports_another_module_s_private_names():
    assert private_name_imports(ROOT) == []


def test_a_private_name_import_is_found_wherever_it_hides(tree: Path):
    with open(tree / "apsp" / "errors.py", "a") as f:
        f.write("\n\ndef _planted():\n    from .multi_device import _planted_helper\n\n    return _planted_helper\n")
    with open(tree / "graphs" / "errors.py", "a") as f:
        f.write("\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from graphs.sssp import _Planted, sssp\n")
    with open(tree / "semiring" / "dense" / "__init__.py", "a") as f:  # private modules are fine; a name from one is not
        f.write("\nfrom .. import _cpu\nfrom .._cpu import threads\nfrom .._cpu.scalar_ops import _max, min_\n")
    with open(tree / "graphs" / "nx_backend" / "shortest" / "allpaths.py", "a") as f:
        f.write("\nfrom networkx.algorithms.shortest_paths.generic import _build_paths_from_predecessors\n"
                "from networkx.utils import pairwise\nimport networkx._planted\n")
    found = private_name_imports(tree)
    assert sorted(x.split(":", 1)[0] + " " + x.split(" ", 1)[1] for x in found) == [
        "apsp/errors.py from .multi_device import _planted_helper",
        "graphs/errors.py from graphs.sssp import _Planted",
        "graphs/nx_backend/shortest/allpaths.py from networkx.algorithms.shortest_paths.generic import "
        "_build_paths_from_predecessors",
        "graphs/nx_backend/shortest/allpaths.py import networkx._planted",
        "semiring/dense/__init__.py from .._cpu.scalar_ops import _max",
    ], found
