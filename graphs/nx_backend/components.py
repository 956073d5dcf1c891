"""Connected and strongly connected components as NetworkX yields them, from :func:`graphs.connected_components`.

Connected components come in NetworkX's order (by their first node in node
order: the library numbers components by smallest vertex).  Strongly
connected components are the same sets as NetworkX's, in NetworkX's order:
its search (Tarjan's, iterative) yields a component when the component's
first-discovered vertex finishes in a depth-first search that starts from the
nodes in node order and follows arcs in adjacency order.  That search runs
here as one Numba pass (:func:`._dfs_kernels.dfs_order`, preorder and
postorder numbers); the components are then ordered by the postorder number
of their vertex of least preorder number.  NetworkX's ``condensation``
numbers components in this order.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..components import connected_components as _components
from ._dfs_kernels import dfs_order
from .graph import BackendGraph

__all__ = ["connected_components", "strongly_connected_components"]


def _sets(G: BackendGraph, connection: str) -> list[set]:
    if len(G) == 0:
        return []
    k, labels = _components(G.graph_for(None), connection)
    order = np.argsort(labels, kind="stable")
    cuts = np.searchsorted(labels[order], np.arange(1, k))
    nodes = G.nodes
    sets = [{nodes[i] for i in part.tolist()} for part in np.split(order, cuts)]
    if connection == "strong":
        sets = [sets[c] for c in _networkx_order(G, labels, k).tolist()]
    return sets


def _networkx_order(G: BackendGraph, labels: np.ndarray, k: int) -> np.ndarray:
    """The component labels in the order NetworkX's Tarjan search completes them."""
    n = len(G)
    arcs = np.argsort(G.src, kind="stable")  # rows by tail, each row in adjacency order
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(G.src, minlength=n), out=indptr[1:])
    pre, post = dfs_order(indptr, G.dst[arcs].astype(np.int64))
    first = np.full(k, n, np.int64)
    np.minimum.at(first, labels, pre)  # each component's least preorder number: its root's
    by_pre = np.empty(n, np.int64)
    by_pre[pre] = np.arange(n)
    return np.argsort(post[by_pre[first]], kind="stable")


def connected_components(G: BackendGraph):
    """Generator of the node sets of the components of an undirected graph (NetworkX's order).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.connected_components(nx.Graph([(1, 2), (3, 4)]), backend="semiring_paths"))
    [{1, 2}, {3, 4}]
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    return iter(_sets(G, "weak"))


def strongly_connected_components(G: BackendGraph):
    """Generator of the node sets of the strongly connected components of a directed graph.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(map(sorted, nx.strongly_connected_components(nx.DiGraph([(1, 2), (2, 1), (2, 3)]), backend="semiring_paths")))
    [[1, 2], [3]]
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return iter(_sets(G, "strong"))
