"""pytest plugin that runs SciPy's own ``scipy.sparse.csgraph`` tests against :mod:`graphs.csgraph`.

Loaded with ``-p scipy_suite_plugin`` (this folder on ``PYTHONPATH``) by
``tests/test_scipy_csgraph_suite.py``, in a pytest run of SciPy's installed
test modules.  When pytest configures the plugin, before it imports any test
module, every public function of ``scipy.sparse.csgraph`` that the drop-in
implements itself (``graphs.csgraph.X is not scipy.sparse.csgraph.X``; classes
are left alone) is replaced by the drop-in's, in ``scipy.sparse.csgraph`` and
in each of its submodules that holds it (``_shortest_path``, ``_traversal``,
``_min_spanning_tree``, ``_flow``, ``_tools``, ``_validation``, ...), so both
``from scipy.sparse.csgraph import shortest_path`` and ``from
.._min_spanning_tree import minimum_spanning_tree`` in SciPy's tests get ours.
The drop-in keeps its own references to SciPy's originals, so it never calls
itself through a replaced name.  Importing this module changes nothing (pytest's
doctest collection of ``tests/`` imports it); only ``-p scipy_suite_plugin`` does.

Each replacement counts its calls, so the report says which tests reached a
replaced function.  Environment:

``SCIPY_SUITE_MODE``
    ``"ours"`` (the default): the drop-in's functions.  ``"scipy"``: SciPy's
    own, behind the same counting wrappers (the plain-SciPy baseline of the
    same harness).
``SCIPY_SUITE_REPORT``
    A JSON file written when the session ends: ``{"mode": ..., "replaced":
    [names], "tests": {"file.py::test": {"outcome": ..., "reached": bool}}}``, where
    the outcome is ``passed``, ``failed``, ``skipped``, ``xfailed``,
    ``xpassed`` or ``error``.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sys

import pytest
import scipy.sparse.csgraph as _scs

import graphs.csgraph as _gcs

MODE = os.environ.get("SCIPY_SUITE_MODE", "ours")
REPLACED: list[str] = []

_calls = [0]
_results: dict[str, dict] = {}


def _counting(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        _calls[0] += 1
        return f(*args, **kwargs)

    return wrapper


def _csgraph_modules():
    return [m for name, m in list(sys.modules.items())
            if m is not None and (name == "scipy.sparse.csgraph" or name.startswith("scipy.sparse.csgraph."))]


def _replace_all() -> list[str]:
    """Put the drop-in's functions (``"ours"``) or counted SciPy ones (``"scipy"``) wherever SciPy's are bound."""
    replaced = []
    for name in _gcs.__all__:
        ours, theirs = getattr(_gcs, name), getattr(_scs, name, None)
        if theirs is None or ours is theirs or inspect.isclass(theirs) or not callable(ours):
            continue
        stand_in = _counting(ours if MODE == "ours" else theirs)
        for module in _csgraph_modules():
            for attr, value in list(vars(module).items()):
                if value is theirs:
                    setattr(module, attr, stand_in)
        replaced.append(name)
    return sorted(replaced)


def pytest_configure(config):
    if MODE not in ("ours", "scipy"):
        raise pytest.UsageError(f"SCIPY_SUITE_MODE must be 'ours' or 'scipy', got {MODE!r}")
    if not REPLACED:
        REPLACED.extend(_replace_all())


def _key(nodeid: str, path) -> str:
    """``file.py::test[params]``: the test's own file (``--pyargs`` node ids outside the root lack it)."""
    return f"{os.path.basename(str(path))}::{nodeid.split('::', 1)[-1]}"


_current = [""]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _calls[0] = 0
    _current[0] = key = _key(item.nodeid, item.path)
    yield
    if key in _results:
        _results[key]["reached"] = _calls[0] > 0


def pytest_runtest_logreport(report):
    entry = _results.setdefault(_current[0], {"outcome": "passed", "reached": False})
    if report.when == "call" or (report.when == "setup" and not report.passed):
        if hasattr(report, "wasxfail"):
            entry["outcome"] = "xpassed" if report.passed else "xfailed"
        elif report.skipped:
            entry["outcome"] = "skipped"
        elif report.failed:
            entry["outcome"] = "failed" if report.when == "call" else "error"
    elif report.when == "teardown" and report.failed:
        entry["outcome"] = "error"


def pytest_report_header(config):
    return f"scipy_suite_plugin: mode {MODE}, replaced {', '.join(REPLACED)}"


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("SCIPY_SUITE_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump({"mode": MODE, "replaced": REPLACED, "tests": _results}, f, indent=1, sort_keys=True)
