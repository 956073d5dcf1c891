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

from itertools import chain

import networkx as nx
import numpy as np

from ..graph import Graph
from ..traversal.components import component_labels
from ..traversal.search import bfs
from ._dfs_kernels import dfs_order
from .convert import build_nx
from .graph import BackendGraph

#: The NetworkX functions this module implements (:mod:`.interface` registers every name here); the helpers
#: its siblings share (:func:`component_count`, :func:`component_labels_of` and :func:`networkx_component_order`)
#: are public names outside it.
__all__ = [
    "connected_components", "strongly_connected_components", "number_connected_components", "is_connected",
    "node_connected_component", "number_strongly_connected_components", "is_strongly_connected",
    "weakly_connected_components", "number_weakly_connected_components", "is_weakly_connected", "condensation",
]


def _grouping(labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The vertices grouped by component label (each group in vertex order), and where each group starts (k + 1)."""
    order = np.argsort(labels, kind="stable")
    return order, np.searchsorted(labels[order], np.arange(k + 1))


def component_labels_of(G: BackendGraph, connection: str) -> tuple[int, np.ndarray]:
    """The engine's component count and labels, on the CSR of NetworkX's order (:meth:`.graph.BackendGraph.csr`):
    union-find and Tarjan's labels do not need the rows sorted, so the conversion's arcs are used as they are.

    Examples
    --------
    >>> import networkx as nx
    >>> from .convert import convert_from_nx
    >>> k, labels = component_labels_of(convert_from_nx(nx.DiGraph([(0, 1), (1, 0), (2, 1)])), "strong")
    >>> k, labels.tolist()
    (2, [0, 0, 1])
    """
    indptr, indices, _ = G.csr()
    return component_labels(Graph(indptr, indices, None, directed=True, check=False), connection)


def _sets(G: BackendGraph, connection: str) -> list[set]:
    if len(G) == 0:
        return []
    k, labels = component_labels_of(G, connection)
    order, starts = _grouping(labels, k)
    names = G.labels(order)
    bounds = starts.tolist()
    sets = [set(names[a:b]) for a, b in zip(bounds, bounds[1:])]
    if connection == "strong":
        sets = [sets[c] for c in networkx_component_order(G, labels, k, (order, starts)).tolist()]
    return sets


def networkx_component_order(G: BackendGraph, labels: np.ndarray, k: int,
                    grouping: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The component labels in the order NetworkX's Tarjan search completes them (``grouping``: :func:`_grouping`'s)."""
    n = len(G)
    order, starts = _grouping(labels, k) if grouping is None else grouping
    indptr, indices, _ = G.csr()  # rows by tail, each row in adjacency order
    pre, post = dfs_order(indptr, indices)
    first = np.minimum.reduceat(pre[order], starts[:-1])  # each component's least preorder number: its root's
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


def component_count(G: BackendGraph, connection: str) -> int:
    """The number of ``connection`` ("weak" or "strong") components of ``G``."""
    if len(G) == 0:
        return 0
    return int(component_labels_of(G, connection)[0])


def _connected(G: BackendGraph, connection: str) -> bool:
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return component_count(G, connection) == 1


def number_connected_components(G: BackendGraph) -> int:
    """Number of connected components of an undirected graph (NetworkX's ``number_connected_components``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_connected_components(nx.Graph([(0, 1), (2, 3)]), backend="semiring_paths")
    2
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    return component_count(G, "weak")


def is_connected(G: BackendGraph) -> bool:
    """Whether an undirected graph is connected (NetworkX's ``is_connected``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_connected(nx.path_graph(3), backend="semiring_paths")
    True
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    return _connected(G, "weak")


def node_connected_component(G: BackendGraph, n) -> set:
    """The node set of the component of ``n`` (NetworkX's ``node_connected_component``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.node_connected_component(nx.Graph([(0, 1), (2, 3)]), 3, backend="semiring_paths")
    {2, 3}
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if n not in G:
        raise KeyError(n)  # NetworkX's search reads G._adj[n]
    levels = bfs(G.graph_for(None), G.index[n])[0]
    return set(G.labels(np.flatnonzero(levels >= 0)))


def number_strongly_connected_components(G: BackendGraph) -> int:
    """Number of strongly connected components (NetworkX's ``number_strongly_connected_components``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_strongly_connected_components(nx.DiGraph([(0, 1), (1, 0), (1, 2)]), backend="semiring_paths")
    2
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return component_count(G, "strong")


def is_strongly_connected(G: BackendGraph) -> bool:
    """Whether a directed graph is strongly connected (NetworkX's ``is_strongly_connected``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_strongly_connected(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring_paths")
    True
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return _connected(G, "strong")


def weakly_connected_components(G: BackendGraph):
    """Generator of the weakly connected components of a directed graph (NetworkX's order).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.weakly_connected_components(nx.DiGraph([(1, 0), (2, 3)]), backend="semiring_paths"))
    [{0, 1}, {2, 3}]
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return iter(_sets(G, "weak"))


def number_weakly_connected_components(G: BackendGraph) -> int:
    """Number of weakly connected components (NetworkX's ``number_weakly_connected_components``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_weakly_connected_components(nx.DiGraph([(1, 0), (2, 3)]), backend="semiring_paths")
    2
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return component_count(G, "weak")


def is_weakly_connected(G: BackendGraph) -> bool:
    """Whether a directed graph is weakly connected (NetworkX's ``is_weakly_connected``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_weakly_connected(nx.DiGraph([(1, 0)]), backend="semiring_paths")
    True
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return _connected(G, "weak")


def condensation(G: BackendGraph, scc=None):
    """The condensation of a directed graph, components numbered in NetworkX's order (``condensation``).

    Examples
    --------
    >>> import networkx as nx
    >>> C = nx.condensation(nx.DiGraph([(0, 1), (1, 0), (1, 2)]), backend="semiring_paths")
    >>> list(C.edges()), C.graph["mapping"]
    ([(1, 0)], {2: 0, 0: 1, 1: 1})
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    mapping: dict = {}
    C = nx.DiGraph()
    C.graph["mapping"] = mapping
    if len(G) == 0:
        return C
    if scc is None:
        k, labels = component_labels_of(G, "strong")
        rank = np.empty(k, np.int64)
        rank[networkx_component_order(G, labels, k)] = np.arange(k)
        comp = rank[labels]
        sets = _sets_of(G, comp, k)
    else:
        sets = list(scc)
        k = len(sets)
        comp = np.full(len(G), -1, np.int64)
        for i, c in enumerate(sets):
            for v in c:
                comp[G.index[v]] = i
        if (comp < 0).any():
            raise NotImplementedError("components that do not cover every node (NetworkX raises KeyError as it goes)")
    sizes = np.fromiter(map(len, sets), np.int64, count=k)
    mapping.update(zip(chain.from_iterable(sets), np.repeat(np.arange(k), sizes).tolist()))  # each set in its order
    cu, cv = comp[G.src], comp[G.dst]
    keep = cu != cv
    # add_nodes_from(range(k)), add_edges_from(the arcs between components), then each node's "members", filled directly
    return build_nx(nx.DiGraph, C.graph, list(range(k)), [{"members": c} for c in sets], cu[keep].tolist(),
                    cv[keep].tolist())


def _sets_of(G: BackendGraph, comp: np.ndarray, k: int) -> list[set]:
    order, starts = _grouping(comp, k)
    names = G.labels(order)
    bounds = starts.tolist()
    return [set(names[a:b]) for a, b in zip(bounds, bounds[1:])]
