"""Directed acyclic graphs: longest paths over max-plus, transitive closure and reduction by Boolean products.

* ``dag_longest_path`` / ``dag_longest_path_length``: NetworkX's recurrence
  ``dist[v] = max(0, max over in-arcs (dist[u] + w))`` along its topological
  order (Kahn's generations, :func:`._order_kernels.kahn_generations`), one
  max-plus relaxation per arc (:func:`._order_kernels.dag_longest`), ties
  as NetworkX breaks them (the first predecessor in ``G.pred`` order, the first
  node in topological order);
* ``transitive_closure`` / ``transitive_closure_dag``: the reflexive closure
  ``R*`` over ``lor_land`` (:func:`apsp.transitive_closure`, bit-packed
  Boolean GEMM) and ``R+ = A R*`` (one Boolean product);
* ``transitive_reduction``: the arcs of ``A`` not in ``A R+`` (paths of two
  or more arcs).

The closures are dense (``n x n`` booleans); graphs of more than
:data:`DENSE_LIMIT` nodes go back to NetworkX.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from apsp import transitive_closure as _reflexive_closure
from semiring import lor_land

from ._order_kernels import dag_longest, kahn_generations
from .attributes import MISSING, numbers
from .convert import convert_to_nx
from .graph import BackendGraph

__all__ = ["dag_longest_path", "dag_longest_path_length", "transitive_closure", "transitive_closure_dag",
           "transitive_reduction", "is_directed_acyclic_graph"]

DENSE_LIMIT = 20000
_CYCLE = "Graph contains a cycle or graph changed during iteration"


def _generations(G: BackendGraph):
    indptr, indices, _ = G.csr()
    order, gen, count = kahn_generations(indptr, indices, len(G))
    return order, gen, count


def is_directed_acyclic_graph(G: BackendGraph) -> bool:
    """Whether ``G`` is directed and has no cycle (NetworkX's ``is_directed_acyclic_graph``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_directed_acyclic_graph(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring_paths")
    False
    """
    return G.is_directed() and _generations(G)[2] == len(G)


def _longest(G: BackendGraph, weight: Any, default_weight: Any, topo_order: Any):
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    if topo_order is not None:
        raise NotImplementedError("a given topological order is NetworkX's to follow")
    if weight is None:
        raise NotImplementedError("weight=None reads an attribute named None")
    arr, info = G.column(weight)
    if G.multigraph and info.parallel is not None:  # NetworkX takes the heaviest parallel edge
        best = []
        for raw in info.parallel:
            vals = [default_weight if v is MISSING else v for v in raw]
            try:
                best.append(max(vals))
            except TypeError as exc:
                raise NotImplementedError("parallel weights that do not compare") from exc
        from .attributes import as_value_array

        arr = as_value_array(best)
    a = numbers(arr)
    if a.nan.any() or a.posinf.any() or a.neginf.any():
        raise NotImplementedError("non-finite weights: NetworkX's comparisons of inf and NaN sums are its own")
    if a.kind == "int" and a.values.size and int(np.abs(a.values).max()) * max(len(G), 1) >= 1 << 62:
        raise NotImplementedError("integer weights whose path sums may leave int64")
    order, _, count = _generations(G)
    if count < len(G):
        raise nx.NetworkXUnfeasible(_CYCLE)
    pindptr, pindices, arcs = G.pred_csr()
    pw = a.values[arcs]
    zero = pw.dtype.type(0)
    dist, pred = dag_longest(order, pindptr, pindices, pw, zero)
    return dist, pred, order


def dag_longest_path(G: BackendGraph, weight: Any = "weight", default_weight: Any = 1, topo_order: Any = None) -> list:
    """A longest path of a DAG, as NetworkX's ``dag_longest_path`` picks it.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3}), (0, 2, {"weight": 4})])
    >>> nx.dag_longest_path(G, backend="semiring_paths")
    [0, 1, 2]
    """
    if len(G) == 0:
        return []
    dist, pred, order = _longest(G, weight, default_weight, topo_order)
    v = int(order[int(np.argmax(dist[order]))])  # the first node, in topological order, of largest length
    path = [v]
    while int(pred[path[-1]]) != path[-1]:
        path.append(int(pred[path[-1]]))
    nodes = G.nodes
    return [nodes[i] for i in reversed(path)]


def dag_longest_path_length(G: BackendGraph, weight: Any = "weight", default_weight: Any = 1) -> Any:
    """The length of NetworkX's longest path of a DAG (``dag_longest_path_length``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dag_longest_path_length(nx.DiGraph([(0, 1, {"weight": 2.5})]), backend="semiring_paths")
    2.5
    """
    if len(G) == 0:
        if not G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for undirected type")
        return 0
    dist, pred, order = _longest(G, weight, default_weight, None)
    v = int(order[int(np.argmax(dist[order]))])
    if int(pred[v]) == v:
        return 0
    return dist[v].item()


def _dense(G: BackendGraph) -> np.ndarray:
    n = len(G)
    if n > DENSE_LIMIT:
        raise NotImplementedError(f"dense reachability of {n} nodes")
    A = np.zeros((n, n), bool)
    A[G.src, G.dst] = True
    return A


def _strict_closure(A: np.ndarray) -> np.ndarray:
    """``R+``: pairs joined by a path of one or more arcs (``A R*`` over ``lor_land``)."""
    if A.shape[0] == 0:
        return A.copy()
    return lor_land.matmul(A, _reflexive_closure(A))


def _copy_with(G: BackendGraph, add: np.ndarray):
    """``G.copy()`` (its class, data kept) plus an edge ``(u, v)`` for each pair of ``add`` not yet adjacent."""
    if G.edge_data is None or G.node_data is None:
        raise NotImplementedError("the graph's data was not kept")
    TC = convert_to_nx(G)
    have = np.zeros_like(add)
    have[G.src, G.dst] = True
    r, c = np.nonzero(add & ~have)
    TC.add_edges_from(zip(G.labels(r), G.labels(c)))
    return TC


#: Why ``transitive_closure`` of an undirected graph stays with NetworkX (``can_run`` says it before converting).
UNDIRECTED_CLOSURE = "an undirected closure follows NetworkX's edge search"


def transitive_closure(G: BackendGraph, reflexive: Any = False):
    """The transitive closure as NetworkX builds it (``transitive_closure``, directed graphs).

    ``reflexive=False``: a self loop where a node lies on a cycle; ``True``:
    on every node; ``None``: none added.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.transitive_closure(nx.DiGraph([(1, 2), (2, 3)]), backend="semiring_paths").edges())
    [(1, 2), (1, 3), (2, 3)]
    """
    if reflexive not in {None, True, False}:
        raise nx.NetworkXError("Incorrect value for the parameter `reflexive`")
    if not G.is_directed():
        raise NotImplementedError(UNDIRECTED_CLOSURE)
    R = _strict_closure(_dense(G))
    if reflexive is True:
        np.fill_diagonal(R, True)
    elif reflexive is None:
        np.fill_diagonal(R, False)
    return _copy_with(G, R)


def transitive_closure_dag(G: BackendGraph, topo_order: Any = None):
    """The transitive closure of a DAG (NetworkX's ``transitive_closure_dag``).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.transitive_closure_dag(nx.DiGraph([(1, 2), (2, 3)]), backend="semiring_paths").edges())
    [(1, 2), (1, 3), (2, 3)]
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    if topo_order is not None:
        raise NotImplementedError("a given topological order is NetworkX's to follow")
    if _generations(G)[2] < len(G):
        raise nx.NetworkXUnfeasible(_CYCLE)
    return _copy_with(G, _strict_closure(_dense(G)))


def transitive_reduction(G: BackendGraph):
    """The transitive reduction of a DAG as a ``networkx.DiGraph`` without data (``transitive_reduction``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.transitive_reduction(nx.DiGraph([(1, 2), (2, 3), (1, 3)]), backend="semiring_paths").edges())
    [(1, 2), (2, 3)]
    """
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    if _generations(G)[2] < len(G):
        raise nx.NetworkXError("Directed Acyclic Graph required for transitive_reduction")
    A = _dense(G)
    longer = lor_land.matmul(A, _strict_closure(A)) if len(G) else A
    keep = A & ~longer
    nodes = G.nodes
    TR = nx.DiGraph()
    TR.add_nodes_from(nodes)
    r, c = np.nonzero(keep)
    TR.add_edges_from(zip(G.labels(r), G.labels(c)))
    return TR
