"""Numba kernel of the k-shortest-paths engine: one round of Yen's spur searches, each stopping at the target.

One call runs the searches ``j0:j1`` of a round one after another on the
calling thread (:mod:`graphs.paths.k_shortest` hands ranges of them to the CPU
thread pool), on scratch arrays of ``n`` entries that the caller keeps from
call to call; after a search only the entries it touched are reset, so a
search costs what it visited, not ``n``.

Search ``j`` starts at the vertex ``x = path[i]`` (``i = spur_at[j]``) of the
round's path, at the distance ``prefix[i]`` of the root ``path[:i + 1]``.  It
never enters a vertex of the root (``0 <= rank[v] <= i``: ``rank`` numbers the
round's path, ``-1`` off it), nor follows an arc ``x -> v`` to a vertex
``v`` of ``ban_next[ban_ptr[j]:ban_ptr[j + 1]]`` (the next vertices of the
accepted paths that share the root), so every route it finds is a simple
path when the root is put before it.

Each search is A* towards ``target`` with the exact distances ``h`` to it
in the whole graph (a lower bound once vertices and arcs are banned, and a
consistent one: ``h[u] <= w(u, v) + h[v]``), which is Dijkstra on the reduced
weights ``w(u, v) + h[v] - h[u] >= 0``: settled distances are exact, the
search stops when ``target`` is settled, and it settles little more than the
detour around the banned part.  A vertex with ``h = hi`` cannot reach the
target and is never entered; a search stops with nothing when the least key
passes ``limit``.  Distances live in the weights' dtype and saturate at
``hi`` (:func:`graphs._kernel_lib.path_sum`): a route whose length would reach
``hi`` is not found.

Ties.  The heap orders vertices by ``(f, g)`` (``f = g + h``; of equal ``f``
the nearer one first), and a vertex reached at its distance again by a
settled vertex of smaller original id (``order[u]``) takes it as its
predecessor.  With positive weights every predecessor on a shortest route
(``g(u) < g(v)`` and ``f(u) <= f(v)``) is settled before the vertex, so each
vertex's route is, of its shortest routes, the one whose vertices read
backwards from it come first (smallest ids); with zero-weight arcs the
choice is still deterministic but may miss that one.

The heap is an indexed 4-ary heap as :func:`graphs._kernel_lib.qheap_up`
and :func:`graphs._kernel_lib.qheap_pop`, with the pair key ``(f, g)`` (two key
arrays ``hf``, ``hg``), written here: the library's heaps hold one key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._kernel_lib import path_sum

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["spur_searches"]


@njit(inline="always")
def _sift_up(hf, hg, hv, pos, i, f, g, v):  # pragma: no cover - jitted
    """Put ``(f, g, v)`` at slot ``i`` of the 4-ary heap of pair keys and sift it up; ``pos`` tracks slots."""
    while i > 0:
        p = (i - 1) >> 2
        pf = hf[p]
        pg = hg[p]
        if not (f < pf or (f == pf and g < pg)):
            break
        hf[i] = pf
        hg[i] = pg
        q = hv[p]
        hv[i] = q
        pos[q] = i
        i = p
    hf[i] = f
    hg[i] = g
    hv[i] = v
    pos[v] = i


@njit(inline="always")
def _pop(hf, hg, hv, pos, size):  # pragma: no cover - jitted
    """Remove the root of the 4-ary heap of pair keys (the caller read it before); returns the new size."""
    size -= 1
    f = hf[size]
    g = hg[size]
    v = hv[size]
    i = 0
    while True:
        c = (i << 2) + 1
        if c >= size:
            break
        best = c
        bf = hf[c]
        bg = hg[c]
        for j in range(c + 1, min(c + 4, size)):
            fj = hf[j]
            gj = hg[j]
            if fj < bf or (fj == bf and gj < bg):
                best = j
                bf = fj
                bg = gj
        if not (bf < f or (bf == f and bg < g)):
            break
        hf[i] = bf
        hg[i] = bg
        q = hv[best]
        hv[i] = q
        pos[q] = i
        i = best
    if size > 0:
        hf[i] = f
        hg[i] = g
        hv[i] = v
        pos[v] = i
    return size


@njit(cache=True, nogil=True)
def spur_searches(indptr, indices, w, h, order, rank, path, prefix, spur_at, ban_ptr, ban_next, target, limit,
                  lo, hi, dist, pred, pos, hf, hg, hv, seen, j0, j1):  # pragma: no cover - jitted
    """Searches ``j0:j1`` of a round (see the module docstring); their routes, concatenated.

    ``dist`` (``hi``), ``pred`` (``-1``), ``pos`` (``-1``) hold ``n`` entries
    reset after each search; ``hf``, ``hg``, ``hv``, ``seen`` are scratch of
    ``n`` entries.

    Returns
    -------
    verts : int32 array
        The routes found, each from its start ``x`` to ``target``.
    dists : array
        The distance of each of those vertices (from the start of ``path``).
    offs : int64 array (j1 - j0 + 1)
        Route ``j`` is ``verts[offs[j - j0]:offs[j - j0 + 1]]`` (empty: none).
    settled : int64 array (j1 - j0)
        Vertices each search settled.
    """
    out_v = np.empty(1024, dtype=np.int32)
    out_g = np.empty(1024, dtype=dist.dtype)
    offs = np.zeros(j1 - j0 + 1, dtype=np.int64)
    settled = np.zeros(j1 - j0, dtype=np.int64)
    used = 0
    for j in range(j0, j1):
        i = spur_at[j]
        x = path[i]
        g0 = prefix[i]
        b0 = ban_ptr[j]
        b1 = ban_ptr[j + 1]
        dist[x] = g0
        seen[0] = x
        n_seen = 1
        size = 0
        count = 0
        found = False
        f0 = path_sum(g0, h[x], lo, hi)
        if f0 < hi and f0 <= limit:
            _sift_up(hf, hg, hv, pos, 0, f0, g0, x)
            size = 1
        while size > 0:
            if hf[0] > limit:
                break
            u = hv[0]
            gu = hg[0]
            size = _pop(hf, hg, hv, pos, size)
            pos[u] = -2
            count += 1
            if u == target:
                found = True
                break
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                r = rank[v]
                if r >= 0 and r <= i:
                    continue  # the root (x included)
                pv = pos[v]
                if pv == -2:
                    continue
                if u == x:
                    banned = False
                    for q in range(b0, b1):
                        if ban_next[q] == v:
                            banned = True
                            break
                    if banned:
                        continue
                hv_ = h[v]
                if hv_ == hi:
                    continue  # cannot reach the target
                nd = path_sum(gu, w[e], lo, hi)
                if pv == -1:
                    f = path_sum(nd, hv_, lo, hi)
                    if f == hi:
                        continue  # a route through v would reach the sentinel
                    dist[v] = nd
                    pred[v] = u
                    seen[n_seen] = v
                    n_seen += 1
                    _sift_up(hf, hg, hv, pos, size, f, nd, v)
                    size += 1
                else:
                    dv = dist[v]
                    if nd < dv:
                        dist[v] = nd
                        pred[v] = u
                        _sift_up(hf, hg, hv, pos, pv, path_sum(nd, hv_, lo, hi), nd, v)
                    elif nd == dv and order[u] < order[pred[v]]:
                        pred[v] = u
        if found:
            length = 0
            v = target
            while v != -1:
                length += 1
                v = pred[v]
            if used + length > out_v.shape[0]:
                cap = max(2 * out_v.shape[0], used + length)
                grown_v = np.empty(cap, dtype=np.int32)
                grown_g = np.empty(cap, dtype=dist.dtype)
                grown_v[:used] = out_v[:used]
                grown_g[:used] = out_g[:used]
                out_v = grown_v
                out_g = grown_g
            k = used + length - 1
            v = target
            while v != -1:
                out_v[k] = v
                out_g[k] = dist[v]
                k -= 1
                v = pred[v]
            used += length
        offs[j - j0 + 1] = used
        settled[j - j0] = count
        for q in range(n_seen):
            v = seen[q]
            dist[v] = hi
            pred[v] = -1
            pos[v] = -1
    return out_v[:used], out_g[:used], offs, settled
