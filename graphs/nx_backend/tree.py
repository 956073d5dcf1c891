"""Minimum spanning trees as NetworkX returns them, from :func:`graphs.minimum_spanning_tree`.

NetworkX's Kruskal sorts ``G.edges()`` stably by weight, so among equal
weights the earlier edge wins.  Handing the library each edge's *rank* in
that order as its weight makes every weight distinct, so the library's unique
minimum spanning forest is exactly Kruskal's; the result is built as NetworkX
builds it (same graph class, graph, node and edge data copied, edges added
in Kruskal's order).  ``algorithm="prim"`` and ``"boruvka"`` give a forest
of the same total weight (the same forest when the weights are distinct).
"""

from __future__ import annotations

from itertools import repeat
from math import isnan
from typing import Any

import networkx as nx
import numpy as np

from ..graph import Graph
from ..spanning_tree import minimum_spanning_tree as _msf
from .attributes import as_value_array
from .graph import BackendGraph

__all__ = ["minimum_spanning_tree"]

ALGORITHMS = ("boruvka", "borůvka", "kruskal", "prim")


def _candidate_edges(G: BackendGraph) -> list[tuple]:
    """``G.edges(keys=True, data=True)`` in NetworkX's order, as ``(i, j, key, data)``."""
    if G.edge_data is None:
        raise NotImplementedError("minimum_spanning_tree needs the edge data (preserve_edge_attrs)")
    out = []
    src, dst = G.src.tolist(), G.dst.tolist()
    for e, (i, j) in enumerate(zip(src, dst)):
        if j < i:  # each undirected edge once: from the earlier of its ends, as G.edges() does
            continue
        if G.multigraph:
            out.extend((i, j, k, d) for k, d in G.edge_data[e].items())
        else:
            out.append((i, j, None, G.edge_data[e]))
    return out


def minimum_spanning_tree(
    G: BackendGraph, weight: Any = "weight", algorithm: str = "kruskal", ignore_nan: bool = False
):
    """A minimum spanning forest as a NetworkX graph (NetworkX's ``minimum_spanning_tree``).

    Raises
    ------
    ValueError
        Unknown ``algorithm``; a NaN weight without ``ignore_nan`` (NetworkX's message).
    networkx.NetworkXNotImplemented
        ``G`` is directed.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 3}), (1, 2, {"weight": 1}), (0, 2, {"weight": 2})])
    >>> sorted(nx.minimum_spanning_tree(G, backend="semiring_paths").edges(data=True))
    [(0, 2, {'weight': 2}), (1, 2, {'weight': 1})]
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if G.is_multigraph() and algorithm in ("boruvka", "borůvka"):
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    nodes = G.nodes
    if not G.multigraph and G.edge_data is not None:
        return _build(G, _simple_picks(G, weight, ignore_nan))
    edges = _candidate_edges(G)
    kept, vals = [], []
    for e in edges:
        wt = e[3].get(weight, 1)
        if isinstance(wt, float) and isnan(wt) or isinstance(wt, np.floating) and np.isnan(wt):
            if ignore_nan:
                continue
            i, j, k, d = e
            shown = (nodes[i], nodes[j], k, d) if G.multigraph else (nodes[i], nodes[j], d)
            raise ValueError(f"NaN found as an edge weight. Edge {shown}")
        kept.append(e)
        vals.append(wt)
    ends = np.array([(e[0], e[1]) for e in kept], dtype=np.int32).reshape(-1, 2)
    positions = _kruskal_positions(ends[:, 0], ends[:, 1], as_value_array(vals), len(nodes))
    return _build(G, [kept[i] for i in positions.tolist()])


def _kruskal_positions(ends_i: np.ndarray, ends_j: np.ndarray, w: np.ndarray, n: int) -> np.ndarray:
    """Positions (into the candidate list) of the forest's edges, in Kruskal's order (stable by weight)."""
    order = np.argsort(w, kind="stable")
    rank = np.empty(w.size, np.int64)
    rank[order] = np.arange(w.size)
    if w.size == 0:
        return order
    H = Graph.from_edges(ends_i, ends_j, rank, n=n, directed=True)
    return order[np.sort(_msf(H).edges[2])]


def _simple_picks(G: BackendGraph, weight: Any, ignore_nan: bool) -> list[tuple]:
    """The forest of a graph without parallel edges, with array passes only (no Python step per edge)."""
    arcs = np.flatnonzero(G.dst >= G.src)  # each edge once, from its earlier end, as G.edges() lists it
    w = G.weights(weight)[arcs]
    if w.dtype.kind == "f":
        nan = np.isnan(w)
        if nan.any():
            if not ignore_nan:
                e = int(arcs[np.argmax(nan)])
                shown = (G.nodes[int(G.src[e])], G.nodes[int(G.dst[e])], G.edge_data[e])
                raise ValueError(f"NaN found as an edge weight. Edge {shown}")
            arcs, w = arcs[~nan], w[~nan]
    picked = arcs[_kruskal_positions(G.src[arcs], G.dst[arcs], w, len(G.nodes))]
    data = G.edge_data
    return list(zip(G.src[picked].tolist(), G.dst[picked].tolist(), repeat(None), map(data.__getitem__, picked.tolist())))


def _build(G: BackendGraph, picked: list[tuple]):
    """The forest as NetworkX builds it: G's class, graph and node data, edges in Kruskal's order."""
    nodes = G.nodes
    cls = G.nx_class if isinstance(G.nx_class, type) and issubclass(G.nx_class, nx.Graph) else None
    T = (cls or (nx.MultiGraph if G.multigraph else nx.Graph))()
    T.graph.update(G.graph)
    if G.node_data is not None:
        T.add_nodes_from(zip(nodes, G.node_data))
    else:
        T.add_nodes_from(nodes)
    if G.multigraph:
        T.add_edges_from((nodes[i], nodes[j], k, d) for i, j, k, d in picked)
    else:
        T.add_edges_from((nodes[i], nodes[j], d) for i, j, _, d in picked)
    return T
