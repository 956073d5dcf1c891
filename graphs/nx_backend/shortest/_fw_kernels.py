"""NetworkX's ``floyd_warshall_numpy`` recurrence, the same operations in the same order, blocked for the cache.

NetworkX runs, for ``k = 0 .. n-1``,
``A = np.minimum(A, A[k, :][np.newaxis, :] + A[:, k][:, np.newaxis])``:
every entry ``A[u, v]`` becomes ``min(A[u, v], A[u, k] + A[k, v])`` with the
values *before* step ``k``.  Float sums round, so another order of pivots or
another association (a blocked Floyd-Warshall, R-Kleene) may give other bits;
this kernel gives NetworkX's bits exactly, because each entry sees the very
same additions and minima in the same order, with the same operands:

* the pivots are taken in blocks of ``KB``; the rows of the block are first
  carried through the block's pivots one pivot at a time, and row ``k`` is
  copied (``pivots[k - k0]``) just before pivot ``k`` is applied: that copy
  is row ``k`` before step ``k``, what NetworkX adds;
* every other row ``u`` then runs through the block's pivots in order: when
  pivot ``k`` comes, ``A[u, k]`` holds the value after steps ``< k`` (row
  ``u`` is only written by its own thread), and the pivot row is the copy.

``minimum`` is NumPy's for ordered values (ties keep the old value, the
same bits unless ``-0.0`` meets ``0.0``); NaN, which NumPy's ``minimum``
propagates, is not handled: the caller sends inputs holding NaN, ``-inf`` or
``-0.0`` to NumPy itself, and a result where a sum overflowed to ``-inf``.  Rows
run in parallel (``prange``); within a row the loop over ``v`` vectorises.
Work ``n^3``, as NetworkX's, but each block of pivots streams the matrix
once instead of once per pivot and allocates nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["ordered_floyd_warshall", "PIVOT_BLOCK"]

#: Pivots per block: ``PIVOT_BLOCK`` rows of ``n`` float64 stay in the L2 cache while every row streams by.
PIVOT_BLOCK = 64


@njit(cache=True, nogil=True, inline="always")
def _relax_row(row, a, pivot):  # pragma: no cover - jitted
    for v in range(row.shape[0]):
        x = row[v]
        s = a + pivot[v]
        row[v] = s if s < x else x


@njit(cache=True, nogil=True, parallel=True)
def _ordered_fw(A, kb):  # pragma: no cover - jitted
    n = A.shape[0]
    pivots = np.empty((kb, n), A.dtype)
    for k0 in range(0, n, kb):
        k1 = min(n, k0 + kb)
        for k in range(k0, k1):  # the block's own rows, one pivot at a time
            pivots[k - k0, :] = A[k, :]
            for r in range(k0, k1):
                _relax_row(A[r], A[r, k], pivots[k - k0])
        for u in prange(n):  # every other row through the block's pivots, in order
            if k0 <= u < k1:
                continue
            row = A[u]
            for k in range(k0, k1):
                _relax_row(row, row[k], pivots[k - k0])
    return A


def ordered_floyd_warshall(A: np.ndarray, block: int = PIVOT_BLOCK) -> np.ndarray:
    """Run NetworkX's ``floyd_warshall_numpy`` loop on ``A`` in place (C-contiguous float64) and return it.

    Bit for bit what ``for k in range(n): A = np.minimum(A, A[k][None, :] +
    A[:, k][:, None])`` leaves, for values without NaN, ``-inf`` and ``-0.0``
    whose sums do not overflow to ``-inf`` (see the module docstring).

    Examples
    --------
    >>> A = np.array([[0.0, 0.1, np.inf], [np.inf, 0.0, 0.2], [0.3, np.inf, 0.0]])
    >>> ordered_floyd_warshall(A.copy())
    array([[0. , 0.1, 0.3],
           [0.5, 0. , 0.2],
           [0.3, 0.4, 0. ]])
    """
    if A.dtype != np.float64 or A.ndim != 2 or A.shape[0] != A.shape[1] or not A.flags.c_contiguous:
        raise ValueError("ordered_floyd_warshall takes a square C-contiguous float64 array")
    return _ordered_fw(A, max(1, min(int(block), A.shape[0] or 1)))
