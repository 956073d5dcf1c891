"""Numba kernels of :class:`graphs.DynamicSSSP`: shortest-path trees repaired after arc updates.

One call repairs the trees of every source (in parallel, one source per
``prange`` slot) after a batch of arc changes whose new weights are already
written into ``w``:

1. **worse arcs** (``u -> v`` increased or closed) that are tree arcs
   (``pred[v] == u``): the subtrees below their heads are marked, their
   distances forgotten; each marked vertex gets the best offer from its
   unmarked in-neighbours (whose distances cannot have changed); then
   Dijkstra settles the marked vertices among themselves.  Only the subtrees
   are touched (Ramalingam & Reps, "An incremental algorithm for a
   generalization of the shortest-path problem", J. Algorithms 21, 1996;
   Frigioni, Marchetti-Spaccamela & Nanni, J. Algorithms 34, 2000);
2. **better arcs** (``u -> v`` decreased or reopened): where ``dist[u] (x) w
   < dist[v]``, ``v`` is improved and Dijkstra runs from the improved heads
   (and from the vertices settled in step 1, which the batch's better arcs
   may have improved beyond their subtrees), relaxing only improvements.

Weights are non-negative (checked by the caller); integer sums saturate at
the dtype's ``inf`` (its maximum), never wrap.  The heap is the shared one of
:mod:`._kernel_lib` (lazy deletion: stale entries are skipped).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._kernel_lib import heap_pop, heap_push

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["repair_trees"]


@njit(inline="always")
def _plus(a, b, inf):  # pragma: no cover - jitted
    """``a + b`` saturating at ``inf`` (floats: plain addition)."""
    if a >= inf or b >= inf:
        return inf
    if a > inf - b:
        return inf
    return a + b


@njit(inline="always")
def _settle(indptr, indices, w, dist, pred, mark, stamp, hk, hv, size, inf, only_marked):  # pragma: no cover
    """Dijkstra from the heap's entries; with ``only_marked``, relax only arcs into marked vertices."""
    while size > 0:
        d = hk[0]
        x = hv[0]
        size = heap_pop(hk, hv, size)
        if d > dist[x]:
            continue
        for e in range(indptr[x], indptr[x + 1]):
            z = indices[e]
            if only_marked and mark[z] != stamp:
                continue
            c = _plus(d, w[e], inf)
            if c < dist[z]:
                dist[z] = c
                pred[z] = x
                size = heap_push(hk, hv, size, c, z)
    return size


@njit(cache=True, parallel=True)
def repair_trees(indptr, indices, w, rindptr, rindices, rarc, dist, pred, sources,
                 worse_u, worse_v, better_u, better_v, better_e, inf, marks, stamps):  # pragma: no cover - jitted
    """Repair ``dist`` / ``pred`` (k, n) of the trees rooted at ``sources`` after the batch (see the module).

    ``rindptr`` / ``rindices`` / ``rarc``: the in-arcs of each vertex (tails,
    and the index of the arc in ``w``).  ``better_e``: the arc index of each
    better arc.  ``marks`` (threads, n) and ``stamps`` (threads,): one
    scratch slot per ``prange`` iteration, kept by the caller between calls
    (a vertex is marked when its slot's entry equals the slot's stamp, so
    nothing is cleared).  Returns the number of vertices reset or improved.
    """
    n = indptr.shape[0] - 1
    k = sources.shape[0]
    m = indices.shape[0]
    threads = marks.shape[0]
    touched = np.zeros(threads, np.int64)
    per = (k + threads - 1) // threads
    for t in prange(threads):
        mark = marks[t]
        stack = np.empty(n, np.int64)
        hk = np.empty(m + n + 1, dist.dtype)
        hv = np.empty(m + n + 1, np.int64)
        stamp = stamps[t]
        for r in range(t * per, min(k, (t + 1) * per)):
            D = dist[r]
            P = pred[r]
            # 1. worse tree arcs: mark the subtrees below their heads
            stamp += 1
            top = 0
            for a in range(worse_u.shape[0]):
                v = worse_v[a]
                if P[v] == worse_u[a] and mark[v] != stamp:
                    mark[v] = stamp
                    stack[top] = v
                    top += 1
            marked = 0
            while marked < top:  # the stack, read in order, lists the subtrees (children after parents)
                x = stack[marked]
                marked += 1
                for e in range(indptr[x], indptr[x + 1]):
                    z = indices[e]
                    if P[z] == x and mark[z] != stamp:
                        mark[z] = stamp
                        stack[top] = z
                        top += 1
            size = 0
            if top > 0:
                for i in range(top):
                    D[stack[i]] = inf
                    P[stack[i]] = -1
                for i in range(top):  # the best offer from outside the subtrees
                    y = stack[i]
                    for f in range(rindptr[y], rindptr[y + 1]):
                        x = rindices[f]
                        if mark[x] == stamp:
                            continue
                        c = _plus(D[x], w[rarc[f]], inf)
                        if c < D[y]:
                            D[y] = c
                            P[y] = x
                    if D[y] < inf:
                        size = heap_push(hk, hv, size, D[y], y)
                size = _settle(indptr, indices, w, D, P, mark, stamp, hk, hv, size, inf, True)
            # 2. better arcs: improve their heads, then spread the improvements -- and those of the subtrees,
            # which may have been reached through a better arc of the batch in step 1
            for i in range(top):
                y = stack[i]
                if D[y] < inf:
                    size = heap_push(hk, hv, size, D[y], y)
            for a in range(better_u.shape[0]):
                u = better_u[a]
                v = better_v[a]
                c = _plus(D[u], w[better_e[a]], inf)
                if c < D[v]:
                    D[v] = c
                    P[v] = u
                    size = heap_push(hk, hv, size, c, v)
                    top += 1
            size = _settle(indptr, indices, w, D, P, mark, -1, hk, hv, size, inf, False)
            touched[t] += top
        stamps[t] = stamp
    return touched.sum()
