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
from ._version import __version__
from .builtin import BUILTIN, get
from .core import Semiring
from .dtypes import neginf, posinf
from .einsum_api import einsum
from .errors import *  # noqa: F403 - the error classes, listed once in errors.__all__
from .wrapped import SemiringArray

# The built-in semirings (min_plus, tropical, max_plus, ...), one per entry of the
# family table (semiring.families.FAMILIES) plus aliases.
globals().update(BUILTIN)
if TYPE_CHECKING:  # the semirings bound above, for type checkers
    from .builtin import lor_land as lor_land
    from .builtin import max_min as max_min
    from .builtin import max_plus as max_plus
    from .builtin import max_times as max_times
    from .builtin import min_max as min_max
    from .builtin import min_plus as min_plus
    from .builtin import min_second as min_second
    from .builtin import min_times as min_times
    from .builtin import plus_pair as plus_pair
    from .builtin import plus_times as plus_times
    from .builtin import tropical as tropical


__all__ = [
    "__version__",
    "Semiring",
    "SemiringArray",
    *BUILTIN,
    "BUILTIN",
    "get",
    "einsum",
    "posinf",
    "neginf",
    *errors.__all__,
]
