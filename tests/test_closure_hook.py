"""``Semiring.closure`` without an upward import: the provider registry and its entry-point fallback."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

import apsp
import semiring as sr
from semiring import closure_hook
from semiring.errors import UnsupportedOperationError

ROOT = Path(__file__).resolve().parents[1]
A = np.array([[0.0, 3.0, np.inf], [np.inf, 0.0, -1.0], [2.0, np.inf, 0.0]])


@pytest.fixture
def provider():
    """Put back whatever provider was registered before the test."""
    saved = closure_hook.registered_closure()
    yield
    closure_hook.register_closure(saved)


def _fake_distribution(where: Path, entry: str, module: str | None = None, source: str = "") -> None:
    """A distribution on ``where`` that declares ``entry`` in the closure group (and a module to load)."""
    info = where / "semiring_paths_hook_test-0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: semiring-paths-hook-test\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text(f"[{closure_hook.ENTRY_POINT_GROUP}]\n{entry}\n")
    if module is not None:
        (where / f"{module}.py").write_text(textwrap.dedent(source))


def test_importing_apsp_registers_its_closure():
    assert closure_hook.registered_closure() is apsp.closure
    np.testing.assert_array_equal(sr.min_plus.closure(A), apsp.closure(A))
    np.testing.assert_array_equal(sr.min_plus.array(A).star().data, apsp.shortest_paths(A))
    D, P = sr.min_plus.closure(A, predecessors=True)  # keyword arguments reach the provider
    assert apsp.path(P, 2, 1) == [2, 0, 1]


def test_a_registered_provider_receives_the_semiring_and_the_keywords(provider):
    calls = []

    def fake(M, semiring, **kwargs):
        calls.append((semiring, kwargs))
        return ~M if M.dtype == bool else M + 1

    previous = closure_hook.register_closure(fake)
    assert previous is apsp.closure
    np.testing.assert_array_equal(sr.max_min.closure(np.zeros((2, 2)), method="fw"), np.ones((2, 2)))
    np.testing.assert_array_equal(sr.lor_land.array(np.zeros((1, 1), bool)).star(block_size=4).data, [[True]])
    assert calls == [(sr.max_min, {"method": "fw"}), (sr.lor_land, {"block_size": 4})]


def test_register_rejects_what_is_not_callable(provider):
    with pytest.raises(TypeError, match="callable"):
        closure_hook.register_closure(42)
    assert closure_hook.registered_closure() is apsp.closure


def test_no_provider_is_an_unsupported_operation(provider, monkeypatch):
    closure_hook.register_closure(None)
    monkeypatch.setattr(closure_hook, "entry_points", lambda group: [])
    with pytest.raises(UnsupportedOperationError, match="import apsp"):
        sr.min_plus.closure(A)
    with pytest.raises(UnsupportedOperationError, match="import apsp"):
        sr.min_plus.array(A).star()
    assert isinstance(UnsupportedOperationError("x"), ValueError)


def test_the_entry_point_is_loaded_when_nothing_is_registered(provider, monkeypatch, tmp_path):
    _fake_distribution(
        tmp_path,
        "_hook_test = hook_test_provider:closure",  # sorts before "apsp": this one is taken
        "hook_test_provider",
        """
        calls = []

        def closure(A, semiring, **kwargs):
            calls.append(semiring.name)
            return A
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "hook_test_provider", raising=False)
    closure_hook.register_closure(None)
    sr.min_plus.closure(A)
    sr.max_plus.closure(A)
    import hook_test_provider

    assert hook_test_provider.calls == ["min_plus", "max_plus"]
    assert closure_hook.registered_closure() is hook_test_provider.closure  # looked up once, then kept
    monkeypatch.delitem(sys.modules, "hook_test_provider")


def test_an_entry_point_that_fails_to_load_is_named(provider, monkeypatch, tmp_path):
    _fake_distribution(tmp_path, "_hook_test = no_such_module_for_the_hook_test:closure")
    monkeypatch.syspath_prepend(str(tmp_path))
    closure_hook.register_closure(None)
    with pytest.raises(UnsupportedOperationError, match="_hook_test.*failed to load") as info:
        sr.min_plus.closure(A)
    assert isinstance(info.value.__cause__, ImportError)


def test_the_project_declares_apsp_as_its_closure_entry_point():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = meta["project"]["entry-points"][closure_hook.ENTRY_POINT_GROUP]
    assert declared == {"apsp": "apsp.api:closure"}
    module, _, name = declared["apsp"].partition(":")
    assert getattr(sys.modules[module], name) is apsp.closure


def test_semiring_alone_finds_the_closure_through_the_declared_entry_point(tmp_path):
    """A fresh interpreter that imports only ``semiring`` (the entry point as pyproject.toml declares it)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    entry = meta["project"]["entry-points"][closure_hook.ENTRY_POINT_GROUP]["apsp"]
    _fake_distribution(tmp_path, f"apsp = {entry}")
    script = textwrap.dedent(
        """
        import sys
        import numpy as np
        import semiring

        assert "apsp" not in sys.modules
        A = np.array([[0.0, 4.0], [np.inf, 0.0]])
        print(semiring.min_plus.closure(A).tolist(), "apsp" in sys.modules)
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[[0.0,", "4.0],", "[inf,", "0.0]]", "True"]


def test_semiring_has_no_import_of_apsp():
    """The layering rule: nothing under semiring/ imports apsp (function-level imports included)."""
    offenders = []
    for path in (ROOT / "semiring").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] == "apsp"]
    assert offenders == []
