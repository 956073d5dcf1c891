"""Shortest-path lengths with NetworkX's signatures, answers and errors, on the library's engines.

* all pairs, dense: :func:`floyd_warshall_numpy`, :func:`floyd_warshall`
  (``apsp.shortest_paths``, R-Kleene; on a negative cycle the NetworkX NumPy
  recurrence, which is ``apsp.fw``'s reference Floyd-Warshall, so the answer is
  NetworkX's to the bit);
* one source: :func:`single_source_shortest_path_length` (``graphs.bfs``),
  :func:`single_source_dijkstra_path_length` (``graphs.sssp``, Dijkstra),
  :func:`single_source_bellman_ford_path_length` (``graphs.sssp``, Bellman-Ford);
* all sources, sparse: :func:`all_pairs_shortest_path_length`,
  :func:`all_pairs_dijkstra_path_length` (``graphs.multi_source_sssp`` in
  blocks of sources);
* :func:`shortest_path_length` (every combination of ``source``, ``target``,
  ``weight``, ``method``) and :func:`has_path`.

Where NetworkX's own answer depends on the order of its work rather than on
the graph (Dijkstra with negative weights, the dict Floyd-Warshall on a
negative cycle, weights of ``inf`` or NaN) these functions raise
``NotImplementedError``: NetworkX then runs its own code when it falls back
(``nx.config.fallback_to_nx``, or automatic dispatch through
``backend_priority``).  Integer weights give Python ``int`` lengths, as in
NetworkX; results never hold NumPy scalars.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import networkx as nx
import numpy as np

import semiring as sr
from apsp import shortest_paths as dense_shortest_paths
from apsp.errors import NegativeCycleError
from apsp.fw import floyd_warshall_inplace

from ..sssp import multi_source_sssp, sssp
from ..traversal import bfs
from .graph import BackendGraph

__all__ = [
    "floyd_warshall_numpy",
    "floyd_warshall",
    "all_pairs_shortest_path_length",
    "all_pairs_dijkstra_path_length",
    "single_source_shortest_path_length",
    "single_source_dijkstra_path_length",
    "single_source_bellman_ford_path_length",
    "shortest_path_length",
    "has_path",
]

BLOCK_ENTRIES = 1 << 22  # sources x vertices per block of the all-pairs generators (32 MiB of float64)
INT_HEADROOM = 1 << 62  # integer weights whose path sums could pass this go back to NetworkX (exact big ints)


def _weights(G: BackendGraph, weight: Any, *, negative: bool) -> np.ndarray | None:
    """The arc weights for a path computation, or ``NotImplementedError`` where NetworkX's answer is its own."""
    w = G.weights(weight)
    if w is None or w.size == 0:
        return w
    if w.dtype.kind == "f":
        if not np.isfinite(w).all():
            raise NotImplementedError("edge weights of inf or NaN: NetworkX's result is its own")
    elif max(-int(w.min()), int(w.max())) >= INT_HEADROOM // max(len(G), 1):  # Python ints: no wrap at int64's min
        raise NotImplementedError("integer weights whose path sums may exceed int64")
    if not negative and (w < 0).any():
        raise NotImplementedError("negative weights with Dijkstra: NetworkX's result depends on its visiting order")
    return w


def _reached(d: np.ndarray) -> np.ndarray:
    """Mask of finite distances (the int sentinel ``iinfo.max`` is unreachable)."""
    if d.dtype.kind == "f":
        return d < np.inf
    return d < np.iinfo(d.dtype).max


def _lengths(G: BackendGraph, d: np.ndarray, cutoff: Any = None) -> dict:
    """Dict node -> length of the reached vertices, nearest first (Python numbers)."""
    keep = _reached(d)
    if cutoff is not None:
        keep &= d <= cutoff
    idx = np.nonzero(keep)[0]
    idx = idx[np.argsort(d[idx], kind="stable")]
    nodes = G.nodes
    return dict(zip([nodes[i] for i in idx.tolist()], d[idx].tolist()))


def _hops(G: BackendGraph, s: int, *, reverse: bool = False) -> np.ndarray:
    return bfs(G.graph_for(None, reverse=reverse), s)[0]


def _sssp(G: BackendGraph, s: int, weight: Any, method: str, *, reverse: bool = False) -> np.ndarray:
    """Distances from vertex ``s`` (hop counts as int32 when ``weight`` is None)."""
    if weight is None:
        return _hops(G, s, reverse=reverse)
    w = _weights(G, weight, negative=method == "bellman-ford")
    if w is None or w.size == 0:
        return _hops(G, s, reverse=reverse)
    try:
        return sssp(G.graph_for(weight, reverse=reverse), s, method=method)[0]
    except NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc


def _unweighted_dist(levels: np.ndarray) -> np.ndarray:
    """Hop levels (-1 unreachable) as int64 distances with the sentinel for unreachable."""
    d = levels.astype(np.int64)
    d[levels < 0] = np.iinfo(np.int64).max
    return d


def _dist_for(G: BackendGraph, s: int, weight: Any, method: str, *, reverse: bool = False) -> np.ndarray:
    d = _sssp(G, s, weight, method, reverse=reverse)
    return _unweighted_dist(d) if d.dtype == np.int32 else d


# One source ------------------------------------------------------------------


def single_source_shortest_path_length(G: BackendGraph, source: Any, cutoff: Any = None) -> dict:
    """Hop counts from ``source`` (NetworkX's ``single_source_shortest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path_length(nx.path_graph(4), 0, backend="semiring_paths")
    {0: 0, 1: 1, 2: 2, 3: 3}
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return _lengths(G, _unweighted_dist(_hops(G, G.index[source])), cutoff)


def single_source_dijkstra_path_length(
    G: BackendGraph, source: Any, cutoff: Any = None, weight: Any = "weight"
) -> dict:
    """Weighted lengths from ``source`` (NetworkX's ``single_source_dijkstra_path_length``).

    Raises ``NotImplementedError`` for negative weights (NetworkX's Dijkstra is
    then order-dependent; NetworkX falls back to itself where configured).
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    return _lengths(G, _dist_for(G, G.index[source], weight, "dijkstra"), cutoff)


def single_source_bellman_ford_path_length(G: BackendGraph, source: Any, weight: Any = "weight") -> dict:
    """Weighted lengths from ``source``, negative weights allowed (``single_source_bellman_ford_path_length``).

    Raises :class:`networkx.NetworkXUnbounded` for a negative cycle reachable from ``source``.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return _lengths(G, _dist_for(G, G.index[source], weight, "bellman-ford"))


# All sources -------------------------------------------------------------------


def _all_pairs(G: BackendGraph, weight: Any, cutoff: Any):
    """Generator of ``(node, lengths)`` for every node, sources in blocks (checks done by the caller)."""
    n = len(G)
    nodes = G.nodes
    if weight is None or G.weights(weight) is None or G.weights(weight).size == 0:
        for i in range(n):
            yield nodes[i], _lengths(G, _unweighted_dist(_hops(G, i)), cutoff)
        return
    H = G.graph_for(weight)
    step = max(1, BLOCK_ENTRIES // max(n, 1))
    for start in range(0, n, step):
        D = multi_source_sssp(H, list(range(start, min(n, start + step))), method="dijkstra")[0]
        for r in range(D.shape[0]):
            yield nodes[start + r], _lengths(G, D[r], cutoff)


def all_pairs_shortest_path_length(G: BackendGraph, cutoff: Any = None):
    """Generator of ``(node, hop counts from node)`` (NetworkX's ``all_pairs_shortest_path_length``)."""
    return _all_pairs(G, None, cutoff)


def all_pairs_dijkstra_path_length(G: BackendGraph, cutoff: Any = None, weight: Any = "weight"):
    """Generator of ``(node, weighted lengths from node)`` (``all_pairs_dijkstra_path_length``).

    Negative weights raise ``NotImplementedError`` at the call, before the generator starts.
    """
    if weight is not None:
        _weights(G, weight, negative=False)
    return _all_pairs(G, weight, cutoff)


# Dense all pairs ---------------------------------------------------------------


def _dense(G: BackendGraph, weight: Any, dtype=np.float64) -> np.ndarray:
    """NetworkX's ``to_numpy_array(G, multigraph_weight=min, nonedge=inf)`` with a zero diagonal, in ``dtype``."""
    n = len(G)
    W = np.full((n, n), np.inf, dtype=dtype)
    w = G.weights(weight)
    if w is None:
        W[G.src, G.dst] = 1.0
    else:
        if w.dtype.kind == "f" and (np.isnan(w).any() or (w == -np.inf).any()):
            raise NotImplementedError("edge weights of NaN or -inf: NetworkX's result is its own")
        W[G.src, G.dst] = w
    np.fill_diagonal(W, 0.0)
    return W


def _closure_dtype(G: BackendGraph, weight: Any) -> np.dtype:
    """float32 when every path sum is an integer float32 holds exactly, else float64 (read off the arcs).

    With integer-valued weights and ``max|w| * (n - 1) < 2**24`` the float32
    closure, cast back, is the float64 one to the bit (and about twice as fast).
    """
    span = max(len(G) - 1, 1)
    w = G.weights(weight)
    if w is None:
        return np.dtype(np.float32) if span < 2**24 else np.dtype(np.float64)
    if w.dtype.kind == "f":
        finite = w[np.isfinite(w)]
        if finite.size and not (finite == np.round(finite)).all():
            return np.dtype(np.float64)
    else:
        finite = w
    if finite.size and max(abs(float(finite.min())), abs(float(finite.max()))) * span >= 2**24:
        return np.dtype(np.float64)  # (no np.abs: it wraps at int64's minimum)
    return np.dtype(np.float32)


def floyd_warshall_numpy(G: BackendGraph, nodelist: Any = None, weight: Any = "weight") -> np.ndarray:
    """All-pairs shortest-path lengths as a dense float64 array (NetworkX's ``floyd_warshall_numpy``).

    ``apsp.shortest_paths`` (R-Kleene) computes the closure; when the graph has
    a negative cycle (NetworkX does not check), the NetworkX recurrence itself
    runs (``apsp.fw``, the same rank-1 updates), so the array is NetworkX's.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.floyd_warshall_numpy(nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1})]), backend="semiring_paths")
    array([[ 0.,  2.,  1.],
           [inf,  0., -1.],
           [inf, inf,  0.]])
    """
    if nodelist is not None:
        if not (len(nodelist) == len(G) == len(set(nodelist))):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)"
            )
        missing = set(nodelist) - set(G.nodes)
        if missing:
            raise nx.NetworkXError(f"Nodes {missing} in nodelist is not in G")
    perm = None if nodelist is None else np.array([G.index[v] for v in nodelist], dtype=np.intp)
    if len(G) == 0:
        return _dense(G, weight)
    try:
        return _closure(G, weight, perm)
    except NegativeCycleError:
        W = _dense(G, weight)
        if perm is not None:
            W = W[np.ix_(perm, perm)]
        floyd_warshall_inplace(sr.min_plus, W)
        return W


def _closure(G: BackendGraph, weight: Any, perm: np.ndarray | None = None) -> np.ndarray:
    """The float64 distance matrix of ``G`` (rows and columns in the order ``perm``), closed by
    ``apsp.shortest_paths`` in float32 when that is exact (:func:`_closure_dtype`), in place.

    Raises ``NegativeCycleError`` on a negative cycle.
    """
    W = _dense(G, weight, _closure_dtype(G, weight))
    if perm is not None:
        W = W[np.ix_(perm, perm)]
    D = dense_shortest_paths(W, out=W)  # the matrix is ours: closed in place
    return D if D.dtype == np.float64 else D.astype(np.float64)


def _inf() -> float:
    return float("inf")


def floyd_warshall(G: BackendGraph, weight: Any = "weight") -> dict:
    """All-pairs lengths as a dict of dicts (NetworkX's ``floyd_warshall``).

    Every inner dict holds every node (``inf`` where unreachable) and is a
    ``defaultdict`` giving ``inf`` for anything else, as NetworkX's.  A
    negative cycle (including a negative self loop) raises
    ``NotImplementedError``: NetworkX's in-place loops then give an
    order-dependent answer, which it computes itself when falling back.
    """
    w = G.weights(weight)
    if w is not None and w.size and ((G.src == G.dst) & (w < 0)).any():
        raise NotImplementedError("negative self loop: NetworkX's floyd_warshall result is order-dependent")
    if len(G) == 0:
        W = _dense(G, weight)
    else:
        try:
            W = _closure(G, weight)
        except NegativeCycleError as exc:
            raise NotImplementedError("negative cycle: NetworkX's floyd_warshall result is order-dependent") from exc
    rows = W.tolist()
    if w is not None and w.dtype.kind == "i":  # integer weights give int lengths, as NetworkX's sums
        rows = [[int(x) if x != np.inf else x for x in row] for row in rows]
    nodes = G.nodes
    return {u: defaultdict(_inf, zip(nodes, rows[i])) for i, u in enumerate(nodes)}


# Generic front ends ------------------------------------------------------------


def _single(G: BackendGraph, source: Any, weight: Any, method: str, *, reverse: bool = False) -> dict:
    """The single-source dict of ``method`` ("unweighted", "dijkstra", "bellman-ford"), errors as NetworkX's."""
    if method == "unweighted":
        if source not in G:
            raise nx.NodeNotFound(f"Source {source} is not in G")
        return _lengths(G, _unweighted_dist(_hops(G, G.index[source], reverse=reverse)))
    if method == "dijkstra":
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
    elif source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return _lengths(G, _dist_for(G, G.index[source], weight, method, reverse=reverse))


def shortest_path_length(
    G: BackendGraph, source: Any = None, target: Any = None, weight: Any = None, method: str = "dijkstra"
) -> Any:
    """NetworkX's ``shortest_path_length`` for every combination of its arguments.

    Both ends given: a number; one end: a dict; neither: a generator of
    ``(node, dict)``.  ``weight=None`` counts hops whatever ``method`` says.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.shortest_path_length(nx.path_graph(5), 0, 4, backend="semiring_paths")
    4
    """
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    method = "unweighted" if weight is None else method
    if source is None:
        if target is None:
            if method == "bellman-ford":
                return _all_pairs_bellman_ford(G, weight)
            if method == "dijkstra":
                return all_pairs_dijkstra_path_length(G, weight=weight)
            return all_pairs_shortest_path_length(G)
        return _single(G, target, weight, method, reverse=G.is_directed())
    if target is None:
        return _single(G, source, weight, method)
    if method == "unweighted":
        if source not in G:
            raise nx.NodeNotFound(f"Source {source} is not in G")
        if target not in G:
            raise nx.NodeNotFound(f"Target {target} is not in G")
        d = int(_hops(G, G.index[source])[G.index[target]])
        if d < 0:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return d
    if method == "dijkstra":
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        if source == target:
            return 0
        d = _dist_for(G, G.index[source], weight, "dijkstra")
        if target not in G or not _reached(d[G.index[target] : G.index[target] + 1])[0]:
            raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
        return d[G.index[target]].item()
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    d = _dist_for(G, G.index[source], weight, "bellman-ford")
    if target not in G or not _reached(d[G.index[target] : G.index[target] + 1])[0]:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return d[G.index[target]].item()


def _all_pairs_bellman_ford(G: BackendGraph, weight: Any):
    """Generator of ``(node, Bellman-Ford lengths)``; a negative cycle raises when its source comes up."""
    for u in G.nodes:
        yield u, _single(G, u, weight, "bellman-ford")


def has_path(G: BackendGraph, source: Any, target: Any) -> bool:
    """Whether ``target`` is reachable from ``source`` (NetworkX's ``has_path``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.has_path(nx.DiGraph([(0, 1)]), 1, 0, backend="semiring_paths")
    False
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return bool(_hops(G, G.index[source])[G.index[target]] >= 0)
