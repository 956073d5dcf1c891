"""Numba kernels of the CPU maximum flow: residual network, push-relabel, residual reachability.

The residual network (built by :func:`residual_csr`) has one arc per direction of
every unordered vertex pair joined by an arc of the graph (parallel arcs merged by
summing capacities, self loops dropped); ``mate[a]`` is the arc of the opposite
direction.  :func:`push_relabel` is Goldberg & Tarjan's algorithm ("A new approach
to the maximum-flow problem", JACM 35, 1988) in the form of Cherkassky & Goldberg's
HIPR ("On implementing the push-relabel method for the maximum flow problem",
Algorithmica 19, 1997): highest-label selection from label buckets, current arcs,
the gap heuristic (a label left empty cuts every vertex above it off the sink) and
global relabelling (a backward breadth-first search from the sink) once the
relabelling work since the last one exceeds ``freq``.

Capacities are int64 (exact) or float64; ``tol`` is 0 for integers, and for floats a
residual capacity or excess at most ``tol`` counts as zero.  Every kernel is serial:
push-relabel's queue discipline is what makes it fast, and it does not split.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["residual_csr", "saturate_source", "push_relabel", "reachable_from", "stranded", "cut_arcs"]


@njit(cache=True, nogil=True)
def _sorted_rows(indptr, indices, cap):  # pragma: no cover - jitted
    """``(indices, cap)`` with every row sorted by head (the arrays themselves when they are)."""
    n = indptr.shape[0] - 1
    ok = True
    for u in range(n):
        for e in range(indptr[u] + 1, indptr[u + 1]):
            if indices[e] < indices[e - 1]:
                ok = False
                break
        if not ok:
            break
    if ok:
        return indices, cap
    idx = indices.copy()
    c = cap.copy()
    for u in range(n):
        lo, hi = indptr[u], indptr[u + 1]
        order = np.argsort(indices[lo:hi], kind="mergesort")
        for k in range(hi - lo):
            idx[lo + k] = indices[lo + order[k]]
            c[lo + k] = cap[lo + order[k]]
    return idx, c


@njit(cache=True, nogil=True)
def _transpose(indptr, indices):  # pragma: no cover - jitted
    """The CSR structure of the transpose, rows sorted by tail (vertices are visited in order)."""
    n = indptr.shape[0] - 1
    m = indptr[n]
    tptr = np.zeros(n + 1, dtype=np.int64)
    for e in range(m):
        tptr[indices[e] + 1] += 1
    for v in range(n):
        tptr[v + 1] += tptr[v]
    fill = tptr[:-1].copy()
    tsrc = np.empty(m, dtype=np.int32)
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            tsrc[fill[v]] = u
            fill[v] += 1
    return tptr, tsrc


@njit(cache=True, nogil=True)
def _merge_rows(indptr, indices, cap, tptr, tsrc, use_t):  # pragma: no cover - jitted
    """Rows of the residual network: row u of the graph merged with row u of the transpose.

    The transpose's entries are the reverse arcs (capacity 0 here; an arc w -> u of
    the graph is counted in row w).  Without ``use_t`` (a symmetric graph: the
    transpose has the rows of the graph) the graph's rows alone are merged.
    """
    n = indptr.shape[0] - 1
    m = indptr[n]
    size = 2 * m if use_t else m
    ptr = np.zeros(n + 1, dtype=np.int64)
    head = np.empty(size, dtype=np.int32)
    cap0 = np.zeros(size, dtype=cap.dtype)
    zero = np.zeros(1, dtype=cap.dtype)[0]
    out = 0
    for u in range(n):
        i, iend = indptr[u], indptr[u + 1]
        j, jend = (tptr[u], tptr[u + 1]) if use_t else (0, 0)
        start = out
        while i < iend or j < jend:
            if j >= jend or (i < iend and indices[i] <= tsrc[j]):
                w = indices[i]
                cf = cap[i]
                i += 1
            else:
                w = tsrc[j]
                cf = zero
                j += 1
            if w == u:
                continue
            if out > start and head[out - 1] == w:
                cap0[out - 1] += cf
            else:
                head[out] = w
                cap0[out] = cf
                out += 1
        ptr[u + 1] = out
    return ptr, head[:out].copy(), cap0[:out].copy()


@njit(cache=True, nogil=True)
def _mates(ptr, head):  # pragma: no cover - jitted
    """The opposite arc of every arc (rows sorted by head); ``ok`` False if one is missing."""
    n = ptr.shape[0] - 1
    mate = np.empty(head.shape[0], dtype=np.int64)
    pos = ptr[:-1].copy()
    for u in range(n):
        for a in range(ptr[u], ptr[u + 1]):
            v = head[a]
            if v < u:
                continue
            # Row v is sorted; its arcs to vertices below u were matched by them already,
            # so the arc v -> u, if there, is the first unmatched one.
            b = pos[v]
            if b >= ptr[v + 1] or head[b] != u:
                return mate, False
            pos[v] = b + 1
            mate[a] = b
            mate[b] = a
    return mate, True


@njit(cache=True, nogil=True)
def residual_csr(indptr, indices, cap, symmetric=False):  # pragma: no cover - jitted
    """The residual network of the arcs ``u -> indices[e]`` (``indptr``'s rows) with capacities ``cap``.

    Returns ``(ptr, head, mate, cap0)``: CSR rows sorted by head, one arc per
    direction of each vertex pair (parallel arcs summed, self loops dropped), the
    paired reverse arc of each arc, and each arc's capacity (0 for a pure reverse arc).
    Each residual row merges the (sorted) row of the graph with the row of its
    transpose, which a counting pass builds already sorted: O(n + m).  With
    ``symmetric`` (an undirected graph's promise) the transpose is skipped; a graph
    that breaks the promise is noticed and built the general way.
    """
    indices, cap = _sorted_rows(indptr, indices, cap)
    if symmetric:
        ptr, head, cap0 = _merge_rows(indptr, indices, cap, indptr, indices, False)
        mate, ok = _mates(ptr, head)
        if ok:
            return ptr, head, mate, cap0
    tptr, tsrc = _transpose(indptr, indices)
    ptr, head, cap0 = _merge_rows(indptr, indices, cap, tptr, tsrc, True)
    mate, ok = _mates(ptr, head)
    return ptr, head, mate, cap0


@njit(cache=True, nogil=True)
def saturate_source(ptr, head, mate, res, excess, s):  # pragma: no cover - jitted
    """Push every residual arc out of ``s`` to capacity (the initial preflow)."""
    for a in range(ptr[s], ptr[s + 1]):
        d = res[a]
        if d > 0:
            res[a] = 0
            res[mate[a]] += d
            excess[head[a]] += d


@njit(cache=True, nogil=True)
def _global_relabel(ptr, head, mate, res, label, sink, blocked, tol, queue):  # pragma: no cover - jitted
    """Exact distances to ``sink`` in the residual graph (``n`` where it cannot be reached)."""
    n = ptr.shape[0] - 1
    label[:] = n
    label[sink] = 0
    queue[0] = sink
    qh, qt = 0, 1
    while qh < qt:
        x = queue[qh]
        qh += 1
        dx = label[x] + 1
        for a in range(ptr[x], ptr[x + 1]):
            y = head[a]
            if label[y] == n and y != blocked and res[mate[a]] > tol:
                label[y] = dx
                queue[qt] = y
                qt += 1


@njit(cache=True, nogil=True)
def push_relabel(ptr, head, mate, res, excess, label, sink, blocked, tol, freq):  # pragma: no cover - jitted
    """Discharge every vertex with excess towards ``sink`` (highest label first).

    ``blocked`` (the source in the first phase, the sink of the first phase in the
    second) keeps label ``n`` and never moves flow.  On return no vertex other than
    ``sink`` and ``blocked`` with label below ``n`` holds excess above ``tol``;
    ``label`` holds the final labels.  Returns the number of global relabellings.
    """
    n = ptr.shape[0] - 1
    cur = ptr[:-1].copy()
    a_first = np.full(n + 1, -1, dtype=np.int32)  # active vertices of each label (stacks)
    a_next = np.full(n, -1, dtype=np.int32)
    i_first = np.full(n + 1, -1, dtype=np.int32)  # inactive vertices of each label (doubly linked)
    i_next = np.full(n, -1, dtype=np.int32)
    i_prev = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    work = 0
    n_global = 0
    amax = 0
    dmax = 0
    relabel_now = True
    while True:
        if relabel_now:
            relabel_now = False
            n_global += 1
            work = 0
            _global_relabel(ptr, head, mate, res, label, sink, blocked, tol, queue)
            a_first[:] = -1
            i_first[:] = -1
            amax = 0
            dmax = 0
            for v in range(n):
                cur[v] = ptr[v]
                d = label[v]
                if v == sink or v == blocked or d >= n:
                    continue
                if d > dmax:
                    dmax = d
                if excess[v] > tol:
                    a_next[v] = a_first[d]
                    a_first[d] = v
                    if d > amax:
                        amax = d
                else:
                    f = i_first[d]
                    i_next[v] = f
                    i_prev[v] = -1
                    if f >= 0:
                        i_prev[f] = v
                    i_first[d] = v
        if amax <= 0:
            break
        v = a_first[amax]
        if v < 0:
            amax -= 1
            continue
        a_first[amax] = a_next[v]
        # Discharge v: push along admissible arcs, relabel when none is left.
        while True:
            dv = label[v]
            end = ptr[v + 1]
            a = cur[v]
            while a < end:
                r = res[a]
                if r > tol:
                    w = head[a]
                    if label[w] == dv - 1:
                        ev = excess[v]
                        dlt = ev if ev < r else r
                        res[a] = r - dlt
                        res[mate[a]] += dlt
                        excess[v] = ev - dlt
                        if w != sink and excess[w] <= tol:
                            # w turns active: unlink it from its inactive list.
                            p, q = i_prev[w], i_next[w]
                            if p >= 0:
                                i_next[p] = q
                            else:
                                i_first[dv - 1] = q
                            if q >= 0:
                                i_prev[q] = p
                            a_next[w] = a_first[dv - 1]
                            a_first[dv - 1] = w
                            if dv - 1 > amax:
                                amax = dv - 1
                        excess[w] += dlt
                        if excess[v] <= tol:
                            break
                a += 1
            if excess[v] <= tol:
                cur[v] = a
                f = i_first[dv]
                i_next[v] = f
                i_prev[v] = -1
                if f >= 0:
                    i_prev[f] = v
                i_first[dv] = v
                break
            # Relabel: one above the lowest residual neighbour.
            work += 12 + (end - ptr[v])
            if a_first[dv] < 0 and i_first[dv] < 0:
                # Gap: nothing else at label dv, so nothing above it reaches the sink.
                for d in range(dv + 1, dmax + 1):
                    x = a_first[d]
                    while x >= 0:
                        label[x] = n
                        x = a_next[x]
                    a_first[d] = -1
                    x = i_first[d]
                    while x >= 0:
                        label[x] = n
                        x = i_next[x]
                    i_first[d] = -1
                label[v] = n
                dmax = dv - 1
                amax = dv - 1
                break
            dmin = n
            amin = end
            for b in range(ptr[v], end):
                if res[b] > tol:
                    dw = label[head[b]]
                    if dw < dmin:
                        dmin = dw
                        amin = b
            if dmin + 1 >= n:
                label[v] = n
                break
            label[v] = dmin + 1
            cur[v] = amin
            if dmin + 1 > dmax:
                dmax = dmin + 1
        if work > freq:
            relabel_now = True
    return n_global


@njit(cache=True, nogil=True)
def reachable_from(ptr, head, res, s, tol):  # pragma: no cover - jitted
    """Boolean mask of the vertices reachable from ``s`` over arcs of residual capacity above ``tol``."""
    n = ptr.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int32)
    seen[s] = True
    queue[0] = s
    qh, qt = 0, 1
    while qh < qt:
        x = queue[qh]
        qh += 1
        for a in range(ptr[x], ptr[x + 1]):
            y = head[a]
            if not seen[y] and res[a] > tol:
                seen[y] = True
                queue[qt] = y
                qt += 1
    return seen


@njit(cache=True, nogil=True)
def stranded(excess, s, t, tol):  # pragma: no cover - jitted
    """Whether a vertex other than ``s`` and ``t`` holds excess above ``tol`` (the second phase's work)."""
    for v in range(excess.shape[0]):
        if v != s and v != t and excess[v] > tol:
            return True
    return False


@njit(cache=True, nogil=True)
def cut_arcs(indptr, indices, cap, side):  # pragma: no cover - jitted
    """``(u, v)`` of the arcs of positive capacity from ``side`` to its complement."""
    n = indptr.shape[0] - 1
    k = 0
    for u in range(n):
        if side[u]:
            for e in range(indptr[u], indptr[u + 1]):
                if not side[indices[e]] and cap[e] > 0:
                    k += 1
    cu = np.empty(k, dtype=np.int32)
    cv = np.empty(k, dtype=np.int32)
    k = 0
    for u in range(n):
        if side[u]:
            for e in range(indptr[u], indptr[u + 1]):
                if not side[indices[e]] and cap[e] > 0:
                    cu[k] = u
                    cv[k] = indices[e]
                    k += 1
    return cu, cv
