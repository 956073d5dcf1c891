"""The version of the semiring-paths distribution, one source for all its packages.

``semiring.__version__``, ``apsp.__version__`` and ``graphs.__version__`` all
read :data:`__version__` from here: the installed distribution's metadata
(``pyproject.toml``'s ``version``), or :data:`FALLBACK_VERSION` when the
packages run from a source tree that was never installed.

>>> from semiring._version import __version__
>>> __version__.count(".") >= 2
True
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__", "FALLBACK_VERSION"]

FALLBACK_VERSION = "0.1.0"  # keep equal to pyproject.toml's version

try:
    __version__: str = version("semiring-paths")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = FALLBACK_VERSION
