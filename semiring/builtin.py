"""The built-in semirings, named as in python-graphblas, built from :data:`semiring.families.FAMILIES`.

Each entry of the family table becomes a :class:`~semiring.core.Semiring`
object, bound here (and in :mod:`semiring`) under its name and its aliases:

{table}

Numeric semirings accept float32, float64, int32 and int64; ``lor_land`` accepts
bool only.  Integer infinities are saturating sentinels (:mod:`semiring.dtypes`);
integer sums and products saturate at the dtype's range and never wrap (the exact
rules of each operation: :data:`semiring.families.PRIMITIVES`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core import Semiring
from .errors import SemiringError
from .families import FAMILIES, PRIMITIVES, Family, rst_table

__doc__ = __doc__.replace("{table}", rst_table())


def _semiring_of(f: Family) -> Semiring:
    """The :class:`Semiring` of one table entry."""
    return Semiring(
        f.name, PRIMITIVES[f.add].ufunc, PRIMITIVES[f.mul].ufunc, zero=f.zero, one=f.one,
        idempotent=f.idempotent, selective=f.selective, dtypes=f.dtypes, family=f.name,
        nonnegative=f.nonnegative, forbidden=f.forbidden,
    )


BUILTIN: dict[str, Semiring] = {}
for _f in FAMILIES.values():
    BUILTIN[_f.name] = _semiring_of(_f)
    for _alias in _f.aliases:
        BUILTIN[_alias] = BUILTIN[_f.name]
del _f, _alias

# The semirings as module attributes: min_plus, tropical, max_plus, max_min, ...
globals().update(BUILTIN)
if TYPE_CHECKING:  # the names bound above, for type checkers (tests/test_typing.py checks the list)
    lor_land: Semiring
    max_min: Semiring
    max_plus: Semiring
    max_times: Semiring
    min_max: Semiring
    min_plus: Semiring
    min_second: Semiring
    min_times: Semiring
    plus_pair: Semiring
    plus_times: Semiring
    tropical: Semiring

__all__ = [*BUILTIN, "BUILTIN", "get"]


def get(name: str | Semiring) -> Semiring:
    """Look a built-in semiring up by name (a :class:`Semiring` passes through).

    >>> get("tropical").name
    'min_plus'
    >>> get("min_min")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    semiring.errors.SemiringError: unknown semiring 'min_min'; built-in: lor_land, max_min, max_plus, ...
    """
    if isinstance(name, Semiring):
        return name
    try:
        return BUILTIN[name]
    except (KeyError, TypeError):
        raise SemiringError(f"unknown semiring {name!r}; built-in: {', '.join(sorted(BUILTIN))}") from None
