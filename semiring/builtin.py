"""The built-in semirings, named as in python-graphblas.

========== ======= ======= ======= ======= ======================================
name       add     mul     zero    one     used for
========== ======= ======= ======= ======= ======================================
min_plus   min     +       +inf    0       shortest paths (alias ``tropical``)
max_plus   max     +       -inf    0       longest paths in DAGs, scheduling
max_min    max     min     -inf    +inf    widest (bottleneck) paths
min_max    min     max     +inf    -inf    minimax paths
lor_land   or      and     False   True    reachability, transitive closure
plus_times +       *       0       1       path counting, ordinary algebra
max_times  max     *       0       1       most reliable path, Viterbi
========== ======= ======= ======= ======= ======================================

Numeric semirings accept float32, float64, int32 and int64; ``lor_land`` accepts
bool only.  Integer infinities are saturating sentinels (:mod:`semiring.dtypes`);
integer ``plus_times`` and ``max_times`` saturate at the dtype's range too.
"""

from __future__ import annotations

import math

import numpy as np

from .core import Semiring
from .dtypes import BOOL_DTYPES, NUMERIC_DTYPES

__all__ = [
    "min_plus",
    "tropical",
    "max_plus",
    "max_min",
    "min_max",
    "lor_land",
    "plus_times",
    "max_times",
    "BUILTIN",
    "get",
]

INF = math.inf

min_plus = Semiring(
    "min_plus", np.minimum, np.add, zero=INF, one=0, idempotent=True, selective=True,
    dtypes=NUMERIC_DTYPES, family="min_plus", forbidden=(-INF,),
)
tropical = min_plus
max_plus = Semiring(
    "max_plus", np.maximum, np.add, zero=-INF, one=0, idempotent=True, selective=True,
    dtypes=NUMERIC_DTYPES, family="max_plus", forbidden=(INF,),
)
max_min = Semiring(
    "max_min", np.maximum, np.minimum, zero=-INF, one=INF, idempotent=True, selective=True,
    dtypes=NUMERIC_DTYPES, family="max_min",
)
min_max = Semiring(
    "min_max", np.minimum, np.maximum, zero=INF, one=-INF, idempotent=True, selective=True,
    dtypes=NUMERIC_DTYPES, family="min_max",
)
lor_land = Semiring(
    "lor_land", np.logical_or, np.logical_and, zero=False, one=True, idempotent=True, selective=True,
    dtypes=BOOL_DTYPES, family="lor_land",
)
plus_times = Semiring(
    "plus_times", np.add, np.multiply, zero=0, one=1, dtypes=NUMERIC_DTYPES, family="plus_times",
    forbidden=(INF, -INF),
)
max_times = Semiring(
    "max_times", np.maximum, np.multiply, zero=0, one=1, idempotent=True, selective=True,
    dtypes=NUMERIC_DTYPES, family="max_times", nonnegative=True, forbidden=(INF,),
)

BUILTIN: dict[str, Semiring] = {
    s.name: s for s in (min_plus, max_plus, max_min, min_max, lor_land, plus_times, max_times)
}
BUILTIN["tropical"] = min_plus


def get(name: str | Semiring) -> Semiring:
    """Look a built-in semiring up by name (a :class:`Semiring` passes through).

    >>> get("tropical").name
    'min_plus'
    >>> get("min_min")
    Traceback (most recent call last):
    ...
    semiring.errors.SemiringError: unknown semiring 'min_min'; built-in: lor_land, max_min, max_plus, max_times, min_max, min_plus, plus_times, tropical
    """
    from .errors import SemiringError

    if isinstance(name, Semiring):
        return name
    try:
        return BUILTIN[name]
    except (KeyError, TypeError):
        raise SemiringError(f"unknown semiring {name!r}; built-in: {', '.join(sorted(BUILTIN))}") from None
