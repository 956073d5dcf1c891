"""Bellman-Ford shortest paths with NetworkX's signatures and errors (the Bellman-Ford path family).

NetworkX's Bellman-Ford picks among equally short paths by the order of its
queue.  Distances come from the engine (:func:`._engine.search`, which also
finds a negative cycle); where every shortest path is the only one (each
node has one tight in-arc, :func:`.path_trees.unique_chain`) the paths and
predecessors are read off them, and elsewhere the path and predecessor
functions replay NetworkX's queue compiled
(:func:`._bf_kernels.replay_bellman_ford`: its relaxations in its order, so
its predecessor lists, its paths and its dicts' order, ties included).  ``goldberg_radzik`` picks among equal paths by the
iteration order of a Python set: its answer is returned when the paths are
the only shortest ones (each node on them has one tight in-arc,
:func:`.path_trees.unique_chain`), and otherwise the call goes back to
NetworkX (``NotImplementedError``, before anything is returned).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from apsp.errors import NegativeCycleError
from semiring.docstrings import fill_template

from ...graph import Graph
from ...paths.sssp import sssp
from ..graph import BackendGraph, paused_gc
from ._bf_kernels import first_pred_depths, replay_bellman_ford
from ._engine import Plan, arc_weights, length_to, search, search_plan, weight_values
from .path_trees import TARGET_DOC, check_unique, tree_paths, unique_chain, walk_unique

__all__ = [
    "bellman_ford_path", "bellman_ford_path_length", "single_source_bellman_ford", "single_source_bellman_ford_path",
    "all_pairs_bellman_ford_path", "all_pairs_bellman_ford_path_length", "bellman_ford_predecessor_and_distance",
    "goldberg_radzik", "negative_edge_cycle", "find_negative_cycle",
]


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


class _Replay:
    """NetworkX's Bellman-Ford queue replayed from vertex ``s`` (:func:`._bf_kernels.replay_bellman_ford`).

    ``order``: the vertices in the order NetworkX first reaches them (its dicts'
    order); ``dist`` their lengths; ``poff``/``pflat`` their predecessor lists.
    """

    def __init__(self, G: BackendGraph, plan: Plan, s: int) -> None:
        indptr, indices, w, ok = arc_weights(G, plan, False)
        status, order, count, dist, poff, pflat = replay_bellman_ford(indptr, indices, w, ok, s)
        if status:  # the engine found no negative cycle: not expected
            raise NotImplementedError("NetworkX's Bellman-Ford queue did not settle")
        self.G, self.s, self.order, self.dist, self.poff, self.pflat = G, s, order[:count], dist, poff, pflat
        self.reached = np.zeros(len(G), bool)
        self.reached[self.order] = True

    def dist_dict(self) -> dict:
        G, order = self.G, self.order
        out = dict(zip(G.labels(order), self.dist[order].tolist()))
        out[G.nodes[self.s]] = 0  # NetworkX's int 0, also among float weights
        return out

    def pred_dict(self) -> dict:
        flat = self.G.labels(self.pflat)
        poff = self.poff.tolist()
        with paused_gc():
            return dict(zip(self.G.labels(self.order), [flat[a:b] for a, b in zip(poff[:-1], poff[1:])]))

    def first_preds(self) -> tuple[np.ndarray, np.ndarray]:
        """``(parent, depth)`` of the first-predecessor tree, along which NetworkX builds its paths."""
        parent, depth, ok = first_pred_depths(self.order, self.order.size, self.poff, self.pflat, self.s,
                                              len(self.G))
        if not ok:
            raise NotImplementedError("a zero-length cycle among first predecessors: NetworkX's path search "
                                      "backtracks to others")
        return parent, depth

    def paths(self) -> dict:
        parent, depth = self.first_preds()
        tree = self.order[np.argsort(depth[self.order], kind="stable")]
        return tree_paths(self.G, tree, parent, keys=self.order)

    def path_to(self, t: int) -> list:
        parent, _ = self.first_preds()
        chain = [t]
        while chain[-1] != self.s:
            chain.append(int(parent[chain[-1]]))
        nodes = self.G.nodes
        return [nodes[i] for i in reversed(chain)]


def _unique(counts: np.ndarray, reached: np.ndarray, s: int) -> bool:
    """Whether every reached node but ``s`` has one tight in-arc (:func:`.path_trees.check_unique`)."""
    try:
        check_unique(counts, reached, s)
    except NotImplementedError:
        return False
    return True


def single_source_bellman_ford(G: BackendGraph, source: Any, target: Any = None, weight: Any = "weight"):
    """``(lengths, paths)`` or ``(length, path)`` by Bellman-Ford (NetworkX's ``single_source_bellman_ford``).

    Where every shortest path is the only one, they are read off the
    engine's lengths; elsewhere NetworkX's queue is replayed
    (:class:`_Replay`): its paths among equally short ones, its dicts' order.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1}), (0, 2, {"weight": 1})])
    >>> nx.single_source_bellman_ford(G, 0, backend="semiring_paths")
    ({0: 0, 1: 2, 2: 1}, {0: [0], 1: [0, 1], 2: [0, 2]})
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
        try:
            return (d[t].item(), walk_unique(G, d, reached, plan, s, t))
        except NotImplementedError:  # several shortest paths: NetworkX's queue picks one
            return (d[t].item(), _Replay(G, plan, s).path_to(t))
    arcs, src, heads, counts = unique_chain(G, d, reached, plan, s)
    if not _unique(counts, reached, s):
        run = _Replay(G, plan, s)
        return run.dist_dict(), run.paths()
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


@fill_template(TARGET_DOC, what="Bellman-Ford path", name="bellman_ford_path", when=", when it is the only shortest one",
        graph="path_graph(3)", result="[0, 1, 2]")
def bellman_ford_path(G: BackendGraph, source: Any, target: Any, weight: Any = "weight") -> list:
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


@fill_template(TARGET_DOC, what="Bellman-Ford length", name="bellman_ford_path_length", when="", graph="path_graph(3)",
        result="2")
def bellman_ford_path_length(G: BackendGraph, source: Any, target: Any, weight: Any = "weight"):
    return length_to(G, source, target, weight, "bellman-ford")


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
    """``(pred, dist)`` by Bellman-Ford: one predecessor per node where shortest paths are unique, else NetworkX's
    queue replayed (its predecessor lists, in its order).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bellman_ford_predecessor_and_distance(nx.cycle_graph(4), 0, backend="semiring_paths")
    ({0: [], 1: [0], 3: [0], 2: [1, 3]}, {0: 0, 1: 1, 3: 1, 2: 2})
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if _negative_self_loop(G, weight):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: []}, {source: 0}
    d, reached, plan, s = _bf(G, source, weight)
    arcs, src, heads, counts = unique_chain(G, d, reached, plan, s)
    if not _unique(counts, reached, s):
        run = _Replay(G, plan, s)
        return run.pred_dict(), run.dist_dict()
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
    arcs, src, heads, counts = unique_chain(G, d, reached, plan, s)
    check_unique(counts, reached, s)
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
