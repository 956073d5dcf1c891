"""Dijkstra shortest paths with NetworkX's signatures, tie rules and errors (the Dijkstra path family).

``single_source_dijkstra``, ``multi_source_dijkstra*``,
``dijkstra_predecessor_and_distance``, ``astar_path`` without a heuristic,
``johnson``: NetworkX pops ``(distance, push counter)`` pairs, and a node's
parent is the first popped neighbour that reaches it at its final distance;
with the distances known (the engine, :func:`._engine.search`) that order is
one heap pass (:func:`._order_kernels.dijkstra_order`).  The bidirectional
search picks among equal paths by its queue order: its path is returned when
it is the only shortest one, else the call goes back to NetworkX
(``NotImplementedError``, before anything is returned).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from apsp.errors import NegativeCycleError
from semiring.docstrings import fill_template

from ...graph import Graph
from ...paths.sssp import sssp
from ...traversal.search import bfs
from .._order_kernels import dijkstra_order
from ..attributes import exact_float_sums
from ..graph import BackendGraph
from ._engine import Plan, arc_weights, check_through_inf, reached_mask, search, search_plan
from .path_trees import TARGET_DOC, check_cutoff, pred_lists, tree_paths, walk_unique

__all__ = [
    "dijkstra_path", "dijkstra_path_length", "single_source_dijkstra", "single_source_dijkstra_path",
    "multi_source_dijkstra", "multi_source_dijkstra_path", "multi_source_dijkstra_path_length", "all_pairs_dijkstra",
    "all_pairs_dijkstra_path", "dijkstra_predecessor_and_distance", "bidirectional_dijkstra", "astar_path",
    "astar_path_length", "johnson",
]


class _Run:
    """One NetworkX-order Dijkstra run: pop ``order``, ``parent``, distances ``d``, ``valid`` nodes, arc data."""

    def __init__(self, G, order, parent, d, valid, w, ok, indptr, indices, sources, reverse):
        self.G, self.order, self.parent, self.d, self.valid = G, order, parent, d, valid
        self.w, self.ok, self.indptr, self.indices, self.sources, self.reverse = w, ok, indptr, indices, sources, reverse

    def dist(self) -> dict:
        nodes = self.G.nodes
        vals = self.d[self.order].tolist()
        out = dict(zip(self.G.labels(self.order), vals))
        for s in self.sources:
            out[nodes[s]] = 0  # NetworkX's int 0
        return out

    def paths(self) -> dict:
        return tree_paths(self.G, self.order, self.parent, self.reverse)

    def pred(self) -> dict:
        n = len(self.G)
        rank = np.full(n, -1, np.int64)
        rank[self.order] = np.arange(self.order.size)
        src = np.repeat(np.arange(n, dtype=np.int64), np.diff(self.indptr))
        dst = self.indices
        popped = rank >= 0
        tight = self.ok & popped[src] & popped[dst]
        arcs = np.flatnonzero(tight)
        arcs = arcs[self.d[src[arcs]] + self.w[arcs] == self.d[dst[arcs]]]
        arcs = arcs[np.lexsort((arcs, rank[src[arcs]]))]
        return pred_lists(self.G, self.order, dst[arcs], src[arcs])


def _distances(G: BackendGraph, sources: list[int], plan: Plan, reverse: bool):
    """Distances from the sources (engine), the reached mask; refuses what a NetworkX-order pass cannot follow."""
    if plan.through_inf:
        raise NotImplementedError("nodes reached only at length inf: NetworkX's paths through them are its own")
    if len(sources) == 1:
        d, reached, _ = search(G, sources[0], plan, "dijkstra", reverse=reverse)
        return d, reached
    n = len(G)
    if plan.kind == "hops":
        src, dst = (G.dst, G.src) if reverse else (G.src, G.dst)
        H = Graph.from_edges(np.concatenate([src, np.full(len(sources), n, np.int32)]),
                             np.concatenate([dst, np.array(sources, np.int32)]), None, n=n + 1, directed=True)
        d = bfs(H, n)[0][:n].astype(np.int64)
        d[d > 0] -= 1
        return d, d >= 0
    src, dst = (G.dst, G.src) if reverse else (G.src, G.dst)
    if plan.keep is not None:
        src, dst = src[plan.keep], dst[plan.keep]
    w = np.concatenate([plan.weights, np.zeros(len(sources), plan.weights.dtype)])
    H = Graph.from_edges(np.concatenate([src, np.full(len(sources), n, np.int32)]),
                         np.concatenate([dst, np.array(sources, np.int32)]), w, n=n + 1, directed=True)
    d = sssp(H, n, method="dijkstra")[0][:n]
    return d, reached_mask(d)


def dijkstra_run(G: BackendGraph, sources: list[int], weight: Any, cutoff: Any = None, target: int = -1,
                 reverse: bool = False) -> _Run:
    """NetworkX's Dijkstra from the vertices ``sources``: the engine's distances, then NetworkX's pop order.

    Examples
    --------
    >>> import networkx as nx
    >>> from ..convert import convert_from_nx
    >>> run = dijkstra_run(convert_from_nx(nx.cycle_graph(4)), [0], None)
    >>> run.dist(), run.paths()
    ({0: 0, 1: 1, 3: 1, 2: 2}, {0: [0], 1: [0, 1], 3: [0, 3], 2: [0, 1, 2]})
    """
    check_cutoff(cutoff)
    plan = search_plan(G, weight, "dijkstra")
    d, reached = _distances(G, sources, plan, reverse)
    if plan.kind == "hops":
        d = d.astype(np.int64)
    valid = reached.copy()
    if cutoff is not None:
        idx = np.flatnonzero(valid)
        over = np.fromiter((x > cutoff for x in d[idx].tolist()), bool, count=idx.size)
        valid[idx[over]] = False
    valid[sources] = True
    indptr, indices, w, ok = arc_weights(G, plan, reverse)
    order, parent, count = dijkstra_order(indptr, indices, w, ok, d, valid, np.array(sources, np.int64), target)
    return _Run(G, order, parent, d, valid, w, ok, indptr, indices, list(dict.fromkeys(sources)), reverse)


def _sources(G: BackendGraph, sources: Any) -> list[int]:
    if not sources:
        raise ValueError("sources must not be empty")
    out = []
    for s in sources:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
        out.append(G.index[s])
    return out


def multi_source_dijkstra(G: BackendGraph, sources: Any, target: Any = None, cutoff: Any = None,
                          weight: Any = "weight"):
    """Lengths and paths from the nearest of ``sources`` (NetworkX's ``multi_source_dijkstra``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.multi_source_dijkstra(nx.path_graph(4), {0, 3}, backend="semiring_paths")
    ({0: 0, 3: 0, 1: 1, 2: 1}, {0: [0], 3: [3], 1: [0, 1], 2: [3, 2]})
    """
    if isinstance(sources, (list, set, tuple, frozenset, dict)) is False:
        raise NotImplementedError("sources of a type NetworkX iterates more than once")
    idx = _sources(G, sources)
    if target in sources:
        return (0, [target])
    t = G.index[target] if target is not None and target in G else -1
    run = dijkstra_run(G, idx, weight, cutoff, t)
    if target is None:
        return (run.dist(), run.paths())
    if t < 0 or not run.valid[t] or t not in set(run.order.tolist()):
        raise nx.NetworkXNoPath(f"No path to {target}.")
    return (run.dist()[target], run.paths()[target])


def multi_source_dijkstra_path(G: BackendGraph, sources: Any, cutoff: Any = None, weight: Any = "weight") -> dict:
    """Paths from the nearest of ``sources`` (NetworkX's ``multi_source_dijkstra_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.multi_source_dijkstra_path(nx.path_graph(3), {0}, backend="semiring_paths")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    return multi_source_dijkstra(G, sources, cutoff=cutoff, weight=weight)[1]


def multi_source_dijkstra_path_length(G: BackendGraph, sources: Any, cutoff: Any = None,
                                      weight: Any = "weight") -> dict:
    """Lengths from the nearest of ``sources`` (NetworkX's ``multi_source_dijkstra_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.multi_source_dijkstra_path_length(nx.path_graph(4), {0, 3}, backend="semiring_paths")
    {0: 0, 3: 0, 1: 1, 2: 1}
    """
    if isinstance(sources, (list, set, tuple, frozenset, dict)) is False:
        raise NotImplementedError("sources of a type NetworkX iterates more than once")
    return dijkstra_run(G, _sources(G, sources), weight, cutoff).dist()


def single_source_dijkstra(G: BackendGraph, source: Any, target: Any = None, cutoff: Any = None,
                           weight: Any = "weight"):
    """Lengths and paths from ``source`` (NetworkX's ``single_source_dijkstra``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_dijkstra(nx.path_graph(3), 0, 2, backend="semiring_paths")
    (2, [0, 1, 2])
    """
    return multi_source_dijkstra(G, {source}, target=target, cutoff=cutoff, weight=weight)


def single_source_dijkstra_path(G: BackendGraph, source: Any, cutoff: Any = None, weight: Any = "weight") -> dict:
    """Paths from ``source`` (NetworkX's ``single_source_dijkstra_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_dijkstra_path(nx.path_graph(3), 0, backend="semiring_paths")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    return multi_source_dijkstra(G, {source}, cutoff=cutoff, weight=weight)[1]


@fill_template(TARGET_DOC, what="path NetworkX's Dijkstra finds", name="dijkstra_path", when="", graph="cycle_graph(4)",
        result="[0, 1, 2]")
def dijkstra_path(G: BackendGraph, source: Any, target: Any, weight: Any = "weight") -> list:
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


@fill_template(TARGET_DOC, what="length of a shortest path", name="dijkstra_path_length", when="", graph="path_graph(3)",
        result="2")
def dijkstra_path_length(G: BackendGraph, source: Any, target: Any, weight: Any = "weight"):
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    run = dijkstra_run(G, [G.index[source]], weight, None, G.index[target] if target in G else -1)
    t = G.index[target] if target in G else -1
    if t < 0 or not run.valid[t]:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return 0 if t == G.index[source] else run.d[t].item()


def all_pairs_dijkstra(G: BackendGraph, cutoff: Any = None, weight: Any = "weight"):
    """Generator of ``(node, (lengths, paths))`` (NetworkX's ``all_pairs_dijkstra``).

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_dijkstra(nx.path_graph(2), backend="semiring_paths"))[0]
    ({0: 0, 1: 1}, {0: [0], 1: [0, 1]})
    """
    check_through_inf(G, weight)
    check_cutoff(cutoff)
    return _all_pairs_dijkstra(G, cutoff, weight)


def _all_pairs_dijkstra(G, cutoff, weight):
    for i, v in enumerate(G.nodes):
        run = dijkstra_run(G, [i], weight, cutoff)
        yield (v, (run.dist(), run.paths()))


def all_pairs_dijkstra_path(G: BackendGraph, cutoff: Any = None, weight: Any = "weight"):
    """Generator of ``(node, paths)`` (NetworkX's ``all_pairs_dijkstra_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_dijkstra_path(nx.path_graph(2), backend="semiring_paths"))
    {0: {0: [0], 1: [0, 1]}, 1: {1: [1], 0: [1, 0]}}
    """
    check_through_inf(G, weight)
    check_cutoff(cutoff)
    return ((v, dijkstra_run(G, [i], weight, cutoff).paths()) for i, v in enumerate(G.nodes))


def dijkstra_predecessor_and_distance(G: BackendGraph, source: Any, cutoff: Any = None, weight: Any = "weight"):
    """``(pred, dist)`` of NetworkX's Dijkstra (``dijkstra_predecessor_and_distance``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_predecessor_and_distance(nx.cycle_graph(4), 0, backend="semiring_paths")
    ({0: [], 1: [0], 3: [0], 2: [1, 3]}, {0: 0, 1: 1, 3: 1, 2: 2})
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    run = dijkstra_run(G, [G.index[source]], weight, cutoff)
    return (run.pred(), run.dist())


def astar_path(G: BackendGraph, source: Any, target: Any, heuristic: Any = None, weight: Any = "weight", *,
               cutoff: Any = None) -> list:
    """NetworkX's A* path without a heuristic: the path its Dijkstra order gives (``astar_path``).

    Without a heuristic A* pops ``(length, counter)`` as Dijkstra does, and
    a node's parent is the first popped neighbour reaching it at its final length.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.astar_path(nx.cycle_graph(4), 0, 2, backend="semiring_paths")
    [0, 1, 2]
    """
    if heuristic is not None:
        raise NotImplementedError("a heuristic is NetworkX's to call")
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return _astar(G, source, target, weight, cutoff)[0]


def _astar(G, source, target, weight, cutoff):
    s, t = G.index[source], G.index[target]
    run = dijkstra_run(G, [s], weight, cutoff if cutoff else None, t)
    if not run.valid[t]:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    nodes = G.nodes
    path = [t]
    while path[-1] != s:
        path.append(int(run.parent[path[-1]]))
    return [nodes[i] for i in reversed(path)], (0 if t == s else run.d[t].item())


def astar_path_length(G: BackendGraph, source: Any, target: Any, heuristic: Any = None, weight: Any = "weight", *,
                      cutoff: Any = None):
    """The length of NetworkX's A* path without a heuristic (``astar_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.astar_path_length(nx.path_graph(3), 0, 2, backend="semiring_paths")
    2
    """
    if heuristic is not None:
        raise NotImplementedError("a heuristic is NetworkX's to call")
    if source not in G or target not in G:
        raise nx.NodeNotFound(f"Either source {source} or target {target} is not in G")
    return _astar(G, source, target, weight, cutoff)[1]


def bidirectional_dijkstra(G: BackendGraph, source: Any, target: Any, weight: Any = "weight"):
    """``(length, path)`` when the shortest path is unique (NetworkX's ``bidirectional_dijkstra``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bidirectional_dijkstra(nx.path_graph(3), 0, 2, backend="semiring_paths")
    (2, [0, 1, 2])
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return (0, [source])
    plan = search_plan(G, weight, "dijkstra")
    if plan.through_inf:
        raise NotImplementedError("nodes reached only at length inf")
    if plan.kind == "float" and not exact_float_sums(plan.weights, len(G)):
        raise NotImplementedError("float weights whose sums round: NetworkX adds the two halves in its own order")
    s, t = G.index[source], G.index[target]
    d, reached, _ = search(G, s, plan, "dijkstra")
    if not reached[t]:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    path = walk_unique(G, d, reached, plan, s, t)
    return (d[t].item(), path)


def johnson(G: BackendGraph, weight: Any = "weight") -> dict:
    """All-pairs shortest paths by Johnson's reweighting, NetworkX's Dijkstra tie rules (``johnson``).

    Integer weights only (the reweighted sums are exact); float weights go back to NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 2})])
    >>> nx.johnson(G, backend="semiring_paths")[0]
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    plan = search_plan(G, weight, "bellman-ford")
    n = len(G)
    if plan.kind == "float":
        raise NotImplementedError("float weights: Johnson's reweighted sums round in NetworkX's order")
    if plan.kind == "hops":
        return {v: dijkstra_run(G, [i], None).paths() for i, v in enumerate(G.nodes)}
    src, dst, w = G.src, G.dst, plan.weights
    if plan.keep is not None:
        src, dst = src[plan.keep], dst[plan.keep]
    H = Graph.from_edges(np.concatenate([src, np.full(n, n, np.int32)]),
                         np.concatenate([dst, np.arange(n, dtype=np.int32)]),
                         np.concatenate([w, np.zeros(n, w.dtype)]), n=n + 1, directed=True)
    try:
        h = sssp(H, n, method="bellman-ford")[0][:n].astype(np.int64)
    except NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    w2 = w + h[src] - h[dst]
    keep = plan.keep
    reweighted = Plan("int", ("johnson", weight), w2, keep, False)
    out = {}
    for i, v in enumerate(G.nodes):
        d, reached, _ = search(G, i, reweighted, "dijkstra")
        valid = reached
        indptr, indices, wa, ok = arc_weights(G, reweighted, False)
        order, parent, _ = dijkstra_order(indptr, indices, wa, ok, d, valid, np.array([i], np.int64), -1)
        out[v] = _Run(G, order, parent, d, valid, wa, ok, indptr, indices, [i], False).paths()
    return out
