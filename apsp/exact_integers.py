"""Exact int32 closures: a sum that could leave the int32 range is formed in int64.

Integer kernels saturate (:mod:`semiring.dtypes`): a sum that reaches a
sentinel becomes that infinity and stays one.  Saturation is not associative
when weights of both signs meet (``(2**30 + 2**30) - 2**30`` saturates to
``+inf``, ``2**30 + (2**30 - 2**30)`` is ``2**30``), so near the edge of the
range the answer would depend on the order in which a method adds.

The closure algorithms only add two path weights at a time, so every sum they
form (without a negative cycle) is bounded by ``2 (n - 1) max |w|`` over the
finite weights.  When that bound may reach the int32 sentinels,
:func:`apsp.shortest_paths` runs ``min_plus`` and ``max_plus`` closures of
int32 input in int64 (where every such sum is exact: ``2 n`` int32 values
cannot overflow it) and clamps the result back: an exact distance at or beyond
``iinfo(int32).max`` becomes the ``+inf`` sentinel, one at or below
``iinfo(int32).min`` the ``-inf`` sentinel.  Every method then gives the exact
answer, or the infinity at the edge, whatever the order of its sums.  (int64
input has no wider type: there, sums of one sign are still exact, and see the
policy in :mod:`semiring.dtypes`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semiring.backend import array_module

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["ADDITIVE_FAMILIES", "sums_may_leave_int32", "widen", "narrow"]

#: The families whose products are sums (the others never leave the input's values, or multiply).
ADDITIVE_FAMILIES = ("min_plus", "max_plus")
_I32 = np.iinfo(np.int32)
_I64 = np.iinfo(np.int64)
_ROWS = 1024  # rows scanned at a time: bounded temporary memory


def sums_may_leave_int32(W, S: "Semiring") -> bool:
    """Whether a closure of the int32 matrix ``W`` over ``S`` may form a sum that reaches a sentinel.

    ``False`` for other dtypes and families.  One pass over ``W``, in slabs of rows.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0, 2**30], [2**31 - 1, 0]], np.int32)  # 2 (n - 1) 2**30 = 2**31
    >>> sums_may_leave_int32(W, min_plus), sums_may_leave_int32(W // 2, min_plus)
    (True, False)
    """
    if np.dtype(W.dtype) != np.int32 or S.family not in ADDITIVE_FAMILIES or W.shape[0] < 2:
        return False
    xp = array_module(W)
    n = W.shape[0]
    big = 0
    for r in range(0, n, _ROWS):
        X = W[r : r + _ROWS]
        inner = (X != _I32.max) & (X != _I32.min)
        if bool(inner.any()):
            hi = int(xp.where(inner, X, 0).max())
            lo = int(xp.where(inner, X, 0).min())
            big = max(big, hi, -lo)
    return 2 * (n - 1) * big >= _I32.max


def widen(W):
    """The int32 matrix ``W`` as int64, its sentinels mapped to int64's.

    >>> widen(np.array([[2**31 - 1, -2**31, 5]], np.int32))
    array([[ 9223372036854775807, -9223372036854775808,                    5]])
    """
    xp = array_module(W)
    W64 = W.astype(xp.int64)
    W64[W == _I32.max] = _I64.max
    W64[W == _I32.min] = _I64.min
    return W64


def narrow(D):
    """The int64 closure ``D`` back in int32: values outside the int32 range become its sentinels.

    >>> narrow(np.array([[2**40, -2**40, 7, 2**31 - 1]]))
    array([[ 2147483647, -2147483648,           7,  2147483647]], dtype=int32)
    """
    xp = array_module(D)
    return xp.clip(D, _I32.min, _I32.max).astype(xp.int32)
