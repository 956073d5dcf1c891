"""Elementwise semiring ``add`` / ``mul`` on whole arrays, with the kernels' semantics.

The vectorised algorithms (the reference Floyd-Warshall, the negative-cycle
search) combine whole rows and matrices.  Floats and Booleans use the
semiring's ufuncs directly (bit-identical to the kernels); built-in integer
semirings go through the saturating scalar functions of
:func:`semiring.kernels.cpu_scalar_ops` (on the CPU) or the validated
:meth:`Semiring.add` / :meth:`Semiring.mul` (on the GPU), so an integer sum
saturates at the infinity sentinels instead of wrapping around.

One float rule is added to the ufuncs of the built-in semirings: a product
that IEEE arithmetic makes NaN is the semiring ``zero``.  Inputs hold no NaN
and not the infinity that would meet the zero, but a sum that overflows can
create it (``-1e308 + -1e308 = -inf`` in ``min_plus``), and ``-inf + inf`` must
then mean "no path" (``+inf``), which is what the kernels do: their ``add``
skips a NaN candidate (:mod:`semiring.families`).  Without the rule,
``numpy.minimum`` would carry the NaN into the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from semiring.kernels import cpu_scalar_ops, elementwise_apply, sentinels

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["elementwise_ops"]

Op = Callable[..., object]


def elementwise_ops(S: "Semiring", xp, dtype) -> tuple[Op, Op]:
    """``(add, mul)``: callables ``f(X, Y)`` on broadcastable arrays of ``dtype`` in module ``xp``.

    Examples
    --------
    >>> from semiring import min_plus
    >>> add, mul = elementwise_ops(min_plus, np, np.dtype(np.int32))
    >>> mul(np.array([2**31 - 2], np.int32), np.array([5], np.int32))  # saturates at +inf
    array([2147483647], dtype=int32)
    >>> add, mul = elementwise_ops(min_plus, np, np.dtype(np.float64))
    >>> add(np.array([1.0, 4.0]), np.array([3.0, 2.0]))
    array([1., 2.])
    """
    key = (id(S), xp, dtype)
    found = _MADE.get(key)
    if found is not None and found[0] is S:
        return found[1]
    ops = _make_ops(S, xp, np.dtype(dtype))
    _MADE[key] = (S, ops)
    return ops


#: ``elementwise_ops``'s results by (semiring id, module, dtype); the semiring is kept with them.
_MADE: dict = {}


def _make_ops(S: "Semiring", xp, dtype: np.dtype) -> tuple[Op, Op]:
    if S.exact_ufuncs(dtype):
        if dtype.kind == "f" and S.family is not None:
            return S.add_ufunc, _nan_is_zero(S.mul_ufunc, S.zero_value(dtype), xp)
        return S.add_ufunc, S.mul_ufunc
    if xp is not np:
        return S.add, S.mul
    ops = cpu_scalar_ops(S, dtype)
    lo, hi = sentinels(dtype)
    def make(op):
        def f(X, Y):
            shape = np.broadcast_shapes(np.shape(X), np.shape(Y))
            return elementwise_apply(op, X, Y, np.empty(shape, dtype=dtype), lo, hi)

        return f

    return make(ops["add"][0]), make(ops["mul"][0])


def _nan_is_zero(mul, zero, xp) -> Op:
    """``mul`` whose NaN results (``inf + -inf``, ``0 * inf``) are ``zero``: the absorbing rule of the kernels."""

    def f(X, Y):
        with np.errstate(invalid="ignore", over="ignore"):
            R = mul(X, Y)
        bad = xp.isnan(R)
        if bool(bad.any()):
            R = xp.where(bad, xp.asarray(zero, dtype=R.dtype), R)
        return R

    return f
