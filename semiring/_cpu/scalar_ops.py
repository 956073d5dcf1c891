"""Scalar ``add`` / ``mul`` of each built-in semiring family, as Numba functions.

Every operation takes the dtype's sentinels ``lo`` (stands for ``-inf``) and
``hi`` (stands for ``+inf``) so that integer arithmetic saturates instead of
wrapping; the float versions ignore them.  The functions are ``inline='always'``
so that the GEMM kernels built from them vectorise as if they were written out.

``OPS[family] = (add, mul)``; :func:`ops_for` returns the pair for a semiring.

The ``_v`` functions are the same operations on SIMD vectors (:mod:`.simd`),
lane by lane, with the same signature (``lo`` / ``hi`` stay scalars):
``VOPS[(family, dtype char)] = (vadd, vmul)`` lists the families and dtypes
that have them, and :func:`vector_ops_for` looks them up.  The GEMM template
uses them in its register-blocked micro-kernel.  For every non-NaN input they
give exactly the scalar result; the integer ones assume that ``lo`` / ``hi``
are the dtype's minimum / maximum, which is what the kernels pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .simd import vadd, vadds, veq, vmax, vmin, vmul, vmuls, vor, vselect, vsplat_like

__all__ = ["OPS", "VOPS", "ops_for", "vector_ops_for"]


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
    """a + b clamped to [lo, hi] without wrap-around.

    The sum is formed in unsigned 64-bit arithmetic, where wrap-around is
    defined behaviour (a signed overflow test could be folded away by LLVM);
    the sign test then detects int64 overflow.  int32 operands fit exactly.
    """
    s = np.int64(np.uint64(np.int64(a)) + np.uint64(np.int64(b)))
    if ((np.int64(a) ^ s) & (np.int64(b) ^ s)) < 0:
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
def _magnitude(x):
    """|x| as uint64 (exact for every int64, including the minimum)."""
    x = np.int64(x)
    return np.uint64(x) if x >= 0 else np.uint64(0) - np.uint64(x)


@njit(inline="always")
def _times_int(a, b, lo, hi):
    """a * b clamped to [lo, hi]: exact unless the true product leaves the range.

    Works on magnitudes in unsigned arithmetic (defined wrap-around), so the
    overflow test cannot be optimised away.
    """
    neg = (a < 0) != (b < 0)
    ua = _magnitude(a)
    ub = _magnitude(b)
    if ua != 0 and ub > np.uint64(0xFFFFFFFFFFFFFFFF) // ua:
        return lo if neg else hi
    p = ua * ub
    if neg:
        if p >= _magnitude(lo):
            return lo
        return -np.int64(p)
    if p >= np.uint64(hi):
        return hi
    return np.int64(p)


# --------------------------------------------------------------------------- vector versions


@njit(inline="always")
def _min_v(a, b, lo, hi):
    return vmin(a, b)


@njit(inline="always")
def _max_v(a, b, lo, hi):
    return vmax(a, b)


@njit(inline="always")
def _plus_float_v(a, b, lo, hi):
    return vadd(a, b)


@njit(inline="always")
def _times_float_v(a, b, lo, hi):
    return vmul(a, b)


@njit(inline="always")
def _sat_sum_v(a, b, lo, hi):
    # Saturating add: equals _sat_sum when [lo, hi] is the dtype's whole range.
    return vadds(a, b)


@njit(inline="always")
def _plus_minplus_int_v(a, b, lo, hi):
    h = vsplat_like(a, hi)
    return vselect(vor(veq(a, h), veq(b, h)), h, vadds(a, b))


@njit(inline="always")
def _plus_maxplus_int_v(a, b, lo, hi):
    lw = vsplat_like(a, lo)
    return vselect(vor(veq(a, lw), veq(b, lw)), lw, vadds(a, b))


@njit(inline="always")
def _times_int_v(a, b, lo, hi):
    # Product clamped to the dtype's range: equals _times_int for the dtype's lo / hi.
    return vmuls(a, b)


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


# Vector (vadd, vmul) by (family, dtype char: f/d float32/64, i/l int32/int64).
# lor_land has none: it runs on the bit-packed Boolean kernel.
VOPS = {}
for _c in "fd":
    VOPS[("min_plus", _c)] = (_min_v, _plus_float_v)
    VOPS[("max_plus", _c)] = (_max_v, _plus_float_v)
    VOPS[("max_min", _c)] = (_max_v, _min_v)
    VOPS[("min_max", _c)] = (_min_v, _max_v)
    VOPS[("plus_times", _c)] = (_plus_float_v, _times_float_v)
    VOPS[("max_times", _c)] = (_max_v, _times_float_v)
for _c in "il":
    VOPS[("min_plus", _c)] = (_min_v, _plus_minplus_int_v)
    VOPS[("max_plus", _c)] = (_max_v, _plus_maxplus_int_v)
    VOPS[("max_min", _c)] = (_max_v, _min_v)
    VOPS[("min_max", _c)] = (_min_v, _max_v)
    VOPS[("plus_times", _c)] = (_sat_sum_v, _times_int_v)
    VOPS[("max_times", _c)] = (_max_v, _times_int_v)


def vector_ops_for(family: str | None, dtype) -> tuple | None:
    """The vector ``(vadd, vmul)`` pair of a built-in family in ``dtype``, or ``None`` if there is none.

    >>> vector_ops_for("min_plus", np.float32)[0].__name__
    '_min_v'
    >>> vector_ops_for("lor_land", np.bool_) is None
    True
    """
    dt = np.dtype(dtype)
    if family is None or dt.itemsize not in (4, 8) or dt.kind not in "fi":
        return None
    char = {("f", 4): "f", ("f", 8): "d", ("i", 4): "i", ("i", 8): "l"}[(dt.kind, dt.itemsize)]
    return VOPS.get((family, char))


def ops_for(family: str, kind: str):
    """Return the ``(add, mul)`` Numba pair for a built-in family and dtype kind.

    >>> add, mul = ops_for("min_plus", "f")
    >>> mul(2.0, 3.0, 0.0, 0.0)
    5.0
    """
    return OPS[(family, kind)]

