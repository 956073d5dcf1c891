"""The traversal engine: breadth-first search and bidirectional BFS on a graph that passed the door.

:func:`graphs.bfs` and :func:`graphs.st_connectivity` check their arguments
once (:func:`graphs.door.prepare`, :func:`graphs._arguments.check_vertex`) and
call this engine; so do the other families that need a BFS on a graph they
hold already (the shortest-path engine for an unweighted graph, the centrality
engine, :func:`graphs.shortest_path`).  It checks nothing; the one place where
a traversal picks the CPU or the GPU is here.  Its API:

:data:`DIRECTIONS`
    The BFS directions (``"auto"`` one more entry).
:func:`bfs_search`
    Levels and a BFS tree from ``s`` (and the per-level trace if asked).
:func:`st_search`
    Hop distance and one shortest path from ``a`` to ``b``.

See :mod:`graphs.traversal` for the algorithms.
"""

from __future__ import annotations

import numpy as np

from ..graph import Graph
from ..kernel_route import numpy_route

__all__ = ["DIRECTIONS", "bfs_search", "st_search"]

#: BFS directions: ``"auto"`` switches per level (Beamer's heuristic), the others force one form.
DIRECTIONS = ("auto", "push", "pull")


def bfs_search(G: Graph, s: int, direction: str = "auto", alpha: float | None = None, beta: float | None = None,
               trace: bool = False):
    """Hop levels and a BFS tree from the checked source ``s`` (with ``trace``: and one dict per level).

    ``alpha`` and ``beta`` default to the device's thresholds (see
    :func:`graphs.bfs`); ``direction`` is one of :data:`DIRECTIONS`.

    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3])
    >>> bfs_search(G, 0)
    (array([0, 1, 1, 2], dtype=int32), array([-1,  0,  0,  1], dtype=int32))
    """
    gpu = G.device == "gpu"
    alpha = (8.0 if gpu else 3.0) if alpha is None else float(alpha)
    beta = (24.0 if gpu else 18.0) if beta is None else float(beta)
    if gpu:
        from ..cuda.bfs import bfs_gpu

        return bfs_gpu(G, s, direction=direction, return_trace=trace, alpha=alpha, beta=beta)
    n = G.n
    if numpy_route(n + G.nnz):  # a small graph: the kernel's plain-Python twin, the same levels and parents
        from . import _bfs_numpy as K
    else:
        from . import _bfs_kernels as K
    level = np.full(n, -1, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    mode = {"push": K.PUSH, "pull": K.PULL, "auto": K.AUTO}[direction]
    T = G if mode == K.PUSH else G.transpose()
    t_mode = np.empty(n, dtype=np.int8)
    t_nf = np.empty(n, dtype=np.int64)
    t_edges = np.empty(n, dtype=np.int64)
    depth = K.bfs_levels(G.indptr, G.indices, T.indptr, T.indices, s, mode, alpha, beta,
                         level, parent, t_mode, t_nf, t_edges)
    if not trace:
        return level, parent
    levels = [
        {"level": d, "direction": "pull" if t_mode[d] else "push", "frontier": int(t_nf[d]),
         "edges": int(t_edges[d])}
        for d in range(depth)
    ]
    return level, parent, levels


def st_search(G: Graph, a: int, b: int):
    """Hop distance and one shortest path from ``a`` to ``b`` (checked vertices) by bidirectional BFS.

    >>> st_search(Graph.from_edges([0, 1], [1, 2]), 0, 2)
    (2, array([0, 1, 2], dtype=int32))
    """
    if G.device == "gpu":
        from ..cuda.bfs import st_connectivity_gpu

        return st_connectivity_gpu(G, a, b)
    from . import _bfs_kernels as K

    T = G.transpose()
    dist, path = K.bidirectional(G.indptr, G.indices, T.indptr, T.indices, a, b)
    return int(dist), path
