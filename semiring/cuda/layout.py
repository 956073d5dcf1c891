"""Memory layout of the dense CuPy operands of the GPU GEMM kernels.

The tiled kernels (:mod:`.gemm`, :mod:`.boolean`) read any row-major view with a
leading dimension ``ld`` (the row stride in elements), so a block of a larger
matrix is passed without a copy.  These helpers return such a view (or a
contiguous copy when the columns are not contiguous, e.g. a transposed view)
and say whether a view is 16-byte aligned for vector loads.
"""

from __future__ import annotations

import cupy as cp

__all__ = ["row_view", "out_row_view", "is_aligned"]


def row_view(X, output: bool = False):
    """``(X', ld)``: ``X'`` is ``X`` when its columns are contiguous (any row stride), else a contiguous copy.

    Outputs also need rows that do not overlap.  ``ld`` is the row stride in elements.
    """
    item = X.itemsize
    m, n = X.shape
    s0, s1 = X.strides
    cols_ok = n <= 1 or s1 == item
    rows_ok = m <= 1 or (s0 > 0 and s0 % item == 0 and (not output or s0 >= n * item))
    if cols_ok and rows_ok:
        return X, (s0 // item if m > 1 else max(n, 1))
    return cp.ascontiguousarray(X), max(n, 1)


def is_aligned(X, ld: int) -> bool:
    """True if ``X`` and each of its rows (``ld`` elements apart) start on a 16-byte boundary (vector loads)."""
    return X.data.ptr % 16 == 0 and (ld * X.itemsize) % 16 == 0


def out_row_view(X):
    """An output view with contiguous columns: ``(target, ld, copy_back)``."""
    Y, ld = row_view(X, output=True)
    return Y, ld, Y is not X
