"""semiring: linear algebra over semirings, on the CPU (Numba) and NVIDIA GPUs (CuPy).

>>> import numpy as np
>>> import semiring as sr
>>> A = np.array([[0.0, 2.0, np.inf], [np.inf, 0.0, 3.0], [1.0, np.inf, 0.0]])
>>> sr.min_plus.matmul(A, A)
array([[0., 2., 5.],
       [4., 0., 3.],
       [1., 3., 0.]])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors
from .errors import *  # noqa: F403 - the error classes, listed once in errors.__all__
from .lazy import lazy_attributes

if TYPE_CHECKING:
    from ._version import __version__
    from .builtin import (
        BUILTIN,
        get,
        lor_land,
        max_min,
        max_plus,
        max_times,
        min_max,
        min_plus,
        min_second,
        min_times,
        plus_pair,
        plus_times,
        tropical,
    )
    from .core import Semiring
    from .dtypes import neginf, posinf
    from .einsum_api import einsum
    from .wrapped import SemiringArray

# Each public name and the module that defines it, imported on first use (semiring.lazy, PEP 562):
# `import semiring` imports neither NumPy nor Numba.
__getattr__, __dir__ = lazy_attributes(__name__, {
    "__version__": "._version",
    "Semiring": ".core",
    "SemiringArray": ".wrapped",
    # The built-in semirings, one per entry of the family table (semiring.families.FAMILIES) plus aliases:
    # the keys of semiring.builtin.BUILTIN, in its order (tests/test_lazy_imports.py checks that they agree).
    **dict.fromkeys(["min_plus", "tropical", "max_plus", "max_min", "min_max", "lor_land", "plus_times", "max_times",
                     "min_times", "plus_pair", "min_second"], ".builtin"),
    "BUILTIN": ".builtin",
    "get": ".builtin",
    "einsum": ".einsum_api",
    "posinf": ".dtypes",
    "neginf": ".dtypes",
})

__all__ = [
    "__version__",
    "Semiring",
    "SemiringArray",
    "min_plus",
    "tropical",
    "max_plus",
    "max_min",
    "min_max",
    "lor_land",
    "plus_times",
    "max_times",
    "min_times",
    "plus_pair",
    "min_second",
    "BUILTIN",
    "get",
    "einsum",
    "posinf",
    "neginf",
    *errors.__all__,
]
