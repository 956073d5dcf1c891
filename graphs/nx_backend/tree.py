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
    edges = _candidate_edges(G)
    nodes = G.nodes
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
    w = as_value_array(vals)
    order = np.argsort(w, kind="stable")
    rank = np.empty(len(kept), np.int64)
    rank[order] = np.arange(len(kept))
    ends = np.array([(e[0], e[1]) for e in kept], dtype=np.int32).reshape(-1, 2)
    H = Graph.from_edges(ends[:, 0], ends[:, 1], rank, n=len(nodes), directed=True)
    chosen = np.sort(_msf(H).edges[2]) if len(kept) else np.zeros(0, np.int64)

    cls = G.nx_class if isinstance(G.nx_class, type) and issubclass(G.nx_class, nx.Graph) else None
    T = (cls or (nx.MultiGraph if G.multigraph else nx.Graph))()
    T.graph.update(G.graph)
    if G.node_data is not None:
        T.add_nodes_from(zip(nodes, G.node_data))
    else:
        T.add_nodes_from(nodes)
    picked = [kept[i] for i in order[chosen].tolist()]
    if G.multigraph:
        T.add_edges_from((nodes[i], nodes[j], k, d) for i, j, k, d in picked)
    else:
        T.add_edges_from((nodes[i], nodes[j], d) for i, j, _, d in picked)
    return T
