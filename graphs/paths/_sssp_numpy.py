"""Delta-stepping of :mod:`graphs.paths._sssp_kernels` in NumPy and plain Python, for small graphs.

:func:`split_light_heavy` is the kernel's stable partition of each row as one
stable sort; :func:`delta_stepping` is the kernel's loop line for line on
Python lists (the bucket lists are last-in first-out, as the kernel's linked
lists are; the heap of bucket numbers pops the same smallest number), so it
relaxes the arcs in the same order and leaves the same distances and the same
predecessors, ties included.  :mod:`graphs.kernel_route` sends a small graph
here, which saves loading Numba.  Python's floats are float64 and its ints
exact, so the twin serves float64 and integer weights (:data:`DTYPES`); a
float32 graph keeps the kernel, whose sums round to float32.
"""

from __future__ import annotations

import heapq

import numpy as np

__all__ = ["DTYPES", "split_light_heavy", "delta_stepping"]

#: Weight dtypes whose arithmetic Python reproduces exactly (int sums saturate at the sentinels first).
DTYPES = (np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.int32))


def split_light_heavy(indptr, indices, w, delta):
    """:func:`graphs.paths._sssp_kernels.split_light_heavy`: each row's light arcs (``w <= delta``) first.

    Returns ``(mid, indices, w)``; ``mid[v]`` is where row ``v``'s heavy arcs start.

    >>> split_light_heavy(np.array([0, 3]), np.array([0, 1, 2], np.int32), np.array([5.0, 1.0, 2.0]), 2.0)
    (array([2]), array([1, 2, 0], dtype=int32), array([1., 2., 5.]))
    """
    n = indptr.shape[0] - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    heavy = w > delta
    order = np.argsort(rows * 2 + heavy, kind="stable")
    mid = indptr[:-1].astype(np.int64) + np.bincount(rows[~heavy], minlength=n)
    return mid, indices[order], w[order]


def _path_sum(a, b, lo, hi):
    """:func:`semiring.cpu_ops.path_sum`: ``a + b`` with the sentinels sticking and sums saturating at them."""
    if a == lo or a == hi:
        return a
    if b > 0 and a > hi - b:
        return hi
    if b < 0 and a < lo - b:
        return lo
    return a + b


def delta_stepping(indptr, mid, indices, w, s, delta, dist, pred, lo, hi):
    """:func:`graphs.paths._sssp_kernels.delta_stepping` (no pool: Python lists grow); returns the buckets processed.

    ``dist`` must be ``hi`` and ``pred`` -1 everywhere on entry; both are
    filled in place.

    >>> ptr, mid = np.array([0, 2, 3, 3]), np.array([1, 3, 3])
    >>> ind, w = np.array([1, 2, 2], np.int32), np.array([1.0, 5.0, 1.0])
    >>> dist, pred = np.full(3, np.inf), np.full(3, -1, np.int32)
    >>> delta_stepping(ptr, mid, ind, w, 0, 1.0, dist, pred, -np.inf, np.inf), dist, pred
    (4, array([0., 1., 2.]), array([-1,  0,  1], dtype=int32))
    """
    n = indptr.shape[0] - 1
    ptr, md, ind, wt = indptr.tolist(), mid.tolist(), indices.tolist(), w.tolist()
    lo, hi, delta = lo.item() if hasattr(lo, "item") else lo, hi.item() if hasattr(hi, "item") else hi, float(delta)
    wmax = 0.0
    for x in wt:
        if x > wmax:
            wmax = x
    nb = int(wmax / delta) + 2
    head = [[] for _ in range(nb)]  # each bucket's entries, the newest last (the kernel's list heads)
    ids = []  # heap of bucket numbers
    dst = dist.tolist()
    prd = pred.tolist()
    mark = [-1] * n  # bucket in which v was last expanded
    in_settled = [-1] * n
    dst[s] = 0
    head[0].append(s)
    heapq.heappush(ids, 0)
    cur = -1
    buckets = 0
    while ids:
        nxtb = heapq.heappop(ids)
        if nxtb <= cur:
            continue  # a bucket already emptied (its number was pushed again while it was current)
        cur = nxtb
        slot = cur % nb
        if not head[slot]:
            continue
        buckets += 1
        settled = []
        while head[slot]:
            entries = head[slot]
            head[slot] = []
            for v in reversed(entries):
                dv = dst[v]
                if int(dv / delta) != cur or mark[v] == cur:
                    continue
                mark[v] = cur
                if in_settled[v] != cur:
                    in_settled[v] = cur
                    settled.append(v)
                for e in range(ptr[v], md[v]):
                    u = ind[e]
                    nd = _path_sum(dv, wt[e], lo, hi)
                    if nd < dst[u]:
                        dst[u] = nd
                        prd[u] = v
                        if mark[u] == cur:
                            mark[u] = -1
                        b = int(nd / delta)
                        if not head[b % nb] and b != cur:
                            heapq.heappush(ids, b)
                        head[b % nb].append(u)
        for v in settled:
            dv = dst[v]
            for e in range(md[v], ptr[v + 1]):
                u = ind[e]
                nd = _path_sum(dv, wt[e], lo, hi)
                if nd < dst[u]:
                    dst[u] = nd
                    prd[u] = v
                    b = int(nd / delta)
                    if not head[b % nb]:
                        heapq.heappush(ids, b)
                    head[b % nb].append(u)
    dist[:] = dst
    pred[:] = prd
    return buckets
