"""Every shortest path, enumerated as NetworkX enumerates them: ``all_shortest_paths`` and its two generators.

NetworkX builds the paths from predecessor lists (its ``predecessor``,
``dijkstra_predecessor_and_distance`` or ``bellman_ford_predecessor_and_distance``)
with a depth-first walk back from the target.  Those lists come here from the
backend's NetworkX-order passes over the library's distances
(:mod:`.bfs_paths`, :mod:`.dijkstra_paths`, :mod:`.bellman_ford_paths`: the same lists in the same order), and the walk
(:func:`paths_from_predecessors`) is NetworkX's walk step for step, so the paths
and their order are NetworkX's.

What NetworkX raises lazily (inside its generators) is raised lazily here too;
what the backend does not reproduce (``NotImplementedError``) is raised at
the call, before any path is returned.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ..graph import BackendGraph
from ._engine import check_through_inf, search_plan
from .bellman_ford_paths import bellman_ford_predecessor_and_distance
from .bfs_paths import predecessor
from .dijkstra_paths import dijkstra_predecessor_and_distance

#: The NetworkX functions this module implements (:mod:`.interface` registers every name here).
__all__ = ["all_shortest_paths", "single_source_all_shortest_paths", "all_pairs_all_shortest_paths"]


def _pred(G: BackendGraph, source: Any, weight: Any, method: Any) -> dict:
    """NetworkX's predecessor lists for ``method`` (``"unweighted"`` whenever ``weight`` is None)."""
    method = "unweighted" if weight is None else method
    if method == "unweighted":
        return predecessor(G, source)
    if method == "dijkstra":
        pred, dist = dijkstra_predecessor_and_distance(G, source, weight=weight)
        return _first_seen_order(G, pred, dist, weight)
    if method == "bellman-ford":
        return bellman_ford_predecessor_and_distance(G, source, weight=weight)[0]
    raise ValueError(f"method not supported: {method}")


def _first_seen_order(G: BackendGraph, pred: dict, dist: dict, weight: Any) -> dict:
    """``pred`` with its keys in NetworkX's order: when its Dijkstra first saw each node.

    NetworkX's Dijkstra writes ``pred[u] = [v]`` when it first pushes ``u``
    (later, shorter pushes rewrite the list in place, keeping the key's place):
    ``u`` is first seen from its earliest popped in-neighbour ``v`` (``dist``
    is in pop order), among ``v``'s arcs in adjacency order.
    """
    n, index = len(G), G.index
    never = np.iinfo(np.int64).max
    rank = np.full(n, never, np.int64)
    rank[[index[v] for v in dist]] = np.arange(len(dist))
    keep = search_plan(G, weight, "dijkstra").keep
    usable = rank[G.src] < never
    if keep is not None:
        usable &= keep
    arcs = np.flatnonzero(usable)
    first = np.full(n, never, np.int64)
    np.minimum.at(first, G.dst[arcs], rank[G.src[arcs]] * max(G.src.size, 1) + arcs)
    ids = [index[u] for u in pred]
    first[ids[0]] = -1  # the source
    nodes = G.nodes
    return {nodes[i]: pred[nodes[i]] for i in sorted(ids, key=first.__getitem__)}


def all_shortest_paths(G: BackendGraph, source: Any, target: Any, weight: Any = None, method: Any = "dijkstra"):
    """Generator of every shortest ``source -> target`` path (NetworkX's ``all_shortest_paths``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.all_shortest_paths(nx.cycle_graph(4), 0, 2, backend="semiring_paths"))
    [[0, 1, 2], [0, 3, 2]]
    """
    return paths_from_predecessors({source}, target, _pred(G, source, weight, method))



def paths_from_predecessors(sources, target, pred: dict):
    """The simple paths from any of ``sources`` to ``target`` through the predecessor lists ``pred``, lazily.

    The depth-first walk back from ``target`` of NetworkX's shortest-path generators
    (``networkx.algorithms.shortest_paths.generic``), step for step: a node's
    predecessors are tried in list order, a node already on the walk is skipped, and
    a path is given (source first) each time the walk stands on a node of ``sources``
    -- so the paths and their order are NetworkX's.  A ``target`` missing from
    ``pred`` raises :class:`networkx.NetworkXNoPath` at the first ``next``, as there.

    >>> list(paths_from_predecessors({0}, 3, {0: [], 1: [0], 2: [0], 3: [1, 2]}))
    [[0, 1, 3], [0, 2, 3]]
    """
    if target not in pred:
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    walk = [[target, 0]]  # the walk back from target: each node with the index of its next predecessor to try
    on_walk = {target}
    while walk:
        node, i = walk[-1]
        if node in sources:
            yield [v for v, _ in reversed(walk)]
        if i < len(pred[node]):
            walk[-1][1] = i + 1
            nxt = pred[node][i]
            if nxt not in on_walk:
                on_walk.add(nxt)
                walk.append([nxt, 0])
        else:
            on_walk.discard(node)
            walk.pop()


def _raising(exc: Exception):
    raise exc
    yield  # pragma: no cover - makes this a generator


def _single(pred: dict, source: Any):
    for n in pred:
        yield n, list(paths_from_predecessors({source}, n, pred))


def single_source_all_shortest_paths(G: BackendGraph, source: Any, weight: Any = None, method: Any = "dijkstra"):
    """Generator of ``(node, every shortest path from source to node)`` (``single_source_all_shortest_paths``).

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.single_source_all_shortest_paths(nx.cycle_graph(4), 0, backend="semiring_paths"))
    {0: [[0]], 1: [[0, 1]], 3: [[0, 3]], 2: [[0, 1, 2], [0, 3, 2]]}
    """
    try:
        pred = _pred(G, source, weight, method)
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - NetworkX raises it when the generator starts
        return _raising(exc)
    return _single(pred, source)


def _all_pairs(G: BackendGraph, weight: Any, method: Any):
    for n in G.nodes:
        yield n, dict(single_source_all_shortest_paths(G, n, weight=weight, method=method))


def all_pairs_all_shortest_paths(G: BackendGraph, weight: Any = None, method: Any = "dijkstra"):
    """Generator of ``(node, {target: every shortest path})`` (NetworkX's ``all_pairs_all_shortest_paths``).

    The weights are checked at the call; Bellman-Ford (whose predecessor lists
    are served only where they are unique, source by source) goes back to NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_all_shortest_paths(nx.path_graph(2), backend="semiring_paths"))
    {0: {0: [[0]], 1: [[0, 1]]}, 1: {1: [[1]], 0: [[1, 0]]}}
    """
    if weight is not None and method == "bellman-ford":
        raise NotImplementedError("Bellman-Ford predecessor lists over all sources: NetworkX's where they tie")
    if weight is not None and method == "dijkstra":
        check_through_inf(G, weight)
    return _all_pairs(G, weight, method)
