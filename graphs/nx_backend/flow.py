"""Maximum flow value and minimum cut value as NetworkX computes them, from :func:`graphs.maximum_flow`.

NetworkX's residual network (``networkx.algorithms.flow.build_residual_network``)
drops self loops and edges whose capacity is not ``> 0`` (zero, negative,
NaN), reads a missing capacity as infinite, and replaces infinity by ``3 *
(sum of the finite capacities)`` (or 1); an undirected edge carries its
capacity both ways.  Its preflow-push then raises
:class:`networkx.NetworkXUnbounded` when a path of infinite arcs joins the
terminals, returns the ``int`` 0 when no path of positive capacity does, and
otherwise the flow value in the capacities' arithmetic.

Here the same decisions are read off the arcs, and the value comes from the
library's push-relabel in exact int64 arithmetic: integer capacities as they
are, float capacities scaled by a power of two to integers (exact when every
sum NetworkX forms is exact in float64, :func:`.attributes.exact_float_sums`;
the value is then NetworkX's float to the bit).  Infinite arcs get a capacity
above every finite cut (the total finite capacity plus one): without a path of
infinite arcs a minimum cut is finite, so the value does not depend on it.
Integer capacities beyond int64, ints mixed with finite floats, other types
(NumPy scalars, ``Fraction``, ``None``), and float capacities whose sums round
raise ``NotImplementedError`` (NetworkX runs itself where it falls back).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ..errors import CapacityError
from ..flow import maximum_flow
from ..graph import Graph
from ..traversal import bfs
from .attributes import dyadic_exponent, exact_float_sums, numbers
from .graph import BackendGraph

__all__ = ["maximum_flow_value", "minimum_cut_value"]


def _reaches(G: BackendGraph, src: np.ndarray, dst: np.ndarray, s: int, t: int) -> bool:
    """Whether the arcs ``src -> dst`` join ``s`` to ``t``."""
    H = Graph.from_edges(src, dst, None, n=len(G), directed=True)
    return bool(bfs(H, s)[0][t] >= 0)


def _flow_value(G: BackendGraph, s: Any, t: Any, capacity: Any) -> int | float:
    if s not in G:
        raise nx.NetworkXError(f"node {str(s)} not in graph")
    if t not in G:
        raise nx.NetworkXError(f"node {str(t)} not in graph")
    if s == t:
        raise nx.NetworkXError("source and sink are the same node")
    if G.is_multigraph():
        raise nx.NetworkXError("MultiGraph and MultiDiGraph not supported (yet).")
    si, ti = G.index[s], G.index[t]
    m = G.src.size
    if capacity is None:  # NetworkX reads attr.get(None, inf): every edge infinite
        a = numbers(np.full(m, np.inf))
    else:
        arr = G.weights(capacity)
        a = numbers(arr, select=(G.src != G.dst) & _positive(arr))
    kept = (G.src != G.dst) & ~a.nan & ~a.neginf & (a.posinf | (a.values > 0))
    infinite = kept & a.posinf
    finite = kept & ~a.posinf
    if _reaches(G, G.src[infinite], G.dst[infinite], si, ti):
        raise nx.NetworkXUnbounded("Infinite capacity path, flow unbounded above.")
    if not _reaches(G, G.src[kept], G.dst[kept], si, ti):
        return 0  # NetworkX's int 0, whatever the capacities' type
    once = finite if G.is_directed() else finite & (G.src < G.dst)  # each edge once, as NetworkX sums them
    cap = a.values[kept]
    if a.kind == "float":
        vals = a.values[once]
        total = float(vals.sum())
        # NetworkX's sums: excesses up to the finite total plus 3 * total per infinite arc
        terms = int(once.sum()) + 3 * int(infinite.sum()) * max(int(once.sum()), 1) + 3
        if not exact_float_sums(vals, terms):
            raise NotImplementedError("float capacities whose sums round: NetworkX's value depends on its push order")
        k = dyadic_exponent(vals)
        cap = np.ldexp(cap, k).astype(np.int64)  # exact: integers below 2**53
        total = int(np.ldexp(total, k))
    else:
        total = sum(a.values[once].tolist())  # exact, as NetworkX's Python ints
        k = 0
    if total + 1 > np.iinfo(np.int64).max // 4:
        raise NotImplementedError("integer capacities whose sums may leave int64 (NetworkX's Python ints are exact)")
    cap = np.where(infinite[kept], total + 1, cap).astype(np.int64)
    H = Graph.from_edges(G.src[kept], G.dst[kept], cap, n=len(G), directed=True)
    try:
        value = int(maximum_flow(H, si, ti).flow_value)
    except CapacityError as exc:
        raise NotImplementedError(f"capacities beyond the library's range: {exc}") from exc
    return float(np.ldexp(float(value), -k)) if a.kind == "float" else value


def _positive(arr: np.ndarray) -> np.ndarray:
    """Mask of the values ``> 0`` (Python's comparison; other types: False, judged by :func:`numbers`)."""
    if arr.dtype != object:
        with np.errstate(invalid="ignore"):
            return arr > 0
    out = []
    for v in arr.tolist():
        try:
            out.append(bool(v > 0))
        except Exception:  # noqa: BLE001 - NetworkX's comparison raises: let numbers() refuse the type
            out.append(True)
    return np.array(out, dtype=bool)


def maximum_flow_value(
    flowG: BackendGraph, _s: Any, _t: Any, capacity: Any = "capacity", flow_func: Any = None, **kwargs: Any
):
    """The value of a maximum ``_s``-``_t`` flow (NetworkX's ``maximum_flow_value``, default ``flow_func``).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"capacity": 3}), (1, 2, {"capacity": 2}), (0, 2, {"capacity": 1})])
    >>> nx.maximum_flow_value(G, 0, 2, backend="semiring_paths")
    3
    """
    if flow_func is not None or kwargs:
        raise NotImplementedError("a flow_func or its parameters: NetworkX runs it")
    return _flow_value(flowG, _s, _t, capacity)


def minimum_cut_value(
    flowG: BackendGraph, _s: Any, _t: Any, capacity: Any = "capacity", flow_func: Any = None, **kwargs: Any
):
    """The capacity of a minimum ``_s``-``_t`` cut (NetworkX's ``minimum_cut_value``): the maximum flow value.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.minimum_cut_value(nx.Graph([(0, 1, {"capacity": 2.5})]), 0, 1, backend="semiring_paths")
    2.5
    """
    if flow_func is not None or kwargs:
        raise NotImplementedError("a flow_func or its parameters: NetworkX runs it")
    return _flow_value(flowG, _s, _t, capacity)
