"""Breadth- and depth-first traversals in NetworkX's orders, from the library's BFS and NetworkX-order kernels.

NetworkX's ``bfs_edges`` yields ``(parent, child)`` in discovery order: the
parents in queue order, each parent's neighbours in adjacency order; its
``dfs_labeled_edges`` walks each node's neighbours in adjacency order with a
stack.  The backend graph keeps the arcs in ``G._adj`` order (``G._pred``
order for the predecessors of a directed graph), so
:func:`._order_kernels.bfs_order` and :func:`._order_kernels.dfs_events` give
NetworkX's sequences exactly; sets of reachable nodes (``descendants``,
``ancestors``) come from :func:`graphs.bfs`.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np

from ..traversal.search import bfs
from ._order_kernels import bfs_order, dfs_events
from .convert import build_nx
from .graph import BackendGraph

#: The NetworkX functions this module implements (:mod:`.interface` registers every name here); the helpers
#: its siblings share (:func:`depth_bound`) are public names outside it.
__all__ = [
    "bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers", "descendants_at_distance",
    "descendants", "ancestors", "dfs_edges", "dfs_tree", "dfs_predecessors", "dfs_successors",
    "dfs_preorder_nodes", "dfs_postorder_nodes", "dfs_labeled_edges",
]


def depth_bound(depth_limit: Any, n: int) -> int:
    """A depth limit as the integer NetworkX's ``depth < depth_limit`` comparisons amount to."""
    if depth_limit is None:
        return n
    if type(depth_limit) not in (int, float, bool):
        raise NotImplementedError(f"a depth_limit of type {type(depth_limit).__name__}")
    if depth_limit != depth_limit:
        return -1  # NaN: no comparison holds
    if depth_limit > n + 1:
        return n + 1
    if depth_limit < -1:
        return -1
    return int(math.ceil(depth_limit))


def _adjacency(G: BackendGraph, reverse: bool) -> tuple[np.ndarray, np.ndarray]:
    indptr, indices, _ = G.pred_csr(arcs=False) if (reverse and G.directed) else G.csr()
    return indptr, indices


def _not_in(G: BackendGraph, source: Any) -> nx.NetworkXError:
    kind = "digraph" if G.is_directed() else "graph"  # G.neighbors' message, as NetworkX raises it
    return nx.NetworkXError(f"The node {source} is not in the {kind}.")


def _bfs(G: BackendGraph, source: Any, reverse: bool, depth_limit: Any):
    """``(order, parent, count)`` of NetworkX's BFS from ``source``."""
    if source not in G:
        raise _not_in(G, source)
    indptr, indices = _adjacency(G, reverse)
    order, parent, _, count = bfs_order(indptr, indices, np.array([G.index[source]], np.int64),
                                        depth_bound(depth_limit, len(G)))
    return order[:count], parent


def bfs_edges(G: BackendGraph, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None):
    """Edges of a breadth-first search from ``source``, in NetworkX's order (a generator).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_edges(nx.Graph([(0, 2), (0, 1), (2, 3)]), 0, backend="semiring_paths"))
    [(0, 2), (0, 1), (2, 3)]
    """
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is an arbitrary callable")
    depth_bound(depth_limit, len(G))
    return _bfs_edges(G, source, reverse, depth_limit)


def _bfs_edges(G, source, reverse, depth_limit):
    order, parent = _bfs(G, source, reverse, depth_limit)
    kids = order[1:]
    yield from zip(G.labels(parent[kids]), G.labels(kids))


def bfs_tree(G: BackendGraph, source: Any, reverse: bool = False, depth_limit: Any = None, sort_neighbors: Any = None):
    """The breadth-first search tree from ``source`` as a ``networkx.DiGraph`` (NetworkX's ``bfs_tree``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_tree(nx.path_graph(3), 1, backend="semiring_paths").edges())
    [(1, 0), (1, 2)]
    """
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is an arbitrary callable")
    order, parent = _bfs(G, source, reverse, depth_limit)
    kids = order[1:]
    return _tree_graph(G, [source], parent[kids], kids)


def _tree_graph(G: BackendGraph, first: list, tails: np.ndarray, heads: np.ndarray):
    """A ``networkx.DiGraph`` as ``add_nodes_from(first)`` then ``add_edges_from`` of the arcs ``tails -> heads``
    (vertex ids) builds it, filled directly.

    The arcs are a search tree's (each head new), so the nodes are ``first`` then
    the heads not among them, in order (:func:`.convert.build_nx`).
    """
    us, vs = G.labels(tails), G.labels(heads)
    seen = set(first)
    nodes = first + [v for v in vs if v not in seen]
    return build_nx(nx.DiGraph, None, nodes, None, us, vs)


def bfs_predecessors(G: BackendGraph, source: Any, depth_limit: Any = None, sort_neighbors: Any = None):
    """Generator of ``(node, parent)`` in breadth-first order (NetworkX's ``bfs_predecessors``).

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.bfs_predecessors(nx.path_graph(3), 0, backend="semiring_paths"))
    {1: 0, 2: 1}
    """
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is an arbitrary callable")
    depth_bound(depth_limit, len(G))
    return ((t, s) for s, t in _bfs_edges(G, source, False, depth_limit))


def bfs_successors(G: BackendGraph, source: Any, depth_limit: Any = None, sort_neighbors: Any = None):
    """Generator of ``(node, [children])`` in breadth-first order (NetworkX's ``bfs_successors``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_successors(nx.star_graph(2), 0, backend="semiring_paths"))
    [(0, [1, 2])]
    """
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is an arbitrary callable")
    depth_bound(depth_limit, len(G))
    return _bfs_successors(G, source, depth_limit)


def _bfs_successors(G, source, depth_limit):
    parent, children = source, []
    for p, c in _bfs_edges(G, source, False, depth_limit):
        if p == parent:
            children.append(c)
            continue
        yield (parent, children)
        children = [c]
        parent = p
    yield (parent, children)


def bfs_layers(G: BackendGraph, sources: Any):
    """Generator of the breadth-first layers from ``sources`` (a node or nodes), NetworkX's order.

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_layers(nx.path_graph(5), [0, 4], backend="semiring_paths"))
    [[0, 4], [1, 3], [2]]
    """
    if sources in G:
        sources = [sources]
    visited = set(sources)
    first = list(visited)  # NetworkX's first layer is in this set's order
    return _bfs_layers(G, first)


def _bfs_layers(G, first):
    for s in first:
        if s not in G:
            raise nx.NetworkXError(f"The node {s} is not in the graph.")
    indptr, indices = _adjacency(G, False)
    idx = np.array([G.index[s] for s in first], np.int64)
    order, _, level, count = bfs_order(indptr, indices, idx, len(G) + 1)
    order = order[:count]
    lv = level[order]
    cuts = np.flatnonzero(np.diff(lv)) + 1
    for part in np.split(order, cuts) if count else []:
        yield G.labels(part)


def descendants_at_distance(G: BackendGraph, source: Any, distance: Any) -> set:
    """Nodes at hop distance ``distance`` from ``source`` (NetworkX's ``descendants_at_distance``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.descendants_at_distance(nx.path_graph(5), 2, 2, backend="semiring_paths")
    {0, 4}
    """
    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    if type(distance) is not int:
        raise NotImplementedError("a distance that is not a Python int (NetworkX compares it to layer numbers)")
    levels = bfs(G.graph_for(None), G.index[source])[0]
    return set(G.labels(np.flatnonzero(levels == distance))) if distance >= 0 else set()


def descendants(G: BackendGraph, source: Any) -> set:
    """Nodes reachable from ``source``, ``source`` excluded (NetworkX's ``descendants``).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.descendants(nx.DiGraph([(0, 1), (1, 2), (3, 0)]), 0, backend="semiring_paths"))
    [1, 2]
    """
    return _reach(G, source, False)


def ancestors(G: BackendGraph, source: Any) -> set:
    """Nodes from which ``source`` is reachable, ``source`` excluded (NetworkX's ``ancestors``).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.ancestors(nx.DiGraph([(0, 1), (1, 2), (3, 0)]), 1, backend="semiring_paths"))
    [0, 3]
    """
    return _reach(G, source, G.directed)


def _reach(G: BackendGraph, source: Any, reverse: bool) -> set:
    """The nodes the breadth-first order from ``source`` meets after it (the compiled order kernel: a small graph
    sent to the traversal engine's plain-Python twin, before the kernels load, searched slower than NetworkX)."""
    order, _ = _bfs(G, source, reverse, None)
    return set(G.labels(order[1:]))


# Depth first ----------------------------------------------------------------------

_KINDS = ("forward", "nontree", "reverse", "reverse-depth_limit")


def _check_dfs(G: BackendGraph, depth_limit: Any, sort_neighbors: Any) -> None:
    """What goes back to NetworkX, decided at the call (before any generator starts)."""
    if sort_neighbors is not None:
        raise NotImplementedError("sort_neighbors is an arbitrary callable")
    depth_bound(depth_limit, len(G))


def _dfs(G: BackendGraph, source: Any, depth_limit: Any, sort_neighbors: Any):
    """``(u, v, kind)`` arrays of NetworkX's ``dfs_labeled_edges``."""
    _check_dfs(G, depth_limit, sort_neighbors)
    if source is None:
        starts = np.arange(len(G), dtype=np.int64)
    else:
        if source not in G:
            raise _not_in(G, source)
        starts = np.array([G.index[source]], np.int64)
    indptr, indices = _adjacency(G, False)
    return dfs_events(indptr, indices, starts, depth_bound(depth_limit, len(G)))


def dfs_labeled_edges(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None):
    """Generator of NetworkX's labelled depth-first events ``(u, v, kind)``.

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_labeled_edges(nx.path_graph(2), 0, backend="semiring_paths"))
    [(0, 0, 'forward'), (0, 1, 'forward'), (1, 0, 'nontree'), (0, 1, 'reverse'), (0, 0, 'reverse')]
    """
    _check_dfs(G, depth_limit, sort_neighbors)
    return _labeled(G, source, depth_limit)


def _labeled(G, source, depth_limit):
    if source is not None and source not in G:
        yield source, source, "forward"  # NetworkX yields the start before asking for its neighbours
    u, v, k = _dfs(G, source, depth_limit, None)
    yield from zip(G.labels(u), G.labels(v), map(_KINDS.__getitem__, k.tolist()))


def _tree_edges(G, source, depth_limit, sort_neighbors):
    u, v, k = _dfs(G, source, depth_limit, sort_neighbors)
    sel = (k == 0) & (u != v)
    return u[sel], v[sel]


def dfs_edges(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None):
    """Generator of depth-first tree edges in NetworkX's order (``dfs_edges``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_edges(nx.path_graph(3), 0, backend="semiring_paths"))
    [(0, 1), (1, 2)]
    """
    _check_dfs(G, depth_limit, sort_neighbors)
    return _dfs_edges(G, source, depth_limit)


def _dfs_edges(G, source, depth_limit):
    u, v = _tree_edges(G, source, depth_limit, None)
    yield from zip(G.labels(u), G.labels(v))


def dfs_tree(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None):
    """The depth-first search tree as a ``networkx.DiGraph`` (NetworkX's ``dfs_tree``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_tree(nx.path_graph(3), 0, backend="semiring_paths").edges())
    [(0, 1), (1, 2)]
    """
    _check_dfs(G, depth_limit, sort_neighbors)
    tails, heads = _tree_edges(G, source, depth_limit, None)
    return _tree_graph(G, list(G.nodes) if source is None else [source], tails, heads)


def dfs_predecessors(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None) -> dict:
    """Dict node -> depth-first parent (NetworkX's ``dfs_predecessors``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dfs_predecessors(nx.path_graph(3), 0, backend="semiring_paths")
    {1: 0, 2: 1}
    """
    u, v = _tree_edges(G, source, depth_limit, sort_neighbors)
    return dict(zip(G.labels(v), G.labels(u)))


def dfs_successors(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None) -> dict:
    """Dict node -> list of depth-first children (NetworkX's ``dfs_successors``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dfs_successors(nx.star_graph(2), 0, backend="semiring_paths")
    {0: [1, 2]}
    """
    u, v = _tree_edges(G, source, depth_limit, sort_neighbors)
    out: dict = {}
    for a, b in zip(G.labels(u), G.labels(v)):
        out.setdefault(a, []).append(b)
    return out


def dfs_preorder_nodes(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None):
    """Generator of nodes in depth-first preorder (NetworkX's ``dfs_preorder_nodes``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_preorder_nodes(nx.path_graph(3), 1, backend="semiring_paths"))
    [1, 0, 2]
    """
    _check_dfs(G, depth_limit, sort_neighbors)
    return _nodes_of(G, source, depth_limit, 0)


def _nodes_of(G, source, depth_limit, kind):
    u, v, k = _dfs(G, source, depth_limit, None)
    yield from G.labels(v[k == kind])


def dfs_postorder_nodes(G: BackendGraph, source: Any = None, depth_limit: Any = None, *, sort_neighbors: Any = None):
    """Generator of nodes in depth-first postorder (NetworkX's ``dfs_postorder_nodes``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.dfs_postorder_nodes(nx.path_graph(3), 1, backend="semiring_paths"))
    [0, 2, 1]
    """
    _check_dfs(G, depth_limit, sort_neighbors)
    return _nodes_of(G, source, depth_limit, 2)
