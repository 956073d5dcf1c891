"""The engine of the backend's shortest-path families: the numbers a search computes with, the search, the lengths.

Every length, path, centrality and measure function of the backend is a thin
wrapper over these (as NetworkX's ``weighted.py`` is over ``_dijkstra_multisource``):

* :func:`search_plan` reads the weights as NetworkX's Dijkstra or
  Bellman-Ford would (see :mod:`.shortest_paths` for the rules) and refuses,
  with ``NotImplementedError``, what would not reproduce NetworkX's answer
  exactly; what it returns is trusted below (exact int64 or float64, no NaN,
  no ``-inf``, the ``+inf`` arcs set aside);
* :func:`search` runs one search from a vertex: Dijkstra on the arcs' CSR in
  NetworkX's order straight from the conversion
  (:meth:`.graph.BackendGraph.arc_csr`, :func:`graphs.paths.engine.dijkstra_csr`:
  nothing checked or built again), Bellman-Ford through :func:`graphs.sssp`,
  hop counts through :func:`graphs.bfs`;
* :func:`lengths_from` and :func:`lengths_dict` give NetworkX's dict of
  lengths, :func:`arc_weights` the plan's weights on the CSR of NetworkX's
  order (for the path families' tie rules).
"""

from __future__ import annotations

from itertools import compress
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from apsp.errors import NegativeCycleError

from ...paths.engine import dijkstra_csr
from ...paths.sssp import sssp
from ...traversal.search import bfs
from .._order_kernels import bfs_order
from ..attributes import as_value_array, exact_float_sums, numbers
from ..graph import BackendGraph

__all__ = ["Plan", "HOPS", "search_method", "search_plan", "weight_values", "reached_mask", "search", "reached_at_inf",
           "INT_HEADROOM", "FLOAT_MAX", "check_through_inf", "lengths_dict", "lengths_from", "hop_lengths",
           "arc_weights", "length_to"]

INT_HEADROOM = 1 << 62  # integer weights whose path sums could pass this go back to NetworkX (exact big ints)
FLOAT_MAX = float(np.finfo(np.float64).max)
_INF = float("inf")


class Plan(NamedTuple):
    """What a single-source search computes with (see :func:`search_plan`)."""

    kind: str  # "hops", "int" or "float"
    key: Any  # names the weighted graph in the backend graph's cache
    weights: np.ndarray | None  # int64 or float64, one per kept arc
    keep: np.ndarray | None  # the arcs searched (None: all)
    through_inf: bool  # Dijkstra: nodes reached only at length inf belong to the answer


HOPS = Plan("hops", None, None, None, False)


def search_method(method: str, weight: Any) -> str:
    """The search of NetworkX's ``shortest_path(..., method=)``: ``"unweighted"`` when ``weight`` is ``None``.

    Examples
    --------
    >>> search_method("dijkstra", None), search_method("bellman-ford", "weight")
    ('unweighted', 'bellman-ford')
    >>> search_method("bfs", "weight")
    Traceback (most recent call last):
    ...
    ValueError: method not supported: bfs
    """
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    return "unweighted" if weight is None else method


def search_plan(G: BackendGraph, weight: Any, method: str) -> Plan:
    """The numbers a ``method`` search ("dijkstra" or "bellman-ford") computes NetworkX's lengths with.

    Raises ``NotImplementedError`` where NetworkX's answer is not reproduced
    exactly (see the module docstring).
    """
    if weight is None:
        return HOPS
    arr, hidden = weight_values(G, weight) if callable(weight) else (G.column(weight)[0], None)
    if arr.size == 0:
        return HOPS
    a = numbers(arr, select=None if hidden is None else ~hidden)
    if hidden is not None:
        if method != "dijkstra":
            raise NotImplementedError("a weight function returning None outside Dijkstra: NetworkX adds None")
        a = a._replace(posinf=a.posinf & ~hidden, neginf=a.neginf & ~hidden, nan=a.nan & ~hidden)
    if method == "dijkstra":
        if a.nan.any():
            raise NotImplementedError("NaN edge weights: NetworkX's Dijkstra puts them on its heap, where they do not compare")
        if a.neginf.any() or (a.values < 0).any():
            raise NotImplementedError("negative weights with Dijkstra: NetworkX's result depends on its visiting order")
        drop = a.posinf if hidden is None else a.posinf | hidden  # inf: reached through them at length inf
    else:
        if a.neginf.any():
            raise NotImplementedError("-inf edge weights with Bellman-Ford: NetworkX then adds inf and -inf")
        drop = a.posinf | a.nan  # NetworkX's Bellman-Ford never relaxes these (x + inf < inf and NaN < x are False)
    keep = ~drop if drop.any() else None
    w = a.values if keep is None else a.values[keep]
    span = max(len(G.nodes) - 1, 1)
    through_inf = False
    if a.kind == "int":
        if w.size and max(-int(w.min()), int(w.max())) * span >= INT_HEADROOM:  # Python ints: no wrap at int64's min
            raise NotImplementedError("integer weights whose path sums may leave int64 (NetworkX's Python ints are exact)")
        through_inf = method == "dijkstra" and bool(a.posinf.any())
    else:
        if method == "bellman-ford" and w.size and (w < 0).any() and not exact_float_sums(w, len(G.nodes)):
            raise NotImplementedError(
                "negative float weights whose sums round: NetworkX's result depends on its order of relaxations"
            )
        if method == "dijkstra":  # a sum that overflows to inf is a length NetworkX reports
            through_inf = bool(a.posinf.any()) or bool(w.size and float(w.max()) * span >= FLOAT_MAX)
    if through_inf and hidden is not None:
        raise NotImplementedError("inf weights with a weight function that hides arcs")
    return Plan(a.kind, ("lengths", weight, method), w, keep, through_inf)


def weight_values(G: BackendGraph, weight: Any) -> tuple[np.ndarray, np.ndarray | None]:
    """Per arc the value NetworkX's weight reads, and for a function the mask of arcs it hides (returned None).

    A function is called once per arc as NetworkX calls it: ``weight(u, v, d)``
    with ``d`` the edge's data dict (a multigraph's ``key -> data`` dict), ``u``
    the tail.  Raises ``NotImplementedError`` when the edge data was not kept or
    the function raises (NetworkX then calls it itself, on the arcs it visits).
    """
    if not callable(weight):
        return G.weights(weight), None
    if G.edge_data is None:
        raise NotImplementedError("a weight function needs the edge data")
    nodes = G.nodes
    try:
        vals = [weight(nodes[i], nodes[j], d) for i, j, d in zip(G.src.tolist(), G.dst.tolist(), G.edge_data)]
    except Exception as exc:  # noqa: BLE001 - NetworkX calls it on the arcs it visits, and raises there or not
        raise NotImplementedError(f"the weight function raised {type(exc).__name__} on some arc") from exc
    hidden = np.fromiter((v is None for v in vals), dtype=bool, count=len(vals))
    if hidden.any():
        vals = [0 if v is None else v for v in vals]
    else:
        hidden = None
    return as_value_array(vals), hidden


def reached_mask(d: np.ndarray) -> np.ndarray:
    """Mask of finite distances (the int sentinel ``iinfo.max`` is unreachable)."""
    if d.dtype.kind == "f":
        return d < np.inf
    return d < np.iinfo(d.dtype).max


def search(G: BackendGraph, s: int, plan: Plan, method: str, *, reverse: bool = False):
    """``(d, reached, at_inf)`` from vertex ``s``: distances, the finite ones, the ones NetworkX gives as ``inf``.

    ``method``: ``"dijkstra"`` (the plan's weights are non-negative) or
    ``"bellman-ford"``; a plan of kind ``"hops"`` counts hops.
    """
    if plan.kind == "hops":
        levels = bfs(G.graph_for(None, reverse=reverse), s)[0]
        return levels, levels >= 0, None
    if method == "dijkstra":  # trusted arrays, below the library's checks
        d = dijkstra_csr(*G.arc_csr(plan.key, plan.weights, plan.keep, reverse=reverse), s)[0]
    else:
        try:
            d = sssp(G.arc_graph(plan.key, plan.weights, plan.keep, reverse=reverse), s, method=method)[0]
        except NegativeCycleError as exc:
            raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    reached = reached_mask(d)
    return d, reached, reached_at_inf(G, s, reached, plan, reverse) if plan.through_inf else None


def reached_at_inf(G: BackendGraph, s: int, reached: np.ndarray, plan: Plan, reverse: bool = False) -> np.ndarray | None:
    """Nodes NetworkX's Dijkstra reaches only at length ``inf`` (through ``inf`` arcs or sums that overflow)."""
    if not plan.through_inf:
        return None
    return (bfs(G.graph_for(None, reverse=reverse), s)[0] >= 0) & ~reached


def check_through_inf(G: BackendGraph, weight: Any) -> None:
    """The refusal of the all-pairs path generators, at the call: Dijkstra paths through nodes reached at length inf."""
    if search_plan(G, weight, "dijkstra").through_inf:
        raise NotImplementedError("nodes reached only at length inf: NetworkX's paths through them are its own")


def lengths_dict(
    G: BackendGraph, s: int, d: np.ndarray, reached: np.ndarray, at_inf: np.ndarray | None,
    cutoff: Any = None, rule: str = "lengths",
) -> dict:
    """Dict node -> length (Python numbers), the source first, then nearest first.

    ``cutoff``: with ``rule="lengths"`` (Dijkstra) a node stays when ``not
    length > cutoff``; with ``rule="levels"`` (breadth-first) when ``cutoff >
    level - 1``; the source always stays.  Comparisons are Python's, as NetworkX's.

    Examples
    --------
    >>> G = BackendGraph(["a", "b", "c"], np.array([0], np.int32), np.array([1], np.int32))
    >>> lengths_dict(G, 0, np.array([0.0, 2.5, 1.0]), np.array([True, True, True]), None, cutoff=2)
    {'a': 0, 'c': 1.0}
    """
    sel = reached.copy() if at_inf is None else reached | at_inf
    sel[s] = False
    idx = np.flatnonzero(sel)
    idx = idx[np.argsort(d[idx], kind="stable")]
    vals = d[idx].tolist()
    if at_inf is not None:
        for p in np.flatnonzero(at_inf[idx]).tolist():
            vals[p] = _INF
    return _source_first(G, s, G.labels(idx), vals, cutoff, rule)


def _source_first(G: BackendGraph, s: int, keys: list, vals: list, cutoff: Any, rule: str) -> dict:
    """``{source: 0}`` then ``keys -> vals`` where ``cutoff`` keeps them (see :func:`lengths_dict`)."""
    if cutoff is not None:
        keep = [cutoff > v - 1 for v in vals] if rule == "levels" else [not v > cutoff for v in vals]
        keys, vals = compress(keys, keep), compress(vals, keep)
    out = {G.nodes[s]: 0}  # NetworkX's source length is the int 0 (also among float weights)
    out.update(zip(keys, vals))
    return out


def lengths_from(G: BackendGraph, s: int, plan: Plan, method: str, cutoff: Any = None, rule: str = "lengths",
                 *, reverse: bool = False) -> dict:
    """NetworkX's dict of lengths from vertex ``s`` by ``method`` on ``plan`` (``cutoff``, ``rule``: :func:`lengths_dict`).

    Examples
    --------
    >>> G = BackendGraph([0, 1, 2], np.array([0, 1, 1, 2], np.int32), np.array([1, 0, 2, 1], np.int32),
    ...                  {"w": np.array([2, 2, 3, 3])})
    >>> lengths_from(G, 0, search_plan(G, "w", "dijkstra"), "dijkstra")
    {0: 0, 1: 2, 2: 5}
    """
    if plan.kind == "hops":
        return hop_lengths(G, s, cutoff, rule, reverse)
    d, reached, at_inf = search(G, s, plan, method, reverse=reverse)
    return lengths_dict(G, s, d, reached, at_inf, cutoff, rule)


def hop_lengths(G: BackendGraph, s: int, cutoff: Any = None, rule: str = "levels", reverse: bool = False) -> dict:
    """Hop counts from ``s`` in breadth-first discovery order (nondecreasing: no sort); ``cutoff`` as in
    :func:`lengths_dict`.

    Examples
    --------
    >>> G = BackendGraph(["a", "b", "c"], np.array([0, 1, 1, 2], np.int32), np.array([1, 0, 2, 1], np.int32))
    >>> hop_lengths(G, 0), hop_lengths(G, 0, cutoff=1)
    ({'a': 0, 'b': 1, 'c': 2}, {'a': 0, 'b': 1})
    """
    indptr, indices, _ = G.pred_csr(arcs=False) if (reverse and G.directed) else G.csr()
    order, _, level, count = bfs_order(indptr, indices, np.array([s], np.int64), len(G.nodes) + 1)
    order = order[1:count]
    return _source_first(G, s, G.labels(order), level[order].tolist(), cutoff, rule)


def arc_weights(G: BackendGraph, plan: Plan, reverse: bool):
    """The CSR of NetworkX's order (:meth:`.graph.BackendGraph.csr`, ``reverse``: the predecessors') with each
    entry's weight under ``plan`` and whether the search uses it: ``(indptr, indices, w, ok)``."""
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


def length_to(G: BackendGraph, source: Any, target: Any, weight: Any, method: str) -> Any:
    """The length from the node ``source`` to ``target`` by ``method`` ("dijkstra" or "bellman-ford"), errors as
    NetworkX's ``shortest_path_length`` and ``bellman_ford_path_length`` raise them (a missing ``source`` included).

    Examples
    --------
    >>> G = BackendGraph([0, 1, 2], np.array([0, 1], np.int32), np.array([1, 2], np.int32), {"w": np.array([2, 3])})
    >>> length_to(G, 0, 2, "w", "bellman-ford")
    5
    >>> length_to(G, 2, 0, "w", "dijkstra")
    Traceback (most recent call last):
    ...
    networkx.exception.NetworkXNoPath: Node 0 not reachable from 2
    """
    if method == "dijkstra":
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        if source == target:
            return 0
    elif source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    elif source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    d, reached, at_inf = search(G, G.index[source], search_plan(G, weight, method), method)
    if target in G:
        t = G.index[target]
        if at_inf is not None and at_inf[t]:
            return _INF
        if reached[t]:
            return d[t].item()
    if method == "dijkstra":
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
