"""The two test tiers, and which cases of a semiring-by-dtype cross product the fast one keeps.

``python3 -m pytest`` runs the fast tier: ``pyproject.toml``'s ``addopts`` hold
``-m "not slow"``.  ``python3 -m pytest -m slow`` runs the slow tier: NetworkX's
and SciPy's own suites, the notebooks, the large cases and the rest of the cross
products below.  CI runs both, one after the other (``.ci/run``).

A test over every (semiring, dtype) pair compiles one Numba kernel per pair, and
on a fresh checkout compiling is most of what such a test costs.  The fast tier
keeps a covering subset: ``min_plus`` (the closures' own semiring) in every
dtype, ``lor_land`` in ``bool``, and every other family in one dtype, chosen in
turn so that each dtype is met by two more families.  Every family and every
dtype is then tested in the fast tier, and every pair in the slow one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pytest

from semiring.families import FAMILIES

NUMERIC = ("float32", "float64", "int32", "int64")

#: The fast tier's pairs: family name -> the dtypes it is tested in there.
FAST_PAIRS: dict[str, tuple[str, ...]] = {"min_plus": NUMERIC}
_others = [name for name, fam in FAMILIES.items() if name != "min_plus" and set(map(str, fam.dtypes)) == set(NUMERIC)]
FAST_PAIRS.update({name: (NUMERIC[i % len(NUMERIC)],) for i, name in enumerate(_others)})
FAST_PAIRS.update({name: tuple(map(str, fam.dtypes)) for name, fam in FAMILIES.items() if name not in FAST_PAIRS})


def in_fast_tier(family: str, dtype: Any) -> bool:
    """Whether the pair ``(family, dtype)`` runs in the fast tier.

    >>> in_fast_tier("min_plus", "int32"), in_fast_tier("lor_land", "bool")
    (True, True)
    >>> sum(in_fast_tier(name, dt) for name in FAMILIES for dt in NUMERIC) == len(NUMERIC) + len(FAMILIES) - 2
    True
    """
    return str(np.dtype(dtype)) in FAST_PAIRS.get(family, ())


def tiered(cases: Iterable[Any], pair: Callable[[Any], tuple[str, Any]], ids: Callable[[Any], str]) -> list:
    """``cases`` as ``pytest.param``s, those whose ``pair(case)`` is outside the fast tier marked ``slow``.

    ``pair`` maps a case to its ``(family name, dtype)``; ``ids`` names the case.
    """
    return [pytest.param(c, id=ids(c), marks=() if in_fast_tier(*pair(c)) else pytest.mark.slow) for c in cases]


def pytest_collection_finish(session) -> None:
    """As a plugin (``-p tiers``): print each collected test with its tier, ``FAST id`` or ``SLOW id``."""
    for item in session.items:
        print(("SLOW " if item.get_closest_marker("slow") else "FAST ") + item.nodeid)
