"""Numba kernels of the CPU breadth-first searches (direction-optimising BFS, bidirectional BFS).

A BFS level is the masked sparse product ``f' = f (x) A`` over the Boolean
semiring with the complement of the visited set as mask (Kepner & Gilbert
2011, Ch. 3; GraphBLAST, Yang et al. 2022): a push level is the SpMSpV form
(scan the out-arcs of the frontier queue), a pull level the masked SpMV form
(every unvisited vertex scans its in-arcs for a frontier member and stops at
the first; Beamer, Asanovic & Patterson, SC 2012).  The kernels fuse the
product with the level and parent bookkeeping.

:func:`bfs_levels` runs the whole search in one call, so graphs with thousands
of small levels (road networks, grids) pay no Python round trip per level.  It
is serial: on two cores a level is usually too short to amortise a parallel
region (tens of microseconds on an idle machine, scheduler time slices on a
busy one), and the direction switch already removes most of the work.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._kernel_lib import visit_row

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["bfs_levels", "bidirectional", "PUSH", "PULL", "AUTO"]


PUSH, PULL, AUTO = 0, 1, 2


@njit(cache=True, nogil=True)
def bfs_levels(indptr, indices, tptr, tind, s, mode, alpha, beta, level, parent,
               t_mode, t_nf, t_edges):  # pragma: no cover - jitted
    """Whole BFS from ``s`` in one call; ``mode`` is PUSH, PULL or AUTO (Beamer's switch).

    ``level`` must be -1 and ``parent`` -1 everywhere on entry.  Push levels
    scan the out-arcs of the frontier queue; pull levels walk a list of the
    still-unvisited vertices (compacted as they are found, so late levels cost
    what is left, not ``n``) and stop each scan at the first in-neighbour in
    the frontier.  The trace arrays get one entry per level: the mode, the
    frontier size, and the arcs of the frontier (push) or arcs scanned (pull).
    Returns the number of levels.
    """
    n = level.shape[0]
    queue = np.empty(n, dtype=np.int32)
    nxt = np.empty(n, dtype=np.int32)
    flags = np.zeros(n, dtype=np.uint8)
    unvis = np.empty(n, dtype=np.int32)
    n_unvis = -1
    level[s] = 0
    queue[0] = s
    nf = 1
    prev_nf = 0
    d = 0
    m_f = indptr[s + 1] - indptr[s]
    m_unvisited = indptr[n] - m_f
    push = mode != PULL
    while nf > 0:
        if mode == AUTO:
            if push:
                if m_f * alpha > m_unvisited:
                    push = False
            elif nf * beta < n and nf < prev_nf:
                push = True
        nn = 0
        new_mf = 0
        if push:
            edges = m_f
            for k in range(nf):
                nn = visit_row(indptr, indices, queue[k], level, -1, d + 1, parent, nxt, nn)
            # The new frontier's arcs, summed apart from the scan: independent loads overlap.
            for k in range(nn):
                v = nxt[k]
                new_mf += indptr[v + 1] - indptr[v]
            m_unvisited -= new_mf
        else:
            for k in range(nf):
                flags[queue[k]] = 1
            if n_unvis < 0:
                n_unvis = 0
                for v in range(n):
                    if level[v] < 0:
                        unvis[n_unvis] = v
                        n_unvis += 1
            keep = 0
            edges = 0
            for k in range(n_unvis):
                v = unvis[k]
                if level[v] >= 0:
                    continue
                a = tptr[v]
                b = tptr[v + 1]
                found = False
                for e in range(a, b):
                    u = tind[e]
                    if flags[u] != 0:
                        level[v] = d + 1
                        parent[v] = u
                        edges += e - a + 1
                        found = True
                        break
                if found:
                    nxt[nn] = v
                    nn += 1
                else:
                    edges += b - a
                    unvis[keep] = v
                    keep += 1
            n_unvis = keep
            for k in range(nf):
                flags[queue[k]] = 0
            for k in range(nn):
                v = nxt[k]
                new_mf += indptr[v + 1] - indptr[v]
            m_unvisited -= new_mf
        if d < t_mode.shape[0]:
            t_mode[d] = 0 if push else 1
            t_nf[d] = nf
            t_edges[d] = edges
        prev_nf = nf
        tmp = queue
        queue = nxt
        nxt = tmp
        nf = nn
        m_f = new_mf
        d += 1
    return d


@njit(cache=True, nogil=True)
def _expand(ptr, ind, frontier, nf, dist, pred, other_dist, d):  # pragma: no cover - jitted
    """Expand one side's level ``d``; return (new frontier size, best meeting vertex, its total)."""
    n = dist.shape[0]
    nxt = np.empty(n, dtype=np.int32)
    nn = 0
    best_v = -1
    best = -1
    for k in range(nf):
        u = frontier[k]
        for e in range(ptr[u], ptr[u + 1]):
            v = ind[e]
            if dist[v] < 0:
                dist[v] = d + 1
                pred[v] = u
                nxt[nn] = v
                nn += 1
                if other_dist[v] >= 0:
                    total = d + 1 + other_dist[v]
                    if best < 0 or total < best:
                        best = total
                        best_v = v
    for k in range(nn):
        frontier[k] = nxt[k]
    return nn, best_v, best


@njit(cache=True, nogil=True)
def bidirectional(indptr, indices, tptr, tind, s, t):  # pragma: no cover - jitted
    """Bidirectional BFS from ``s`` (out-arcs) and ``t`` (in-arcs); returns (distance, path).

    Each round expands the side with fewer frontier arcs by one full level; the
    first round in which the searches meet gives the distance (the minimum over
    that level's meetings), as in Harish & Narayanan's GPU st-connectivity.
    """
    n = indptr.shape[0] - 1
    ds = np.full(n, -1, dtype=np.int32)
    dt = np.full(n, -1, dtype=np.int32)
    ps = np.full(n, -1, dtype=np.int32)
    pt = np.full(n, -1, dtype=np.int32)
    fs = np.empty(n, dtype=np.int32)
    ft = np.empty(n, dtype=np.int32)
    ds[s] = 0
    dt[t] = 0
    fs[0] = s
    ft[0] = t
    nfs = 1
    nft = 1
    level_s = 0
    level_t = 0
    meet = -1
    best = -1
    if s == t:
        meet = s
        best = 0
    while meet < 0 and nfs > 0 and nft > 0:
        ws = 0
        for k in range(nfs):
            ws += indptr[fs[k] + 1] - indptr[fs[k]]
        wt = 0
        for k in range(nft):
            wt += tptr[ft[k] + 1] - tptr[ft[k]]
        if ws <= wt:
            nfs, v, tot = _expand(indptr, indices, fs, nfs, ds, ps, dt, level_s)
            level_s += 1
        else:
            nft, v, tot = _expand(tptr, tind, ft, nft, dt, pt, ds, level_t)
            level_t += 1
        if v >= 0:
            meet = v
            best = tot
    if meet < 0:
        return -1, np.empty(0, dtype=np.int32)
    path = np.empty(best + 1, dtype=np.int32)
    k = ds[meet]
    v = meet
    while v >= 0:
        path[k] = v
        k -= 1
        v = ps[v]
    k = ds[meet]
    v = meet
    while v != t:
        v = pt[v]
        k += 1
        path[k] = v
    return best, path
