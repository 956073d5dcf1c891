"""Numba kernel of the many-source search engine: Dijkstra per source, stopping early, into rows of a matrix.

One call runs the sources ``sources[r0:r1]`` one after another on the calling
thread (:mod:`graphs.paths.many_source` hands row ranges to the CPU thread
pool) with scratch arrays of ``n`` entries allocated once per call; after a
search only the entries it touched are reset, so a search that stops early
costs what it visited, not ``n``.

A search stops when every target has been settled (``left`` reaches zero) or
when the least distance left on the heap exceeds ``limit``: the distances of
the vertices still unsettled are then all larger than ``limit``.  Row ``r`` of
``D`` receives ``dist[cols[j]]`` for a settled vertex and ``hi`` otherwise, so
a repeated target repeats its column.  Distances live in the weights' dtype
and saturate at ``hi`` (:func:`graphs._kernel_lib.path_sum`); weights are
non-negative (Johnson's reweighting has run for negative ones).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._kernel_lib import path_sum, qheap_pop, qheap_up

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["dijkstra_rows"]


@njit(cache=True, nogil=True)
def dijkstra_rows(indptr, indices, w, sources, is_target, n_targets, limit, cols, D, pcols, order, P,
                  lo, hi, r0, r1):  # pragma: no cover - jitted
    """Rows ``r0:r1``: Dijkstra from ``sources[r]`` on an indexed 4-ary heap, stopping early.

    ``is_target[v]`` marks the ``n_targets`` distinct vertices the row needs;
    ``cols[j]``: the vertex of column ``j`` of ``D``.  When ``P`` has columns,
    ``P[r, j]`` is ``order[pred[pcols[j]]]`` for a settled vertex (``-1`` for
    the source and for vertices not settled): the predecessors in the
    caller's numbering (``order`` maps the graph's ids back to them).
    """
    n = indptr.shape[0] - 1
    dist = np.full(n, hi, dtype=D.dtype)
    pred = np.full(n, -1, dtype=np.int32)
    pos = np.full(n, -1, dtype=np.int32)
    hk = np.empty(n, dtype=D.dtype)
    hv = np.empty(n, dtype=np.int32)
    seen = np.empty(n, dtype=np.int32)
    with_pred = P.shape[1] > 0
    for r in range(r0, r1):
        s = sources[r]
        dist[s] = 0
        hk[0] = 0
        hv[0] = s
        pos[s] = 0
        seen[0] = s
        n_seen = 1
        size = 1
        left = n_targets
        while size > 0:
            d = hk[0]
            if d > limit:
                break
            u = hv[0]
            size = qheap_pop(hk, hv, pos, size)
            pos[u] = -2
            if is_target[u]:
                left -= 1
                if left == 0:
                    break
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                nd = path_sum(d, w[e], lo, hi)
                if nd < dist[v]:
                    dist[v] = nd
                    pred[v] = u
                    pv = pos[v]
                    if pv == -1:
                        seen[n_seen] = v
                        n_seen += 1
                        qheap_up(hk, hv, pos, size, nd, v)
                        size += 1
                    else:
                        qheap_up(hk, hv, pos, pv, nd, v)
        row = D[r]
        for j in range(cols.shape[0]):
            c = cols[j]
            row[j] = dist[c] if pos[c] == -2 else hi
        if with_pred:
            prow = P[r]
            for j in range(pcols.shape[0]):
                c = pcols[j]
                p = pred[c]
                prow[j] = order[p] if pos[c] == -2 and p >= 0 else -1
        for i in range(n_seen):
            v = seen[i]
            dist[v] = hi
            pred[v] = -1
            pos[v] = -1
