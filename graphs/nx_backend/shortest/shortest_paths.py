"""Shortest-path lengths with NetworkX's signatures, answers and errors, on the library's engines.

* all pairs, dense: :func:`floyd_warshall_numpy`, :func:`floyd_warshall`
  (``apsp.shortest_paths``, R-Kleene, where every path sum is exact; else
  NetworkX's own recurrence in NetworkX's order, compiled and blocked for the
  cache (:mod:`._fw_kernels`), so the array is NetworkX's to the bit);
* one source: :func:`single_source_shortest_path_length` (``graphs.bfs``),
  :func:`single_source_dijkstra_path_length` (``graphs.sssp``, Dijkstra),
  :func:`single_source_bellman_ford_path_length` (``graphs.sssp``, Bellman-Ford);
* all sources, sparse: :func:`all_pairs_shortest_path_length`,
  :func:`all_pairs_dijkstra_path_length` (``graphs.multi_source_sssp`` in
  blocks of sources);
* :func:`shortest_path_length` (every combination of ``source``, ``target``,
  ``weight``, ``method``) and :func:`has_path`.

Exactness.  NetworkX adds the Python objects of the edge data: ``int`` sums
are exact at any size, and a ``float`` sum is rounded after each addition,
along the path in the order NetworkX walks it.  These functions compute the
same numbers:

* integer weights (Python ``int``/``bool``) in int64, where no path sum can
  leave int64; the lengths come back as Python ``int``;
* float weights in float64: a single-source search gives the minimum over
  paths of the sum rounded edge by edge from the source -- the same for every
  correct search when weights are non-negative (rounding is monotone) -- and
  negative float weights are taken only when every sum is exact
  (:func:`.attributes.exact_float_sums`); the source's length is NetworkX's
  ``int`` 0.  Dense all pairs: R-Kleene where every sum is exact, else
  NetworkX's rank-1 recurrence itself;
* ``+inf`` weights are NetworkX's: a Dijkstra search reaches nodes through
  them at length ``inf``, Bellman-Ford never relaxes them; a NaN weight never
  relaxes in Bellman-Ford.

Everything else raises ``NotImplementedError`` before anything is returned
(generators included: they check before their first item), so that NetworkX
runs its own code where it falls back (``nx.config.fallback_to_nx``, or
automatic dispatch through ``backend_priority``): integers beyond int64 or
sums that may leave it, ints mixed with finite floats (NetworkX's lengths are
then ints or floats by path), other types (NumPy scalars, ``Fraction``,
``Decimal``, ``None``), negative or NaN weights with Dijkstra (NetworkX's
answer depends on its visiting order), ``-inf`` with Bellman-Ford, and for the
dict :func:`floyd_warshall` negative cycles, NaN, ``-inf`` and ``bool``
weights.  Results never hold NumPy scalars.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import networkx as nx
import numpy as np

from apsp import shortest_paths as dense_shortest_paths
from apsp.errors import NegativeCycleError

from ...paths.sssp import multi_source_sssp
from ...traversal.search import bfs
from ..attributes import MISSING, NUMERIC_TYPES, exact_float_sums
from ..graph import BackendGraph
from ._engine import (
    HOPS,
    Plan,
    length_to,
    lengths_dict,
    lengths_from,
    reached_at_inf,
    reached_mask,
    search_method,
    search_plan,
)
from ._fw_kernels import ordered_floyd_warshall

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
_INF = float("inf")


# One source ------------------------------------------------------------------


def single_source_shortest_path_length(G: BackendGraph, source: Any, cutoff: Any = None) -> dict:
    """Hop counts from ``source`` (NetworkX's ``single_source_shortest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path_length(nx.path_graph(4), 0, backend="semiring_paths")
    {0: 0, 1: 1, 2: 2, 3: 3}
    """
    s = G.vertex(source)
    if s < 0:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return lengths_from(G, s, HOPS, "bfs", cutoff, "levels")


def single_source_dijkstra_path_length(
    G: BackendGraph, source: Any, cutoff: Any = None, weight: Any = "weight"
) -> dict:
    """Weighted lengths from ``source`` (NetworkX's ``single_source_dijkstra_path_length``).

    Raises ``NotImplementedError`` for negative or NaN weights (NetworkX's
    Dijkstra is then order-dependent; NetworkX falls back to itself where configured).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 2**60}), (1, 2, {"weight": float("inf")})])
    >>> nx.single_source_dijkstra_path_length(G, 0, backend="semiring_paths")
    {0: 0, 1: 1152921504606846976, 2: inf}
    """
    s = G.vertex(source)
    if s < 0:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    return lengths_from(G, s, search_plan(G, weight, "dijkstra"), "dijkstra", cutoff)


def single_source_bellman_ford_path_length(G: BackendGraph, source: Any, weight: Any = "weight") -> dict:
    """Weighted lengths from ``source``, negative weights allowed (``single_source_bellman_ford_path_length``).

    Raises :class:`networkx.NetworkXUnbounded` for a negative cycle reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": -0.25}), (1, 2, {"weight": 0.5})])
    >>> nx.single_source_bellman_ford_path_length(G, 0, backend="semiring_paths")
    {0: 0, 1: -0.25, 2: 0.25}
    """
    s = G.vertex(source)
    if s < 0:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return lengths_from(G, s, search_plan(G, weight, "bellman-ford"), "bellman-ford")


# All sources -------------------------------------------------------------------


def _all_pairs(G: BackendGraph, plan: Plan, cutoff: Any, rule: str):
    """Generator of ``(node, lengths)`` for every node, sources in blocks (the caller made ``plan`` first)."""
    n = len(G)
    nodes = G.nodes
    if plan.kind == "hops":
        for i in range(n):
            yield nodes[i], lengths_from(G, i, plan, "bfs", cutoff, rule)
        return
    H = G.arc_graph(plan.key, plan.weights, plan.keep)
    step = max(1, BLOCK_ENTRIES // max(n, 1))
    for start in range(0, n, step):
        D = multi_source_sssp(H, list(range(start, min(n, start + step))), method="dijkstra", predecessors=False)[0]
        for r in range(D.shape[0]):
            s = start + r
            reached = reached_mask(D[r])
            yield nodes[s], lengths_dict(G, s, D[r], reached, reached_at_inf(G, s, reached, plan), cutoff, rule)


def all_pairs_shortest_path_length(G: BackendGraph, cutoff: Any = None):
    """Generator of ``(node, hop counts from node)`` (NetworkX's ``all_pairs_shortest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path_length(nx.path_graph(2), backend="semiring_paths"))
    {0: {0: 0, 1: 1}, 1: {1: 0, 0: 1}}
    """
    return _all_pairs(G, HOPS, cutoff, "levels")


def all_pairs_dijkstra_path_length(G: BackendGraph, cutoff: Any = None, weight: Any = "weight"):
    """Generator of ``(node, weighted lengths from node)`` (``all_pairs_dijkstra_path_length``).

    The weights are checked at the call, before the generator starts
    (``NotImplementedError`` as :func:`single_source_dijkstra_path_length`).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 1.5})])
    >>> dict(nx.all_pairs_dijkstra_path_length(G, backend="semiring_paths"))
    {0: {0: 0, 1: 1.5}, 1: {1: 0}}
    """
    return _all_pairs(G, search_plan(G, weight, "dijkstra"), cutoff, "lengths")


# Dense all pairs ---------------------------------------------------------------


def _float_arcs(G: BackendGraph, weight: Any) -> np.ndarray:
    """Each arc's value as float64, as ``to_numpy_array`` stores it (``float`` of NetworkX's value)."""
    if weight is None:
        return np.ones(G.src.size, dtype=np.float64)
    arr = G.weights(weight)
    if arr.dtype.kind in "iubf":
        return arr.astype(np.float64)
    vals = arr.tolist()
    other = set(map(type, vals)) - NUMERIC_TYPES
    if other:
        raise NotImplementedError(f"edge weights of type {', '.join(sorted(t.__qualname__ for t in other))}")
    try:
        return np.array([float(v) for v in vals], dtype=np.float64)
    except OverflowError as exc:
        raise NotImplementedError(f"an integer weight beyond float64's range: {exc}") from exc


def _matrix(G: BackendGraph, arc_vals: np.ndarray, perm: np.ndarray | None = None) -> np.ndarray:
    """The float64 matrix of the arcs (``inf`` off the arcs, 0 on the diagonal), rows in the order ``perm``."""
    n = len(G)
    W = np.full((n, n), np.inf)
    W[G.src, G.dst] = arc_vals
    np.fill_diagonal(W, 0.0)
    if perm is not None:
        W = W[np.ix_(perm, perm)]
    return W


def _networkx_recurrence(A: np.ndarray) -> np.ndarray:
    """NetworkX's ``floyd_warshall_numpy`` loop on ``A`` (in place): the same rank-1 updates in the same order.

    Compiled (:func:`._fw_kernels.ordered_floyd_warshall`, NetworkX's bits at
    kernel speed) where the values allow it: no NaN, ``-inf`` or ``-0.0``, and
    no sum overflowing to ``-inf`` (checked after: only negative values can);
    NumPy's own loop otherwise.
    """
    if not (np.isnan(A).any() or (A == -np.inf).any() or np.signbit(A[A == 0]).any()):
        saved = A.copy() if (A < 0).any() else None
        ordered_floyd_warshall(A)
        if saved is None or not (A == -np.inf).any():
            return A
        A[...] = saved
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(A.shape[0]):
            np.minimum(A, A[i, :][np.newaxis, :] + A[:, i][:, np.newaxis], out=A)
    return A


def _exact_closure(W: np.ndarray) -> np.ndarray | None:
    """The closure of ``W`` by ``apsp.shortest_paths`` when every path sum is exact (``None`` otherwise).

    Exact: no NaN or ``-inf``, and every sum of up to ``2 n`` finite entries
    representable (:func:`.attributes.exact_float_sums`), in float32 (about
    twice as fast) when that holds it too.  Then every order of additions gives
    the true shortest lengths, which are NetworkX's.  Raises
    ``NegativeCycleError`` on a negative cycle.
    """
    n = W.shape[0]
    finite = W[np.isfinite(W)]
    if finite.size != W.size and (np.isnan(W).any() or (W == -np.inf).any()):
        return None
    if not exact_float_sums(finite, 2 * n):
        return None
    dtype = np.float32 if exact_float_sums(finite, 2 * n, np.float32) else np.float64
    A = W.astype(dtype)
    D = dense_shortest_paths(A, out=A)  # the matrix is ours: closed in place
    return D if D.dtype == np.float64 else D.astype(np.float64)


def floyd_warshall_numpy(G: BackendGraph, nodelist: Any = None, weight: Any = "weight") -> np.ndarray:
    """All-pairs shortest-path lengths as a dense float64 array (NetworkX's ``floyd_warshall_numpy``).

    The matrix is NetworkX's (``float`` of each value, the minimum over
    parallel edges, 0 on the diagonal).  ``apsp.shortest_paths`` (R-Kleene)
    closes it when every path sum is exact; otherwise (rounding sums, NaN,
    ``-inf``, a negative cycle, which NetworkX does not check) NetworkX's own
    recurrence runs in NetworkX's order (compiled where the values allow:
    :mod:`._fw_kernels`), so the array is NetworkX's to the bit.

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
    W = _matrix(G, _float_arcs(G, weight), perm)
    if len(G) == 0:
        return W
    try:
        D = _exact_closure(W)
    except NegativeCycleError:
        D = None
    return _networkx_recurrence(W) if D is None else D


def _inf() -> float:
    return _INF


def _fw_initial(G: BackendGraph, weight: Any) -> tuple[np.ndarray, np.ndarray]:
    """NetworkX's ``floyd_warshall`` start, per arc: the value of ``dist[u][v]`` (float64) and whether it is a float.

    NetworkX reads a missing weight as ``1.0`` and sets ``dist[u][v] =
    min(weight, dist[u][v])`` edge after edge, from ``inf`` (from the ``int`` 0
    on the diagonal), so among equal values the last parallel edge's object
    stays.  Raises ``NotImplementedError`` for values whose results NetworkX
    alone gives (NaN, ``-inf``, ``bool``, other types, integers float64 does
    not hold exactly).
    """
    m = G.src.size
    loops = G.src == G.dst
    if weight is None:  # NetworkX reads d.get(None, 1.0): 1.0 everywhere
        vals = np.where(loops, 0.0, 1.0)
        return vals, ~loops
    arr, info = G.column(weight)
    if bool in info.types:
        raise NotImplementedError("bool weights: NetworkX's floyd_warshall returns some of them as they are")
    other = info.types - NUMERIC_TYPES
    if other:
        raise NotImplementedError(f"edge weights of type {', '.join(sorted(t.__qualname__ for t in other))}")
    if info.parallel is None and not info.missing and arr.dtype.kind in "if":
        vals = arr.astype(np.float64)
        if np.isnan(vals).any() or (vals == -np.inf).any():
            raise NotImplementedError("NaN or -inf weights: NetworkX's floyd_warshall result is its own")
        is_float = np.full(m, arr.dtype.kind == "f")
        zero_loop = loops & (vals == 0)  # min(0, 0) keeps the edge's own zero; a positive loop leaves the int 0
        vals = np.where(loops & ~zero_loop & ~(vals < 0), 0.0, vals)
        is_float &= ~loops | zero_loop
    else:
        if info.parallel is None:
            raws = [[1.0] if miss else [v] for v, miss in zip(
                arr.tolist(), info.missing_at.tolist() if info.missing_at is not None else [False] * m)]
        else:
            raws = [[1.0 if v is MISSING else v for v in raw] for raw in info.parallel]
        firsts = []
        for raw, loop in zip(raws, loops.tolist()):
            cur = 0 if loop else _INF
            for v in raw:
                cur = min(v, cur)
            firsts.append(cur)
        if any(v != v for raw in raws for v in raw):
            raise NotImplementedError("NaN weights: NetworkX's floyd_warshall result is its own")
        is_float = np.fromiter((type(v) is float for v in firsts), dtype=bool, count=m)
        if any(type(v) is int and abs(v) > 2**53 for v in firsts):
            raise NotImplementedError("integer weights beyond 2**53 (float64 would round them)")
        vals = np.array(firsts, dtype=np.float64)
    if np.isnan(vals).any() or (vals == -np.inf).any():
        raise NotImplementedError("NaN or -inf weights: NetworkX's floyd_warshall result is its own")
    return vals, is_float


def _typed_recurrence(D: np.ndarray, T: np.ndarray) -> None:
    """NetworkX's ``floyd_warshall`` loops on values ``D`` and float flags ``T`` (in place, exact sums assumed).

    ``dist[u][v] = dist[u][w] + dist[w][v]`` on strict improvement, pivots in
    node order; the sum is a float when either term is.  Without a negative
    cycle row and column ``w`` do not change in step ``w``, so each step is one
    vectorised update.
    """
    for w in range(D.shape[0]):
        cand = D[:, w : w + 1] + D[w : w + 1, :]
        better = cand < D
        if better.any():
            D[better] = cand[better]
            T[better] = (T[:, w : w + 1] | T[w : w + 1, :])[better]


def floyd_warshall(G: BackendGraph, weight: Any = "weight") -> dict:
    """All-pairs lengths as a dict of dicts (NetworkX's ``floyd_warshall``).

    Every inner dict holds every node (``inf`` where unreachable) and is a
    ``defaultdict`` giving ``inf`` for anything else, as NetworkX's.  As in
    NetworkX, a missing weight is the float ``1.0`` (and ``weight=None``
    weighs every edge ``1.0``), and each length is an ``int`` or a ``float``
    as NetworkX's sum along its path is (a node's length to itself is the
    ``int`` 0 unless a zero-weight float self loop set it).  A negative cycle
    (a negative self loop included), NaN, ``-inf``, ``bool`` weights, and
    float sums that round along with int weights raise
    ``NotImplementedError``: NetworkX computes those itself when falling back.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 3}), (1, 2, {})])
    >>> r = nx.floyd_warshall(G, backend="semiring_paths")
    >>> {u: dict(d) for u, d in r.items()}
    {0: {0: 0, 1: 3, 2: 4.0}, 1: {0: inf, 1: 0, 2: 1.0}, 2: {0: inf, 1: inf, 2: 0}}
    """
    n = len(G)
    vals, is_float = _fw_initial(G, weight)
    loops = G.src == G.dst
    if (loops & (vals < 0)).any():
        raise NotImplementedError("negative self loop: NetworkX's floyd_warshall result is order-dependent")
    W = _matrix(G, vals)
    T = np.zeros((n, n), dtype=bool)
    T[G.src, G.dst] = is_float
    finite = np.isfinite(vals) & ~loops
    kinds = set(is_float[finite].tolist())
    exact = exact_float_sums(vals[np.isfinite(vals)], 2 * max(n, 1))
    if n and len(kinds) == 2:  # ints and floats: follow NetworkX's sums and their types
        if not exact:
            raise NotImplementedError("float weights whose sums round, with int weights: NetworkX's types follow its order")
        _typed_recurrence(W, T)
        if (np.diagonal(W) < 0).any():
            raise NotImplementedError("negative cycle: NetworkX's floyd_warshall result is order-dependent")
    elif n:
        if not exact and kinds == {False}:
            raise NotImplementedError("integer weights whose path sums may round in float64")
        try:
            D = _exact_closure(W) if exact else None
        except NegativeCycleError as exc:
            raise NotImplementedError("negative cycle: NetworkX's floyd_warshall result is order-dependent") from exc
        if D is None:  # float sums that round: NetworkX's order of additions (its loops are this recurrence)
            D = _networkx_recurrence(W)
            if (np.diagonal(D) < 0).any():
                raise NotImplementedError("negative cycle: NetworkX's floyd_warshall result is order-dependent")
        W = D
        if kinds == {True}:  # every length along float weights is a float; the diagonal keeps its start
            diag = np.diagonal(T).copy()
            T[:] = True
            np.fill_diagonal(T, diag)
    rows = W.tolist()
    flags = T.tolist()
    out_rows = [
        [x if (f or x == _INF) else int(x) for x, f in zip(row, frow)] for row, frow in zip(rows, flags)
    ]
    nodes = G.nodes
    return {u: defaultdict(_inf, zip(nodes, out_rows[i])) for i, u in enumerate(nodes)}


# Generic front ends ------------------------------------------------------------


def _single(G: BackendGraph, source: Any, weight: Any, method: str, *, reverse: bool = False) -> dict:
    """The single-source dict of ``method`` ("unweighted", "dijkstra", "bellman-ford"), errors as NetworkX's."""
    if method == "unweighted":
        if source not in G:
            raise nx.NodeNotFound(f"Source {source} is not in G")
        return lengths_from(G, G.index[source], HOPS, "bfs", reverse=reverse)
    if method == "dijkstra":
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
    elif source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return lengths_from(G, G.index[source], search_plan(G, weight, method), method, reverse=reverse)


def shortest_path_length(
    G: BackendGraph, source: Any = None, target: Any = None, weight: Any = None, method: str = "dijkstra"
) -> Any:
    """NetworkX's ``shortest_path_length`` for every combination of its arguments.

    Both ends given: a number; one end: a dict; neither: a generator of
    ``(node, dict)``, whose weights are checked before it is returned.
    ``weight=None`` counts hops whatever ``method`` says.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.shortest_path_length(nx.path_graph(5), 0, 4, backend="semiring_paths")
    4
    """
    method = search_method(method, weight)
    if source is None:
        if target is None:
            if method == "bellman-ford":
                plan = search_plan(G, weight, method)  # before the generator: a refusal must come now
                return _all_pairs_bellman_ford(G, plan)
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
        d = int(bfs(G.graph_for(None), G.index[source])[0][G.index[target]])
        if d < 0:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return d
    return length_to(G, source, target, weight, method)


def _all_pairs_bellman_ford(G: BackendGraph, plan: Plan):
    """Generator of ``(node, Bellman-Ford lengths)``; a negative cycle raises when its source comes up, as in NetworkX."""
    for i, u in enumerate(G.nodes):
        yield u, lengths_from(G, i, plan, "bellman-ford")


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
    return bool(bfs(G.graph_for(None), G.index[source])[0][G.index[target]] >= 0)
