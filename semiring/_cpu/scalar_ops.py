"""The Numba implementations of the primitives of :data:`semiring.families.PRIMITIVES`, and ``OPS`` / ``VOPS``.

Every primitive (``"min"``, ``"plus_inf_absorbs"``, ``"times"``...) is
implemented here once per dtype kind, as a scalar function and, for numeric
kinds, as a SIMD-vector function (:mod:`.simd`):

* ``SCALAR[(primitive, kind)]`` with kind ``"f"`` (floats), ``"i"`` (signed
  integers) or ``"b"`` (bool);
* ``VECTOR[(primitive, kind)]`` with kind ``"f"`` or ``"i"``.

Every operation takes the dtype's sentinels ``lo`` (stands for ``-inf``) and
``hi`` (stands for ``+inf``) so that integer arithmetic saturates instead of
wrapping; float versions ignore them unless their rule names an infinity (then
``hi`` is ``+inf``, which is what the kernels pass).  The functions are
``inline='always'`` so that the GEMM kernels built from them vectorise as if they
were written out.

The per-family tables are derived from :data:`semiring.families.FAMILIES`:
``OPS[(family, kind)] = (add, mul)`` (:func:`ops_for`) and
``VOPS[(family, dtype char)] = (vadd, vmul)`` for the families and dtypes whose
primitives all have vector versions (:func:`vector_ops_for`; the GEMM template
uses them in its register-blocked micro-kernel).  The vector functions take the
same arguments (``lo`` / ``hi`` stay scalars) and for every non-NaN input give
exactly the scalar result; the integer ones assume that ``lo`` / ``hi`` are the
dtype's minimum / maximum, which is what the kernels pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..families import FAMILIES
from .simd import like, vadd, vadds, vadds_sticky, veq, vmax, vmin, vmul, vmuls, vor, vselect, vsplat_like

__all__ = ["SCALAR", "VECTOR", "OPS", "VOPS", "PLAIN_OPS", "ops_for", "vector_ops_for", "min_", "plus_float", "min_v",
           "plus_float_v"]


@njit(inline="always")
def min_(a, b, lo, hi):
    """The ``min`` primitive (the templates' default ``add``): the smaller of ``a`` and ``b``."""
    # ``a if a <= b else b`` for every non-NaN input (ties return ``a``, also -0.0 vs 0.0), written
    # as :func:`.simd.vmin` is: a NaN ``b`` (IEEE's ``inf + -inf``, a candidate that meets "no
    # path") leaves ``a`` unchanged.  Every kernel calls ``add(old, candidate)``.
    return b if b < a else a


@njit(inline="always")
def _max(a, b, lo, hi):
    # ``a if a >= b else b`` for every non-NaN input; a NaN ``b`` leaves ``a`` (as :func:`min_`).
    return b if b > a else a


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
def _plus_sticky_int(a, b, lo, hi, absorbing, sticky):
    # Both infinities stick: ``absorbing`` (the family's "no path") absorbs everything,
    # ``sticky`` (the other infinity) everything finite; finite sums saturate at lo / hi.
    if a == absorbing or b == absorbing:
        return absorbing
    if a == sticky or b == sticky:
        return sticky
    return _sat_sum(a, b, lo, hi)


@njit(inline="always")
def _plus_minplus_int(a, b, lo, hi):
    # +inf (hi, "no path") absorbs everything, -inf (lo) everything finite.
    return _plus_sticky_int(a, b, lo, hi, hi, lo)


@njit(inline="always")
def path_sum(a, b, lo, hi):
    """``a (x) b`` of ``min_plus`` for a finite arc weight ``b``, in any dtype: a search's relaxation.

    A distance ``a`` at a sentinel ``lo`` / ``hi`` (-inf / +inf) sticks; a
    finite sum saturates at them (for floats ``hi - b`` is ``inf``, so it is
    ``a + b``).  ``b`` must not be a sentinel (the graph's door refuses
    infinite arc weights); with any operands, use the family's ``mul``
    (:func:`_plus_minplus_int`).

    >>> path_sum(np.int32(2**31 - 1), np.int32(-5), -2**31, 2**31 - 1), path_sum(2**31 - 3, 5, -2**31, 2**31 - 1)
    (2147483647, 2147483647)
    >>> path_sum(1.5, 2.0, -np.inf, np.inf)
    3.5
    """
    if a == lo or a == hi:
        return a
    if b > 0 and a > hi - b:
        return hi
    if b < 0 and a < lo - b:
        return lo
    return a + b


@njit(inline="always")
def _plus_maxplus_int(a, b, lo, hi):
    # The mirror image: -inf (lo, "no path" in max_plus) absorbs everything, +inf (hi)
    # everything finite.
    return _plus_sticky_int(a, b, lo, hi, lo, hi)


@njit(inline="always")
def plus_float(a, b, lo, hi):
    """The float ``plus`` primitive (the templates' default ``mul``): ``a + b`` (IEEE infinities)."""
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


@njit(inline="always")
def _times_inf_absorbs_float(a, b, lo, hi):
    # +inf (hi) absorbs, also against 0, where IEEE gives 0 * inf = NaN.
    if a == hi or b == hi:
        return hi
    return a * b


@njit(inline="always")
def _times_inf_absorbs_int(a, b, lo, hi):
    # +inf (hi) absorbs, also against 0; everything else saturates.
    if a == hi or b == hi:
        return hi
    return _times_int(a, b, lo, hi)


# GraphBLAS's structural operators on dense operands: an operand equal to the family's zero is a
# missing entry and gives the zero; the value of a stored one is ignored (pair) or passed on.


@njit(inline="always")
def _pair(a, b, lo, hi):
    # 1 where both operands are stored (not 0, the zero of plus), else 0, in the operands' type.
    return like(a, 1) if a != 0 and b != 0 else like(a, 0)


@njit(inline="always")
def _second(a, b, lo, hi):
    # b, unless a is missing (+inf, the zero of min: hi); b == hi gives hi by itself.
    return hi if a == hi else b


@njit(inline="always")
def _first(a, b, lo, hi):
    # a, unless b is missing (+inf: hi): second with the operands swapped.
    return _second(b, a, lo, hi)


# --------------------------------------------------------------------------- vector versions


def _lanewise(intrinsic, name: str, doc: str | None = None):
    """The operation ``f(a, b, lo, hi) = intrinsic(a, b)``: a :mod:`.simd` intrinsic that needs no sentinels.

    Named ``name`` (its module-level name, so that :mod:`.specialize` imports
    it by name into the kernel files) and inlined like the functions above.
    """

    @njit(inline="always")
    def op(a, b, lo, hi):
        return intrinsic(a, b)

    op.py_func.__name__ = op.py_func.__qualname__ = op.__name__ = op.__qualname__ = name
    op.__doc__ = op.py_func.__doc__ = doc
    return op


min_v = _lanewise(vmin, "min_v", ":func:`min_` on SIMD vectors (the GEMM template's default ``vadd``).")
_max_v = _lanewise(vmax, "_max_v")
plus_float_v = _lanewise(vadd, "plus_float_v", ":func:`plus_float` on SIMD vectors (the GEMM template's default ``vmul``).")
_times_float_v = _lanewise(vmul, "_times_float_v")
# Saturating add: equals _sat_sum when [lo, hi] is the dtype's whole range.
_sat_sum_v = _lanewise(vadds, "_sat_sum_v")


@njit(inline="always")
def _plus_minplus_int_v(a, b, lo, hi):
    # _plus_minplus_int lane-wise.  a's sentinels stick inside the saturating add (its clamp
    # bounds depend on a alone); then b == lo gives lo, or hi where a is hi, and b == hi gives
    # hi.  In the GEMM micro-kernel a is a broadcast A value and b a loaded B vector: a's
    # bounds and ``a == hi ? hi : lo`` are computed once per row, b's masks once per B
    # vector, and each lane pays the saturating add and two selects, as many instructions as
    # the hi-only rule this replaced.  lo / hi serve only as the two sentinels (the add
    # saturates at the dtype's range by itself), which _plus_maxplus_int_v swaps.
    h = vsplat_like(a, hi)
    lw = vsplat_like(a, lo)
    s = vselect(veq(b, lw), vselect(veq(a, h), h, lw), vadds_sticky(b, a))
    return vselect(veq(b, h), h, s)


@njit(inline="always")
def _plus_maxplus_int_v(a, b, lo, hi):
    # The mirror image of _plus_minplus_int_v: lo wins (the same rule with the sentinels swapped).
    return _plus_minplus_int_v(a, b, hi, lo)


# Product clamped to the dtype's range: equals _times_int for the dtype's lo / hi.
_times_int_v = _lanewise(vmuls, "_times_int_v")


@njit(inline="always")
def _hi_absorbs_v(a, b, hi, product):
    # ``product`` (a (x) b), or hi in the lanes where a or b is hi.
    h = vsplat_like(a, hi)
    return vselect(vor(veq(a, h), veq(b, h)), h, product)


@njit(inline="always")
def _times_inf_absorbs_float_v(a, b, lo, hi):
    return _hi_absorbs_v(a, b, hi, vmul(a, b))


@njit(inline="always")
def _times_inf_absorbs_int_v(a, b, lo, hi):
    return _hi_absorbs_v(a, b, hi, vmuls(a, b))


@njit(inline="always")
def _pair_v(a, b, lo, hi):
    z = vsplat_like(a, 0)
    return vselect(vor(veq(a, z), veq(b, z)), z, vsplat_like(a, 1))


@njit(inline="always")
def _second_v(a, b, lo, hi):
    h = vsplat_like(a, hi)
    return vselect(veq(a, h), h, b)


@njit(inline="always")
def _first_v(a, b, lo, hi):
    return _second_v(b, a, lo, hi)


@njit(inline="always")
def _plus_plain(a, b, lo, hi):
    # Plain a + b for integer operands that :mod:`semiring.int_range` proved cannot reach a
    # sentinel or leave the range: then it equals the saturating, sticky sums above.
    return a + b


# Lane-wise plain a + b (vpaddd / vpaddq), under the same proof.
_plus_plain_v = _lanewise(vadd, "_plus_plain_v")


# --------------------------------------------------------------------------- the primitives

# (primitive, dtype kind) -> scalar function.  Float sums stay IEEE sums: inputs may not
# hold the infinity that would meet the absorbing one, and where an overflow creates it
# (-inf in min_plus), ``inf + -inf`` is NaN, which every ``add`` skips (see min_): the
# same as the absorbing rule, at no cost.
SCALAR = {
    ("min", "f"): min_,
    ("min", "i"): min_,
    ("max", "f"): _max,
    ("max", "i"): _max,
    ("or", "b"): _or,
    ("and", "b"): _and,
    ("plus", "f"): plus_float,
    ("plus", "i"): _sat_sum,
    ("plus_inf_absorbs", "f"): plus_float,
    ("plus_inf_absorbs", "i"): _plus_minplus_int,
    ("plus_neginf_absorbs", "f"): plus_float,
    ("plus_neginf_absorbs", "i"): _plus_maxplus_int,
    ("times", "f"): _times_float,
    ("times", "i"): _times_int,
    ("times_inf_absorbs", "f"): _times_inf_absorbs_float,
    ("times_inf_absorbs", "i"): _times_inf_absorbs_int,
    ("pair", "f"): _pair,
    ("pair", "i"): _pair,
    ("second", "f"): _second,
    ("second", "i"): _second,
    ("first", "f"): _first,
    ("first", "i"): _first,
}

# (primitive, dtype kind) -> vector function.  "or" / "and" have none: Boolean
# families run on the bit-packed kernel.
VECTOR = {
    ("min", "f"): min_v,
    ("min", "i"): min_v,
    ("max", "f"): _max_v,
    ("max", "i"): _max_v,
    ("plus", "f"): plus_float_v,
    ("plus", "i"): _sat_sum_v,
    ("plus_inf_absorbs", "f"): plus_float_v,
    ("plus_inf_absorbs", "i"): _plus_minplus_int_v,
    ("plus_neginf_absorbs", "f"): plus_float_v,
    ("plus_neginf_absorbs", "i"): _plus_maxplus_int_v,
    ("times", "f"): _times_float_v,
    ("times", "i"): _times_int_v,
    ("times_inf_absorbs", "f"): _times_inf_absorbs_float_v,
    ("times_inf_absorbs", "i"): _times_inf_absorbs_int_v,
    ("pair", "f"): _pair_v,
    ("pair", "i"): _pair_v,
    ("second", "f"): _second_v,
    ("second", "i"): _second_v,
    ("first", "f"): _first_v,
    ("first", "i"): _first_v,
}


# --------------------------------------------------------------------------- per family, from the table

_CHARS = {("f", 4): "f", ("f", 8): "d", ("i", 4): "i", ("i", 8): "l"}

# (family, dtype kind) -> (add, mul) scalar functions.
OPS = {}
# (family, dtype char: f/d float32/64, i/l int32/int64) -> (vadd, vmul) vector functions.
VOPS = {}
for _fam in FAMILIES.values():
    for _dt in _fam.dtypes:
        _k = _dt.kind
        OPS[(_fam.name, _k)] = (SCALAR[(_fam.add, _k)], SCALAR[(_fam.mul, _k)])
        if (_k, _dt.itemsize) in _CHARS and (_fam.add, _k) in VECTOR and (_fam.mul, _k) in VECTOR:
            VOPS[(_fam.name, _CHARS[(_k, _dt.itemsize)])] = (VECTOR[(_fam.add, _k)], VECTOR[(_fam.mul, _k)])
del _fam, _dt, _k

# family -> (add, mul, vadd, vmul) on plain integer sums: the kernels the dispatcher runs
# when the range check of :mod:`semiring.int_range` passes, for the families whose
# capabilities say ``plain_sums`` (their add keeps minima, their mul is a sticky sum).
PLAIN_OPS = {
    _fam.name: (SCALAR[(_fam.add, "i")], _plus_plain, VECTOR[(_fam.add, "i")], _plus_plain_v)
    for _fam in FAMILIES.values()
    if _fam.capabilities.plain_sums
}


def vector_ops_for(family: str | None, dtype) -> tuple | None:
    """The vector ``(vadd, vmul)`` pair of a built-in family in ``dtype``, or ``None`` if there is none.

    >>> vector_ops_for("min_plus", np.float32)[0].__name__
    'min_v'
    >>> vector_ops_for("lor_land", np.bool_) is None
    True
    """
    dt = np.dtype(dtype)
    if family is None or dt.itemsize not in (4, 8) or dt.kind not in "fi":
        return None
    return VOPS.get((family, _CHARS[(dt.kind, dt.itemsize)]))


def ops_for(family: str, kind: str):
    """Return the ``(add, mul)`` Numba pair for a built-in family and dtype kind.

    >>> add, mul = ops_for("min_plus", "f")
    >>> mul(2.0, 3.0, 0.0, 0.0)
    5.0
    """
    return OPS[(family, kind)]

