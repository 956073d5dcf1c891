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
