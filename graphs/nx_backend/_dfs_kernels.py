"""Numba kernel for the depth-first order NetworkX's ``strongly_connected_components`` follows."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["dfs_order"]


@njit(cache=True, nogil=True)
def dfs_order(indptr, indices):  # pragma: no cover - jitted
    """Preorder and postorder numbers of a depth-first search over every vertex.

    Roots in vertex order, each vertex's arcs in CSR order (the caller keeps
    NetworkX's adjacency order there); an arc to a vertex already seen is
    skipped, as NetworkX's iterative search skips it.  Iterative: one stack
    of vertices and one arc cursor per vertex.
    """
    n = indptr.shape[0] - 1
    pre = np.full(n, -1, np.int64)
    post = np.full(n, -1, np.int64)
    stack = np.empty(n, np.int64)
    cursor = np.empty(n, np.int64)
    tp = 0
    tq = 0
    for s in range(n):
        if pre[s] >= 0:
            continue
        pre[s] = tp
        tp += 1
        cursor[s] = indptr[s]
        stack[0] = s
        top = 1
        while top > 0:
            v = stack[top - 1]
            e = cursor[v]
            end = indptr[v + 1]
            while e < end and pre[indices[e]] >= 0:
                e += 1
            if e < end:
                w = indices[e]
                cursor[v] = e + 1
                pre[w] = tp
                tp += 1
                cursor[w] = indptr[w]
                stack[top] = w
                top += 1
            else:
                cursor[v] = e
                post[v] = tq
                tq += 1
                top -= 1
    return pre, post
