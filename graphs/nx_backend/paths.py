"""Shortest paths (the path-returning functions) with NetworkX's signatures, tie rules and errors.

Distances come from the library's engines (:func:`graphs.sssp`,
:func:`graphs.bfs`); NetworkX's choice among equally short paths comes from
its visiting order, reproduced by the kernels of :mod:`._order_kernels`:

* breadth first (``single_source_shortest_path``, ``predecessor``, ...): a
  node's path goes through the node that discovered it first, the queue in
  discovery order (:func:`._order_kernels.bfs_order`);
  ``bidirectional_shortest_path`` is NetworkX's alternating search itself
  (:func:`._order_kernels.bidirectional_bfs`);
* Dijkstra (``single_source_dijkstra``, ``multi_source_dijkstra*``,
  ``dijkstra_predecessor_and_distance``, ``astar_path`` without a
  heuristic, ``johnson``): NetworkX pops ``(distance, push counter)``
  pairs, and a node's parent is the first popped neighbour that reaches it at
  its final distance; with the distances known that order is one heap pass
  (:func:`._order_kernels.dijkstra_order`);
* Bellman-Ford and the bidirectional Dijkstra search pick among equal paths
  by the order of their queue; their paths are returned when they are the only
  shortest ones (each node on them has one tight in-arc), and otherwise the
  call goes back to NetworkX (``NotImplementedError``, before anything is
  returned).

Weights follow :mod:`.shortest_paths` (exact int64 or float64 sums, or back to
NetworkX); a weight given as a function is evaluated once per arc.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ..graph import Graph
from ..sssp import sssp
from ..traversal import bfs
from ._engine import Plan, check_through_inf, reached_mask, search, search_method, search_plan, weight_values
from ._order_kernels import bfs_order, bidirectional_bfs, dijkstra_order
from .attributes import exact_float_sums
from .graph import BackendGraph, paused_gc
from .shortest_paths import NegativeCycleError
from .traversal import depth_bound

__all__ = [
    "single_source_shortest_path", "single_target_shortest_path", "single_target_shortest_path_length",
    "all_pairs_shortest_path", "bidirectional_shortest_path", "predecessor", "shortest_path",
    "dijkstra_path", "dijkstra_path_length", "single_source_dijkstra", "single_source_dijkstra_path",
    "multi_source_dijkstra", "multi_source_dijkstra_path", "multi_source_dijkstra_path_length",
    "all_pairs_dijkstra", "all_pairs_dijkstra_path", "dijkstra_predecessor_and_distance", "bidirectional_dijkstra",
    "astar_path", "astar_path_length", "bellman_ford_path", "bellman_ford_path_length", "single_source_bellman_ford",
    "single_source_bellman_ford_path", "all_pairs_bellman_ford_path", "all_pairs_bellman_ford_path_length",
    "bellman_ford_predecessor_and_distance", "goldberg_radzik", "negative_edge_cycle", "find_negative_cycle",
    "johnson",
]

_INF = float("inf")


# Breadth first -------------------------------------------------------------------


def _adj(G: BackendGraph, reverse: bool):
    indptr, indices, _ = G.pred_csr(arcs=False) if (reverse and G.directed) else G.csr()
    return indptr, indices


def tree_paths(G: BackendGraph, order: np.ndarray, parent: np.ndarray, reverse: bool = False) -> dict:
    """Dict node -> path, in ``order`` (parents before children; ``parent`` -1 at the roots).

    A path is the parent's path and the node (``reverse``: the node and the
    parent's path), a new list each, as NetworkX builds them.
    """
    vs = order.tolist()
    labels = G.labels(vs)
    plist = parent.tolist()
    per = [None] * len(plist)  # the path of each vertex
    with paused_gc():
        if reverse:
            for v, x in zip(vs, labels):
                p = plist[v]
                per[v] = [x] if p < 0 else [x] + per[p]
        else:
            for v, x in zip(vs, labels):
                p = plist[v]
                per[v] = [x] if p < 0 else per[p] + [x]
        return dict(zip(labels, map(per.__getitem__, vs)))


def pred_lists(G: BackendGraph, order: np.ndarray, heads: np.ndarray, tails: np.ndarray) -> dict:
    """Dict node -> list of predecessors, keys in ``order``; arc ``k`` puts ``tails[k]`` in ``heads[k]``'s list.

    Each list keeps the arcs' order.  Built by slicing one list of labels
    grouped by head (no append per arc).
    """
    n = len(G)
    heads = np.asarray(heads, np.int64)
    by_head = np.argsort(heads, kind="stable")
    flat = G.labels(np.asarray(tails)[by_head])
    ends = np.cumsum(np.bincount(heads, minlength=n))
    vs = order.tolist()
    stop = ends[order].tolist()
    start = (ends - np.bincount(heads, minlength=n))[order].tolist()
    with paused_gc():
        return dict(zip(G.labels(vs), [flat[a:b] for a, b in zip(start, stop)]))


def _bfs_paths(G: BackendGraph, s: int, cutoff: Any, reverse: bool = False) -> dict:
    indptr, indices = _adj(G, reverse)
    limit = depth_bound(_INF if cutoff is None else cutoff, len(G)) if cutoff is None or cutoff == cutoff else -1
    order, parent, _, count = bfs_order(indptr, indices, np.array([s], np.int64), limit)
    return tree_paths(G, order[:count], parent, reverse)


def _check_cutoff(cutoff: Any) -> None:
    if cutoff is not None and type(cutoff) not in (int, float, bool):
        raise NotImplementedError(f"a cutoff of type {type(cutoff).__name__}")


def single_source_shortest_path(G: BackendGraph, source: Any, cutoff: Any = None) -> dict:
    """Breadth-first shortest paths from ``source`` (NetworkX's ``single_source_shortest_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path(nx.path_graph(3), 0, backend="semiring_paths")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    _check_cutoff(cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not found in graph")
    return _bfs_paths(G, G.index[source], cutoff)


def single_target_shortest_path(G: BackendGraph, target: Any, cutoff: Any = None) -> dict:
    """Breadth-first shortest paths to ``target`` (NetworkX's ``single_target_shortest_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path(nx.DiGraph([(0, 1), (1, 2)]), 2, backend="semiring_paths")
    {2: [2], 1: [1, 2], 0: [0, 1, 2]}
    """
    _check_cutoff(cutoff)
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} not in G")
    return _bfs_paths(G, G.index[target], cutoff, reverse=True)


def single_target_shortest_path_length(G: BackendGraph, target: Any, cutoff: Any = None) -> dict:
    """Hop counts to ``target`` (NetworkX's ``single_target_shortest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path_length(nx.DiGraph([(0, 1), (1, 2)]), 2, backend="semiring_paths")
    {2: 0, 1: 1, 0: 2}
    """
    _check_cutoff(cutoff)
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
    _check_cutoff(cutoff)
    return ((v, _bfs_paths(G, i, cutoff)) for i, v in enumerate(G.nodes))


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
    _check_cutoff(cutoff)
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


# Dijkstra ------------------------------------------------------------------------


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


def _arc_weights(G: BackendGraph, plan: Plan, reverse: bool):
    """CSR (NetworkX's order) with each entry's weight and whether the search uses it."""
    indptr, indices, arcs = G.pred_csr() if (reverse and G.directed) else G.csr()
    m = G.src.size
    if plan.kind == "hops":
        return indptr, indices, np.ones(indices.size, np.int64), np.ones(indices.size, bool)
    full = np.zeros(m, plan.weights.dtype)
    ok = np.ones(m, bool)
    if plan.keep is None:
        full[:] = plan.weights
    else:
        full[plan.keep] = plan.weights
        ok = plan.keep.copy()
    return indptr, indices, full[arcs], ok[arcs]


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


def _dijkstra(G: BackendGraph, sources: list[int], weight: Any, cutoff: Any = None, target: int = -1,
              reverse: bool = False) -> _Run:
    _check_cutoff(cutoff)
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
    indptr, indices, w, ok = _arc_weights(G, plan, reverse)
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
    run = _dijkstra(G, idx, weight, cutoff, t)
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
    return _dijkstra(G, _sources(G, sources), weight, cutoff).dist()


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


def dijkstra_path(G: BackendGraph, source: Any, target: Any, weight: Any = "weight") -> list:
    """The path NetworkX's Dijkstra finds from ``source`` to ``target`` (``dijkstra_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_path(nx.cycle_graph(4), 0, 2, backend="semiring_paths")
    [0, 1, 2]
    """
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


def dijkstra_path_length(G: BackendGraph, source: Any, target: Any, weight: Any = "weight"):
    """The length of a shortest path (NetworkX's ``dijkstra_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_path_length(nx.path_graph(3), 0, 2, backend="semiring_paths")
    2
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    run = _dijkstra(G, [G.index[source]], weight, None, G.index[target] if target in G else -1)
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
    _check_cutoff(cutoff)
    return _all_pairs_dijkstra(G, cutoff, weight)


def _all_pairs_dijkstra(G, cutoff, weight):
    for i, v in enumerate(G.nodes):
        run = _dijkstra(G, [i], weight, cutoff)
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
    _check_cutoff(cutoff)
    return ((v, _dijkstra(G, [i], weight, cutoff).paths()) for i, v in enumerate(G.nodes))


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
    run = _dijkstra(G, [G.index[source]], weight, cutoff)
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
    run = _dijkstra(G, [s], weight, cutoff if cutoff else None, t)
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


def _unique_chain(G: BackendGraph, d: np.ndarray, reached: np.ndarray, plan: Plan, s: int, reverse: bool = False):
    """Per node its only tight in-arc's tail (-1: the source), or ``NotImplementedError`` where there are several.

    ``d`` are exact path lengths; a node with two tight in-arcs has several
    shortest paths, among which NetworkX's choice follows its queue.
    """
    indptr, indices, w, ok = _arc_weights(G, plan, reverse)
    n = len(G)
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    good = ok & reached[src] & reached[indices]
    arcs = np.flatnonzero(good)
    arcs = arcs[d[src[arcs]] + w[arcs] == d[indices[arcs]]]
    heads = indices[arcs]
    counts = np.bincount(heads, minlength=n)
    return arcs, src, heads, counts


def _check_unique(counts: np.ndarray, reached: np.ndarray, s: int, nodes: np.ndarray | None = None) -> None:
    sel = reached.copy() if nodes is None else np.zeros_like(reached)
    if nodes is not None:
        sel[nodes] = True
    expected = np.where(sel, 1, 0)
    expected[s] = 0
    if (counts[sel] != expected[sel]).any():
        raise NotImplementedError("several shortest paths: NetworkX's choice follows its queue order")


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
    path = _walk(G, d, reached, plan, s, t)
    return (d[t].item(), path)


def _walk(G, d, reached, plan, s, t):
    arcs, src, heads, counts = _unique_chain(G, d, reached, plan, s)
    tail = np.full(len(G), -1, np.int64)
    tail[heads] = src[arcs]
    chain = [t]
    while chain[-1] != s:
        v = chain[-1]
        if counts[v] != 1 or len(chain) > len(G):
            raise NotImplementedError("several shortest paths: NetworkX's choice follows its queue order")
        chain.append(int(tail[v]))
    if counts[s] != 0:
        raise NotImplementedError("a zero-length cycle through the source")
    nodes = G.nodes
    return [nodes[i] for i in reversed(chain)]


# Bellman-Ford --------------------------------------------------------------------


def _negative_self_loop(G: BackendGraph, weight: Any) -> bool:
    """NetworkX's check of every self loop (reachable or not) for a negative weight."""
    loops = np.flatnonzero(G.src == G.dst)
    if loops.size == 0:
        return False
    if callable(weight) and G.multigraph:
        raise NotImplementedError("a weight function on a multigraph's self loops (NetworkX passes each edge alone)")
    arr, hidden = weight_values(G, weight)
    if hidden is not None:
        raise NotImplementedError("a weight function returning None with Bellman-Ford")
    try:
        return any(v < 0 for v in arr[loops].tolist())  # a multigraph's column is the least parallel value
    except TypeError as exc:
        raise NotImplementedError("self-loop weights that do not compare with 0") from exc


def _bf(G: BackendGraph, source: Any, weight: Any):
    """``(d, reached, plan, s)`` of Bellman-Ford from ``source`` (engine), ``NetworkXUnbounded`` on a negative cycle."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    plan = search_plan(G, weight, "bellman-ford")
    s = G.index[source]
    d, reached, _ = search(G, s, plan, "bellman-ford")
    return d, reached, plan, s


def single_source_bellman_ford(G: BackendGraph, source: Any, target: Any = None, weight: Any = "weight"):
    """``(lengths, paths)`` or ``(length, path)`` by Bellman-Ford (NetworkX's ``single_source_bellman_ford``).

    Paths are returned where they are the only shortest ones (else NetworkX's queue decides: back to NetworkX).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1})])
    >>> nx.single_source_bellman_ford(G, 0, backend="semiring_paths")
    ({0: 0, 1: 2, 2: 1}, {0: [0], 1: [0, 1], 2: [0, 1, 2]})
    """
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    d, reached, plan, s = _bf(G, source, weight)
    if target is not None:
        if target not in G or not reached[G.index[target]]:
            raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
        t = G.index[target]
        return (d[t].item(), _walk(G, d, reached, plan, s, t))
    arcs, src, heads, counts = _unique_chain(G, d, reached, plan, s)
    _check_unique(counts, reached, s)
    tail = np.full(len(G), -1, np.int64)
    tail[heads] = src[arcs]
    dist = _bf_dist(G, d, reached, s)
    order = np.flatnonzero(reached)
    order = order[np.argsort(_depths(tail, order, s), kind="stable")]
    tail[s] = -1
    return dist, tree_paths(G, order, tail)


def _depths(tail: np.ndarray, order: np.ndarray, s: int) -> np.ndarray:
    """Hop depth of each node of ``order`` in the tree ``tail`` (parents before children)."""
    n = tail.size
    depth = np.full(n, -1, np.int64)
    depth[s] = 0
    for _ in range(n):
        todo = order[depth[order] < 0]
        if todo.size == 0:
            break
        known = depth[tail[todo]] >= 0
        depth[todo[known]] = depth[tail[todo[known]]] + 1
    return depth[order]


def _bf_dist(G, d, reached, s):
    idx = np.flatnonzero(reached)
    out = dict(zip(G.labels(idx), d[idx].tolist()))
    out[G.nodes[s]] = 0
    return out


def single_source_bellman_ford_path(G: BackendGraph, source: Any, weight: Any = "weight") -> dict:
    """Bellman-Ford paths from ``source`` (NetworkX's ``single_source_bellman_ford_path``), unique ones.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_bellman_ford_path(nx.path_graph(3), 0, backend="semiring_paths")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    return single_source_bellman_ford(G, source, weight=weight)[1]


def bellman_ford_path(G: BackendGraph, source: Any, target: Any, weight: Any = "weight") -> list:
    """The Bellman-Ford path to ``target`` (NetworkX's ``bellman_ford_path``), when it is the only shortest one.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bellman_ford_path(nx.path_graph(3), 0, 2, backend="semiring_paths")
    [0, 1, 2]
    """
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


def bellman_ford_path_length(G: BackendGraph, source: Any, target: Any, weight: Any = "weight"):
    """The Bellman-Ford length to ``target`` (NetworkX's ``bellman_ford_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bellman_ford_path_length(nx.path_graph(3), 0, 2, backend="semiring_paths")
    2
    """
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    d, reached, plan, s = _bf(G, source, weight)
    if target not in G or not reached[G.index[target]]:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return d[G.index[target]].item()


def all_pairs_bellman_ford_path_length(G: BackendGraph, weight: Any = "weight"):
    """Generator of ``(node, Bellman-Ford lengths)`` (NetworkX's ``all_pairs_bellman_ford_path_length``).

    The lengths equal NetworkX's; each inner dict lists the reached nodes in
    ``G.nodes`` order (NetworkX's lists them in its queue's order of first reach).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(3)
    >>> got = dict(nx.all_pairs_bellman_ford_path_length(G, backend="semiring_paths"))
    >>> got == dict(nx.all_pairs_bellman_ford_path_length(G)), got[1]
    (True, {0: 1, 1: 0, 2: 1})
    """
    search_plan(G, weight, "bellman-ford")
    return _apbf_len(G, weight)


def _apbf_len(G, weight):
    for v in G.nodes:
        d, reached, _, s = _bf(G, v, weight)
        yield (v, _bf_dist(G, d, reached, s))


def all_pairs_bellman_ford_path(G: BackendGraph, weight: Any = "weight"):
    """Generator of ``(node, Bellman-Ford paths)`` (NetworkX's ``all_pairs_bellman_ford_path``), unique paths only.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_bellman_ford_path(nx.path_graph(2), backend="semiring_paths"))
    {0: {0: [0], 1: [0, 1]}, 1: {1: [1], 0: [1, 0]}}
    """
    search_plan(G, weight, "bellman-ford")
    out, err = [], None
    for v in G.nodes:  # refusals come now; NetworkX's own errors when its generator reaches them
        try:
            out.append((v, single_source_bellman_ford(G, v, weight=weight)[1]))
        except nx.NetworkXException as exc:
            err = exc
            break
    return _replay(out, err)


def _replay(items: list, err: Exception | None):
    yield from items
    if err is not None:
        raise err


def bellman_ford_predecessor_and_distance(G: BackendGraph, source: Any, target: Any = None, weight: Any = "weight",
                                          heuristic: bool = False):
    """``(pred, dist)`` by Bellman-Ford, where each node has one shortest-path predecessor.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bellman_ford_predecessor_and_distance(nx.path_graph(3), 0, backend="semiring_paths")
    ({0: [], 1: [0], 2: [1]}, {0: 0, 1: 1, 2: 2})
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if _negative_self_loop(G, weight):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: []}, {source: 0}
    d, reached, plan, s = _bf(G, source, weight)
    arcs, src, heads, counts = _unique_chain(G, d, reached, plan, s)
    _check_unique(counts, reached, s)
    idx = np.flatnonzero(reached)
    parent = np.full(len(G), -1, np.int64)
    parent[heads] = src[arcs]  # one tight in-arc per reached node but the source (checked above)
    par = parent[idx]
    lists = [[p] for p in G.labels(np.maximum(par, 0))]
    for k in np.flatnonzero(par < 0).tolist():  # the source
        lists[k] = []
    return dict(zip(G.labels(idx), lists)), _bf_dist(G, d, reached, s)


def goldberg_radzik(G: BackendGraph, source: Any, weight: Any = "weight"):
    """``(pred, dist)`` of NetworkX's ``goldberg_radzik``, where each node has one shortest-path predecessor.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.goldberg_radzik(nx.path_graph(3), 0, backend="semiring_paths")
    ({0: None, 1: 0, 2: 1}, {0: 0, 1: 1, 2: 2})
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if _negative_self_loop(G, weight):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: None}, {source: 0}
    d, reached, plan, s = _bf(G, source, weight)
    arcs, src, heads, counts = _unique_chain(G, d, reached, plan, s)
    _check_unique(counts, reached, s)
    pred = {G.nodes[s]: None}
    pred.update(zip(G.labels(heads), G.labels(src[arcs])))
    return pred, _bf_dist(G, d, reached, s)


def negative_edge_cycle(G: BackendGraph, weight: Any = "weight", heuristic: bool = True) -> bool:
    """Whether some cycle has negative length (NetworkX's ``negative_edge_cycle``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.negative_edge_cycle(nx.DiGraph([(0, 1, {"weight": -1}), (1, 0, {"weight": 0})]), backend="semiring_paths")
    True
    """
    if G.number_of_edges() == 0:
        return False
    plan = search_plan(G, weight, "bellman-ford")
    n = len(G)
    src, dst = G.src, G.dst
    w = plan.weights
    if plan.keep is not None:
        src, dst = src[plan.keep], dst[plan.keep]
    if plan.kind == "hops":
        return False
    H = Graph.from_edges(np.concatenate([src, np.full(n, n, np.int32)]),
                         np.concatenate([dst, np.arange(n, dtype=np.int32)]),
                         np.concatenate([w, np.zeros(n, w.dtype)]), n=n + 1, directed=True)
    try:
        sssp(H, n, method="bellman-ford")
    except NegativeCycleError:
        return True
    return False


def find_negative_cycle(G: BackendGraph, source: Any, weight: Any = "weight") -> list:
    """NetworkX's ``find_negative_cycle`` where no negative cycle is reachable (its ``NetworkXError``).

    The cycle NetworkX returns when there is one follows its queue order: that
    case goes back to NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.find_negative_cycle(nx.path_graph(3), 0, backend="semiring_paths")
    Traceback (most recent call last):
    ...
    networkx.exception.NetworkXError: No negative cycles detected.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    try:
        _bf(G, source, weight)
    except nx.NetworkXUnbounded as exc:
        raise NotImplementedError("the negative cycle NetworkX returns follows its queue order") from exc
    raise nx.NetworkXError("No negative cycles detected.")


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
        return {v: _dijkstra(G, [i], None).paths() for i, v in enumerate(G.nodes)}
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
        indptr, indices, wa, ok = _arc_weights(G, reweighted, False)
        order, parent, _ = dijkstra_order(indptr, indices, wa, ok, d, valid, np.array([i], np.int64), -1)
        out[v] = _Run(G, order, parent, d, valid, wa, ok, indptr, indices, [i], False).paths()
    return out


# Generic -------------------------------------------------------------------------


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
            return _bfs_paths(G, G.index[target], None, reverse=True)
        if method == "dijkstra":
            if target not in G:
                raise nx.NodeNotFound(f"Node {target} not found in graph")
            return _dijkstra(G, [G.index[target]], weight, reverse=True).paths()
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
