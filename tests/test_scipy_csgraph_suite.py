"""SciPy's own ``scipy.sparse.csgraph`` tests, run against :mod:`graphs.csgraph`, with plain SciPy as the baseline.

Two pytest subprocesses run the installed SciPy's csgraph test modules (found
next to ``scipy.sparse.csgraph.__file__``) through ``tests/scipy_suite_plugin.py``:
one with every function the drop-in implements put in place of SciPy's
(``SCIPY_SUITE_MODE=ours``), one with SciPy's own behind the same counting
wrappers (``SCIPY_SUITE_MODE=scipy``).  Every test that passes on plain SciPy
must pass with the drop-in.  Both run at once (about 20 s each on two cores).

Which files: the six whose tests call the functions the drop-in implements.
``test_conversions``, ``test_graph_laplacian``, ``test_matching`` and
``test_reordering`` test functions that ``graphs.csgraph`` re-exports from
SciPy unchanged (``csgraph_from_dense``, ``laplacian``, the matchings,
``reverse_cuthill_mckee``, ``structural_rank``): run through the plugin, none
of their tests reaches a replaced function, so they are left out.  For the
same reason ``test_pydata_sparse``'s ``min_weight_full_bipartite_matching``
tests (SciPy's own matching, 7 s) are deselected.  No test is deselected for
failing: every selected test passes on plain SciPy 1.17.1 (its ``DOK``
cases are SciPy's own expected failures, ``xfail``).

The suite skips when SciPy was installed without its tests.  Its pydata
tests need the ``sparse`` package (in the ``test`` extra); without it SciPy
skips them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import scipy.sparse.csgraph as scs

import graphs.csgraph as gcs

pytestmark = pytest.mark.slow  # two pytest subprocesses over SciPy's csgraph tests

SCIPY_TESTS = Path(scs.__file__).parent / "tests"
FILES = ["test_shortest_path", "test_traversal", "test_connected_components", "test_spanning_tree", "test_flow",
         "test_pydata_sparse"]
DESELECT = "not min_weight_full_bipartite_matching"  # SciPy's own matching, re-exported: never reaches the drop-in
HERE = Path(__file__).resolve().parent


def _start(mode: str, folder: Path) -> tuple[subprocess.Popen, Path]:
    folder.mkdir()
    report = folder / "report.json"
    env = {**os.environ, "SCIPY_SUITE_MODE": mode, "SCIPY_SUITE_REPORT": str(report),
           "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-o", "addopts=",
           "-p", "scipy_suite_plugin", "--rootdir", str(folder), "-k", DESELECT,
           "--pyargs", *(f"scipy.sparse.csgraph.tests.{name}" for name in FILES)]
    return subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), report


def _finish(proc: subprocess.Popen, report: Path) -> dict:
    try:
        out, _ = proc.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"SciPy's csgraph tests did not finish in 600 s:\n{out[-5000:]}")
    assert report.exists(), f"the run wrote no report (exit status {proc.returncode}):\n{out[-5000:]}"
    result = json.loads(report.read_text())
    result["output"] = out
    return result


def test_scipy_csgraph_tests_pass_on_graphs_csgraph(tmp_path):
    missing = [name for name in FILES if not (SCIPY_TESTS / f"{name}.py").exists()]
    if missing:
        pytest.skip(f"SciPy's csgraph tests are not installed ({', '.join(missing)} not in {SCIPY_TESTS})")
    runs = {mode: _start(mode, tmp_path / mode) for mode in ("scipy", "ours")}
    plain, ours = (_finish(*runs[mode]) for mode in ("scipy", "ours"))

    own = sorted(n for n in gcs.__all__ if getattr(gcs, n) is not getattr(scs, n, None)
                 and callable(getattr(gcs, n)) and not isinstance(getattr(gcs, n), type))
    assert ours["replaced"] == own and plain["replaced"] == own  # every function the drop-in implements

    counts = {mode: Counter(t["outcome"] for t in r["tests"].values()) for mode, r in (("scipy", plain), ("ours", ours))}
    reached = {k for k, t in ours["tests"].items() if t["reached"]}
    print(f"SciPy's csgraph tests: plain SciPy {dict(counts['scipy'])}; graphs.csgraph {dict(counts['ours'])}; "
          f"{len(reached)} of them call the drop-in")

    assert set(ours["tests"]) == set(plain["tests"])
    assert counts["scipy"]["passed"] >= 100, plain["output"][-5000:]  # the baseline ran
    regressions = {k: ours["tests"][k]["outcome"] for k, t in plain["tests"].items()
                   if t["outcome"] == "passed" and ours["tests"][k]["outcome"] != "passed"}
    assert not regressions, f"{regressions}\n{ours['output'][-8000:]}"
    # a test that fails on plain SciPy too is SciPy's own problem: deselect it in DESELECT, saying so
    scipy_failures = sorted(k for k, t in plain["tests"].items() if t["outcome"] in ("failed", "error"))
    assert not scipy_failures, f"these fail on plain SciPy: deselect them with a comment: {scipy_failures}"
    # the replacement reached every file's tests (a replacement that missed would leave SciPy's code under test)
    assert {k.split("::")[0].removesuffix(".py") for k in reached} >= set(FILES) - {"test_pydata_sparse"}
    if _has_pydata_sparse():
        assert any(k.startswith("test_pydata_sparse.py") and ours["tests"][k]["outcome"] == "passed" for k in reached)


def _has_pydata_sparse() -> bool:
    try:
        import sparse  # noqa: F401
    except ImportError:
        return False
    return True
