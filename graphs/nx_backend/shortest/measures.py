"""Path-length measures with NetworkX's semantics: ``average_shortest_path_length``.

The lengths of all pairs come from :func:`graphs.multi_source_sssp` (or one
BFS per source without weights), summed exactly: integer lengths as Python
ints, float lengths only where every sum is exact
(:func:`.attributes.exact_float_sums`), so NetworkX's order of additions
gives the same number.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ...paths.sssp import multi_source_sssp
from ...traversal.search import bfs
from ..attributes import exact_float_sums
from ..components import component_count
from ._engine import search_plan

__all__ = ["average_shortest_path_length"]

_BLOCK = 1 << 22


def average_shortest_path_length(G, weight: Any = None, method: Any = None):
    """The mean length over ordered pairs of distinct nodes (NetworkX's ``average_shortest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.average_shortest_path_length(nx.path_graph(4), backend="semiring_paths")
    1.6666666666666667
    """
    single_source_methods = ["unweighted", "dijkstra", "bellman-ford"]
    all_pairs_methods = ["floyd-warshall", "floyd-warshall-numpy"]
    supported_methods = single_source_methods + all_pairs_methods
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in supported_methods:
        raise ValueError(f"method not supported: {method}")
    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept("the null graph has no paths, thus there is no average shortest path length")
    if n == 1:
        return 0
    if G.is_directed() and component_count(G, "strong") != 1:
        raise nx.NetworkXError("Graph is not strongly connected.")
    if not G.is_directed() and component_count(G, "weak") != 1:
        raise nx.NetworkXError("Graph is not connected.")
    if method in all_pairs_methods:
        raise NotImplementedError("NetworkX's Floyd-Warshall sums are its own")
    if method == "unweighted" or weight is None:
        H = G.graph_for(None)
        total = 0
        for s in range(n):
            total += int(bfs(H, s)[0].astype(np.int64).sum())
        return total / (n * (n - 1))
    plan = search_plan(G, weight, "dijkstra" if method == "dijkstra" else "bellman-ford")
    if plan.through_inf:
        raise NotImplementedError("lengths of inf")
    if plan.kind == "hops":
        H = G.graph_for(None)
        return sum(int(bfs(H, s)[0].astype(np.int64).sum()) for s in range(n)) / (n * (n - 1))
    if plan.kind == "float" and not exact_float_sums(plan.weights, n * n * n):
        raise NotImplementedError("float lengths whose sums round: NetworkX's order of additions decides")
    if method == "bellman-ford" and plan.weights.size and (plan.weights < 0).any():
        raise NotImplementedError("negative weights with Bellman-Ford over all pairs")
    H = G.arc_graph(plan.key, plan.weights, plan.keep)
    step = max(1, _BLOCK // n)
    total = 0 if plan.kind == "int" else 0.0
    for start in range(0, n, step):
        D = multi_source_sssp(H, list(range(start, min(n, start + step))), method="dijkstra", predecessors=False)[0]
        if plan.kind == "int":
            total += sum(D.astype(np.int64).sum(axis=1).tolist())
        else:
            total += float(D.sum())
    return total / (n * (n - 1))
