"""CSR arrays on either device: sorted CSR built from COO, the transpose, and the row of every entry.

NumPy arrays go through the Numba counting sorts of :mod:`graphs._csr` (arcs
already in row order only have each row's columns sorted), or for a small
graph through their NumPy twins (:mod:`graphs._csr_numpy`, chosen by
:mod:`graphs.kernel_route`; the same results); CuPy
arrays through CuPy's sort and search (the GPU has no counting-sort kernel of
ours).  :class:`graphs.Graph` and its conversions use these.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from semiring.backend import is_cupy_array

from .kernel_route import numpy_route

__all__ = ["build_csr", "row_ids", "transpose_csr", "combine_sorted"]


def row_ids(indptr: Any) -> Any:
    """The row (int32) of every stored entry of a CSR, on its device.

    >>> row_ids(np.array([0, 2, 2, 3]))
    array([0, 0, 2], dtype=int32)
    """
    if is_cupy_array(indptr):
        import cupy as cp

        nnz = int(indptr[-1])
        return cp.searchsorted(indptr[1:], cp.arange(nnz, dtype=cp.int64), side="right").astype(cp.int32)
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    if numpy_route(indptr.shape[0] + int(indptr[-1])):
        from . import _csr_numpy

        return _csr_numpy.csr_row_ids(indptr)
    from . import _csr

    return _csr.csr_row_ids(indptr)


def build_csr(n: int, src, dst, w, both_ways: bool = False):
    """Sorted CSR (parallel arcs kept) from COO on the arrays' device (``both_ways``: each arc and its reverse).

    Parameters
    ----------
    n : int
        Number of vertices (rows).
    src, dst : array of int
        Tail and head of each arc, already checked (:func:`graphs.validate.check_ids`).
    w : array or None
        One weight per arc.
    both_ways : bool
        Store each arc ``u -> v`` also as ``v -> u`` (a self loop once), as
        an undirected graph stores its edges.

    Returns
    -------
    (indptr int64, indices int32, weights or None)
        Rows sorted by head; ``weights`` follow their arcs.

    Examples
    --------
    >>> build_csr(3, np.array([2, 0, 0]), np.array([0, 2, 1]), None)
    (array([0, 2, 2, 3]), array([1, 2, 0], dtype=int32), None)
    >>> build_csr(3, np.array([0, 0, 2]), np.array([2, 1, 0]), np.array([5.0, 6.0, 7.0]))  # by row already
    (array([0, 2, 2, 3]), array([1, 2, 0], dtype=int32), array([6., 5., 7.]))
    """
    gpu = is_cupy_array(src)
    if both_ways:
        xp = np
        if gpu:
            import cupy as xp
        keep = src != dst
        src, dst = xp.concatenate((src, dst[keep])), xp.concatenate((dst, src[keep]))
        if w is not None:
            w = xp.concatenate((w, w[keep]))
    if gpu:
        import cupy as cp

        key = src.astype(cp.int64) * max(n, 1) + dst.astype(cp.int64)
        order = cp.argsort(key)
        indices = dst[order].astype(cp.int32)
        weights = None if w is None else w[order]
        counts = cp.bincount(src.astype(cp.int64), minlength=n) if src.size else cp.zeros(n, cp.int64)
        indptr = cp.zeros(n + 1, dtype=cp.int64)
        cp.cumsum(counts, out=indptr[1:])
        return indptr, indices, weights
    src = np.ascontiguousarray(src, dtype=np.int64) if src.dtype != np.int32 else np.ascontiguousarray(src)
    dst = np.ascontiguousarray(dst, dtype=np.int64) if dst.dtype != np.int32 else np.ascontiguousarray(dst)
    has_w = w is not None
    warr = np.ascontiguousarray(w) if has_w else np.empty(0, np.float64)
    if numpy_route(n + src.shape[0]):
        from . import _csr_numpy

        indptr, indices, weights = _csr_numpy.coo_to_csr(n, src, dst, warr, has_w)
        return indptr, indices, (weights if has_w else None)
    from . import _csr

    ok, indptr, indices, weights = _csr.grouped_coo_to_csr(n, src, dst, warr, has_w)  # arcs already by row
    if not ok:
        indptr, indices, weights = _csr.coo_to_csr(n, src, dst, warr, has_w)
    return indptr, indices, (weights if has_w else None)


def transpose_csr(n_rows: int, n_cols: int, indptr: np.ndarray, indices: np.ndarray, w: np.ndarray | None):
    """The CSR (host arrays) of the transpose: ``(indptr int64, indices int32, weights or None)``, rows sorted.

    Parallel arcs are kept, in the order of their rows in the original.

    >>> transpose_csr(2, 3, np.array([0, 2, 3]), np.array([2, 0, 2], dtype=np.int32), np.array([5.0, 6.0, 7.0]))
    (array([0, 1, 1, 3]), array([0, 0, 1], dtype=int32), array([6., 5., 7.]))
    """
    has_w = w is not None
    warr = w if has_w else np.empty(0, np.float64)
    if numpy_route(n_rows + indices.shape[0]):
        from . import _csr_numpy as K
    else:
        from . import _csr as K
    tp, ti, tw = K.csr_transpose(n_rows, n_cols, indptr, indices, warr, has_w)
    return tp, ti, (tw if has_w else None)


def combine_sorted(indptr: np.ndarray, indices: np.ndarray):
    """For column-sorted rows (host arrays): ``(new_indptr, run_starts)`` of the runs of equal (row, column).

    Entry ``k`` of the combined CSR covers the original entries
    ``run_starts[k]:run_starts[k + 1]`` (:func:`graphs._csr.csr_combine_sorted`).

    >>> combine_sorted(np.array([0, 3, 4]), np.array([1, 1, 2, 0], dtype=np.int32))
    (array([0, 2, 3]), array([0, 2, 3]))
    """
    from . import _csr

    return _csr.csr_combine_sorted(indptr, indices)
