"""Numba kernels of the CPU minimum spanning forest: Boruvka rounds over a shrinking edge list.

The candidate edges are the arcs ``u -> v`` with ``u != v`` (of an undirected
graph, only those with ``u < v``: the other arc of each edge comes later in the
CSR and can never win).  Edges are ordered strictly by ``(weight, arc id)``,
where the arc id is the arc's position in the graph's CSR.

Each round (:func:`boruvka_forest`) contracts the edge list in place: an edge
whose endpoints lie in one component is dropped, the others are relabelled to
their components' roots, and every component's minimum edge is found; the
minimum edges are then joined with a union-find.  The list is split between the
worker threads of :mod:`semiring._cpu.threads` (each chunk compacted in place,
with its own per-root minima, merged afterwards); :func:`filter_chunk` is that
per-chunk pass and releases the GIL.

When every weight is the same (an unweighted graph, a boolean matrix), the
order ``(weight, arc id)`` is the arc order of the CSR itself, so Kruskal needs
no sort: :func:`forest_in_arc_order` joins the candidate arcs in CSR order with
a union-find in one pass, which gives the same (unique) forest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._kernel_lib import uf_find, uf_link  # union-find with path halving, union by the smaller root

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["NONE", "all_equal", "forest_in_arc_order", "candidate_edges", "filter_chunk", "merge_minima", "join_minima", "compress"]


@njit(cache=True, nogil=True)
def candidate_edges(indptr, indices, undirected):  # pragma: no cover - jitted
    """``(eu, ev, eid)``: tail, head (int32) and CSR position (int64) of every candidate arc."""
    n = indptr.shape[0] - 1
    m = 0
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if v != u and (not undirected or u < v):
                m += 1
    eu = np.empty(m, dtype=np.int32)
    ev = np.empty(m, dtype=np.int32)
    eid = np.empty(m, dtype=np.int64)
    k = 0
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if v != u and (not undirected or u < v):
                eu[k] = u
                ev[k] = v
                eid[k] = e
                k += 1
    return eu, ev, eid


@njit(cache=True, nogil=True)
def all_equal(w):  # pragma: no cover - jitted
    """True when every entry of ``w`` equals ``w[0]`` (an empty ``w`` too); a NaN is equal to nothing."""
    if w.shape[0] == 0:
        return True
    w0 = w[0]
    m = w.shape[0]
    for lo in range(0, m, 4096):  # blocks without an exit inside (vectorised), a check after each
        same = True
        for i in range(lo, min(lo + 4096, m)):
            same &= w[i] == w0
        if not same:
            return False
    return True


@njit(cache=True, nogil=True)
def forest_in_arc_order(indptr, indices, undirected, parent, tree):  # pragma: no cover - jitted
    """Kruskal over the candidate arcs in CSR order (all weights equal): arc ids of the forest into ``tree``.

    ``parent`` must be ``arange(n)`` (int32) on entry; union by the smaller
    root, as :func:`join_minima`.  Returns the number of forest arcs, written
    to ``tree`` in increasing order.  The root of the row's vertex is kept
    across its row (every union of that row involves its component), so each
    arc costs one ``find``.
    """
    n = indptr.shape[0] - 1
    k = 0
    for u in range(n):
        ru = parent[u]  # u's root: parent[u] is a root or points towards one
        ru = uf_find(parent, ru)
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if v == u or (undirected and v < u):
                continue
            rv = parent[v]
            if rv == ru:  # the common case once components grow: v hangs right under u's root
                continue
            rv = uf_find(parent, rv)
            if rv != ru:
                ru = uf_link(parent, ru, rv)
                tree[k] = e
                k += 1
                parent[v] = ru  # v straight at the new root: later finds of v take one step
                if k == n - 1:
                    return k
    return k


@njit(inline="always")
def _less(wa, ia, wb, ib):
    """``(wa, ia) < (wb, ib)`` in the strict order (weight, arc id)."""
    return wa < wb or (wa == wb and ia < ib)


NONE = np.iinfo(np.int64).max  # "no edge yet" in the per-root minimum arc ids


@njit(cache=True, nogil=True)
def filter_chunk(lo, hi, eu, ev, ew, eid, comp, bw, bi):  # pragma: no cover - jitted
    """Contract ``[lo, hi)`` of the edge list in place; per-root minimum edges into ``bw``, ``bi``.

    An edge whose endpoints have one root in ``comp`` is dropped; the others
    move down to ``lo, lo + 1, ...`` with their endpoints replaced by the roots.
    ``(bw[r], bi[r])`` becomes the weight and arc id of root ``r``'s minimum
    kept edge (``bi[r] == NONE`` where it has none; ``bi`` must be ``NONE``
    everywhere on entry).  Returns the end of the kept range.
    """
    j = lo
    for i in range(lo, hi):
        ru = comp[eu[i]]
        rv = comp[ev[i]]
        if ru == rv:
            continue
        w = ew[i]
        d = eid[i]
        eu[j] = ru
        ev[j] = rv
        ew[j] = w
        eid[j] = d
        if bi[ru] == NONE or _less(w, d, bw[ru], bi[ru]):
            bw[ru] = w
            bi[ru] = d
        if bi[rv] == NONE or _less(w, d, bw[rv], bi[rv]):
            bw[rv] = w
            bi[rv] = d
        j += 1
    return j


@njit(cache=True, nogil=True)
def merge_minima(lo, hi, eu, ev, bw, bi, ow, oi):  # pragma: no cover - jitted
    """Fold the minima ``(ow, oi)`` of the chunk ``[lo, hi)`` into ``(bw, bi)``; resets ``oi`` to NONE.

    Only the chunk's endpoints can have minima there, so only they are visited.
    """
    for j in range(lo, hi):
        for r in (eu[j], ev[j]):
            d = oi[r]
            if d != NONE:
                if bi[r] == NONE or _less(ow[r], d, bw[r], bi[r]):
                    bw[r] = ow[r]
                    bi[r] = d
                oi[r] = NONE


@njit(cache=True, nogil=True)
def join_minima(lo, hi, eu, ev, eid, bi, parent, tree, k):  # pragma: no cover - jitted
    """Add every component's minimum edge to the forest (union-find); resets ``bi`` to NONE.

    Visits the list ``[lo, hi)``; an edge that is the minimum of either
    endpoint's component joins the two components (once: the union-find
    rejects the second sighting) and its arc id goes to ``tree[k]``.  Returns
    the new ``k``.
    """
    for j in range(lo, hi):
        a = eu[j]
        b = ev[j]
        d = eid[j]
        ca = bi[a] == d
        cb = bi[b] == d
        if ca or cb:
            if ca:
                bi[a] = NONE
            if cb:
                bi[b] = NONE
            ra = uf_find(parent, a)
            rb = uf_find(parent, b)
            if ra != rb:
                uf_link(parent, ra, rb)
                tree[k] = d
                k += 1
    return k


@njit(cache=True, nogil=True)
def compress(parent, eu, ev, m):  # pragma: no cover - jitted
    """Point every vertex the list ``[0, m)`` names straight at its root (the next round's ``comp``).

    Sweeps all vertices when that is shorter than the list.
    """
    n = parent.shape[0]
    if n <= 2 * m:
        for v in range(n):
            parent[v] = uf_find(parent, parent[v])
    else:
        for j in range(m):
            parent[eu[j]] = uf_find(parent, eu[j])
            parent[ev[j]] = uf_find(parent, ev[j])
