"""Predecessor matrices and the paths they encode.

``P[i, j]`` is the vertex just before ``j`` on the chosen path from ``i`` to
``j``, or ``-1`` where there is none (``i == j``, or ``j`` unreachable from
``i``).  This is SciPy's convention (``scipy.sparse.csgraph`` writes ``-9999``
where this package writes ``-1``), so row ``i`` of ``P`` is a tree of paths
rooted at ``i`` and :func:`path` walks it backwards.

Every algorithm of the package keeps ``P`` with the *Pi update* of Buluc,
Gilbert & Budak (Parallel Computing 36, 2010, Sec. 3.3): when a product
``C (+)= A (x) B`` strictly improves ``C[i, j]`` through the inner index ``k``,
the path to ``j`` now ends like the path of ``B`` from ``k``, so
``P_C[i, j] = P_B[k, j]``.  The GEMM witness (:func:`semiring.dense.matmul_into`
with ``W=``) supplies ``k``; it is the smallest ``k`` among equally good
candidates and ``-1`` where the old value won or tied, which makes the result
deterministic: **a predecessor changes only on a strict improvement, and among
equally good improvements the smallest intermediate vertex index wins.**
"""

from __future__ import annotations

import numpy as np

from semiring.backend import array_module

__all__ = ["initial_predecessors", "update_predecessors", "path", "NO_PREDECESSOR"]

NO_PREDECESSOR = -1
PRED_DTYPE = np.dtype(np.int32)


def initial_predecessors(D, zero):
    """``P[i, j] = i`` where ``D[i, j]`` is an edge (not ``zero``, ``i != j``), else ``-1``.

    Examples
    --------
    >>> D = np.array([[0.0, 2.0], [np.inf, 0.0]])
    >>> initial_predecessors(D, np.inf)
    array([[-1,  0],
           [-1, -1]], dtype=int32)
    """
    xp = array_module(D)
    n = D.shape[0]
    rows = xp.arange(n, dtype=PRED_DTYPE)[:, None]
    P = xp.where(D != zero, rows, xp.asarray(NO_PREDECESSOR, dtype=PRED_DTYPE)).astype(PRED_DTYPE, copy=False)
    idx = xp.arange(n)
    P[idx, idx] = NO_PREDECESSOR
    return P


def update_predecessors(PC, PB, K) -> None:
    """The Pi update: ``PC[i, j] = PB[K[i, j], j]`` wherever ``K[i, j] >= 0``.

    ``K`` is the witness of ``C (+)= A (x) B`` (``-1`` where ``C`` did not
    change), ``PB`` the predecessors of ``B`` (a snapshot if ``B`` was
    overwritten), ``PC`` those of ``C``.

    Examples
    --------
    >>> PC = np.array([[7, 7]], np.int32); PB = np.array([[1, 2], [3, 4]], np.int32)
    >>> update_predecessors(PC, PB, np.array([[1, -1]], np.int32)); PC
    array([[3, 7]], dtype=int32)
    """
    xp = array_module(K)
    if K.size == 0:
        return
    if xp is np:
        from ._pred_kernel import update

        update(PC, PB, K)
        return
    changed = K >= 0
    src = xp.take_along_axis(PB, xp.maximum(K, 0), axis=0)
    xp.copyto(PC, src, where=changed)


def path(P, i: int, j: int) -> list[int]:
    """The vertices of the path from ``i`` to ``j`` encoded by the predecessor matrix ``P``.

    Parameters
    ----------
    P : array (n, n) of int
        Predecessors as returned by :func:`apsp.shortest_paths` with
        ``predecessors=True`` (NumPy or CuPy).
    i, j : int
        Source and target vertex.

    Returns
    -------
    list of int
        ``[i, ..., j]``; ``[i]`` when ``i == j``; ``[]`` when ``j`` is not
        reachable from ``i``.

    Raises
    ------
    IndexError
        ``i`` or ``j`` is not a vertex.
    ValueError
        ``P`` is not a predecessor matrix (its row ``i`` loops or points
        outside the graph).

    Examples
    --------
    >>> import apsp
    >>> W = np.array([[0.0, 1.0, 9.0], [np.inf, 0.0, 1.0], [np.inf, np.inf, 0.0]])
    >>> D, P = apsp.shortest_paths(W, predecessors=True)
    >>> path(P, 0, 2)
    [0, 1, 2]
    >>> path(P, 2, 0)
    []
    """
    n = P.shape[0]
    if P.ndim != 2 or P.shape[1] != n:
        raise ValueError(f"P must be a square predecessor matrix, got shape {tuple(P.shape)}")
    for name, v in (("i", i), ("j", j)):
        if not -n <= int(v) < n:
            raise IndexError(f"{name}={v} is not a vertex of a {n}-vertex graph")
    i, j = int(i) % n, int(j) % n
    if i == j:
        return [i]
    row = P[i]
    row = row.get() if hasattr(row, "get") and not isinstance(row, np.ndarray) else np.asarray(row)
    if row[j] < 0:
        return []
    out = [j]
    v = j
    for _ in range(n):
        v = int(row[v])
        if v < 0 or v >= n:
            raise ValueError(f"P[{i}] is not a predecessor row: the path to {j} breaks at vertex {out[-1]} ({v})")
        out.append(v)
        if v == i:
            out.reverse()
            return out
    raise ValueError(f"P[{i}] is not a predecessor row: the path to {j} loops")
