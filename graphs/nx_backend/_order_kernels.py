"""Numba kernels for the orders NetworkX's traversals and searches visit nodes in.

NetworkX answers depend on the order its loops meet nodes (breadth-first
discovery order, depth-first events, the pop order of Dijkstra's heap, Kahn's
generations).  These kernels reproduce those orders on the backend graph's
arcs, which keep NetworkX's adjacency order (CSR rows in node order, each row
in ``G._adj`` order); the distances they order come from the library's engines.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["bfs_order", "bfs_orders", "dfs_events", "dijkstra_order", "kahn_generations", "dag_longest", "bidirectional_bfs",
           "match_pred_arcs"]


@njit(cache=True, nogil=True)
def _expand(indptr, indices, order, up, head, count, level, depth_limit):  # pragma: no cover - jitted
    """NetworkX's breadth-first discovery from the queue ``order[head:count]`` (levels set): each vertex found is
    appended to ``order``, its discoverer to ``up`` at the same place, its hop count to ``level``; vertices at
    ``depth_limit`` are not expanded.  Returns the new ``count``."""
    while head < count:
        v = order[head]
        head += 1
        if level[v] >= depth_limit:
            continue
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if level[w] < 0:
                level[w] = level[v] + 1
                order[count] = w
                up[count] = v
                count += 1
    return count


@njit(cache=True, nogil=True)
def bfs_order(indptr, indices, sources, depth_limit):  # pragma: no cover - jitted
    """NetworkX's breadth-first discovery from ``sources`` (in that order, duplicates skipped).

    Returns ``(order, parent, level, count)``: the first ``count`` entries of
    ``order`` are the vertices in discovery order (sources first), ``parent``
    the vertex that discovered each one (-1 for sources and unreached),
    ``level`` the hop count (-1 unreached).  Vertices at level ``depth_limit``
    are not expanded.
    """
    n = indptr.shape[0] - 1
    order = np.empty(n, np.int64)
    up = np.empty(n, np.int64)
    parent = np.full(n, -1, np.int64)
    level = np.full(n, -1, np.int64)
    count = 0
    for s in sources:
        if level[s] < 0:
            level[s] = 0
            order[count] = s
            up[count] = -1
            count += 1
    count = _expand(indptr, indices, order, up, 0, count, level, depth_limit)
    for j in range(count):
        parent[order[j]] = up[j]
    return order, parent, level, count


@njit(cache=True, nogil=True)
def bfs_orders(indptr, indices, sources, depth_limit):  # pragma: no cover - jitted
    """:func:`bfs_order` from each of ``sources`` in turn (one search each), concatenated.

    Returns ``(starts, order, place)``: search ``i`` discovered
    ``order[starts[i]:starts[i + 1]]`` (its source first), and ``place[j]`` is
    the position, within that search's block, of the vertex that discovered
    ``order[j]`` (-1 for the source).  One call for many small searches: no
    per-search allocation of ``n``-sized arrays or call from Python.
    """
    n = indptr.shape[0] - 1
    k = sources.shape[0]
    starts = np.zeros(k + 1, np.int64)
    cap = max(16, min(n * k, 4 * n))
    order = np.empty(cap, np.int64)
    place = np.empty(cap, np.int64)  # the discoverer's vertex, then its place in the block
    level = np.full(n, -1, np.int64)
    at = np.empty(n, np.int64)  # a vertex's position in the current block
    total = 0
    for i in range(k):
        if total + n > cap:  # room for a whole search
            cap = max(2 * cap, total + n)
            grown = np.empty(cap, np.int64)
            grown[:total] = order[:total]
            order = grown
            grown = np.empty(cap, np.int64)
            grown[:total] = place[:total]
            place = grown
        base = total
        s = sources[i]
        level[s] = 0
        order[total] = s
        place[total] = -1
        total = _expand(indptr, indices, order, place, base, total + 1, level, depth_limit)
        for j in range(base, total):  # places in the block; reset what this search touched
            at[order[j]] = j - base
        for j in range(base, total):
            if place[j] >= 0:
                place[j] = at[place[j]]
            level[order[j]] = -1
        starts[i + 1] = total
    return starts, order[:total], place[:total]


@njit(cache=True, nogil=True)
def dfs_events(indptr, indices, starts, depth_limit):  # pragma: no cover - jitted
    """The events of NetworkX's ``dfs_labeled_edges`` as arrays ``(u, v, kind)``, ``count`` of them.

    kinds: 0 forward, 1 nontree, 2 reverse, 3 reverse-depth_limit.  Starts in
    the given order (already visited ones skipped), children in CSR order.
    """
    n = indptr.shape[0] - 1
    cap = 2 * indices.shape[0] + 4 * n + 4
    eu = np.empty(cap, np.int64)
    ev = np.empty(cap, np.int64)
    ek = np.empty(cap, np.int8)
    visited = np.zeros(n, np.bool_)
    stack = np.empty(n + 1, np.int64)
    cursor = np.empty(n, np.int64)
    c = 0
    for start in starts:
        if visited[start]:
            continue
        eu[c] = start
        ev[c] = start
        ek[c] = 0
        c += 1
        visited[start] = True
        stack[0] = start
        cursor[start] = indptr[start]
        top = 1
        depth_now = 1
        while top > 0:
            parent = stack[top - 1]
            pushed = False
            e = cursor[parent]
            end = indptr[parent + 1]
            while e < end:
                child = indices[e]
                e += 1
                if visited[child]:
                    eu[c] = parent
                    ev[c] = child
                    ek[c] = 1
                    c += 1
                else:
                    eu[c] = parent
                    ev[c] = child
                    ek[c] = 0
                    c += 1
                    visited[child] = True
                    if depth_now < depth_limit:
                        cursor[parent] = e
                        stack[top] = child
                        cursor[child] = indptr[child]
                        top += 1
                        depth_now += 1
                        pushed = True
                        break
                    else:
                        eu[c] = parent
                        ev[c] = child
                        ek[c] = 3
                        c += 1
            if not pushed:
                cursor[parent] = e
                top -= 1
                depth_now -= 1
                if top > 0:
                    eu[c] = stack[top - 1]
                    ev[c] = parent
                    ek[c] = 2
                    c += 1
        eu[c] = start
        ev[c] = start
        ek[c] = 2
        c += 1
    return eu[:c], ev[:c], ek[:c]


@njit(cache=True, nogil=True)
def _sift_up(hd, hc, hv, i):  # pragma: no cover - jitted
    while i > 0:
        p = (i - 1) >> 1
        if hd[i] < hd[p] or (hd[i] == hd[p] and hc[i] < hc[p]):
            hd[i], hd[p] = hd[p], hd[i]
            hc[i], hc[p] = hc[p], hc[i]
            hv[i], hv[p] = hv[p], hv[i]
            i = p
        else:
            break


@njit(cache=True, nogil=True)
def _sift_down(hd, hc, hv, size):  # pragma: no cover - jitted
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        best = left
        right = left + 1
        if right < size and (hd[right] < hd[left] or (hd[right] == hd[left] and hc[right] < hc[left])):
            best = right
        if hd[best] < hd[i] or (hd[best] == hd[i] and hc[best] < hc[i]):
            hd[i], hd[best] = hd[best], hd[i]
            hc[i], hc[best] = hc[best], hc[i]
            hv[i], hv[best] = hv[best], hv[i]
            i = best
        else:
            break


@njit(cache=True, nogil=True)
def dijkstra_order(indptr, indices, w, ok, d, valid, sources, target):  # pragma: no cover - jitted
    """The pop order and path parents of NetworkX's Dijkstra, given the final distances ``d``.

    NetworkX pops ``(distance, push counter)`` pairs; a node's last push is
    made by the first popped neighbour that reaches it at its final distance
    (a strict improvement), and that neighbour is its path parent.  With the
    distances known, pushing only those final entries gives the same pops.
    ``ok``: the CSR entries searched; ``valid``: nodes in the answer (reached, within the cutoff).  Stops after
    popping ``target`` (-1: never).  Returns ``(order, parent, count)``.
    """
    n = indptr.shape[0] - 1
    pushed = np.zeros(n, np.bool_)
    popped = np.zeros(n, np.bool_)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    hd = np.empty(n, d.dtype)
    hc = np.empty(n, np.int64)
    hv = np.empty(n, np.int64)
    size = 0
    counter = 0
    for s in sources:
        if not pushed[s]:
            pushed[s] = True
            hd[size] = d[s]
            hc[size] = counter
            hv[size] = s
            counter += 1
            size += 1
            _sift_up(hd, hc, hv, size - 1)
    count = 0
    while size > 0:
        v = hv[0]
        size -= 1
        if size > 0:
            hd[0] = hd[size]
            hc[0] = hc[size]
            hv[0] = hv[size]
            _sift_down(hd, hc, hv, size)
        popped[v] = True
        order[count] = v
        count += 1
        if v == target:
            break
        dv = d[v]
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            if pushed[u] or not valid[u] or not ok[e]:
                continue
            if dv + w[e] == d[u]:
                pushed[u] = True
                parent[u] = v
                hd[size] = d[u]
                hc[size] = counter
                hv[size] = u
                counter += 1
                size += 1
                _sift_up(hd, hc, hv, size - 1)
    return order[:count], parent, count


@njit(cache=True, nogil=True)
def kahn_generations(indptr, indices, n):  # pragma: no cover - jitted
    """NetworkX's ``topological_generations``: ``(order, generation, count)``; ``count < n`` means a cycle.

    ``indices`` may repeat a head (parallel arcs each count, as NetworkX
    subtracts ``len(G[node][child])``).
    """
    indeg = np.zeros(n, np.int64)
    for e in range(indices.shape[0]):
        indeg[indices[e]] += 1
    order = np.empty(n, np.int64)
    gen = np.full(n, -1, np.int64)
    count = 0
    for v in range(n):
        if indeg[v] == 0:
            order[count] = v
            gen[v] = 0
            count += 1
    head = 0
    g = 0
    while head < count:
        end = count
        for i in range(head, end):
            v = order[i]
            for e in range(indptr[v], indptr[v + 1]):
                u = indices[e]
                indeg[u] -= 1
                if indeg[u] == 0:
                    order[count] = u
                    gen[u] = g + 1
                    count += 1
        head = end
        g += 1
    return order, gen, count


@njit(cache=True, nogil=True)
def dag_longest(order, pindptr, pindices, pw, zero):  # pragma: no cover - jitted
    """NetworkX's ``dag_longest_path`` recurrence over max-plus along ``order`` (a topological order).

    For each ``v``: the first in-arc (predecessor order) of largest
    ``dist[u] + w`` if that is ``>= 0``, else a fresh start at ``v`` (0).
    Returns ``(dist, pred)`` (``pred[v] == v`` for a start).
    """
    n = order.shape[0]
    dist = np.empty(pindptr.shape[0] - 1, pw.dtype)
    pred = np.empty(pindptr.shape[0] - 1, np.int64)
    for i in range(n):
        v = order[i]
        best = zero
        arg = -1
        for e in range(pindptr[v], pindptr[v + 1]):
            u = pindices[e]
            x = dist[u] + pw[e]
            if arg < 0 or x > best:
                best = x
                arg = u
        if arg >= 0 and best >= zero:
            dist[v] = best
            pred[v] = arg
        else:
            dist[v] = zero
            pred[v] = v
    return dist, pred


@njit(cache=True, nogil=True)
def bidirectional_bfs(sindptr, sindices, pindptr, pindices, s, t):  # pragma: no cover - jitted
    """NetworkX's ``_bidirectional_pred_succ``: ``(pred, succ, meet)`` (-1: none; ``meet == -1``: no path).

    ``pred``/``succ`` hold -2 for nodes not seen from that side.
    """
    n = sindptr.shape[0] - 1
    pred = np.full(n, -2, np.int64)
    succ = np.full(n, -2, np.int64)
    pred[s] = -1
    succ[t] = -1
    if s == t:
        return pred, succ, s
    ff = np.empty(n, np.int64)
    rf = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    ff[0] = s
    nf = 1
    rf[0] = t
    nr = 1
    while nf > 0 and nr > 0:
        if nf <= nr:
            k = 0
            for i in range(nf):
                v = ff[i]
                for e in range(sindptr[v], sindptr[v + 1]):
                    w = sindices[e]
                    if pred[w] == -2:
                        nxt[k] = w
                        k += 1
                        pred[w] = v
                    if succ[w] != -2:
                        return pred, succ, w
            for i in range(k):
                ff[i] = nxt[i]
            nf = k
        else:
            k = 0
            for i in range(nr):
                v = rf[i]
                for e in range(pindptr[v], pindptr[v + 1]):
                    w = pindices[e]
                    if succ[w] == -2:
                        succ[w] = v
                        nxt[k] = w
                        k += 1
                    if pred[w] != -2:
                        return pred, succ, w
            for i in range(k):
                rf[i] = nxt[i]
            nr = k
    return pred, succ, -1


@njit(cache=True, nogil=True)
def match_pred_arcs(src, dst, pindptr, ptails):  # pragma: no cover - jitted
    """The arc ``tail -> head`` of each predecessor entry: ``(arcs, ok)``.

    ``pindptr``/``ptails``: for each head ``h``, the tails of the arcs into
    ``h`` (NetworkX's ``G._pred[h]`` order).  ``arcs[k]`` is the index ``e``
    with ``src[e] == ptails[k]`` and ``dst[e] == h``; ``ok`` is False when
    some entry has no such arc or the counts per head differ.  O(n + m): the
    arcs are bucketed by head, and each head's tails are looked up in a slot
    array cleared after the head.
    """
    n = pindptr.shape[0] - 1
    m = src.shape[0]
    arcs = np.empty(ptails.shape[0], np.int64)
    if ptails.shape[0] != m:
        return arcs, False
    start = np.zeros(n + 1, np.int64)
    for e in range(m):
        start[dst[e] + 1] += 1
    for v in range(n):
        start[v + 1] += start[v]
    fill = start[:n].copy()
    by_head = np.empty(m, np.int64)
    for e in range(m):
        h = dst[e]
        by_head[fill[h]] = e
        fill[h] += 1
    slot = np.full(n, -1, np.int64)
    for h in range(n):
        if start[h + 1] - start[h] != pindptr[h + 1] - pindptr[h]:
            return arcs, False
        for k in range(start[h], start[h + 1]):
            slot[src[by_head[k]]] = by_head[k]
        for k in range(pindptr[h], pindptr[h + 1]):
            t = ptails[k]
            if t < 0 or t >= n or slot[t] < 0:
                return arcs, False
            arcs[k] = slot[t]
        for k in range(start[h], start[h + 1]):
            slot[src[by_head[k]]] = -1
    return arcs, True
