"""Structural predicates and counts with NetworkX's answers, from components, levels and exact determinants.

* isolates: ``isolates``, ``number_of_isolates``, ``is_isolate`` (nodes on no arc);
* forests: ``is_tree``, ``is_forest``, ``is_branching``, ``is_arborescence``
  (edge counts against :func:`graphs.connected_components`; a multigraph's
  parallel edges are counted at conversion, or from its edge data);
* cycles: ``has_cycle`` (Kahn's generations), ``is_aperiodic`` (the gcd of
  ``level(u) - level(v) + 1`` over all arcs, breadth-first levels from the
  first node, as NetworkX's search computes it: tree arcs add 0);
* condensation: ``is_semiconnected`` (every Kahn generation of the
  condensation holds one component: its topological order is a path),
  ``attracting_components`` (strong components with no arc out, in
  NetworkX's component order), ``number_attracting_components``,
  ``is_attracting_component``;
* weights: ``is_negatively_weighted``, ``number_of_spanning_trees`` (Kirchhoff's
  matrix-tree theorem, the determinant in exact integer arithmetic by
  Bareiss' fraction-free elimination, E. H. Bareiss, "Sylvester's identity and
  multistep integer-preserving Gaussian elimination", Math. Comp. 22, 1968):
  the exact count as a float where NetworkX rounds a floating-point
  determinant; non-integer weights, multigraphs and more than
  :data:`SPANNING_TREE_LIMIT` nodes go back to NetworkX.
"""

from __future__ import annotations

from math import gcd
from typing import Any

import networkx as nx
import numpy as np

from ..traversal.search import bfs
from .attributes import numbers
from .components import component_count, component_labels_of, networkx_component_order
from .dag import is_directed_acyclic_graph
from .graph import BackendGraph

__all__ = [
    "isolates", "number_of_isolates", "is_isolate", "is_tree", "is_forest", "is_branching", "is_arborescence",
    "has_cycle", "is_aperiodic", "is_semiconnected", "attracting_components", "number_attracting_components",
    "is_attracting_component", "is_negatively_weighted", "number_of_spanning_trees",
]

#: Most nodes for the exact determinant (``O(n^3)`` Python integer operations).
SPANNING_TREE_LIMIT = 160


def _touched(G: BackendGraph) -> np.ndarray:
    t = np.zeros(len(G), bool)
    t[G.src] = True
    t[G.dst] = True
    return t


def isolates(G: BackendGraph):
    """Iterator over the nodes of degree 0, in node order (NetworkX's ``isolates``).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1)]); G.add_node(2)
    >>> list(nx.isolates(G, backend="semiring_paths"))
    [2]
    """
    return iter(G.labels(np.flatnonzero(~_touched(G))))


def number_of_isolates(G: BackendGraph) -> int:
    """Number of nodes of degree 0 (NetworkX's ``number_of_isolates``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_of_isolates(nx.empty_graph(3), backend="semiring_paths")
    3
    """
    return int(len(G) - _touched(G).sum())


def is_isolate(G: BackendGraph, n: Any) -> bool:
    """Whether node ``n`` has degree 0 (NetworkX's ``is_isolate``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_isolate(nx.Graph([(0, 0)]), 0, backend="semiring_paths")
    False
    """
    if n not in G:
        raise NotImplementedError("a node not in the graph: NetworkX's degree view raises its own error")
    i = G.index[n]
    return not (bool((G.src == i).any()) or bool((G.dst == i).any()))


def _arc_multiplicity(G: BackendGraph) -> np.ndarray:
    """Per arc the number of edges it stands for (parallel edges of a multigraph)."""
    if not G.multigraph:
        return np.ones(G.src.size, np.int64)
    if G.multiplicity is not None:
        return G.multiplicity
    if G.edge_data is None:
        raise NotImplementedError("a multigraph's parallel edges are counted from its edge data")
    return np.fromiter(map(len, G.edge_data), np.int64, count=G.src.size)


def _edge_count(G: BackendGraph) -> int:
    """NetworkX's ``G.number_of_edges()`` (parallel edges counted)."""
    mult = _arc_multiplicity(G)
    if G.directed:
        return int(mult.sum())
    loop = G.src == G.dst
    return int(mult[~loop].sum()) // 2 + int(mult[loop].sum())


def is_tree(G: BackendGraph) -> bool:
    """Whether ``G`` is a tree: connected with ``n - 1`` edges (NetworkX's ``is_tree``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_tree(nx.path_graph(4), backend="semiring_paths"), nx.is_tree(nx.cycle_graph(4), backend="semiring_paths")
    (True, False)
    """
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")
    return len(G) - 1 == _edge_count(G) and component_count(G, "weak") == 1


def is_forest(G: BackendGraph) -> bool:
    """Whether every (weakly) connected component is a tree (NetworkX's ``is_forest``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_forest(nx.Graph([(0, 1), (2, 3)]), backend="semiring_paths")
    True
    """
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")
    # each component has at least (its size - 1) edges: all equal exactly when the totals are
    return _edge_count(G) == len(G) - component_count(G, "weak")


def _max_in_degree(G: BackendGraph) -> int:
    return int(np.bincount(G.dst, weights=_arc_multiplicity(G), minlength=len(G)).max())


def _directed_only(G: BackendGraph) -> None:
    if not G.directed:
        raise nx.NetworkXNotImplemented("not implemented for undirected type")


def is_branching(G: BackendGraph) -> bool:
    """Whether ``G`` is a forest of in-degree at most 1 (NetworkX's ``is_branching``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_branching(nx.DiGraph([(0, 1), (0, 2)]), backend="semiring_paths")
    True
    """
    _directed_only(G)
    return is_forest(G) and _max_in_degree(G) <= 1


def is_arborescence(G: BackendGraph) -> bool:
    """Whether ``G`` is a tree of in-degree at most 1 (NetworkX's ``is_arborescence``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_arborescence(nx.DiGraph([(0, 1), (2, 1)]), backend="semiring_paths")
    False
    """
    _directed_only(G)
    return is_tree(G) and _max_in_degree(G) <= 1


def has_cycle(G: BackendGraph) -> bool:
    """Whether a directed graph has a cycle, self loops included (NetworkX's ``has_cycle``).

    Examples
    --------
    >>> import networkx as nx
    >>> from networkx.algorithms.dag import has_cycle
    >>> has_cycle(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring_paths")
    True
    """
    if not G.directed:
        raise nx.NetworkXError("Topological sort not defined on undirected graphs.")
    return not is_directed_acyclic_graph(G)


def is_aperiodic(G: BackendGraph) -> bool:
    """Whether the cycle lengths of a strongly connected digraph have gcd 1 (NetworkX's ``is_aperiodic``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_aperiodic(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring_paths")
    False
    """
    if not G.directed:
        raise nx.NetworkXError("is_aperiodic not defined for undirected graphs")
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    if component_count(G, "strong") != 1:
        raise nx.NetworkXError("Graph is not strongly connected.")
    level = bfs(G.graph_for(None), 0)[0].astype(np.int64)
    diffs = np.unique(np.abs(level[G.src] - level[G.dst] + 1))
    g = 0
    for x in diffs.tolist():
        g = gcd(g, x)
    return g == 1


def _condensation(G: BackendGraph):
    """``(k, labels, cu, cv)``: strong components and the distinct arcs between them."""
    k, labels = component_labels_of(G, "strong")
    a, b = labels[G.src].astype(np.int64), labels[G.dst].astype(np.int64)
    between = a != b
    codes = np.unique(a[between] * max(k, 1) + b[between])
    return int(k), labels, codes // max(k, 1), codes % max(k, 1)


def is_semiconnected(G: BackendGraph) -> bool:
    """Whether every pair of nodes has a path one way or the other (NetworkX's ``is_semiconnected``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_semiconnected(nx.DiGraph([(0, 1), (1, 2)]), backend="semiring_paths")
    True
    >>> nx.is_semiconnected(nx.DiGraph([(0, 1), (0, 2)]), backend="semiring_paths")
    False
    """
    _directed_only(G)
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    k, _, cu, cv = _condensation(G)
    indeg = np.bincount(cv, minlength=k)
    order = np.argsort(cu, kind="stable")
    indptr = np.zeros(k + 1, np.int64)
    np.cumsum(np.bincount(cu, minlength=k), out=indptr[1:])
    heads = cv[order].tolist()
    indeg = indeg.tolist()
    wave = [c for c in range(k) if indeg[c] == 0]
    while wave:
        if len(wave) != 1:
            return False
        u = wave[0]
        wave = []
        for v in heads[indptr[u]:indptr[u + 1]]:
            indeg[v] -= 1
            if indeg[v] == 0:
                wave.append(v)
    return True


def _attracting(G: BackendGraph) -> list[set]:
    _directed_only(G)
    if len(G) == 0:
        return []
    k, labels, cu, _ = _condensation(G)
    leaves = np.ones(k, bool)
    leaves[cu] = False
    members = np.argsort(labels, kind="stable")
    cuts = np.searchsorted(labels[members], np.arange(k + 1))
    return [set(G.labels(members[cuts[c]:cuts[c + 1]]))
            for c in networkx_component_order(G, labels, k).tolist() if leaves[c]]


def attracting_components(G: BackendGraph):
    """Iterator over the strong components with no arc leaving them, in NetworkX's order.

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.attracting_components(nx.DiGraph([(0, 1), (1, 2), (2, 1)]), backend="semiring_paths"))
    [{1, 2}]
    """
    return iter(_attracting(G))


def number_attracting_components(G: BackendGraph) -> int:
    """Number of attracting components (NetworkX's ``number_attracting_components``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_attracting_components(nx.DiGraph([(0, 1), (0, 2)]), backend="semiring_paths")
    2
    """
    return len(_attracting(G))


def is_attracting_component(G: BackendGraph) -> bool:
    """Whether ``G`` is one attracting component (NetworkX's ``is_attracting_component``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_attracting_component(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring_paths")
    True
    """
    ac = _attracting(G)
    return len(ac) == 1 and len(ac[0]) == len(G)


def is_negatively_weighted(G: BackendGraph, edge: Any = None, weight: Any = "weight") -> bool:
    """Whether some edge (or ``edge``) has a negative ``weight`` (NetworkX's ``is_negatively_weighted``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_negatively_weighted(nx.Graph([(0, 1, {"weight": -2})]), backend="semiring_paths")
    True
    """
    if edge is not None:
        if G.multigraph or not isinstance(edge, tuple) or len(edge) != 2:
            raise NotImplementedError("NetworkX's get_edge_data reads this edge its own way")
        u, v = edge
        if u not in G or v not in G:
            raise nx.NetworkXError(f"Edge {edge!r} does not exist.")
        i, j = G.index[u], G.index[v]
        arcs = np.flatnonzero((G.src == i) & (G.dst == j))
        if arcs.size == 0:
            raise nx.NetworkXError(f"Edge {edge!r} does not exist.")
        arr = G.weights(weight)[arcs[:1]]
    else:
        arr = G.weights(weight)
        if arr is None:
            raise NotImplementedError("weight=None reads an attribute named None")
    a = numbers(arr)  # NotImplementedError for values NetworkX compares its own way
    if a.nan.any():
        a = a._replace(values=np.where(a.nan, 0, a.values))
    return bool((a.values < 0).any() or a.neginf.any())


def _bareiss(M: list[list[int]]) -> int:
    """Exact determinant of a square matrix of Python ints (fraction-free elimination; ``M`` is overwritten)."""
    n = len(M)
    if n == 0:
        return 1
    sign, prev = 1, 1
    for k in range(n - 1):
        if M[k][k] == 0:
            for i in range(k + 1, n):
                if M[i][k] != 0:
                    M[k], M[i] = M[i], M[k]
                    sign = -sign
                    break
            else:
                return 0
        pivot, row_k = M[k][k], M[k]
        for i in range(k + 1, n):
            row_i = M[i]
            f = row_i[k]
            for j in range(k + 1, n):
                row_i[j] = (row_i[j] * pivot - f * row_k[j]) // prev
        prev = pivot
    return sign * M[n - 1][n - 1]


def number_of_spanning_trees(G: BackendGraph, *, root: Any = None, weight: Any = None):
    """Number (or total weight) of spanning trees, or arborescences rooted at ``root`` (Kirchhoff's theorem).

    The determinant is exact (integer weights); NetworkX returns it as a
    ``float`` (and ``0`` for a graph that is not (weakly) connected), as here.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_of_spanning_trees(nx.complete_graph(5), backend="semiring_paths")
    125.0
    """
    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept("Graph G must contain at least one node.")
    if G.multigraph:
        raise NotImplementedError("a multigraph's Laplacian sums its parallel edges")
    if n - 1 > SPANNING_TREE_LIMIT:
        raise NotImplementedError(f"an exact determinant of more than {SPANNING_TREE_LIMIT} rows")
    if G.directed:
        if root is None:
            raise nx.NetworkXError("Input `root` must be provided when G is directed")
        if root not in G:
            raise nx.NetworkXError("The node root is not in the graph G.")
    if component_count(G, "weak") != 1:
        return 0
    if weight is None:
        w = [1] * G.src.size
    else:
        a = numbers(G.weights(weight))
        if a.kind != "int" or a.posinf.any() or a.neginf.any() or a.nan.any():
            raise NotImplementedError("non-integer weights: NetworkX's floating-point determinant is its own")
        w = a.values.tolist()
    # order: the root first (directed), then the others in node order; drop the first row and column
    first = G.index[root] if G.directed else 0
    pos = list(range(n))
    if G.directed:
        pos = [0] * n
        pos[first] = 0
        r = 1
        for i in range(n):
            if i != first:
                pos[i] = r
                r += 1
    L = [[0] * n for _ in range(n)]
    for i, j, x in zip(G.src.tolist(), G.dst.tolist(), w):
        if i == j:
            continue  # a self loop adds to the degree what it adds to the adjacency
        pi, pj = pos[i], pos[j]
        L[pi][pj] -= x
        if G.directed:
            L[pj][pj] += x  # in-degree of the head
        else:
            L[pi][pi] += x  # degree: each edge's two arcs, once per end
    det = _bareiss([row[1:] for row in L[1:]])
    try:
        return float(det)
    except OverflowError:
        raise NotImplementedError("a count beyond float64: NetworkX's determinant overflows its own way") from None
