"""Numba kernels of the CPU single-pair shortest path: bidirectional Dijkstra and A*.

Both take non-negative weights.  Distances live in the weights' dtype with the
conventions of :mod:`graphs.paths._sssp_kernels` (``hi`` is the dtype's +inf, sums
saturate) and use the heap of :mod:`graphs._kernel_lib`.  Predecessors are int32, -1
where unset.  :func:`graphs.paths.single_pair.shortest_path` calls them and turns
their arrays into a route.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._kernel_lib import heap_pop, heap_push, path_sum, relax

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["bidirectional_dijkstra", "astar"]


@njit(cache=True, nogil=True)
def bidirectional_dijkstra(fp, fi, fw, bp, bi, bw, s, t, df, db, pf, pb, lo, hi):  # pragma: no cover - jitted
    """Dijkstra from ``s`` on the graph (``fp, fi, fw``) and from ``t`` on its reverse (``bp, bi, bw``).

    ``df`` / ``db`` must hold ``hi`` and ``pf`` / ``pb`` -1 on entry.  The side
    whose heap has the smaller top key advances; the search stops when the two
    top keys add up to at least ``mu``, the best ``s -> v -> t`` length seen
    (a lower bound on every unseen route; Pohl 1971, Goldberg & Harrelson 2005).
    ``pf[v]`` is the vertex before ``v`` on a shortest ``s -> v`` path and
    ``pb[v]`` the vertex after ``v`` on a shortest ``v -> t`` path.

    Returns ``(mu, meet, settled)``: the distance (``hi`` when unreachable), a
    vertex on a shortest route (-1 when unreachable) and the vertices settled
    by both sides together.
    """
    hkf = np.empty(fi.shape[0] + 1, dtype=df.dtype)
    hvf = np.empty(fi.shape[0] + 1, dtype=np.int32)
    hkb = np.empty(bi.shape[0] + 1, dtype=db.dtype)
    hvb = np.empty(bi.shape[0] + 1, dtype=np.int32)
    n = fp.shape[0] - 1
    donef = np.zeros(n, dtype=np.uint8)
    doneb = np.zeros(n, dtype=np.uint8)
    df[s] = 0
    db[t] = 0
    sf = heap_push(hkf, hvf, 0, df[s], s)
    sb = heap_push(hkb, hvb, 0, db[t], t)
    mu = hi
    meet = -1
    if s == t:
        return df[s], s, 0
    settled = 0
    while sf > 0 and sb > 0:
        if path_sum(hkf[0], hkb[0], lo, hi) >= mu:
            break
        if hkf[0] <= hkb[0]:
            d = hkf[0]
            u = hvf[0]
            sf = heap_pop(hkf, hvf, sf)
            if donef[u] != 0 or d > df[u]:
                continue
            donef[u] = 1
            settled += 1
            for e in range(fp[u], fp[u + 1]):
                v = fi[e]
                nd = path_sum(d, fw[e], lo, hi)
                if relax(df, pf, u, v, nd):
                    sf = heap_push(hkf, hvf, sf, nd, v)
                if db[v] < hi and df[v] < hi:
                    c = path_sum(df[v], db[v], lo, hi)
                    if c < mu:
                        mu = c
                        meet = v
        else:
            d = hkb[0]
            u = hvb[0]
            sb = heap_pop(hkb, hvb, sb)
            if doneb[u] != 0 or d > db[u]:
                continue
            doneb[u] = 1
            settled += 1
            for e in range(bp[u], bp[u + 1]):
                v = bi[e]
                nd = path_sum(d, bw[e], lo, hi)
                if relax(db, pb, u, v, nd):
                    sb = heap_push(hkb, hvb, sb, nd, v)
                if df[v] < hi and db[v] < hi:
                    c = path_sum(df[v], db[v], lo, hi)
                    if c < mu:
                        mu = c
                        meet = v
    return mu, meet, settled


@njit(inline="always")
def _euclid(coords, v, t, scale, hcache):  # pragma: no cover - jitted
    h = hcache[v]
    if h < 0.0:
        acc = 0.0
        for k in range(coords.shape[1]):
            x = float(coords[v, k]) - float(coords[t, k])
            acc += x * x
        h = scale * np.sqrt(acc)
        hcache[v] = h
    return h


@njit(cache=True, nogil=True)
def astar(indptr, indices, w, coords, scale, s, t, dist, pred, lo, hi):  # pragma: no cover - jitted
    """A* from ``s`` to ``t`` with the heuristic ``scale * ||coords[v] - coords[t]||``.

    ``dist`` must hold ``hi`` and ``pred`` -1 on entry.  Vertices are reopened
    when a shorter path to them turns up, so the answer is exact for any
    admissible heuristic (Hart, Nilsson & Raphael 1968), not only consistent
    ones; keys are float64 ``dist + h`` while ``dist`` stays in its own dtype.

    Returns ``(distance, settled)``: ``hi`` when ``t`` is unreachable.
    """
    n = indptr.shape[0] - 1
    cap = indices.shape[0] + 1
    hk = np.empty(cap, dtype=np.float64)
    hv = np.empty(cap, dtype=np.int32)
    hcache = np.full(n, -1.0)
    dist[s] = 0
    size = heap_push(hk, hv, 0, _euclid(coords, s, t, scale, hcache), s)
    settled = 0
    while size > 0:
        f = hk[0]
        u = hv[0]
        size = heap_pop(hk, hv, size)
        if f > float(dist[u]) + hcache[u]:
            continue  # a stale entry: u was reached more cheaply since
        if u == t:
            return dist[t], settled
        settled += 1
        du = dist[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            nd = path_sum(du, w[e], lo, hi)
            if relax(dist, pred, u, v, nd):
                if size == hk.shape[0]:
                    hk2 = np.empty(2 * size, dtype=np.float64)
                    hv2 = np.empty(2 * size, dtype=np.int32)
                    hk2[:size] = hk
                    hv2[:size] = hv
                    hk = hk2
                    hv = hv2
                size = heap_push(hk, hv, size, float(nd) + _euclid(coords, v, t, scale, hcache), v)
    return hi, settled
