"""The BFS kernel :func:`graphs.traversal._bfs_kernels.bfs_levels` in plain Python, for small graphs.

Line for line the compiled kernel's algorithm (Beamer's direction switch, the
push scan of the frontier queue, the pull walk over the still-unvisited
vertices), on Python lists, so that it visits the vertices in the same order
and picks the same parents; :mod:`graphs.kernel_route` sends a small graph
here, which saves loading Numba.
"""

from __future__ import annotations

__all__ = ["bfs_levels", "PUSH", "PULL", "AUTO"]

PUSH, PULL, AUTO = 0, 1, 2  # as graphs.traversal._bfs_kernels numbers the modes


def bfs_levels(indptr, indices, tptr, tind, s, mode, alpha, beta, level, parent,
               t_mode, t_nf, t_edges):
    """:func:`graphs.traversal._bfs_kernels.bfs_levels`: the whole BFS from ``s``; returns the number of levels.

    ``level`` and ``parent`` must be -1 everywhere on entry; they, and the
    trace arrays, are filled in place.

    >>> import numpy as np
    >>> level, parent = np.full(3, -1, np.int32), np.full(3, -1, np.int32)
    >>> ptr, ind = np.array([0, 1, 2, 2]), np.array([1, 2], dtype=np.int32)
    >>> t = [np.empty(3, np.int64) for _ in range(3)]
    >>> bfs_levels(ptr, ind, ptr, ind, 0, PUSH, 3.0, 18.0, level, parent, *t), level, parent
    (3, array([0, 1, 2], dtype=int32), array([-1,  0,  1], dtype=int32))
    """
    n = level.shape[0]
    ptr = indptr.tolist()
    ind = indices.tolist()
    tp = ti = None  # the transpose, as lists when a pull level first needs it
    lev = level.tolist()
    par = parent.tolist()
    n_trace = t_mode.shape[0]
    trace = []
    unvis = None
    lev[s] = 0
    queue = [s]
    prev_nf = 0
    d = 0
    m_f = ptr[s + 1] - ptr[s]
    m_unvisited = ptr[n] - m_f
    push = mode != PULL
    while queue:
        nf = len(queue)
        if mode == AUTO:
            if push:
                if m_f * alpha > m_unvisited:
                    push = False
            elif nf * beta < n and nf < prev_nf:
                push = True
        nxt = []
        new_mf = 0
        nd = d + 1
        if push:
            edges = m_f
            for u in queue:
                for e in range(ptr[u], ptr[u + 1]):
                    v = ind[e]
                    if lev[v] == -1:
                        lev[v] = nd
                        par[v] = u
                        nxt.append(v)
        else:
            if tp is None:
                tp, ti = tptr.tolist(), tind.tolist()
            frontier = set(queue)
            if unvis is None:
                unvis = [v for v in range(n) if lev[v] < 0]
            keep = []
            edges = 0
            for v in unvis:
                if lev[v] >= 0:
                    continue
                a = tp[v]
                b = tp[v + 1]
                for e in range(a, b):
                    u = ti[e]
                    if u in frontier:
                        lev[v] = nd
                        par[v] = u
                        edges += e - a + 1
                        nxt.append(v)
                        break
                else:
                    edges += b - a
                    keep.append(v)
            unvis = keep
        for v in nxt:
            new_mf += ptr[v + 1] - ptr[v]
        m_unvisited -= new_mf
        if d < n_trace:
            trace.append((0 if push else 1, nf, edges))
        prev_nf = nf
        queue = nxt
        m_f = new_mf
        d += 1
    level[:] = lev
    parent[:] = par
    if trace:
        modes, nfs, edge_counts = zip(*trace)
        t_mode[:len(trace)] = modes
        t_nf[:len(trace)] = nfs
        t_edges[:len(trace)] = edge_counts
    return d
