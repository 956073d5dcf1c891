"""Maximum flow value and minimum cut value as NetworkX computes them, from :func:`graphs.maximum_flow`.

NetworkX's residual network (``networkx.algorithms.flow.build_residual_network``)
drops self loops and edges of capacity ``<= 0`` (and NaN), reads a missing
capacity as infinite, and replaces infinity by ``3 * (sum of the finite
capacities)`` (or 1); an undirected edge carries its capacity both ways.  The
same network goes to the library's push-relabel.  A flow that reaches the
replacement value means a path of infinite capacity, which NetworkX reports
as :class:`networkx.NetworkXUnbounded` (the two tests agree: without such a
path a cut of finite edges bounds the flow below the replacement).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ..errors import CapacityError
from ..flow import maximum_flow
from ..graph import Graph
from .graph import BackendGraph

__all__ = ["maximum_flow_value", "minimum_cut_value"]


def _flow_value(G: BackendGraph, s: Any, t: Any, capacity: Any) -> int | float:
    if s not in G:
        raise nx.NetworkXError(f"node {str(s)} not in graph")
    if t not in G:
        raise nx.NetworkXError(f"node {str(t)} not in graph")
    if s == t:
        raise nx.NetworkXError("source and sink are the same node")
    if G.is_multigraph():
        raise nx.NetworkXError("MultiGraph and MultiDiGraph not supported (yet).")
    cap = G.weights(capacity)
    if cap is None:
        cap = np.full(G.src.size, np.inf)
    keep = (G.src != G.dst) & (cap > 0)
    src, dst, cap = G.src[keep], G.dst[keep], cap[keep]
    infinite = cap == (np.inf if cap.dtype.kind == "f" else np.iinfo(np.int64).max)
    once = ~infinite if G.is_directed() else ~infinite & (src < dst)
    if cap.dtype.kind == "f":
        big = 3 * float(cap[once].sum()) or 1.0
    else:
        big = 3 * sum(cap[once].tolist()) or 1  # exact, as NetworkX's Python ints
        if big >= np.iinfo(np.int64).max // 2:
            raise NotImplementedError("integer capacities beyond int64")
    cap = np.where(infinite, cap.dtype.type(big), cap)
    H = Graph.from_edges(src, dst, cap, n=len(G), directed=True)
    try:
        value = maximum_flow(H, G.index[s], G.index[t]).flow_value
    except CapacityError as exc:
        raise NotImplementedError(f"capacities beyond the library's range: {exc}") from exc
    if infinite.any() and value >= big:
        raise nx.NetworkXUnbounded("Infinite capacity path, flow unbounded above.")
    return int(value) if cap.dtype.kind == "i" else float(value)


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
