"""Numba kernels for NetworkX's spur searches in ``shortest_simple_paths``: its two bidirectional searches, batched.

NetworkX's Yen runs, per spur vertex ``x = path[i]``, a bidirectional search
from ``x`` to the target that ignores the nodes ``path[:i]`` and the edges
``(x, v)`` taken by the accepted paths with the same root: breadth-first
(``_bidirectional_shortest_path``) without a weight, Dijkstra
(``_bidirectional_dijkstra``) with one.  Which of several equally short
routes it returns follows from its loop order, so these kernels are its
loops step for step on the backend graph's arcs in NetworkX's adjacency
order (successors, and for a directed graph the predecessors in ``G._pred``
order): the same route, the same length.

One call runs the searches ``j0:j1`` of a round on scratch arrays of ``n``
entries kept by the caller (reset after each search, touched entries only);
``rank`` numbers the round's path (``-1`` off it); the banned next vertices of
search ``j`` are ``ban_next[ban_ptr[j]:ban_ptr[j + 1]]``.  An edge ``(tail,
head)`` is ignored when ``tail`` is the spur and ``head`` a banned vertex (an
undirected graph: either way round), as NetworkX's edge filter reads it.

Dijkstra's heap holds NetworkX's ``(distance, counter)`` keys, every push
counted (stale entries skipped at the pop): with unique keys any heap pops
them in NetworkX's order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["bidirectional_dijkstra_spurs", "bidirectional_bfs_spurs"]


@njit(inline="always")
def _push(hk, hc, hv, size, key, c, v):  # pragma: no cover - jitted
    """Push ``(key, c, v)`` on the binary heap ordered by ``(key, c)``; returns the new size."""
    i = size
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] < key or (hk[p] == key and hc[p] < c):
            break
        hk[i] = hk[p]
        hc[i] = hc[p]
        hv[i] = hv[p]
        i = p
    hk[i] = key
    hc[i] = c
    hv[i] = v
    return size + 1


@njit(inline="always")
def _pop(hk, hc, hv, size):  # pragma: no cover - jitted
    """Remove the root of the binary heap (read before); returns the new size."""
    size -= 1
    key = hk[size]
    c = hc[size]
    v = hv[size]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= size:
            break
        b = a
        if a + 1 < size and (hk[a + 1] < hk[a] or (hk[a + 1] == hk[a] and hc[a + 1] < hc[a])):
            b = a + 1
        if key < hk[b] or (key == hk[b] and c < hc[b]):
            break
        hk[i] = hk[b]
        hc[i] = hc[b]
        hv[i] = hv[b]
        i = b
    if size > 0:
        hk[i] = key
        hc[i] = c
        hv[i] = v
    return size


@njit(inline="always")
def _edge_ignored(tail, head, x, ban_next, b0, b1, directed):  # pragma: no cover - jitted
    """Whether NetworkX's edge filter drops the edge ``(tail, head)`` (``x``: the spur)."""
    if tail == x:
        for q in range(b0, b1):
            if ban_next[q] == head:
                return True
    if not directed and head == x:
        for q in range(b0, b1):
            if ban_next[q] == tail:
                return True
    return False


@njit(inline="always")
def _append(out_v, out_w, used, add):  # pragma: no cover - jitted
    """``out_v`` and ``out_w`` with room for ``add`` more entries after ``used``."""
    if used + add <= out_v.shape[0]:
        return out_v, out_w
    cap = max(2 * out_v.shape[0], used + add)
    nv = np.empty(cap, dtype=out_v.dtype)
    nw = np.empty(cap, dtype=out_w.dtype)
    nv[:used] = out_v[:used]
    nw[:used] = out_w[:used]
    return nv, nw


@njit(inline="always")
def _arc_weight(indptr, indices, w, ok, u, v):  # pragma: no cover - jitted
    """The weight of the first usable arc ``u -> v`` in ``u``'s row (NetworkX's ``G[u][v]``)."""
    for e in range(indptr[u], indptr[u + 1]):
        if indices[e] == v and ok[e]:
            return w[e]
    return w[indptr[u]]  # not reached: the route's arcs exist


@njit(cache=True, nogil=True)
def bidirectional_dijkstra_spurs(sptr, sidx, sw, sok, pptr, pidx, pw, pok, directed, rank, path, spur_at, ban_ptr,
                                 ban_next, target, fin, fval, seen, sval, pred, hk, hc, hv, touched,
                                 j0, j1):  # pragma: no cover - jitted
    """Searches ``j0:j1``: NetworkX's ``_bidirectional_dijkstra`` from each spur, with its ignored nodes and edges.

    Scratch, two rows each (forward, backward) of ``n`` entries: ``fin``
    (int8, 0: not final), ``fval`` (final distances), ``seen`` (int8, 0),
    ``sval`` (tentative distances), ``pred`` (int64: the previous vertex on
    each side's path), and ``touched`` (int64); the heap ``hk``, ``hc``,
    ``hv``, two rows of ``m + 2`` entries (every push of a search).

    Returns ``(verts, arcw, offs, keys, settled)``: the routes found,
    concatenated (from the spur to ``target``), the weight of the arc into
    each vertex (0 for the spur), ``offs`` (``j1 - j0 + 1``), each search's
    ``finaldist`` and the vertices it settled.
    """
    m = j1 - j0
    out_v = np.empty(1024, dtype=np.int64)
    out_w = np.empty(1024, dtype=sw.dtype)
    offs = np.zeros(m + 1, dtype=np.int64)
    keys = np.zeros(m, dtype=sw.dtype)
    settled = np.zeros(m, dtype=np.int64)
    zero = np.zeros(1, dtype=sw.dtype)[0]
    used = 0
    for j in range(j0, j1):
        i = spur_at[j]
        x = path[i]
        b0 = ban_ptr[j]
        b1 = ban_ptr[j + 1]
        if x == target:  # NetworkX's answer (0, [source])
            out_v, out_w = _append(out_v, out_w, used, 1)
            out_v[used] = x
            out_w[used] = zero
            used += 1
            offs[j - j0 + 1] = used
            settled[j - j0] = 1
            continue
        n_t = 0
        size0 = 0
        size1 = 0
        c = 0
        for d in range(2):
            s = x if d == 0 else target
            seen[d, s] = 1
            sval[d, s] = 0
            pred[d, s] = -1
            touched[n_t] = s
            n_t += 1
        size0 = _push(hk[0], hc[0], hv[0], size0, zero, c, x)
        c += 1
        size1 = _push(hk[1], hc[1], hv[1], size1, zero, c, target)
        c += 1
        meet = -1
        mp0 = -1
        mp1 = -1
        finaldist = zero
        found = False
        count = 0
        d = 1
        while size0 > 0 and size1 > 0:
            d = 1 - d
            if d == 0:
                dist = hk[0, 0]
                v = hv[0, 0]
                size0 = _pop(hk[0], hc[0], hv[0], size0)
            else:
                dist = hk[1, 0]
                v = hv[1, 0]
                size1 = _pop(hk[1], hc[1], hv[1], size1)
            if fin[d, v]:
                continue
            fin[d, v] = 1
            fval[d, v] = dist
            count += 1
            if fin[1 - d, v]:
                found = True
                break
            if d == 0:
                ptr, idx, ww, okk = sptr, sidx, sw, sok
            else:
                ptr, idx, ww, okk = pptr, pidx, pw, pok
            for e in range(ptr[v], ptr[v + 1]):
                w = idx[e]
                r = rank[w]
                if r >= 0 and r < i:
                    continue  # an ignored node
                if d == 0:
                    if _edge_ignored(v, w, x, ban_next, b0, b1, directed):
                        continue
                elif _edge_ignored(w, v, x, ban_next, b0, b1, directed):
                    continue
                if not okk[e]:
                    continue  # the weight function's None
                length = dist + ww[e]
                if fin[d, w]:
                    continue
                if seen[d, w] == 0 or length < sval[d, w]:
                    if seen[0, w] == 0 and seen[1, w] == 0:
                        touched[n_t] = w
                        n_t += 1
                    seen[d, w] = 1
                    sval[d, w] = length
                    if d == 0:
                        size0 = _push(hk[0], hc[0], hv[0], size0, length, c, w)
                    else:
                        size1 = _push(hk[1], hc[1], hv[1], size1, length, c, w)
                    c += 1
                    pred[d, w] = v
                    if seen[0, w] and seen[1, w]:
                        total = sval[0, w] + sval[1, w]
                        if meet == -1 or finaldist > total:
                            finaldist = total
                            meet = w
                            mp0 = pred[0, w]
                            mp1 = pred[1, w]
        if found:
            nf = 1
            u = mp0
            while u != -1:
                nf += 1
                u = pred[0, u]
            nb = 0
            u = mp1
            while u != -1:
                nb += 1
                u = pred[1, u]
            out_v, out_w = _append(out_v, out_w, used, nf + nb)
            k = used + nf - 1
            out_v[k] = meet
            u = mp0
            while u != -1:
                k -= 1
                out_v[k] = u
                u = pred[0, u]
            k = used + nf
            u = mp1
            while u != -1:
                out_v[k] = u
                k += 1
                u = pred[1, u]
            out_w[used] = zero
            for q in range(used + 1, used + nf + nb):
                out_w[q] = _arc_weight(sptr, sidx, sw, sok, out_v[q - 1], out_v[q])
            used += nf + nb
            keys[j - j0] = finaldist
        offs[j - j0 + 1] = used
        settled[j - j0] = count
        for q in range(n_t):
            v = touched[q]
            for d in range(2):
                fin[d, v] = 0
                seen[d, v] = 0
                pred[d, v] = -1
    return out_v[:used], out_w[:used], offs, keys, settled


@njit(cache=True, nogil=True)
def bidirectional_bfs_spurs(sptr, sidx, pptr, pidx, directed, rank, path, spur_at, ban_ptr, ban_next, target,
                            pred, succ, ff, rf, nxt, touched, j0, j1):  # pragma: no cover - jitted
    """Searches ``j0:j1``: NetworkX's ``_bidirectional_pred_succ`` from each spur, with its ignored nodes and edges.

    Scratch of ``n`` entries: ``pred``, ``succ`` (int64, ``-2``: not seen
    from that side), ``ff``, ``rf``, ``nxt``, ``touched`` (int64).

    Returns ``(verts, offs, settled)``: the routes found, concatenated (from
    the spur to ``target``), ``offs`` (``j1 - j0 + 1``) and the vertices each
    search reached.
    """
    m = j1 - j0
    out_v = np.empty(1024, dtype=np.int64)
    dummy = np.empty(1024, dtype=np.int64)
    offs = np.zeros(m + 1, dtype=np.int64)
    settled = np.zeros(m, dtype=np.int64)
    used = 0
    for j in range(j0, j1):
        i = spur_at[j]
        x = path[i]
        b0 = ban_ptr[j]
        b1 = ban_ptr[j + 1]
        pred[x] = -1
        succ[target] = -1
        touched[0] = x
        touched[1] = target
        n_t = 2
        meet = -1
        if x == target:
            meet = x
        else:
            ff[0] = x
            nf = 1
            rf[0] = target
            nr = 1
            while nf > 0 and nr > 0 and meet == -1:
                if nf <= nr:
                    k = 0
                    for a in range(nf):
                        v = ff[a]
                        for e in range(sptr[v], sptr[v + 1]):
                            w = sidx[e]
                            r = rank[w]
                            if (r >= 0 and r < i) or _edge_ignored(v, w, x, ban_next, b0, b1, directed):
                                continue
                            if pred[w] == -2:
                                nxt[k] = w
                                k += 1
                                if succ[w] == -2:
                                    touched[n_t] = w
                                    n_t += 1
                                pred[w] = v
                            if succ[w] != -2:
                                meet = w
                                break
                        if meet != -1:
                            break
                    for a in range(k):
                        ff[a] = nxt[a]
                    nf = k
                else:
                    k = 0
                    for a in range(nr):
                        v = rf[a]
                        for e in range(pptr[v], pptr[v + 1]):
                            w = pidx[e]
                            r = rank[w]
                            if (r >= 0 and r < i) or _edge_ignored(w, v, x, ban_next, b0, b1, directed):
                                continue
                            if succ[w] == -2:
                                if pred[w] == -2:
                                    touched[n_t] = w
                                    n_t += 1
                                succ[w] = v
                                nxt[k] = w
                                k += 1
                            if pred[w] != -2:
                                meet = w
                                break
                        if meet != -1:
                            break
                    for a in range(k):
                        rf[a] = nxt[a]
                    nr = k
        if meet != -1:
            nf = 0
            u = meet
            while u != -1:
                nf += 1
                u = pred[u]
            nb = 0
            u = succ[meet]
            while u != -1:
                nb += 1
                u = succ[u]
            out_v, dummy = _append(out_v, dummy, used, nf + nb)
            k = used + nf - 1
            u = meet
            while u != -1:
                out_v[k] = u
                k -= 1
                u = pred[u]
            k = used + nf
            u = succ[meet]
            while u != -1:
                out_v[k] = u
                k += 1
                u = succ[u]
            used += nf + nb
        offs[j - j0 + 1] = used
        settled[j - j0] = n_t
        for q in range(n_t):
            v = touched[q]
            pred[v] = -2
            succ[v] = -2
    return out_v[:used], offs, settled
