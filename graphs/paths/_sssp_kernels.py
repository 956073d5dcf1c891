"""Numba kernels of the CPU single-source shortest paths (min-plus semiring).

Distances live in the weights' dtype; ``hi`` is its +inf (``inf`` for floats,
``iinfo.max`` for integers, see :mod:`semiring.dtypes`) and ``lo`` its -inf.
Sums saturate at ``hi`` / ``lo`` instead of wrapping, and both stick: a
distance that reached ``lo`` stays ``lo`` whatever finite weight follows (as
IEEE ``-inf`` does), and ``hi`` is never relaxed from.  Since a saturated
``lo`` hides whether distances would keep falling, :func:`bellman_ford`
reports it (``v = -2``) and :func:`negative_cycle_wide` decides, in exact
two-word arithmetic, whether a negative cycle lies among those vertices.  Predecessors are int32, -1 for the source
and unreachable vertices; every kernel changes a predecessor only on a strict
improvement, so they always form a tree (CLRS, Lemma 24.16).

Kernels over many sources take a row range ``r0:r1`` and release the GIL;
:func:`graphs.sssp.multi_source_sssp` runs the ranges on the thread pool of
:mod:`semiring._cpu.threads`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._kernel_lib import enqueue_once, heap_pop, heap_push, path_sum, qheap_pop, qheap_up, relax, visit_row

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = [
    "dijkstra",
    "dijkstra_many",
    "bellman_ford",
    "label_correcting",
    "delta_stepping",
    "split_light_heavy",
    "pred_cycle_vertex",
    "finite_pred_cycle_vertex",
    "tight_tree_preds",
    "negative_cycle_wide",
    "reachable_from",
]


@njit(cache=True, nogil=True)
def _dijkstra_indexed(indptr, indices, w, s, dist, pred, lo, hi, hk, hv, pos):  # pragma: no cover - jitted
    """Dijkstra from ``s`` on an indexed 4-ary heap with decrease-key (weights >= 0).

    ``hk`` / ``hv`` (keys, vertices) have room for ``n`` entries; ``pos[v]`` is
    ``-1`` for a vertex not seen yet (everywhere on entry), its heap slot while
    queued, ``-2`` once settled (never read for a settled vertex: no arc
    improves it).  The heap never holds a vertex twice, so it
    stays within ``n`` entries (a lazy-deletion heap grows to the number of
    improvements, up to ``m``) and no stale entry is ever popped.
    """
    dist[s] = 0
    hk[0] = dist[s]
    hv[0] = s
    pos[s] = 0
    size = 1
    settled = 0
    while size > 0:
        d = hk[0]
        u = hv[0]
        pos[u] = -2
        size = qheap_pop(hk, hv, pos, size)
        settled += 1
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            # A settled v needs no test of its own: dist[v] <= d <= nd (weights >= 0, the sum saturates).
            nd = path_sum(d, w[e], lo, hi)
            if relax(dist, pred, u, v, nd):
                pv = pos[v]
                if pv == -1:
                    qheap_up(hk, hv, pos, size, nd, v)
                    size += 1
                else:
                    qheap_up(hk, hv, pos, pv, nd, v)
    return settled


@njit(cache=True, nogil=True)
def dijkstra(indptr, indices, w, s, dist, pred, lo, hi):  # pragma: no cover - jitted
    """Dijkstra from ``s`` with an indexed 4-ary heap (weights >= 0).

    ``dist`` must hold ``hi`` and ``pred`` -1 everywhere on entry.  Returns the
    number of vertices settled.
    """
    n = indptr.shape[0] - 1
    hk = np.empty(n, dtype=dist.dtype)
    hv = np.empty(n, dtype=np.int32)
    pos = np.full(n, -1, dtype=np.int32)
    return _dijkstra_indexed(indptr, indices, w, s, dist, pred, lo, hi, hk, hv, pos)


@njit(cache=True, nogil=True)
def dijkstra_many(indptr, indices, w, sources, D, P, lo, hi, r0, r1):  # pragma: no cover - jitted
    """Dijkstra from ``sources[r]`` into row ``r`` of ``D`` / ``P`` for ``r`` in ``r0:r1`` (one heap for all)."""
    n = indptr.shape[0] - 1
    hk = np.empty(n, dtype=D.dtype)
    hv = np.empty(n, dtype=np.int32)
    pos = np.empty(n, dtype=np.int32)
    for r in range(r0, r1):
        pos[:] = -1
        _dijkstra_indexed(indptr, indices, w, sources[r], D[r], P[r], lo, hi, hk, hv, pos)


@njit(cache=True, nogil=True)
def pred_cycle_vertex(pred):  # pragma: no cover - jitted
    """A vertex on a cycle of the predecessor graph, or -1 if it is a forest (O(n))."""
    return finite_pred_cycle_vertex(pred, np.zeros(pred.shape[0], dtype=np.int8), np.int8(1))


@njit(cache=True, nogil=True)
def finite_pred_cycle_vertex(pred, dist, lo):  # pragma: no cover - jitted
    """A vertex on a cycle of the predecessor graph none of whose distances saturated at ``lo``, or -1 (O(n)).

    Cycles through saturated vertices prove nothing (``lo`` spreads along any
    cycle), and one of them must not hide a finite negative cycle found later
    in the scan: every cycle is walked.
    """
    n = pred.shape[0]
    stamp = np.full(n, -1, dtype=np.int64)
    for v0 in range(n):
        if stamp[v0] >= 0:
            continue
        v = v0
        while v >= 0 and stamp[v] < 0:
            stamp[v] = v0
            v = pred[v]
        if v >= 0 and stamp[v] == v0:
            c = v
            finite = True
            while True:
                if dist[c] == lo:
                    finite = False
                    break
                c = pred[c]
                if c == v:
                    break
            if finite:
                return v
    return -1


@njit(cache=True, nogil=True)
def bellman_ford(indptr, indices, w, frontier, nf, dist, pred, lo, hi):  # pragma: no cover - jitted
    """Frontier Bellman-Ford: each round relaxes the out-arcs of the vertices improved in the last.

    ``frontier[:nf]`` are the vertices with a finite start distance in
    ``dist``.  In min-plus terms a round is the SpMSpV ``d = d (+) (f (x) A)``
    restricted to the changed entries ``f``.  Returns ``(rounds, v)``: ``v =
    -1`` when the distances converged, else a vertex on a negative cycle
    (found in the predecessor graph once more than ``n`` rounds have run, on
    a cycle of finite distances: a saturated ``lo`` spreads along any cycle,
    even one of weight >= 0, and proves nothing), or ``v = -2`` when the distances converged but some reached ``lo`` (the
    saturated -inf): a negative cycle may hide among those vertices, which
    the caller decides with :func:`negative_cycle_wide`.
    """
    n = indptr.shape[0] - 1
    queue = np.empty(max(n, 1), dtype=np.int32)
    nxt = np.empty(max(n, 1), dtype=np.int32)
    inq = np.zeros(n, dtype=np.uint8)
    for k in range(nf):
        queue[k] = frontier[k]
        inq[frontier[k]] = 1
    rounds = 0
    while nf > 0:
        rounds += 1
        if rounds > n:
            c = finite_pred_cycle_vertex(pred, dist, lo)
            if c >= 0:  # finite all along the cycle: exact sums, a real negative cycle
                return rounds, c
        nn = 0
        for k in range(nf):
            u = queue[k]
            inq[u] = 0
            du = dist[u]
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if relax(dist, pred, u, v, path_sum(du, w[e], lo, hi)):
                    if inq[v] == 0:
                        inq[v] = 1
                        nxt[nn] = v
                        nn += 1
        tmp = queue
        queue = nxt
        nxt = tmp
        nf = nn
    for v in range(n):
        if dist[v] == lo and lo != hi:
            # -inf spreads along any cycle, even one of weight >= 0, so a predecessor cycle
            # among saturated vertices proves nothing: the caller decides exactly
            return rounds, -2
    return rounds, -1


@njit(cache=True, nogil=True)
def reachable_from(indptr, indices, frontier, nf):  # pragma: no cover - jitted
    """``uint8`` mask of the vertices reachable from ``frontier[:nf]`` (a BFS that ignores weights)."""
    n = indptr.shape[0] - 1
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(max(n, 1), dtype=np.int32)
    top = 0
    for k in range(nf):
        top = enqueue_once(frontier[k], seen, stack, top)
    while top > 0:
        top -= 1
        top = visit_row(indptr, indices, stack[top], seen, 0, 1, None, stack, top)
    return seen


@njit(inline="always")
def _wide_add(q, r, b):
    """``(q, r) + b`` for the value ``q * 2**32 + r`` (``0 <= r < 2**32``) and an int64 ``b``, exactly."""
    bq = b >> 32
    br = b & 0xFFFFFFFF
    r2 = r + br
    return q + bq + (r2 >> 32), r2 & 0xFFFFFFFF


@njit(cache=True, nogil=True)
def negative_cycle_wide(indptr, indices, w, member):  # pragma: no cover - jitted
    """A vertex on a negative cycle of the subgraph induced by ``member``, or -1; integer weights.

    Bellman-Ford from a virtual source with a 0-arc to every member, in exact
    arithmetic: a distance is the pair ``(q, r)`` standing for ``q * 2**32 +
    r``, so no sum of int64 weights along the walks it explores saturates or
    wraps.  Returns ``(v, pred)``; ``pred`` (-1 where unset) holds the cycle
    through ``v``.
    """
    n = indptr.shape[0] - 1
    q = np.zeros(n, dtype=np.int64)
    r = np.zeros(n, dtype=np.int64)
    pred = np.full(n, -1, dtype=np.int32)
    queue = np.empty(max(n, 1), dtype=np.int32)
    nxt = np.empty(max(n, 1), dtype=np.int32)
    inq = np.zeros(n, dtype=np.uint8)
    nf = 0
    size = 0
    for v in range(n):
        if member[v] != 0:
            queue[nf] = v
            inq[v] = 1
            nf += 1
    size = nf
    rounds = 0
    while nf > 0:
        rounds += 1
        if rounds > size:
            c = pred_cycle_vertex(pred)
            if c >= 0:
                return c, pred
        nn = 0
        for k in range(nf):
            u = queue[k]
            inq[u] = 0
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if member[v] == 0:
                    continue
                nq, nr = _wide_add(q[u], r[u], np.int64(w[e]))
                if nq < q[v] or (nq == q[v] and nr < r[v]):
                    q[v] = nq
                    r[v] = nr
                    pred[v] = u
                    if inq[v] == 0:
                        inq[v] = 1
                        nxt[nn] = v
                        nn += 1
        tmp = queue
        queue = nxt
        nxt = tmp
        nf = nn
    return -1, pred


@njit(cache=True, nogil=True)
def label_correcting(indptr, indices, w, s, dist, pred, lo, hi, budget):  # pragma: no cover - jitted
    """Label-correcting SSSP with one deque and Small Label First (Bertsekas 1993); weights >= 0.

    A vertex whose distance improves joins the deque once (at the front if its
    label is smaller than the front's, else at the back).  On low-diameter
    graphs it relaxes few arcs more than Dijkstra without a heap, and it works
    on recently touched (cache-resident) vertices.  Label-correcting methods
    have bad worst cases, so it stops after ``budget`` arc scans and returns -1
    (the caller falls back to delta-stepping); else it returns the arcs scanned.
    ``dist`` must hold ``hi`` and ``pred`` -1 on entry.
    """
    n = indptr.shape[0] - 1
    cap = n + 1
    dq = np.empty(cap, dtype=np.int32)
    inq = np.zeros(n, dtype=np.uint8)
    head = 0
    size = 1
    dq[0] = s
    inq[s] = 1
    dist[s] = 0
    scanned = 0
    while size > 0:
        u = dq[head]
        head += 1
        if head == cap:
            head = 0
        size -= 1
        inq[u] = 0
        du = dist[u]
        a = indptr[u]
        b = indptr[u + 1]
        scanned += b - a
        if scanned > budget:
            return -1
        for e in range(a, b):
            v = indices[e]
            nd = path_sum(du, w[e], lo, hi)
            if relax(dist, pred, u, v, nd):
                if inq[v] == 0:
                    inq[v] = 1
                    if size > 0 and nd < dist[dq[head]]:
                        head -= 1
                        if head < 0:
                            head = cap - 1
                        dq[head] = v
                    else:
                        t = head + size
                        if t >= cap:
                            t -= cap
                        dq[t] = v
                    size += 1
    return scanned


@njit(cache=True, nogil=True)
def split_light_heavy(indptr, indices, w, delta):  # pragma: no cover - jitted
    """Reorder each row so its light arcs (``w <= delta``) come first; returns ``(mid, indices, w)``.

    ``mid[v]`` is where row ``v``'s heavy arcs start.  Stable within each part.
    """
    n = indptr.shape[0] - 1
    m = indices.shape[0]
    mid = np.empty(n, dtype=np.int64)
    ind2 = np.empty(m, dtype=indices.dtype)
    w2 = np.empty(m, dtype=w.dtype)
    for v in range(n):
        a = indptr[v]
        b = indptr[v + 1]
        k = a
        for e in range(a, b):
            if w[e] <= delta:
                ind2[k] = indices[e]
                w2[k] = w[e]
                k += 1
        mid[v] = k
        for e in range(a, b):
            if w[e] > delta:
                ind2[k] = indices[e]
                w2[k] = w[e]
                k += 1
    return mid, ind2, w2


#: Heavy arcs of a bucket's settled vertices from which they are listed on all threads (fewer: on one).
PARALLEL_HEAVY_ARCS = 1 << 14
#: Slots of the candidate lists (a larger bucket is taken in shares of this many arcs; a hub's row whole).
HEAVY_LIST = 1 << 21


@njit(inline="always")
def _bucket_push(u, b, free, ent_v, ent_next, head):  # pragma: no cover - jitted
    """Put ``u`` at the head of bucket list ``b`` using pool slot ``free``; return the next free slot."""
    k = free
    nxt = ent_next[k]
    ent_v[k] = u
    ent_next[k] = head[b]
    head[b] = k
    return nxt


@njit(inline="always")
def _settle_heavy(u, nd, v, delta, nb, dist, pred, head, ids, nids, free, pool, ent_v, ent_next):  # pragma: no cover
    """A heavy arc ``v -> u`` improved ``u`` to ``nd``: record it and put ``u`` in its bucket's list (the bucket's
    number onto the heap if the list was empty).  Returns ``(free, nids)``; ``free = -2``: the pool ran out."""
    dist[u] = nd
    pred[u] = v
    if free < 0 or nids >= pool:
        return -2, nids
    b = int(nd / delta)
    if head[b % nb] < 0:
        nids = heap_push(ids, ids, nids, b, b)
    return _bucket_push(u, b % nb, free, ent_v, ent_next, head), nids


@njit(cache=True, nogil=True, parallel=True)
def delta_stepping(indptr, mid, indices, w, s, delta, wmax, dist, pred, lo, hi, pool, threads):  # pragma: no cover - jitted
    """Delta-stepping (Meyer & Sanders 2003) from ``s``; weights >= 0 and finite, ``delta > 0``, ``wmax`` the largest
    weight (as a float: the caller has it from its one pass over the weights, this saves one per search).

    The rows come from :func:`split_light_heavy`: arcs ``indptr[v]:mid[v]`` are
    light (``w <= delta``), ``mid[v]:indptr[v + 1]`` heavy.  Buckets of width
    ``delta`` form a cyclic array of linked lists (pending distances never run
    more than the largest weight ahead of the current bucket, so ``wmax /
    delta + 2`` lists suffice; the caller keeps that at most
    :data:`graphs.paths.engine.BUCKET_LIMIT` + 2 by its choice of ``delta``) whose entries come
    from a recycled pool of ``pool`` slots; nothing is reallocated inside the
    loops, which keeps Numba from reference-counting in the hot path.  The
    next non-empty bucket comes from a min-heap of the bucket numbers whose
    list became non-empty, so empty buckets cost nothing however far apart
    the distances are.  The current bucket is emptied by repeatedly relaxing
    the light arcs of its vertices; then the heavy arcs of every vertex it
    settled are relaxed once.  An improved vertex gets a new entry in its new
    bucket; its old entry is skipped when met.

    The heavy arcs (most arcs, on graphs of many arcs per vertex) are relaxed
    in two steps when a bucket settled many: on all threads, each over a
    share of the settled vertices balanced by arc count, the arcs that would
    improve on the distances as they stand (read only) are listed; then this
    thread applies the lists in order, each improvement checked again.  The
    distances only fall while the lists are applied, so every arc that the
    one-thread loop would find improving is listed, and applying them in the
    loop's order gives its very distances and predecessors.

    ``threads``: how many share the listing (Numba's thread count).

    Returns the number of buckets processed, or -1 if the pool ran out (the
    caller retries with a larger one; ``dist`` / ``pred`` must be reset).
    """
    n = indptr.shape[0] - 1
    m = indices.shape[0]
    nb = int(max(wmax, 0.0) / delta) + 2
    head = np.full(nb, -1, dtype=np.int64)
    ids = np.empty(pool + 1, dtype=np.int64)  # bucket numbers; at most one per entry pushed
    # (a min-heap of bucket numbers: the binary heap of :mod:`._kernel_lib`, keys as their own values)
    nids = 0
    ent_v = np.empty(pool, dtype=np.int32)
    ent_next = np.empty(pool, dtype=np.int64)
    for k in range(pool - 1):
        ent_next[k] = k + 1
    ent_next[pool - 1] = -1
    free = 0
    settled = np.empty(max(n, 1), dtype=np.int32)
    mark = np.full(n, -1, dtype=np.int64)      # bucket in which v was last expanded
    in_settled = np.full(n, -1, dtype=np.int64)
    cap = min(m, HEAVY_LIST)  # candidate lists: one slot per heavy arc of a share of the settled vertices
    for v in range(n):
        if indptr[v + 1] - mid[v] > cap:
            cap = indptr[v + 1] - mid[v]
    ru = np.empty(max(cap, 1), dtype=np.int32)
    rd = np.empty(max(cap, 1), dtype=dist.dtype)
    rv = np.empty(max(cap, 1), dtype=np.int32)
    acc = np.empty(max(n, 1) + 1, dtype=np.int64)
    threads = max(threads, 1)
    start = np.zeros(threads, dtype=np.int64)
    count = np.zeros(threads, dtype=np.int64)
    dist[s] = 0
    k = free
    free = ent_next[k]
    ent_v[k] = s
    ent_next[k] = -1
    head[0] = k
    nids = heap_push(ids, ids, nids, 0, 0)
    cur = -1
    buckets = 0
    while nids > 0:
        nxtb = ids[0]
        nids = heap_pop(ids, ids, nids)
        if nxtb <= cur:
            continue  # a bucket already emptied (its number was pushed again while it was current)
        cur = nxtb
        slot = cur % nb
        if head[slot] < 0:
            continue
        buckets += 1
        ns = 0
        while head[slot] >= 0:
            e0 = head[slot]
            head[slot] = -1
            while e0 >= 0:
                v = ent_v[e0]
                nx = ent_next[e0]
                ent_next[e0] = free
                free = e0
                e0 = nx
                dv = dist[v]
                if int(dv / delta) != cur or mark[v] == cur:
                    continue
                mark[v] = cur
                if in_settled[v] != cur:
                    in_settled[v] = cur
                    settled[ns] = v
                    ns += 1
                for e in range(indptr[v], mid[v]):
                    u = indices[e]
                    nd = path_sum(dv, w[e], lo, hi)
                    if nd < dist[u]:
                        dist[u] = nd
                        pred[u] = v
                        if mark[u] == cur:
                            mark[u] = -1
                        if free < 0 or nids >= pool:
                            return -1
                        b = int(nd / delta)
                        if head[b % nb] < 0 and b != cur:
                            nids = heap_push(ids, ids, nids, b, b)
                        free = _bucket_push(u, b % nb, free, ent_v, ent_next, head)
        t0 = 0
        while t0 < ns:
            # settled[t0:t1]: at most ``cap`` heavy arcs (or one vertex), ``acc[k]`` arcs before settled[t0 + k]
            t1 = t0
            tot = 0
            while t1 < ns:
                h = indptr[settled[t1] + 1] - mid[settled[t1]]
                if tot + h > cap and t1 > t0:
                    break
                acc[t1 - t0] = tot
                tot += h
                t1 += 1
            acc[t1 - t0] = tot
            if tot < PARALLEL_HEAVY_ARCS or threads == 1:  # few arcs: relaxed here, as they come
                for t in range(t0, t1):
                    v = settled[t]
                    dv = dist[v]
                    for e in range(mid[v], indptr[v + 1]):
                        u = indices[e]
                        nd = path_sum(dv, w[e], lo, hi)
                        if nd < dist[u]:
                            free, nids = _settle_heavy(u, nd, v, delta, nb, dist, pred, head, ids, nids, free,
                                                       pool, ent_v, ent_next)
                            if free == -2:
                                return -1
                t0 = t1
                continue
            nt = threads
            for c in prange(nt):  # list the arcs that improve on the distances as they stand
                pk = 0
                if c > 0:
                    pk = np.searchsorted(acc[:t1 - t0 + 1], tot * c // nt, side="right") - 1
                pke = t1 - t0
                if c + 1 < nt:
                    pke = np.searchsorted(acc[:t1 - t0 + 1], tot * (c + 1) // nt, side="right") - 1
                pbase = acc[pk]
                start[c] = pbase
                pgot = 0
                for pkk in range(pk, pke):
                    pv = settled[t0 + pkk]
                    pdv = dist[pv]
                    for pe in range(mid[pv], indptr[pv + 1]):
                        pu = indices[pe]
                        pnd = path_sum(pdv, w[pe], lo, hi)
                        if pnd < dist[pu]:
                            ru[pbase + pgot] = pu
                            rd[pbase + pgot] = pnd
                            rv[pbase + pgot] = pv
                            pgot += 1
                count[c] = pgot
            for ci in range(nt):  # applied in the one-thread loop's order
                for q in range(start[ci], start[ci] + count[ci]):
                    u = ru[q]
                    nd = rd[q]
                    if nd < dist[u]:
                        free, nids = _settle_heavy(u, nd, rv[q], delta, nb, dist, pred, head, ids, nids, free,
                                                   pool, ent_v, ent_next)
                        if free == -2:
                            return -1
            t0 = t1
    return buckets


@njit(cache=True, nogil=True)
def tight_tree_preds(indptr, indices, w, sources, D, P, lo, hi, r0, r1):  # pragma: no cover - jitted
    """Predecessors from known distances: a BFS from each source over tight arcs.

    An arc ``u -> v`` is tight when ``D[u] + w == D[v]``; every shortest path
    uses only tight arcs, and taking the first tight arc that reaches ``v`` in
    BFS order gives a tree even when zero-weight cycles make the tight arcs
    cyclic.  Rows ``r0:r1``.
    """
    n = indptr.shape[0] - 1
    for r in range(r0, r1):
        s = sources[r]
        d = D[r]
        p = P[r]
        for v in range(n):
            p[v] = -1
        queue = np.empty(n, dtype=np.int32)
        seen = np.zeros(n, dtype=np.uint8)
        queue[0] = s
        seen[s] = 1
        head = 0
        tail = 1
        while head < tail:
            u = queue[head]
            head += 1
            du = d[u]
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if seen[v] == 0 and path_sum(du, w[e], lo, hi) == d[v]:
                    seen[v] = 1
                    p[v] = u
                    queue[tail] = v
                    tail += 1
