"""The two test tiers: what each holds, and that CI runs both.

The fast tier (the README's test command) must still reach every test module
and every semiring family and dtype; the slow tier holds the suites that run as
subprocesses, the notebooks and the rest of the cross products.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tiers import FAST_PAIRS, NUMERIC, in_fast_tier, tiered

from semiring.families import FAMILIES

ROOT = Path(__file__).resolve().parents[1]

#: Test modules that belong to the slow tier as a whole, and why.
WHOLLY_SLOW = {
    "test_scipy_csgraph_suite.py": "SciPy's own csgraph tests, two pytest subprocesses",
    "test_distributed_memory.py": "Dask clusters paused and restarted on purpose",
    "test_distributed_bench.py": "the distributed benchmark's scaling run",
    "test_cuda_sources_build.py": "every CUDA source compiled by nvcc, in a subprocess",
}


@pytest.fixture(scope="module")
def tiers():
    """The suite's tests by tier, from one collection of everything (``-m ""``) with :mod:`tiers` as a plugin."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "tiers",
                          "-n", "0", "-m", "", "tests", "notebooks"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    lines = [line.split(" ", 1) for line in out.stdout.splitlines() if line.startswith(("FAST ", "SLOW "))]
    return {tier: {t for k, t in lines if k == tier.upper()} for tier in ("fast", "slow")}


def test_ci_runs_the_readme_command_then_the_slow_tier():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"# install and run the tests.*\n(.*)\n", readme).group(1)
    assert command == 'python3 -m pip install -e ".[test]" && python3 -m pytest'
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert command in ci and "python3 -m pytest -m slow" in ci
    assert ci.index("python3 -m pytest -m slow") > ci.index(command)


def test_the_tiers_split_the_suite(tiers):
    fast, slow = tiers["fast"], tiers["slow"]
    assert fast and slow and not fast & slow
    run = [t for t in fast | slow if t.split("::")[0].endswith(".ipynb")]  # nbmake's items: a notebook run
    assert len(run) >= 4 and set(run) <= slow
    assert "tests/test_nx_backend.py::test_networkx_own_tests_through_the_backend" in slow


def test_every_test_module_has_fast_tests(tiers):
    """Every module collected here (GPU-only ones are not, without a GPU) has tests in the fast tier."""
    fast = {t.split("::")[0] for t in tiers["fast"]}
    slow = {t.split("::")[0] for t in tiers["slow"]}
    modules = {m for m in fast | slow if m.startswith("tests/")}
    assert {m for m in modules - fast} == {f"tests/{name}" for name in WHOLLY_SLOW}


def test_the_fast_tier_meets_every_family_and_every_dtype():
    pairs = [(name, str(dt)) for name, fam in FAMILIES.items() for dt in fam.dtypes]
    fast = [p for p in pairs if in_fast_tier(*p)]
    assert {name for name, _ in fast} == set(FAMILIES)
    assert {dt for _, dt in fast} == {str(dt) for fam in FAMILIES.values() for dt in fam.dtypes}
    assert {dt for name, dt in fast if name == "min_plus"} == set(NUMERIC)
    assert len(fast) < len(pairs) / 2
    assert set(FAST_PAIRS) == set(FAMILIES)


def test_tiered_marks_only_the_pairs_outside_the_fast_tier():
    cases = [("min_plus", np.dtype("int64")), ("max_plus", np.dtype("int64")), ("lor_land", np.dtype(bool))]
    params = tiered(cases, tuple, lambda c: f"{c[0]}-{c[1]}")
    slow = [p.id for p in params if any(m.name == "slow" for m in p.marks)]
    assert slow == ["max_plus-int64"]
    assert [p.values[0] for p in params] == cases
