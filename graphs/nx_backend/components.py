"""Connected and strongly connected components as NetworkX yields them, from :func:`graphs.connected_components`.

Connected components come in NetworkX's order (by their first node in node
order: the library numbers components by smallest vertex).  Strongly
connected components are the same sets as NetworkX's, and like NetworkX's
(Tarjan's search completes a component after every component it reaches)
they come sinks first, in a reverse topological order of the condensation:
the postorder of a depth-first search of the condensation that starts from
the components in order of their first node and follows arcs in adjacency
order (one Python step per component and condensation arc).  NetworkX's
``condensation`` numbers components in this order.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..components import connected_components as _components
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
        sets = [sets[c] for c in _sinks_first(labels, G.src, G.dst, k)]
    return sets


def _sinks_first(labels: np.ndarray, src: np.ndarray, dst: np.ndarray, k: int) -> list[int]:
    """Components in the postorder of a DFS of the condensation (a reverse topological order)."""
    a, b = labels[src], labels[dst]
    cross = np.nonzero(a != b)[0]
    cross = cross[np.argsort(a[cross], kind="stable")]  # by tail component, adjacency order kept
    heads = b[cross]
    bounds = np.searchsorted(a[cross], np.arange(k + 1)).tolist()
    heads = heads.tolist()
    seen = bytearray(k)
    post: list[int] = []
    for root in range(k):
        if seen[root]:
            continue
        seen[root] = 1
        stack = [(root, bounds[root])]
        while stack:
            c, pos = stack[-1]
            end = bounds[c + 1]
            while pos < end and seen[heads[pos]]:
                pos += 1
            if pos < end:
                stack[-1] = (c, pos + 1)
                h = heads[pos]
                seen[h] = 1
                stack.append((h, bounds[h]))
            else:
                stack.pop()
                post.append(c)
    return post


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
