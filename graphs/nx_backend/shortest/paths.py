"""NetworkX's generic ``shortest_path``: every combination of its arguments, sent to the path families.

The families (NetworkX's signatures, tie rules and errors, over the engine
of :mod:`._engine`): breadth first (:mod:`.bfs_paths`), Dijkstra
(:mod:`.dijkstra_paths`), Bellman-Ford (:mod:`.bellman_ford_paths`); the
path dicts they share are built by :mod:`.path_trees`.  Weights follow
:mod:`.shortest_paths` (exact int64 or float64 sums, or back to NetworkX); a
weight given as a function is evaluated once per arc.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from ..graph import BackendGraph
from ._engine import search_method
from .bellman_ford_paths import (
    all_pairs_bellman_ford_path,
    bellman_ford_path,
    single_source_bellman_ford,
    single_source_bellman_ford_path,
)
from .bfs_paths import (
    all_pairs_shortest_path,
    bidirectional_shortest_path,
    breadth_first_paths,
    single_source_shortest_path,
)
from .dijkstra_paths import all_pairs_dijkstra_path, bidirectional_dijkstra, dijkstra_run, single_source_dijkstra_path

__all__ = ["shortest_path"]


def shortest_path(G: BackendGraph, source: Any = None, target: Any = None, weight: Any = None,
                  method: str = "dijkstra"):
    """NetworkX's ``shortest_path`` for every combination of its arguments.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.shortest_path(nx.path_graph(3), 0, 2, backend="semiring_paths")
    [0, 1, 2]
    """
    method = search_method(method, weight)
    if source is None:
        if target is None:
            if method == "unweighted":
                return all_pairs_shortest_path(G)
            if method == "dijkstra":
                return all_pairs_dijkstra_path(G, weight=weight)
            return all_pairs_bellman_ford_path(G, weight=weight)
        if method == "unweighted":
            if target not in G:
                raise nx.NodeNotFound(f"Source {target} not found in graph")
            return breadth_first_paths(G, G.index[target], None, reverse=True)
        if method == "dijkstra":
            if target not in G:
                raise nx.NodeNotFound(f"Node {target} not found in graph")
            return dijkstra_run(G, [G.index[target]], weight, reverse=True).paths()
        if G.directed:
            raise NotImplementedError("Bellman-Ford paths to a target of a directed graph")
        paths = single_source_bellman_ford(G, target, weight=weight)[1]
        return {k: list(reversed(p)) for k, p in paths.items()}
    if target is None:
        if method == "unweighted":
            return single_source_shortest_path(G, source)
        if method == "dijkstra":
            return single_source_dijkstra_path(G, source, weight=weight)
        return single_source_bellman_ford_path(G, source, weight=weight)
    if method == "unweighted":
        return bidirectional_shortest_path(G, source, target)
    if method == "dijkstra":
        return bidirectional_dijkstra(G, source, target, weight)[1]
    return bellman_ford_path(G, source, target, weight)
