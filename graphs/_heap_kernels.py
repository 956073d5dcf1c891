"""The binary min-heap of the CPU graph kernels (Numba, inlined into every caller).

The heap lives in two parallel arrays, keys ``hk`` and values ``hv``, of which the
first ``size`` entries are in use; both functions return the new size.  The
single-source kernels (:mod:`._sssp_kernels`), the single-pair searches
(:mod:`._pair_kernels`) and the weighted centrality kernels
(:mod:`._centrality_kernels`) share it.
"""

from __future__ import annotations

from numba import njit

__all__ = ["heap_push", "heap_pop"]


@njit(inline="always")
def heap_push(hk, hv, size, key, val):
    """Insert ``key`` / ``val``; the caller made room for it. Returns the new size."""
    i = size
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] <= key:
            break
        hk[i] = hk[p]
        hv[i] = hv[p]
        i = p
    hk[i] = key
    hv[i] = val
    return size + 1


@njit(inline="always")
def heap_pop(hk, hv, size):
    """Remove the root; the caller read it before. Returns the new size."""
    size -= 1
    key = hk[size]
    val = hv[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and hk[c + 1] < hk[c]:
            c += 1
        if hk[c] >= key:
            break
        hk[i] = hk[c]
        hv[i] = hv[c]
        i = c
    if size > 0:
        hk[i] = key
        hv[i] = val
    return size
