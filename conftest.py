"""Test-session setup shared by the doctests in the packages and tests/.

GPU modules (``semiring/cuda``) import CuPy at module level; their doctests are
only collected where a CUDA GPU is usable.

Hypothesis runs under one of two profiles:

- ``ci`` (chosen when the ``CI`` environment variable is set, as on the
  continuous-integration machine): ``derandomize=True``, so every run draws the
  same examples and a red run is reproducible and never a matter of luck; no
  example database, so nothing from earlier runs changes what is drawn.
- ``dev`` (everywhere else): a fresh random seed on every run, so local runs keep
  exploring new examples (``--hypothesis-seed=N`` replays one).

``HYPOTHESIS_PROFILE=ci`` (or ``dev``) picks one explicitly. Neither sets a
deadline: tests that call Numba kernels may compile on their first example.

Two tiers: ``python3 -m pytest`` runs the fast one (``-m "not slow"`` in
``pyproject.toml``), ``python3 -m pytest -m slow`` the slow one, which holds the
tests marked ``slow`` and, marked here (:func:`pytest_collection_modifyitems`),
the notebooks and NetworkX's own suite; ``tests/tiers.py`` says which cases of a
semiring-by-dtype cross product the fast tier keeps.  CI runs both.

The tests run in one pytest-xdist worker per core (``-n auto``), where no GPU
is present: most of a first run on a fresh checkout is Numba compiling kernels,
which is single-threaded.  With a GPU, in one process
(:func:`pytest_xdist_auto_num_workers`): the GPU tests size their work to one
device's memory.  ``-n 0`` runs everything in one process.

The planner estimates times from its constant rates during tests (see
``_planner_uses_its_constant_rates``), so that no route depends on the load.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from semiring.backend import gpu_available

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

collect_ignore_glob = [] if gpu_available() else ["*/cuda/*", "*/cuda_*.py"]


@pytest.fixture(autouse=True)
def _planner_uses_its_constant_rates(monkeypatch):
    """The planner's time estimates from its constant rates, not from rates measured now.

    Measured rates follow the machine's load, so a route chosen on them could
    change from run to run; tests of the measurement itself set
    ``apsp.planner.CALIBRATE_FROM`` back (or pass ``calibrate=True``).
    """
    import apsp.planner

    monkeypatch.setattr(apsp.planner, "CALIBRATE_FROM", float("inf"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config) -> int:
    """Workers for ``-n auto``: one per core this process may run on; none (one process) with a GPU."""
    if gpu_available():
        return 0
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The notebooks (run by nbmake) and NetworkX's own suite belong to the slow tier.

    ``tryfirst``: the mark is set before ``-m`` selects by it.
    """
    for item in items:
        if item.path.suffix == ".ipynb" or item.get_closest_marker("networkx_suite"):
            item.add_marker(pytest.mark.slow)
