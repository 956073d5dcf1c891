"""Minimum spanning trees as NetworkX returns them, from :func:`graphs.minimum_spanning_tree`.

NetworkX's Kruskal sorts ``G.edges()`` stably by weight, so among equal
weights the earlier edge wins.  Handing the library each edge's *rank* in
that order as its weight makes every weight distinct, so the library's unique
minimum spanning forest is exactly Kruskal's; the result is built as NetworkX
builds it (same graph class, graph, node and edge data copied, edges added
in Kruskal's order).  ``algorithm="prim"`` and ``"boruvka"`` give Kruskal's
forest too: a minimum spanning forest of the same multiset of weights as
NetworkX's, the same forest when the weights are distinct (with ties, which
of the minimum forests NetworkX's Prim returns depends on the order of a set).
"""

from __future__ import annotations

from itertools import repeat
from math import isnan
from typing import Any

import networkx as nx
import numpy as np

from semiring.docstrings import fill_template

from ..graph import Graph
from ..trees.spanning_tree import minimum_spanning_tree as _msf
from .attributes import NUMERIC_TYPES, as_value_array
from .convert import build_nx
from .graph import BackendGraph

__all__ = ["minimum_spanning_tree", "maximum_spanning_tree", "minimum_spanning_edges", "maximum_spanning_edges"]

ALGORITHMS = ("boruvka", "borůvka", "kruskal", "prim")
_INF = float("inf")


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

    ``weight`` is read as NetworkX reads it: ``d.get(weight, 1)`` on each
    edge's data (``weight=None`` included), compared as Python compares the
    values (integers of any size, ints with floats).  NaN weights raise
    ``ValueError`` where NetworkX's algorithm meets them (every edge for
    Kruskal; edges between two nodes for Prim and Boruvka) or are skipped with
    ``ignore_nan``; Boruvka never picks an edge of weight ``+inf``, as
    NetworkX's (its lightest edge must be lighter than ``inf``).  Values that
    are not Python numbers (NumPy scalars, ``Fraction``, ``None``, ...) raise
    ``NotImplementedError`` (NetworkX runs itself where it falls back).

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
    >>> H = nx.Graph([(0, 1, {"weight": 2**64}), (1, 2, {"weight": 2.0**64}), (0, 2, {"weight": 2**64 + 1})])
    >>> sorted(nx.minimum_spanning_tree(H, backend="semiring_paths").edges(data=True))
    [(0, 1, {'weight': 18446744073709551616}), (1, 2, {'weight': 1.8446744073709552e+19})]
    """
    return _spanning_tree(G, weight, algorithm, ignore_nan, True)


def maximum_spanning_tree(
    G: BackendGraph, weight: Any = "weight", algorithm: str = "kruskal", ignore_nan: bool = False
):
    """A maximum spanning forest as a NetworkX graph (NetworkX's ``maximum_spanning_tree``).

    Kruskal's order for a maximum: the edges sorted by decreasing weight,
    equal weights in ``G.edges()`` order (Python's ``sorted(reverse=True)``
    is stable); see :func:`minimum_spanning_tree` for the rest.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 3}), (1, 2, {"weight": 1}), (0, 2, {"weight": 2})])
    >>> sorted(nx.maximum_spanning_tree(G, backend="semiring_paths").edges(data=True))
    [(0, 1, {'weight': 3}), (0, 2, {'weight': 2})]
    """
    return _spanning_tree(G, weight, algorithm, ignore_nan, False)


def _check_undirected(G: BackendGraph, algorithm: str) -> None:
    """NetworkX's first two refusals of the spanning-tree functions: an unknown algorithm, a directed graph."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def _spanning_tree(G: BackendGraph, weight: Any, algorithm: str, ignore_nan: bool, minimum: bool):
    """The minimum (or maximum) spanning forest as a NetworkX graph, after NetworkX's refusals."""
    _check_undirected(G, algorithm)
    if G.is_multigraph() and algorithm in ("boruvka", "borůvka"):
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if G.edge_data is None:
        which = "minimum" if minimum else "maximum"
        raise NotImplementedError(f"{which}_spanning_tree needs the edge data (preserve_edge_attrs)")
    return _build(G, _forest(G, weight, algorithm, ignore_nan, minimum))


def _spanning_edges(G, algorithm, weight, keys, data, ignore_nan, minimum):
    _check_undirected(G, algorithm)
    if algorithm != "kruskal":
        raise NotImplementedError(f"{algorithm}'s order of edges is NetworkX's own")
    if G.multigraph and G.edge_data is None:
        raise NotImplementedError("a multigraph's edge keys were not converted")
    try:
        picked = _forest(G, weight, algorithm, ignore_nan, minimum)
    except ValueError as exc:  # NaN: NetworkX's generator raises it when iterated
        return _raise_later(exc)
    nodes = G.nodes
    out = []
    for i, j, k, d in picked:
        e = (nodes[i], nodes[j])
        if G.multigraph and keys:
            e = (*e, k)
        if data:
            e = (*e, d)
        out.append(e)
    return iter(out)


def _raise_later(exc: Exception):
    raise exc
    yield  # pragma: no cover - makes this a generator


#: The docstring of :func:`minimum_spanning_edges` and :func:`maximum_spanning_edges`.
_EDGES_DOC = """Generator of the edges of Kruskal's {kind} spanning forest, in its order (``{kind}_spanning_edges``).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 3}), (1, 2, {"weight": 1}), (0, 2, {"weight": 2})])
    >>> list(nx.{kind}_spanning_edges(G, data=False, backend="semiring_paths"))
    {result}
    """


@fill_template(_EDGES_DOC, kind="minimum", result="[(1, 2), (0, 2)]")
def minimum_spanning_edges(G: BackendGraph, algorithm: str = "kruskal", weight: Any = "weight", keys: bool = True,
                           data: bool = True, ignore_nan: bool = False):
    return _spanning_edges(G, algorithm, weight, keys, data, ignore_nan, True)


@fill_template(_EDGES_DOC, kind="maximum", result="[(0, 1), (0, 2)]")
def maximum_spanning_edges(G: BackendGraph, algorithm: str = "kruskal", weight: Any = "weight", keys: bool = True,
                           data: bool = True, ignore_nan: bool = False):
    return _spanning_edges(G, algorithm, weight, keys, data, ignore_nan, False)


def _forest(G: BackendGraph, weight: Any, algorithm: str, ignore_nan: bool, minimum: bool) -> list[tuple]:
    """The forest's edges ``(i, j, key, data)`` in Kruskal's order (``data`` None where not kept)."""
    if G.multigraph:
        edges = _candidate_edges(G)
        ends_i = np.array([e[0] for e in edges], dtype=np.int32)
        ends_j = np.array([e[1] for e in edges], dtype=np.int32)
        vals = as_value_array([e[3].get(weight, 1) for e in edges])
    else:
        arcs = np.flatnonzero(G.dst >= G.src)  # each edge once, from its earlier end, as G.edges() lists it
        ends_i, ends_j = G.src[arcs], G.dst[arcs]
        vals = G.column_at(weight, arcs)
        edges = None
    w, nan, posinf = _orderable(vals)
    skip = np.zeros(w.size, dtype=bool)
    if nan.any():
        met = nan if algorithm == "kruskal" else nan & (ends_i != ends_j)  # Prim and Boruvka never weigh self loops
        if met.any() and not ignore_nan:
            k = int(np.argmax(met))
            shown = _shown(G, edges, arcs if edges is None else None, k)
            raise ValueError(f"NaN found as an edge weight. Edge {shown}")
        if algorithm == "prim" and not ignore_nan:
            # NetworkX's Prim weighs the self loops of the node each component starts from (set order)
            raise NotImplementedError("a NaN self loop with Prim: NetworkX raises or not by the order of a set")
        skip |= nan
    if algorithm in ("boruvka", "borůvka"):
        skip |= (posinf if minimum else w == -_INF if w.dtype.kind == "f" else np.zeros(w.size, bool))
    kept = np.flatnonzero(~skip)
    positions = kept[_kruskal_positions(ends_i[kept], ends_j[kept], _ranks(w[kept], minimum), len(G.nodes))]
    if edges is not None:
        return [edges[i] for i in positions.tolist()]
    picked = arcs[positions]
    data = G.edge_data
    return list(zip(G.src[picked].tolist(), G.dst[picked].tolist(), repeat(None),
                    map(data.__getitem__, picked.tolist()) if data is not None else repeat(None)))


def _shown(G: BackendGraph, edges: list | None, arcs: np.ndarray | None, k: int) -> tuple:
    """Candidate ``k`` as NetworkX shows an edge in its NaN message."""
    nodes = G.nodes
    if edges is not None:
        i, j, key, d = edges[k]
        return (nodes[i], nodes[j], key, d)
    if G.edge_data is None:
        raise NotImplementedError("NetworkX's message shows the edge data, which was not converted")
    e = int(arcs[k])
    return (nodes[int(G.src[e])], nodes[int(G.dst[e])], G.edge_data[e])


def _orderable(vals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values, nan mask, +inf mask)`` of MST weights, with values sortable exactly as Python sorts them.

    int64 and float64 arrays sort as Python sorts their values; an object array
    of Python ints and floats (integers beyond int64, ints with floats) is kept
    as it is and ranked by Python.  Other types raise ``NotImplementedError``.
    """
    if vals.dtype.kind in "iub":
        none = np.zeros(vals.size, dtype=bool)
        return vals.astype(np.int64, copy=False), none, none
    if vals.dtype.kind == "f":
        return vals, np.isnan(vals), vals == np.inf
    objs = vals.tolist()
    other = set(map(type, objs)) - NUMERIC_TYPES
    if other:
        raise NotImplementedError(f"edge weights of type {', '.join(sorted(t.__qualname__ for t in other))}")
    try:
        nan = np.fromiter((isnan(v) for v in objs), dtype=bool, count=len(objs))
    except OverflowError as exc:  # an int beyond float64: NetworkX's isnan raises
        raise NotImplementedError(f"an integer weight beyond float64's range: {exc}") from exc
    posinf = np.fromiter((v == _INF for v in objs), dtype=bool, count=len(objs))
    return vals, nan, posinf


def _ranks(w: np.ndarray, minimum: bool = True) -> np.ndarray:
    """Each weight's position in a stable sort (Python's order: NetworkX's ``sorted``), as int64.

    ``minimum=False``: decreasing, equal weights kept in their order (``sorted(reverse=True)``).
    """
    if w.dtype == object:
        objs = w.tolist()
        order = np.array(sorted(range(len(objs)), key=objs.__getitem__, reverse=not minimum), dtype=np.int64)
    elif minimum:
        order = np.argsort(w, kind="stable")
    else:
        order = np.lexsort((np.arange(w.size), -_key(w)))
    rank = np.empty(w.size, np.int64)
    rank[order] = np.arange(w.size)
    return rank


def _key(w: np.ndarray) -> np.ndarray:
    """Numbers whose increasing order is ``w``'s (negated safely: int64's minimum, -0.0)."""
    if w.dtype.kind == "f":
        return w + 0.0
    return w.astype(np.float64) if (w == np.iinfo(np.int64).min).any() else w


def _kruskal_positions(ends_i: np.ndarray, ends_j: np.ndarray, rank: np.ndarray, n: int) -> np.ndarray:
    """Positions (into the candidates) of the forest's edges, in Kruskal's order; ``rank``: the stable sort's ranks."""
    if rank.size == 0:
        return np.zeros(0, np.int64)
    order = np.empty(rank.size, np.int64)
    order[rank] = np.arange(rank.size)
    H = Graph.from_edges(ends_i, ends_j, rank, n=n, directed=True)
    return order[np.sort(_msf(H).edges[2])]


def _build(G: BackendGraph, picked: list[tuple]):
    """The forest as NetworkX builds it: G's class, graph and node data, edges in Kruskal's order."""
    cls = G.nx_class if isinstance(G.nx_class, type) and issubclass(G.nx_class, nx.Graph) else None
    cls = cls or (nx.MultiGraph if G.multigraph else nx.Graph)
    if G.multigraph:
        T = build_nx(cls, G.graph, G.nodes, G.node_data, [], [])
        nodes = G.nodes
        T.add_edges_from((nodes[i], nodes[j], k, d) for i, j, k, d in picked)
        return T
    i, j, _, d = zip(*picked) if picked else ((), (), (), ())
    return build_nx(cls, G.graph, G.nodes, G.node_data, G.labels(i), G.labels(j), d)
