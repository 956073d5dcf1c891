"""Breadth-first shortest paths with NetworkX's signatures, tie rules and errors (the unweighted path family).

A node's path goes through the node that discovered it first, the queue in
discovery order (:func:`._order_kernels.bfs_order`);
``bidirectional_shortest_path`` is NetworkX's alternating search itself
(:func:`._order_kernels.bidirectional_bfs`).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from .._order_kernels import bfs_order, bfs_orders, bidirectional_bfs
from ..graph import BackendGraph
from ..traversal import depth_bound
from .path_trees import chain_paths, check_cutoff, pred_lists, tree_paths

__all__ = [
    "single_source_shortest_path", "single_target_shortest_path", "single_target_shortest_path_length",
    "all_pairs_shortest_path", "bidirectional_shortest_path", "predecessor",
]

_INF = float("inf")


def _adj(G: BackendGraph, reverse: bool):
    indptr, indices, _ = G.pred_csr(arcs=False) if (reverse and G.directed) else G.csr()
    return indptr, indices


def breadth_first_paths(G: BackendGraph, s: int, cutoff: Any, reverse: bool = False) -> dict:
    """Dict node -> breadth-first path from vertex ``s`` (``reverse``: paths to it), NetworkX's ``cutoff`` rule.

    Examples
    --------
    >>> import networkx as nx
    >>> from ..convert import convert_from_nx
    >>> breadth_first_paths(convert_from_nx(nx.path_graph(3)), 0, None)
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    indptr, indices = _adj(G, reverse)
    limit = depth_bound(_INF if cutoff is None else cutoff, len(G)) if cutoff is None or cutoff == cutoff else -1
    order, parent, _, count = bfs_order(indptr, indices, np.array([s], np.int64), limit)
    return tree_paths(G, order[:count], parent, reverse)


def single_source_shortest_path(G: BackendGraph, source: Any, cutoff: Any = None) -> dict:
    """Breadth-first shortest paths from ``source`` (NetworkX's ``single_source_shortest_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path(nx.path_graph(3), 0, backend="semiring_paths")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    check_cutoff(cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not found in graph")
    return breadth_first_paths(G, G.index[source], cutoff)


def single_target_shortest_path(G: BackendGraph, target: Any, cutoff: Any = None) -> dict:
    """Breadth-first shortest paths to ``target`` (NetworkX's ``single_target_shortest_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path(nx.DiGraph([(0, 1), (1, 2)]), 2, backend="semiring_paths")
    {2: [2], 1: [1, 2], 0: [0, 1, 2]}
    """
    check_cutoff(cutoff)
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} not in G")
    return breadth_first_paths(G, G.index[target], cutoff, reverse=True)


def single_target_shortest_path_length(G: BackendGraph, target: Any, cutoff: Any = None) -> dict:
    """Hop counts to ``target`` (NetworkX's ``single_target_shortest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path_length(nx.DiGraph([(0, 1), (1, 2)]), 2, backend="semiring_paths")
    {2: 0, 1: 1, 0: 2}
    """
    check_cutoff(cutoff)
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    indptr, indices = _adj(G, True)
    limit = depth_bound(_INF if cutoff is None else cutoff, len(G)) if cutoff is None or cutoff == cutoff else -1
    order, _, level, count = bfs_order(indptr, indices, np.array([G.index[target]], np.int64), limit)
    order = order[:count]
    return dict(zip(G.labels(order), level[order].tolist()))


def all_pairs_shortest_path(G: BackendGraph, cutoff: Any = None):
    """Generator of ``(node, breadth-first paths from node)`` (NetworkX's ``all_pairs_shortest_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path(nx.path_graph(2), backend="semiring_paths"))
    {0: {0: [0], 1: [0, 1]}, 1: {1: [1], 0: [1, 0]}}
    """
    check_cutoff(cutoff)
    return _all_pairs_paths(G, cutoff)


#: Sources searched per kernel call by :func:`all_pairs_shortest_path` (its generator computes this far ahead).
ALL_PAIRS_BLOCK = 64


def _all_pairs_paths(G: BackendGraph, cutoff: Any):
    """``(node, paths)`` for every node in order, the searches :data:`ALL_PAIRS_BLOCK` at a time in one kernel call
    (a search from each of a block; then each dict built as NetworkX builds it)."""
    indptr, indices = _adj(G, False)
    limit = depth_bound(_INF if cutoff is None else cutoff, len(G)) if cutoff is None or cutoff == cutoff else -1
    n = len(G)
    for b0 in range(0, n, ALL_PAIRS_BLOCK):
        src = np.arange(b0, min(n, b0 + ALL_PAIRS_BLOCK), dtype=np.int64)
        starts, order, place = bfs_orders(indptr, indices, src, limit)
        cuts = starts.tolist()
        labels = G.labels(order.tolist())
        places = place.tolist()
        for i in range(src.shape[0]):
            a, b = cuts[i], cuts[i + 1]
            yield G.nodes[b0 + i], chain_paths(labels[a:b], places[a:b])


def bidirectional_shortest_path(G: BackendGraph, source: Any, target: Any) -> list:
    """The path NetworkX's bidirectional breadth-first search finds (``bidirectional_shortest_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bidirectional_shortest_path(nx.cycle_graph(4), 0, 2, backend="semiring_paths")
    [0, 1, 2]
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    si, pi, _ = G.csr()
    ri, rj, _ = G.pred_csr(arcs=False)
    pred, succ, w = bidirectional_bfs(si, pi, ri, rj, G.index[source], G.index[target])
    if w < 0:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    path = []
    x = int(w)
    while x >= 0:
        path.append(x)
        x = int(pred[x])
    path.reverse()
    x = int(succ[path[-1]])
    while x >= 0:
        path.append(x)
        x = int(succ[x])
    nodes = G.nodes
    return [nodes[i] for i in path]


def predecessor(G: BackendGraph, source: Any, target: Any = None, cutoff: Any = None, return_seen: Any = None):
    """Breadth-first predecessor lists (NetworkX's ``predecessor``; ``cutoff`` read as NetworkX reads it).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.predecessor(nx.cycle_graph(4), 0, backend="semiring_paths")
    {0: [], 1: [0], 3: [0], 2: [1, 3]}
    """
    check_cutoff(cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    n = len(G)
    if cutoff:  # NetworkX stops after the level where ``cutoff <= level`` (a falsy cutoff is no cutoff)
        top = 1
        while top < n + 1 and not cutoff <= top:
            top += 1
        limit = top
    else:
        limit = n + 1
    indptr, indices, _ = G.csr()
    order, _, level, count = bfs_order(indptr, indices, np.array([G.index[source]], np.int64), limit)
    order = order[:count]
    rank = np.full(n, -1, np.int64)
    rank[order] = np.arange(count)
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    lv_s, lv_d = level[src], level[indices]
    tight = (lv_s >= 0) & (lv_d == lv_s + 1)
    arcs = np.flatnonzero(tight)
    arcs = arcs[np.lexsort((arcs, rank[src[arcs]]))]
    pred = pred_lists(G, order, indices[arcs], src[arcs])
    if target is not None:
        if return_seen:
            if target not in pred:
                return ([], -1)
            return (pred[target], int(level[G.index[target]]))
        return pred.get(target, []) if target in pred else []
    if return_seen:
        return pred, dict(zip(G.labels(order), level[order].tolist()))
    return pred
