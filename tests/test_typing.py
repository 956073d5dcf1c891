"""The type checker (mypy, configured in pyproject.toml) passes on the typed public API and a user's code.

``[tool.mypy]`` lists the public modules (all in strict mode) and
tests/typing/usage.py, whose ``typing.assert_type`` calls state the types a
user's checker infers.  The usage functions also run here, so they stay valid.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
USAGE = ROOT / "tests" / "typing" / "usage.py"

needs_mypy = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install -e '.[test]')")


def _mypy(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow  # the whole configuration (about 20 s); .ci/run also runs mypy itself
@needs_mypy
def test_public_modules_and_usage_type_check(tmp_path):
    run = _mypy(cache=tmp_path / "cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


@needs_mypy
def test_a_wrong_type_is_caught(tmp_path):
    """The checker sees the library's types: a wrong ``assert_type`` in a user's code is an error."""
    bad = tmp_path / "bad_usage.py"
    bad.write_text(
        "from typing import assert_type\n"
        "import graphs\n"
        "import semiring as sr\n"
        "G = graphs.Graph.from_edges([0], [1])\n"
        "assert_type(graphs.diameter(G), int)\n"
        "assert_type(sr.min_plus, int)\n"
        "graphs.sssp(G, 0, device='tpu')\n"
        "graphs.all_pairs_shortest_paths(G, device='tpu')\n"
        "graphs.io.read('roads.gr', format='gml')\n"
    )
    run = _mypy("--strict", "--follow-imports=silent", str(bad), cache=tmp_path / "cache")
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert out.count("[assert-type]") == 2, out
    assert '"device" to "sssp" has incompatible type "Literal[\'tpu\']"' in out, out
    assert '"device" to "all_pairs_shortest_paths" has incompatible type "Literal[\'tpu\']"' in out, out
    assert '"format" to "read" has incompatible type "Literal[\'gml\']"' in out, out


def test_usage_runs():
    """The usage functions run (a fresh interpreter: doctest collection may have imported modules twice here)."""
    code = "import usage; usage.semiring_products(); usage.closures(); usage.graph_algorithms(); print('ran')"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(USAGE.parent), str(ROOT)])}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and run.stdout.strip() == "ran", run.stdout + run.stderr
