"""Numba kernels of :mod:`graphs.csgraph`: SciPy's dense conventions in place, and SciPy's traversal orders.

The dense passes are serial, one sweep over the matrix (a few milliseconds at
n = 2048, against the O(n^3) closure after them): a parallel Numba region cost
more to start than it saved at small n.  :func:`scipy_floyd_warshall` is
SciPy's Floyd-Warshall loop itself, for the matrices whose NaN or ``-inf``
entries make SciPy's answer depend on its loop order.

The traversals are sequential on purpose: they reproduce the exact node order
and predecessors of SciPy's ``breadth_first_order`` / ``depth_first_order``
(``scipy/sparse/csgraph/_traversal.pyx``), which walk the CSR rows in stored
order and, for ``directed=False``, the row of the transpose after the row.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .._kernel_lib import enqueue_once, visit_row

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["floyd_warshall_matrix", "scipy_floyd_warshall", "symmetrize_min", "null_predecessors", "breadth_first",
           "depth_first", "strong_labels", "row_starts"]


@nb.njit(cache=True, nogil=True)
def floyd_warshall_matrix(D, null, unweighted, zero_is_null):  # pragma: no cover - jitted
    """In place, SciPy's ``floyd_warshall`` steps after reading the graph; returns whether NaN or ``-inf`` remain.

    ``null`` (bool, ``D``'s shape, or ``(0, 0)`` for none) marks the entries
    that are no edge (:func:`graphs.csgraph._input.dense_null_mask` decides
    them): they become ``inf``.  ``0`` becomes ``inf`` when ``zero_is_null``
    (SciPy's ``dist_matrix[dist_matrix == 0] = inf`` for dense and masked
    inputs); with ``unweighted`` every entry that is not ``+-inf`` becomes 1
    (SciPy's ``dist_matrix[~np.isinf(dist_matrix)] = 1``, so NaN becomes 1 and
    ``-inf`` stays); the diagonal becomes 0.
    """
    n = D.shape[0]
    inf = np.inf
    masked = null.shape[0] > 0
    special = False
    for i in range(n):
        for j in range(n):
            x = D[i, j]
            if (masked and null[i, j]) or (zero_is_null and x == 0):
                D[i, j] = inf
            elif unweighted and not np.isinf(x):
                D[i, j] = 1
            elif x != x or x == -inf:
                special = True
        D[i, i] = 0
    return special


@nb.njit(cache=True, nogil=True)
def scipy_floyd_warshall(D, P, directed, null):  # pragma: no cover - jitted
    """SciPy's ``_floyd_warshall`` (``scipy/sparse/csgraph/_shortest_path.pyx``, 1.17) in place, step for step.

    For matrices with NaN or ``-inf`` entries, where SciPy's answer is its
    loop's: a NaN entry is never improved and no path goes through it, and
    ``-inf`` sums follow IEEE arithmetic.  ``P`` of shape ``(0, 0)`` skips the
    predecessors; else it receives them (``null`` for none).
    """
    n = D.shape[0]
    inf = np.inf
    for i in range(n):
        D[i, i] = 0
    if not directed:
        for i in range(n):
            for j in range(i + 1, n):
                if D[j, i] <= D[i, j]:
                    D[i, j] = D[j, i]
                else:
                    D[j, i] = D[i, j]
    store = P.shape[0] > 0
    if store:
        for i in range(n):
            for j in range(n):
                P[i, j] = null if (i == j or np.isinf(D[i, j])) else i
    for k in range(n):
        for i in range(n):
            if D[i, k] == inf:
                continue
            for j in range(n):
                d = D[i, k] + D[k, j]
                if d < D[i, j]:
                    D[i, j] = d
                    if store:
                        P[i, j] = P[k, j]


@nb.njit(cache=True, nogil=True)
def symmetrize_min(D):  # pragma: no cover - jitted
    """In place: ``D[i, j] = D[j, i] = min(D[i, j], D[j, i])``."""
    n = D.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            a = D[i, j]
            b = D[j, i]
            if b <= a:
                D[i, j] = b
            else:
                D[j, i] = a


@nb.njit(cache=True, nogil=True)
def null_predecessors(P, null):  # pragma: no cover - jitted
    """In place on a 2-D int32 array: every negative entry becomes ``null``."""
    for i in range(P.shape[0]):
        for j in range(P.shape[1]):
            if P[i, j] < 0:
                P[i, j] = null


@nb.njit(cache=True)
def breadth_first(head, indptr1, indices1, indptr2, indices2, node_list, pred, null):  # pragma: no cover - jitted
    """SciPy's breadth-first order from ``head``; returns the number of nodes reached.

    ``indptr2`` / ``indices2`` is the transpose for an undirected walk (an
    ``indptr2`` of zeros for a directed one).  ``pred`` starts all ``null``.
    Visits are marked in a byte per vertex (a smaller working set than the
    predecessors it used to test).
    """
    seen = np.zeros(node_list.shape[0], dtype=np.uint8)
    i_end = enqueue_once(head, seen, node_list, 0)
    i_nl = 0
    while i_nl < i_end:
        p = node_list[i_nl]
        i_end = visit_row(indptr1, indices1, p, seen, 0, 1, pred, node_list, i_end)
        i_end = visit_row(indptr2, indices2, p, seen, 0, 1, pred, node_list, i_end)
        i_nl += 1
    return i_nl


@nb.njit(cache=True)
def depth_first(head, indptr1, indices1, indptr2, indices2, node_list, pred):  # pragma: no cover - jitted
    """SciPy's depth-first order from ``head``; returns the number of nodes reached.

    SciPy goes back to the start of a vertex's row (then of its transposed
    row) each time the walk returns to it, and takes the first unvisited
    neighbour.  Entries it skips are visited already and stay so; this kernel
    keeps a cursor per vertex on the stack instead (the next entry to look at,
    over the row and then the transposed row), which finds the same neighbour
    in O(m) in all rather than O(sum of squared degrees).
    """
    n = node_list.shape[0]
    flag = np.zeros(n, dtype=np.uint8)
    root = np.empty(n, dtype=np.int32)
    cursor = np.empty(n, dtype=np.int64)  # of the vertex on the stack at each depth
    node_list[0] = head
    root[0] = head
    cursor[0] = indptr1[head]
    i_root = 0
    i_end = 1
    flag[head] = 1
    while i_root >= 0:
        p = root[i_root]
        k = cursor[i_root]
        e1 = indptr1[p + 1]
        s2 = indptr2[p]
        e2 = indptr2[p + 1]
        c = -1
        while k < e1:  # the row, from the cursor on
            v = indices1[k]
            k += 1
            if flag[v] == 0:
                c = v
                break
        if c < 0:
            # the transposed row: positions e1 + j stand for indices2[s2 + j]
            while k < e1 + (e2 - s2):
                v = indices2[s2 + (k - e1)]
                k += 1
                if flag[v] == 0:
                    c = v
                    break
        if c < 0:
            i_root -= 1
            continue
        cursor[i_root] = k
        i_root += 1
        root[i_root] = c
        cursor[i_root] = indptr1[c]
        node_list[i_end] = c
        pred[c] = p
        flag[c] = 1
        i_end += 1
        if i_end == n:
            break
    return i_end


@nb.njit(cache=True)
def strong_labels(indptr, indices, labels, forward=False):  # pragma: no cover - jitted
    """Strong components numbered as SciPy numbers them: in the order a depth-first search completes them.

    ``forward=False``: SciPy up to 1.17.  ``forward=True``: SciPy 1.18 and
    later, whose iterative Tarjan search (Tarjan & Zwick, "Finding strong
    components using depth-first search", European J. Combinatorics 119, 2024)
    tries the successors in CSR order; it also numbers the components in the
    order they complete, so only the visiting order differs.

    Up to 1.17:

    SciPy (``_connected_components_directed2`` of
    ``scipy/sparse/csgraph/_traversal.pyx``; D. J. Pearce, "A space-efficient
    algorithm for finding strongly connected components", IPL 116, 2016)
    pushes every unvisited successor of a vertex at once, moving one already
    on its stack to the top, so the last one in CSR order is visited first:
    its search is the recursive depth-first search that tries the successors
    in reverse CSR order, and it numbers the components in the order they
    complete.  Any correct search with that visiting order completes them in
    the same order, so this kernel runs Pearce's recursive algorithm
    (``PEA_FIND_SCC2``) with an explicit stack of (vertex, cursor): each arc is
    looked at once on the way down and once more when its child returns,
    instead of SciPy's push pass with linked-list moves and its second pass
    over the row.  Fills ``labels`` (int32, length n); returns the count.
    """
    n = labels.shape[0]
    VOID = -1
    rindex = labels
    rindex[:] = VOID
    path = np.empty(n, dtype=np.int32)  # the vertices of the current search path
    cursor = np.empty(n, dtype=np.int64)  # arcs of each path vertex looked at so far (in visiting order)
    first = np.empty(n, dtype=np.int32)  # rindex of each path vertex when it was visited (its root test)
    comp = np.empty(n, dtype=np.int32)  # Pearce's stack of finished vertices whose component is open
    top = 0
    index = 0
    label = n - 1
    for v0 in range(n):
        if rindex[v0] != VOID:
            continue
        depth = 0
        path[0] = v0
        cursor[0] = 0
        rindex[v0] = index
        first[0] = index
        index += 1
        while depth >= 0:
            v = path[depth]
            k = cursor[depth]
            lo = indptr[v]
            last = indptr[v + 1] - 1
            low = rindex[v]
            child = -1
            while k <= last - lo:  # the k-th arc in visiting order: CSR order, or reverse CSR order
                w = indices[lo + k] if forward else indices[last - k]
                rw = rindex[w]
                if rw == VOID:
                    child = w
                    break
                if rw < low:
                    low = rw
                k += 1
            rindex[v] = low
            if child >= 0:
                cursor[depth] = k  # look at this arc again when the child returns (its low then)
                depth += 1
                path[depth] = child
                cursor[depth] = 0
                rindex[child] = index
                first[depth] = index
                index += 1
                continue
            # v is finished
            if low == first[depth]:  # v roots a component: it and the finished vertices above it on comp
                index -= 1
                while top > 0 and low <= rindex[comp[top - 1]]:
                    top -= 1
                    rindex[comp[top]] = label
                    index -= 1
                rindex[v] = label
                label -= 1
            else:
                comp[top] = v
                top += 1
            depth -= 1
    for v in range(n):
        labels[v] = (n - 1) - labels[v]
    return (n - 1) - label


@nb.njit(cache=True, nogil=True)
def row_starts(arcs, indptr, out):  # pragma: no cover - jitted
    """``out[r]`` = how many of the increasing arc ids ``arcs`` lie before ``indptr[r]`` (a merge walk).

    The row pointer of the CSR matrix that keeps only the entries ``arcs`` of a
    CSR matrix with row pointer ``indptr``.
    """
    j = 0
    k = arcs.shape[0]
    for r in range(indptr.shape[0]):
        b = indptr[r]
        while j < k and arcs[j] < b:
            j += 1
        out[r] = j
