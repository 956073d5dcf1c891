"""Breadth-first search edges in NetworkX's order, from the library's BFS levels.

NetworkX's ``bfs_edges`` yields ``(parent, child)`` in discovery order: the
parents in queue order, each parent's neighbours in adjacency order.  The
hop levels come from :func:`graphs.bfs`; the NetworkX parent of a vertex at
level ``L + 1`` is then the first arc into it when the arcs out of level ``L``
are read in (rank of the tail, adjacency position) order, which the backend
graph keeps (its arcs are in ``G._adj`` order).  One vectorised pass per level.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ..traversal import bfs
from .graph import BackendGraph

__all__ = ["bfs_edges"]


def bfs_edges(G: BackendGraph, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None):
    """Edges of a breadth-first search from ``source``, in NetworkX's order (a generator).

    ``sort_neighbors`` (any callable) and ``reverse=True`` on a directed graph
    (the predecessor order NetworkX uses is not kept) are refused by
    ``can_run``; here they raise ``NotImplementedError``.

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_edges(nx.Graph([(0, 2), (0, 1), (2, 3)]), 0, backend="semiring_paths"))
    [(0, 2), (0, 1), (2, 3)]
    """
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is an arbitrary callable")
    if reverse and G.is_directed():
        raise NotImplementedError("reverse=True needs NetworkX's predecessor order")
    return _bfs_edges(G, source, depth_limit)


def _bfs_edges(G: BackendGraph, source: Any, depth_limit: Any):
    if source not in G:
        kind = "digraph" if G.is_directed() else "graph"  # G.neighbors' message, as NetworkX raises it
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    n = len(G)
    if depth_limit is None:
        depth_limit = n
    levels = bfs(G.graph_for(None), G.index[source])[0]
    src, dst = G.src, G.dst
    lsrc = levels[src]
    arcs = np.nonzero((lsrc >= 0) & (levels[dst] == lsrc + 1))[0]
    arcs = arcs[np.argsort(lsrc[arcs], kind="stable")]  # grouped by level, adjacency order kept
    bounds = np.searchsorted(lsrc[arcs], np.arange(int(levels.max()) + 2))
    rank = np.zeros(n, np.int64)
    nodes = G.nodes
    depth = 0
    while depth < depth_limit and depth + 1 < bounds.size:
        a = arcs[bounds[depth] : bounds[depth + 1]]
        if a.size == 0:
            return
        a = a[np.lexsort((a, rank[src[a]]))]  # tails in queue order, each tail's arcs in adjacency order
        _, first = np.unique(dst[a], return_index=True)
        first.sort()
        chosen = a[first]
        rank[dst[chosen]] = np.arange(chosen.size)
        for i, j in zip(src[chosen].tolist(), dst[chosen].tolist()):
            yield nodes[i], nodes[j]
        depth += 1
