"""Pure NumPy/CuPy semiring GEMM for custom semirings (the generic path).

Works for any semiring whose ``add`` and ``mul`` are binary ufuncs: the inner
dimension is cut into slabs and each slab is reduced from a broadcast
``m x kb x n`` product, with the slab size chosen to keep that temporary under
:data:`TEMP_BYTES`.  It is the "blocked NumPy broadcast" that a NumPy user
would write, and the baseline the fast kernels are measured against.  On CuPy
arrays, whose ufuncs mostly lack ``reduce``, the slab reduction uses the
matching CuPy reduction (``min``, ``max``, ``sum``...) or, for an ``add`` with
none, a running ``add`` over ``k``.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from .algebra import Algebra
from .backend import array_module

if TYPE_CHECKING:
    from .array_types import Array

__all__ = ["generic_matmul", "TEMP_BYTES"]

TEMP_BYTES = 64 << 20

_CUPY_REDUCTIONS: dict[Any, str] = {
    np.minimum: "min", np.maximum: "max", np.fmin: "min", np.fmax: "max", np.add: "sum",
    np.multiply: "prod", np.logical_or: "any", np.logical_and: "all",
}


def _slab_reducer(S: Algebra, xp: ModuleType) -> Callable[[Any], Any] | None:
    """``f(prod) -> add-reduction over axis 1``, or None when only a running add will do."""
    if xp is np:
        return lambda prod: S.add_ufunc.reduce(prod, axis=1)
    name = _CUPY_REDUCTIONS.get(S.add_ufunc)
    return None if name is None else (lambda prod: getattr(xp, name)(prod, axis=1))


def generic_matmul(S: Algebra, A: Array, B: Array, C: Array, W: Array | None, accumulate: bool) -> None:
    """Write ``C (+)= A (x) B`` using only the semiring's ufuncs; fill ``W`` if given.

    >>> import numpy as np
    >>> from semiring import min_plus
    >>> A = np.array([[0.0, 1.0]]); B = np.array([[5.0], [1.0]]); C = np.empty((1, 1))
    >>> generic_matmul(min_plus, A, B, C, None, False); C
    array([[2.]])
    """
    xp = array_module(A)
    m, k = A.shape
    n = B.shape[1]
    zero = S.zero_value(C.dtype)
    if not accumulate:
        C[...] = zero
    if W is not None:
        W[...] = -1
        for kk in range(k):
            p = S.mul_ufunc(A[:, kk, None], B[None, kk, :])
            new = S.add_ufunc(C, p)
            better = new != C
            W[better] = kk
            C[...] = new
        return
    if m == 0 or n == 0 or k == 0:
        return
    reduce = _slab_reducer(S, xp)
    rows = max(1, min(m, TEMP_BYTES // max(1, n * C.dtype.itemsize)))
    for i0 in range(0, m, rows):
        i1 = min(m, i0 + rows)
        kb = max(1, min(k, TEMP_BYTES // max(1, (i1 - i0) * n * C.dtype.itemsize))) if reduce else 1
        for k0 in range(0, k, kb):
            k1 = min(k, k0 + kb)
            prod = S.mul_ufunc(A[i0:i1, k0:k1, None], B[None, k0:k1, :])
            part = reduce(prod) if reduce else prod[:, 0, :]
            C[i0:i1] = S.add_ufunc(C[i0:i1], part.astype(C.dtype, copy=False))
