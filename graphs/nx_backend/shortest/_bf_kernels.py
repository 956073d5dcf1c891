"""NetworkX's Bellman-Ford queue, replayed: the same relaxations in the same order, on the arcs in NetworkX's order.

NetworkX's ``_inner_bellman_ford`` (the SPFA variant) pops nodes from a FIFO
queue, skips a node while one of its predecessors is queued, and relaxes its
arcs in ``G._adj`` order: a strictly shorter length makes the arc's tail the
node's only predecessor (``pred[v] = [u]``) and queues the node; an equal one
appends the tail (``pred[v].append(u)``).  Where several paths are shortest,
which predecessors a node keeps, in which order, depends on that queue; its
paths (``_build_paths_from_predecessors``) follow the first predecessor of each
node.  :func:`replay_bellman_ford` runs the same loop compiled, on the
backend graph's CSR (rows in node order, each in NetworkX's adjacency order)
with the exact weights NetworkX adds (int64 or float64: the same sums, the
same comparisons), so its distances, predecessor lists and order of first
reach are NetworkX's.  The negative-cycle heuristic of NetworkX only returns
early on a negative cycle and changes nothing else; callers run this only
where the engine found no negative cycle reachable.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["replay_bellman_ford", "first_pred_depths"]


@njit(cache=True, nogil=True)
def _grow(a, size):  # pragma: no cover - jitted
    b = np.empty(max(2 * a.shape[0], size), a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def replay_bellman_ford(indptr, indices, w, ok, s):  # pragma: no cover - jitted
    """NetworkX's Bellman-Ford from vertex ``s`` over the CSR ``indptr, indices`` (weights ``w``, arcs used ``ok``).

    Returns ``(status, order, count, dist, poff, pflat)``: ``order[:count]``
    the vertices in the order NetworkX first reaches them (its dicts' order,
    ``s`` first); ``dist`` their lengths (NetworkX's, bit for bit);
    ``pflat[poff[k]:poff[k + 1]]`` the predecessor list of ``order[k]``, in
    NetworkX's order.  ``status`` 1: some vertex was queued ``n`` times
    (NetworkX's negative-cycle test; nothing else is meaningful then).
    """
    n = indptr.shape[0] - 1
    dist = np.zeros(n, w.dtype)
    has = np.zeros(n, np.bool_)
    order = np.empty(n, np.int64)
    head = np.full(n, -1, np.int64)  # each vertex's predecessor list: a chain through the pool
    tail = np.full(n, -1, np.int64)
    size = np.zeros(n, np.int64)
    pval = np.empty(max(16, n), np.int64)
    pnext = np.empty(max(16, n), np.int64)
    used = 0
    queue = np.empty(n + 1, np.int64)
    in_q = np.zeros(n, np.bool_)
    queued = np.zeros(n, np.int64)
    qh, qt, qn = 0, 1, 1
    queue[0] = s
    in_q[s] = True
    has[s] = True
    order[0] = s
    count = 1
    status = 0
    while qn > 0:
        u = queue[qh]
        qh = qh + 1 if qh < n else 0
        qn -= 1
        in_q[u] = False
        p = head[u]
        skip = False
        while p >= 0:  # NetworkX skips u while one of its predecessors is queued
            if in_q[pval[p]]:
                skip = True
                break
            p = pnext[p]
        if skip:
            continue
        du = dist[u]
        for e in range(indptr[u], indptr[u + 1]):
            if not ok[e]:
                continue  # inf and NaN weights: NetworkX's comparisons are all False for them
            v = indices[e]
            dv = du + w[e]
            if has[v]:
                better = dv < dist[v]
            else:
                better = dv < np.inf
            if better:
                if not in_q[v]:
                    queue[qt] = v
                    qt = qt + 1 if qt < n else 0
                    qn += 1
                    in_q[v] = True
                    queued[v] += 1
                    if queued[v] == n:
                        status = 1
                        return status, order, count, dist, np.zeros(1, np.int64), np.zeros(0, np.int64)
                if not has[v]:
                    has[v] = True
                    order[count] = v
                    count += 1
                dist[v] = dv
                if used == pval.shape[0]:
                    pval = _grow(pval, used + 1)
                    pnext = _grow(pnext, used + 1)
                pval[used] = u
                pnext[used] = -1
                head[v] = used
                tail[v] = used
                size[v] = 1
                used += 1
            elif has[v] and dv == dist[v]:
                if used == pval.shape[0]:
                    pval = _grow(pval, used + 1)
                    pnext = _grow(pnext, used + 1)
                pval[used] = u
                pnext[used] = -1
                if tail[v] >= 0:
                    pnext[tail[v]] = used
                else:
                    head[v] = used
                tail[v] = used
                size[v] += 1
                used += 1
    poff = np.zeros(count + 1, np.int64)
    for k in range(count):
        poff[k + 1] = poff[k] + size[order[k]]
    pflat = np.empty(poff[count], np.int64)
    for k in range(count):
        p = head[order[k]]
        j = poff[k]
        while p >= 0:
            pflat[j] = pval[p]
            j += 1
            p = pnext[p]
    return status, order, count, dist, poff, pflat


@njit(cache=True, nogil=True)
def first_pred_depths(order, count, poff, pflat, s, n):  # pragma: no cover - jitted
    """The tree of first predecessors (the paths NetworkX builds): ``(parent, depth, ok)``.

    ``parent[v]``: the first predecessor of ``v`` (-1 at ``s``, whose path is
    itself); ``depth`` the hops from ``s`` along it.  ``ok`` is False where
    that chain runs into a cycle before reaching ``s`` (zero-length cycles:
    NetworkX's path search then backtracks to other predecessors).
    """
    parent = np.full(n, -1, np.int64)
    for k in range(count):
        v = order[k]
        if v != s and poff[k + 1] > poff[k]:
            parent[v] = pflat[poff[k]]
    depth = np.full(n, -1, np.int64)
    depth[s] = 0
    stack = np.empty(n, np.int64)
    for k in range(count):
        v = order[k]
        top = 0
        while depth[v] < 0:
            if top >= n or parent[v] < 0:
                return parent, depth, False
            stack[top] = v
            top += 1
            v = parent[v]
        d = depth[v]
        while top > 0:
            top -= 1
            d += 1
            depth[stack[top]] = d
    return parent, depth, True
