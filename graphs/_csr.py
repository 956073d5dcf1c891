"""Numba kernels that build and reshape compressed sparse rows (CSR) on the CPU.

All are O(n + m) counting sorts (no comparison sort), serial, and cached on disk:
a graph of 10^8 arcs is built in a few seconds, ``np.lexsort`` would take minutes.

The graph container keeps ``indptr`` as int64 and ``indices`` as int32; weights
are carried along in whatever dtype they have (``has_w=False`` skips them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["coo_to_csr", "grouped_coo_to_csr", "csr_transpose", "csr_row_ids", "csr_combine_sorted"]


@njit(cache=True, nogil=True)
def _bucket_starts(keys, nkeys):  # pragma: no cover - jitted
    """``start[k]``: where key ``k``'s bucket begins in a counting sort of ``keys`` (``start[nkeys] = m``)."""
    start = np.zeros(nkeys + 1, dtype=np.int64)
    for e in range(keys.shape[0]):
        start[keys[e] + 1] += 1
    for k in range(nkeys):
        start[k + 1] += start[k]
    return start


@njit(cache=True, nogil=True)
def _counting_order(keys, nkeys):  # pragma: no cover - jitted
    """Stable permutation that sorts ``keys`` (in ``[0, nkeys)``) and the bucket starts."""
    m = keys.shape[0]
    start = _bucket_starts(keys, nkeys)
    pos = start[:-1].copy()
    order = np.empty(m, dtype=np.int64)
    for e in range(m):
        k = keys[e]
        order[pos[k]] = e
        pos[k] += 1
    return order, start


@njit(cache=True, nogil=True)
def _csr_buffers(rows, n, w, has_w):  # pragma: no cover - jitted
    """The arrays of a CSR whose entry ``e`` lies in row ``rows[e]`` of ``n``: ``(indptr, pos, indices, weights)``.

    ``indptr`` is final; ``pos`` (a copy of ``indptr[:-1]``) is each row's next
    free slot while the caller fills ``indices`` (int32) and ``weights`` (``w``'s
    dtype, empty unless ``has_w``).
    """
    m = rows.shape[0]
    indptr = _bucket_starts(rows, n)
    return indptr, indptr[:-1].copy(), np.empty(m, dtype=np.int32), np.empty(m if has_w else 0, dtype=w.dtype)


@njit(cache=True, nogil=True)
def coo_to_csr(n, src, dst, w, has_w):  # pragma: no cover - jitted
    """CSR of the arcs ``src[e] -> dst[e]``, each row sorted by column; parallel arcs kept.

    Two stable counting sorts (by column, then by row) give row-major, column-sorted
    order.  Returns ``(indptr int64, indices int32, weights)``; ``weights`` is an
    empty array when ``has_w`` is False.
    """
    m = src.shape[0]
    by_col, _ = _counting_order(dst, n)
    indptr, pos, indices, weights = _csr_buffers(src, n, w, has_w)
    for t in range(m):
        e = by_col[t]
        r = src[e]
        p = pos[r]
        indices[p] = dst[e]
        if has_w:
            weights[p] = w[e]
        pos[r] = p + 1
    return indptr, indices, weights


@njit(cache=True, nogil=True)
def csr_transpose(n_rows, n_cols, indptr, indices, w, has_w):  # pragma: no cover - jitted
    """CSR of the transpose (columns become rows), each row sorted; parallel arcs kept."""
    tptr, pos, tind, tw = _csr_buffers(indices, n_cols, w, has_w)
    for i in range(n_rows):
        for e in range(indptr[i], indptr[i + 1]):
            c = indices[e]
            p = pos[c]
            tind[p] = i
            if has_w:
                tw[p] = w[e]
            pos[c] = p + 1
    return tptr, tind, tw


@njit(cache=True, nogil=True)
def csr_row_ids(indptr):  # pragma: no cover - jitted
    """The row of every stored entry (COO rows of a CSR), as int32."""
    n = indptr.shape[0] - 1
    rows = np.empty(indptr[n], dtype=np.int32)
    for i in range(n):
        for e in range(indptr[i], indptr[i + 1]):
            rows[e] = i
    return rows


_SHORT_ROW = 32  # rows up to this long are insertion-sorted in place; longer ones by a stable argsort


@njit(cache=True, nogil=True)
def _sort_row(indices, w, has_w, a, b):  # pragma: no cover - jitted
    """Sort ``indices[a:b]`` (and ``w[a:b]`` along) by column, stably: equal columns keep their order."""
    if b - a <= _SHORT_ROW:
        for i in range(a + 1, b):
            c = indices[i]
            if c >= indices[i - 1]:
                continue
            x = w[i] if has_w else w[0]
            j = i - 1
            while j >= a and indices[j] > c:
                indices[j + 1] = indices[j]
                if has_w:
                    w[j + 1] = w[j]
                j -= 1
            indices[j + 1] = c
            if has_w:
                w[j + 1] = x
        return
    for e in range(a + 1, b):
        if indices[e] < indices[e - 1]:
            break
    else:
        return
    order = np.argsort(indices[a:b], kind="mergesort")
    idx = indices[a:b].copy()
    for t in range(b - a):
        indices[a + t] = idx[order[t]]
    if has_w:
        ww = w[a:b].copy()
        for t in range(b - a):
            w[a + t] = ww[order[t]]


@njit(cache=True, nogil=True)
def grouped_coo_to_csr(n, src, dst, w, has_w):  # pragma: no cover - jitted
    """:func:`coo_to_csr` of arcs already in row order (``src`` non-decreasing), without the two counting sorts.

    Each row's columns are sorted in place (stably: parallel arcs keep their
    order, as :func:`coo_to_csr` keeps them).  Returns ``(ok, indptr, indices,
    weights)``; ``ok`` is False (and the arrays empty) where ``src`` decreases.
    """
    m = src.shape[0]
    indptr = np.zeros(n + 1, dtype=np.int64)
    for e in range(m):
        if e > 0 and src[e] < src[e - 1]:
            return False, indptr, np.empty(0, np.int32), np.empty(0, w.dtype)
        indptr[src[e] + 1] += 1
    for i in range(n):
        indptr[i + 1] += indptr[i]
    indices = np.empty(m, dtype=np.int32)
    for e in range(m):
        indices[e] = dst[e]
    weights = w[:m].copy() if has_w else np.empty(0, w.dtype)
    for i in range(n):
        _sort_row(indices, weights, has_w, indptr[i], indptr[i + 1])
    return True, indptr, indices, weights


@njit(cache=True, nogil=True)
def csr_combine_sorted(indptr, indices):  # pragma: no cover - jitted
    """For column-sorted rows: the start of each run of equal (row, column) entries.

    Returns ``(new_indptr, run_starts)``; entry ``k`` of the combined CSR covers
    the original entries ``run_starts[k]:run_starts[k + 1]`` (the last run ends
    at ``indptr[-1]``).
    """
    n = indptr.shape[0] - 1
    m = indptr[n]
    starts = np.empty(m, dtype=np.int64)
    newptr = np.zeros(n + 1, dtype=np.int64)
    k = 0
    for i in range(n):
        for e in range(indptr[i], indptr[i + 1]):
            if e == indptr[i] or indices[e] != indices[e - 1]:
                starts[k] = e
                k += 1
        newptr[i + 1] = k
    return newptr, starts[:k]
