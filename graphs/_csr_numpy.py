"""NumPy twins of the CSR kernels of :mod:`graphs._csr`, for small graphs (:mod:`graphs.kernel_route`).

Same arguments, same results: a stable sort stands for each counting sort
(by column, then by row), so rows come out sorted by column with parallel
arcs in their input order, exactly as the kernels leave them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["coo_to_csr", "csr_transpose", "csr_row_ids"]


def _bucket_starts(keys: np.ndarray, nkeys: int) -> np.ndarray:
    """``start[k]``: where key ``k``'s bucket begins in a sort of ``keys`` (``start[nkeys] = m``)."""
    start = np.zeros(nkeys + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=nkeys), out=start[1:])
    return start


def coo_to_csr(n, src, dst, w, has_w):
    """:func:`graphs._csr.coo_to_csr` (and :func:`graphs._csr.grouped_coo_to_csr`, whose result is the same).

    >>> coo_to_csr(3, np.array([2, 0, 0]), np.array([0, 2, 2]), np.array([1.0, 2.0, 3.0]), True)
    (array([0, 2, 2, 3]), array([2, 2, 0], dtype=int32), array([2., 3., 1.]))
    """
    by_col = np.argsort(dst, kind="stable")
    order = by_col[np.argsort(src[by_col], kind="stable")]
    indptr = _bucket_starts(src, n)
    indices = dst[order].astype(np.int32)
    weights = w[order] if has_w else np.empty(0, dtype=w.dtype)
    return indptr, indices, weights


def csr_transpose(n_rows, n_cols, indptr, indices, w, has_w):
    """:func:`graphs._csr.csr_transpose`: the CSR of the transpose, each row sorted; parallel arcs kept.

    >>> csr_transpose(2, 3, np.array([0, 2, 3]), np.array([2, 0, 2], dtype=np.int32), np.zeros(0), False)
    (array([0, 1, 1, 3]), array([0, 0, 1], dtype=int32), array([], dtype=float64))
    """
    rows = csr_row_ids(indptr)
    order = np.argsort(indices, kind="stable")
    tptr = _bucket_starts(indices, n_cols)
    tw = w[order] if has_w else np.empty(0, dtype=w.dtype)
    return tptr, rows[order], tw


def csr_row_ids(indptr):
    """:func:`graphs._csr.csr_row_ids`: the row of every stored entry, as int32.

    >>> csr_row_ids(np.array([0, 2, 2, 3]))
    array([0, 0, 2], dtype=int32)
    """
    n = indptr.shape[0] - 1
    return np.repeat(np.arange(n, dtype=np.int32), np.diff(indptr))
