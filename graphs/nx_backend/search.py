"""The single-source search of the NetworkX backend: the numbers NetworkX's lengths are computed with, and the search.

:func:`search_plan` reads the weights as NetworkX's Dijkstra or Bellman-Ford
would (see :mod:`.shortest_paths` for the rules) and refuses, with
``NotImplementedError``, what would not reproduce NetworkX's answer exactly;
:func:`search` runs one search from a vertex.  The path, centrality and
measure functions of the backend share them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from apsp.errors import NegativeCycleError

from ..sssp import sssp
from ..traversal import bfs
from .attributes import as_value_array, exact_float_sums, numbers
from .graph import BackendGraph

__all__ = ["Plan", "HOPS", "search_method", "search_plan", "weight_values", "reached_mask", "search", "reached_at_inf", "INT_HEADROOM",
           "FLOAT_MAX", "check_through_inf"]

INT_HEADROOM = 1 << 62  # integer weights whose path sums could pass this go back to NetworkX (exact big ints)
FLOAT_MAX = float(np.finfo(np.float64).max)


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
    arr, hidden = weight_values(G, weight)
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
    span = max(len(G) - 1, 1)
    through_inf = False
    if a.kind == "int":
        if w.size and max(-int(w.min()), int(w.max())) * span >= INT_HEADROOM:  # Python ints: no wrap at int64's min
            raise NotImplementedError("integer weights whose path sums may leave int64 (NetworkX's Python ints are exact)")
        through_inf = method == "dijkstra" and bool(a.posinf.any())
    else:
        if method == "bellman-ford" and w.size and (w < 0).any() and not exact_float_sums(w, len(G)):
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
    """``(d, reached, at_inf)`` from vertex ``s``: distances, the finite ones, the ones NetworkX gives as ``inf``."""
    if plan.kind == "hops":
        levels = bfs(G.graph_for(None, reverse=reverse), s)[0]
        return levels, levels >= 0, None
    H = G.arc_graph(plan.key, plan.weights, plan.keep, reverse=reverse)
    try:
        d = sssp(H, s, method=method)[0]
    except NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    reached = reached_mask(d)
    return d, reached, reached_at_inf(G, s, reached, plan, reverse)


def reached_at_inf(G: BackendGraph, s: int, reached: np.ndarray, plan: Plan, reverse: bool = False) -> np.ndarray | None:
    """Nodes NetworkX's Dijkstra reaches only at length ``inf`` (through ``inf`` arcs or sums that overflow)."""
    if not plan.through_inf:
        return None
    return (bfs(G.graph_for(None, reverse=reverse), s)[0] >= 0) & ~reached


def check_through_inf(G: BackendGraph, weight: Any) -> None:
    """The refusal of the all-pairs path generators, at the call: Dijkstra paths through nodes reached at length inf."""
    if search_plan(G, weight, "dijkstra").through_inf:
        raise NotImplementedError("nodes reached only at length inf: NetworkX's paths through them are its own")
