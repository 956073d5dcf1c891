"""Packaging basics: one version in every package, the licence file, the project URLs, the console script."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

import apsp
import graphs
import semiring

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_has_the_same_version():
    assert semiring.__version__ == apsp.__version__ == graphs.__version__
    assert "__version__" in semiring.__all__ and "__version__" in apsp.__all__ and "__version__" in graphs.__all__


def test_version_matches_pyproject_and_the_fallback():
    from semiring._version import FALLBACK_VERSION

    assert FALLBACK_VERSION == PYPROJECT["project"]["version"]
    try:
        installed = version("semiring-paths")
    except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        pytest.skip("semiring-paths is not installed")
    assert semiring.__version__ == installed


def test_licence_file_matches_the_declared_licence():
    assert PYPROJECT["project"]["license"] == {"text": "BSD-3-Clause"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "Copyright (c) 2026, the semiring-paths developers" in text
    assert "Neither the name of the copyright holder" in text


def test_project_urls():
    urls = PYPROJECT["project"]["urls"]
    home = "https://github.com/semiring-paths/semiring-paths"
    assert urls["Homepage"] == urls["Source"] == home
    assert urls["Issues"] == home + "/issues"
    assert urls["Documentation"].startswith(home)


def test_console_script_entry_point():
    assert PYPROJECT["project"]["scripts"] == {"semiring-paths": "graphs.cli:main"}
    from graphs.cli import main

    assert callable(main)


def test_the_distribution_name_is_a_package_of_the_three_layers():
    import semiring_paths

    assert semiring_paths.apsp is apsp and semiring_paths.graphs is graphs and semiring_paths.semiring is semiring
    assert semiring_paths.__version__ == semiring.__version__
    assert sorted(semiring_paths.__all__) == ["__version__", "apsp", "graphs", "semiring"]
    assert "semiring_paths*" in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
