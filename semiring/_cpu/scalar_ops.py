"""Scalar ``add`` / ``mul`` of each built-in semiring family, as Numba functions.

Every operation takes the dtype's sentinels ``lo`` (stands for ``-inf``) and
``hi`` (stands for ``+inf``) so that integer arithmetic saturates instead of
wrapping; the float versions ignore them.  The functions are ``inline='always'``
so that the GEMM kernels built from them vectorise as if they were written out.

``OPS[family] = (add, mul)``; :func:`ops_for` returns the pair for a semiring.
"""

from __future__ import annotations

from numba import njit

__all__ = ["OPS", "ops_for"]


@njit(inline="always")
def _min(a, b, lo, hi):
    return a if a <= b else b


@njit(inline="always")
def _max(a, b, lo, hi):
    return a if a >= b else b


@njit(inline="always")
def _or(a, b, lo, hi):
    return a or b


@njit(inline="always")
def _and(a, b, lo, hi):
    return a and b


@njit(inline="always")
def _clamp(s, lo, hi):
    if s >= hi:
        return hi
    if s <= lo:
        return lo
    return s


@njit(inline="always")
def _sat_sum(a, b, lo, hi):
    """a + b clamped to [lo, hi] without wrap-around (int32 widens; int64 checks)."""
    s = a + b
    # int64 overflow: operands share a sign that the wrapped sum lost.
    if (a > 0 and b > 0 and s < a) or (a < 0 and b < 0 and s > a):
        return hi if a > 0 else lo
    return _clamp(s, lo, hi)


@njit(inline="always")
def _plus_minplus_int(a, b, lo, hi):
    # +inf (hi) absorbs; everything else saturates.
    if a == hi or b == hi:
        return hi
    return _sat_sum(a, b, lo, hi)


@njit(inline="always")
def _plus_maxplus_int(a, b, lo, hi):
    # -inf (lo) absorbs; everything else saturates.
    if a == lo or b == lo:
        return lo
    return _sat_sum(a, b, lo, hi)


@njit(inline="always")
def _plus_float(a, b, lo, hi):
    return a + b


@njit(inline="always")
def _times_float(a, b, lo, hi):
    return a * b


@njit(inline="always")
def _times_int(a, b, lo, hi):
    """a * b clamped to [lo, hi]: exact unless the true product leaves the range."""
    p = a * b
    f = float(a) * float(b)
    if f > 4.0e18 or f < -4.0e18 or (hi < 2**40 and (f >= hi or f <= lo)):
        # Near or past the int64 edge (or past the int32 range): decide exactly.
        if a != 0 and (p // a != b or (a == -1 and b == lo)):
            return hi if (a > 0) == (b > 0) else lo
        return _clamp(p, lo, hi)
    return p


OPS = {
    ("min_plus", "f"): (_min, _plus_float),
    ("min_plus", "i"): (_min, _plus_minplus_int),
    ("max_plus", "f"): (_max, _plus_float),
    ("max_plus", "i"): (_max, _plus_maxplus_int),
    ("max_min", "f"): (_max, _min),
    ("max_min", "i"): (_max, _min),
    ("min_max", "f"): (_min, _max),
    ("min_max", "i"): (_min, _max),
    ("plus_times", "f"): (_plus_float, _times_float),
    ("plus_times", "i"): (_sat_sum, _times_int),
    ("max_times", "f"): (_max, _times_float),
    ("max_times", "i"): (_max, _times_int),
    ("lor_land", "b"): (_or, _and),
}


def ops_for(family: str, kind: str):
    """Return the ``(add, mul)`` Numba pair for a built-in family and dtype kind.

    >>> add, mul = ops_for("min_plus", "f")
    >>> mul(2.0, 3.0, 0.0, 0.0)
    5.0
    """
    return OPS[(family, kind)]

