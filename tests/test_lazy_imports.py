"""A first call starts fast: importing the packages, ``--help`` and a small search load no heavy engine.

``import semiring, apsp, graphs`` binds every public name lazily
(:mod:`semiring.lazy`), so it imports neither Numba nor SciPy's sparse graph
code, NetworkX or CuPy; ``semiring-paths --help`` builds the subcommands'
parsers without their modules; and a search on a small graph runs the NumPy
twins of the kernels (:mod:`graphs.kernel_route`), so Numba stays unloaded
there too.  Each check runs in a fresh interpreter and reads ``sys.modules``.
The lazy tables must name what the ``if TYPE_CHECKING:`` imports name (the
view of type checkers and of the import checks), and every name of
``__all__`` must resolve.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy.sparse.csgraph", "networkx", "cupy")
PACKAGES = ("semiring", "apsp", "graphs")


def loaded_after(code: str) -> list[str]:
    """The heavy modules in ``sys.modules`` after ``code`` ran in a fresh interpreter on this tree."""
    probe = f"import json, sys\n{code}\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def test_importing_the_packages_loads_no_heavy_engine():
    assert loaded_after("import semiring, apsp, graphs") == []


def test_the_help_loads_no_heavy_engine():
    code = ("from graphs.cli import main\n"
            "for argv in (['--help'], ['bfs', '--help'], ['--version']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass")
    assert loaded_after(code) == []


@pytest.mark.parametrize("command", ["bfs", "sssp"])
def test_a_search_on_a_small_file_loads_no_numba(tmp_path, command):
    path = tmp_path / "ring.gr"
    n = 300
    arcs = "".join(f"a {v + 1} {(v + 1) % n + 1} {1 + v % 7}\n" for v in range(n))
    path.write_text(f"c a ring\np sp {n} {n}\n{arcs}")
    code = f"from graphs.cli import main\nassert main([{command!r}, {str(path)!r}, '--json', '--all']) == 0"
    assert loaded_after(code) == []


def test_the_first_use_of_a_name_imports_its_module():
    assert loaded_after("import graphs\ngraphs.Graph.from_edges([0], [1]).transpose()") == []
    assert "numba" in loaded_after("import semiring, numpy as np\nsemiring.min_plus.matmul(np.ones((2, 2)), "
                                   "np.ones((2, 2)))")  # a product runs the compiled kernels


def _type_checking_imports(package: str) -> dict[str, str]:
    """``{name: module}`` of the ``from X import name`` statements under ``if TYPE_CHECKING:`` in ``package``."""
    tree = ast.parse((ROOT / package / "__init__.py").read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom):
                    module = "." * stmt.level + (stmt.module or "")
                    for alias in stmt.names:
                        names[alias.asname or alias.name] = module if stmt.module else f".{alias.name}"
    return names


@pytest.mark.parametrize("package", PACKAGES)
def test_the_lazy_table_names_what_the_type_checking_imports_name(package):
    mod = importlib.import_module(package)
    static = _type_checking_imports(package)
    probe = f"import json, {package} as p; print(json.dumps([n for n in p.__all__ if n not in vars(p)]))"
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=120)
    assert set(static) == set(json.loads(run.stdout))  # the names a fresh import leaves to first use
    for name, module in static.items():  # each resolves to the object its module defines
        target = importlib.import_module(module, package)
        expected = target if target.__name__ == f"{package}.{name}" else getattr(target, name)
        assert getattr(mod, name) is expected, name


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_resolves_and_is_listed_by_dir(package):
    mod = importlib.import_module(package)
    assert set(mod.__all__) <= set(dir(mod))
    namespace: dict = {}
    exec(f"from {package} import *", namespace)
    assert set(mod.__all__) <= set(namespace)
    with pytest.raises(AttributeError, match="no_such_name"):
        mod.no_such_name  # noqa: B018


def test_the_builtin_semirings_are_listed_in_their_table_order():
    import semiring
    from semiring.builtin import BUILTIN

    assert [n for n in semiring.__all__ if n in BUILTIN] == list(BUILTIN)
    assert all(getattr(semiring, n) is BUILTIN[n] for n in BUILTIN)
