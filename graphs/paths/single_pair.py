"""One route from ``source`` to ``target``: :func:`shortest_path` and its result :class:`ShortestPath`.

A single-pair query stops as soon as the route is known, so on a large sparse
graph it settles a small part of what a full single-source run
(:func:`graphs.sssp`) would.  The method follows the graph:

* unweighted: bidirectional BFS (:func:`graphs.st_connectivity`), hop counts;
* non-negative weights: bidirectional Dijkstra (Pohl 1971), or A* (Hart,
  Nilsson & Raphael 1968) when the graph has coordinates (road networks,
  grids) and a Euclidean lower bound on the distance helps;
* some weight negative: Bellman-Ford from ``source`` (:func:`graphs.sssp`),
  which also detects negative cycles.

The search runs on the CPU for a graph on either device: one route is a
latency-bound walk over a few thousand vertices, where a GPU launch per step
costs more than it brings (a GPU graph's host copy is built once and kept).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from semiring.dtypes import neginf, posinf

from .._arguments import check_vertex
from ..door import Prepared, check_weights, prepare
from ..errors import GraphError
from ..graph import Graph
from ..traversal.engine import st_search
from . import _pair_kernels as K
from .engine import search

if TYPE_CHECKING:
    pass

__all__ = ["ShortestPath", "shortest_path", "HEURISTICS", "euclidean_scale"]

HEURISTICS = (None, "auto", "euclidean")
ASTAR_MIN_TIGHTNESS = 0.5  # "auto" uses A* when the bound is at least this fraction of the typical arc weight


@dataclass(frozen=True)
class ShortestPath:
    """A shortest route and its length.

    Attributes
    ----------
    distance : NumPy scalar or float
        Length of the route, in the weights' dtype (float64 hop count for an
        unweighted graph); ``inf`` (a float, whatever the weights' dtype) when
        ``target`` cannot be reached.
    path : list or None
        The vertices ``[source, ..., target]`` as 0-based ids, or as the
        graph's labels when it has :attr:`~graphs.Graph.node_labels`;
        ``None`` when ``target`` cannot be reached.
    method : str
        ``"bfs"``, ``"bidirectional-dijkstra"``, ``"astar"`` or ``"bellman-ford"``.
    settled : int
        Vertices the search settled (a measure of its work; the vertex count
        for Bellman-Ford).
    """

    distance: Any
    path: list[Any] | None
    method: str
    settled: int

    @property
    def reachable(self) -> bool:
        """Whether a route exists."""
        return self.path is not None

    @property
    def hops(self) -> int | None:
        """Arcs on the route (``None`` when unreachable)."""
        return None if self.path is None else len(self.path) - 1


def euclidean_scale(G: Graph) -> float:
    """The largest ``c`` with ``weight >= c * length`` on every arc of ``G`` (its coordinates' lengths).

    ``c * ||coords[v] - coords[t]||`` is then a lower bound on the distance
    from ``v`` to ``t`` (sum the inequality along any route and use the
    triangle inequality), so A* with it is exact.  The value is lowered by a
    relative ``1e-9`` against rounding and kept on the graph.

    Parameters
    ----------
    G : Graph
        Weighted, non-negative, with ``coords``.

    Returns
    -------
    float
        0.0 when some arc of positive length weighs 0 (no useful bound).

    Raises
    ------
    GraphError
        ``G`` has no coordinates or no weights.

    Examples
    --------
    >>> G = Graph.from_edges([0, 1], [1, 2], [10.0, 8.0], coords=[[0, 0], [3, 4], [3, 8]])
    >>> round(euclidean_scale(G), 6)
    2.0
    """
    if G.coords is None or G.weights is None:
        raise GraphError("the Euclidean bound needs a weighted graph with coords")
    if "euclidean_scale" not in G._cache:
        Gc = _host(G)
        src, dst, w = Gc.edges()
        xy = np.asarray(Gc.coords, dtype=np.float64)
        length = np.sqrt(((xy[src] - xy[dst]) ** 2).sum(axis=1))
        pos = length > 0
        ratio = w[pos].astype(np.float64) / length[pos]  # type: ignore[index]  # weighted here: w is not None
        c = float(ratio.min()) * (1.0 - 1e-9) if ratio.size else 0.0
        typical = float(np.median(ratio)) if ratio.size else 0.0
        G._cache["euclidean_scale"] = (max(c, 0.0), typical)
    return G._cache["euclidean_scale"][0]


def _host(G: Graph) -> Graph:
    """``G`` itself on the CPU, else its host copy (built once and kept on ``G``)."""
    if G.device == "cpu":
        return G
    if "host_copy" not in G._cache:
        G._cache["host_copy"] = G.to("cpu")
    return G._cache["host_copy"]


def _use_astar(G: Graph, heuristic: str | None) -> bool:
    if heuristic is None:
        return False
    if heuristic == "euclidean":
        if G.coords is None:
            raise GraphError("heuristic='euclidean' needs a graph with coords (none on this graph)")
        return True
    if G.coords is None:
        return False
    c = euclidean_scale(G)
    typical = G._cache["euclidean_scale"][1]
    return c > 0 and c >= ASTAR_MIN_TIGHTNESS * typical


def _route(pred: np.ndarray, s: int, t: int) -> list[int]:
    """``[s, ..., t]`` following ``pred`` back from ``t``."""
    out = [t]
    v = t
    while v != s:
        v = int(pred[v])
        out.append(v)
    return out[::-1]


def shortest_path(
    G: Any, source: Any, target: Any, *, heuristic: Literal["auto", "euclidean"] | None = "auto"
) -> ShortestPath:
    """Length and vertices of one shortest route from ``source`` to ``target``.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Weights follow the rules of :func:`graphs.sssp`: an unweighted graph
        counts hops (float64), integer weights give an integer distance.
        A graph on the GPU is searched on its host copy.
    source, target : int
        0-based vertex ids.
    heuristic : {"auto", "euclidean", None}
        ``"auto"``: A* with the Euclidean bound of :func:`euclidean_scale` when
        the graph has ``coords`` and the bound is tight (the least
        weight/length ratio is at least half the median one, as on road
        networks), else bidirectional Dijkstra.  ``"euclidean"``: A* whenever
        the graph has coordinates.  ``None``: bidirectional Dijkstra.
        Ignored for unweighted graphs and negative weights.

    Returns
    -------
    ShortestPath
        ``.distance`` and ``.path``; for an unreachable ``target``, distance
        ``inf`` and path ``None``.  ``source == target`` gives distance 0 and
        path ``[source]``.

    Raises
    ------
    VertexError
        ``source`` or ``target`` is not a vertex.
    NegativeCycleError
        Negative weights and a negative cycle reachable from ``source``.
    InvalidEntryError
        A ``-inf`` weight.
    GraphError
        Unknown ``heuristic``, or ``"euclidean"`` on a graph without coordinates.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], [1.0, 4.0, 5.0, 1.0])
    >>> r = shortest_path(G, 0, 3)
    >>> r.distance, r.path
    (np.float64(5.0), [0, 2, 3])
    >>> shortest_path(G, 3, 0)
    ShortestPath(distance=inf, path=None, method='bidirectional-dijkstra', settled=1)
    """
    if heuristic not in HEURISTICS:
        raise GraphError(f"heuristic must be one of {HEURISTICS}, got {heuristic!r}")
    P = prepare(G, facts=True)
    G = P.graph
    s = check_vertex(G, source, "source")
    t = check_vertex(G, target, "target")
    H = _host(G)
    labels = G.node_labels

    def result(distance: Any, route: list[Any] | None, method: str, settled: int) -> ShortestPath:
        if route is not None and labels is not None:
            route = [labels[v] for v in route]
        return ShortestPath(distance, route, method, int(settled))

    if H.weights is None:
        hops, route = st_search(H, s, t)
        if hops < 0:
            return result(math.inf, None, "bfs", 0)
        return result(np.float64(hops), [int(v) for v in route], "bfs", hops + 1)
    check_weights(H, "bellman-ford")
    dtype = H.weights.dtype
    lo, hi = neginf(dtype), posinf(dtype)
    if H.has_negative_weights:
        dist, pred = search(Prepared(H, "cpu", np, P.facts), s, "bellman-ford")
        if dist[t] == hi:
            return result(math.inf, None, "bellman-ford", H.n)
        return result(dist[t], _route(pred, s, t), "bellman-ford", H.n)
    if _use_astar(G, heuristic):
        c = euclidean_scale(G)
        dist = np.full(H.n, hi, dtype=dtype)
        pred = np.full(H.n, -1, dtype=np.int32)
        d, settled = K.astar(H.indptr, H.indices, H.weights, np.ascontiguousarray(H.coords, dtype=np.float64),
                             c, s, t, dist, pred, lo, hi)
        if d == hi:
            return result(math.inf, None, "astar", settled)
        return result(dist.dtype.type(d), _route(pred, s, t), "astar", settled)
    T = H.transpose()
    df = np.full(H.n, hi, dtype=dtype)
    db = np.full(H.n, hi, dtype=dtype)
    pf = np.full(H.n, -1, dtype=np.int32)
    pb = np.full(H.n, -1, dtype=np.int32)
    mu, meet, settled = K.bidirectional_dijkstra(H.indptr, H.indices, H.weights, T.indptr, T.indices, T.weights,
                                                 s, t, df, db, pf, pb, lo, hi)
    if meet < 0:
        return result(math.inf, None, "bidirectional-dijkstra", settled)
    route = _route(pf, s, int(meet))
    v = int(meet)
    while v != t:
        v = int(pb[v])
        route.append(v)
    return result(dtype.type(mu), route, "bidirectional-dijkstra", settled)
