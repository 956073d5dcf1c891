"""The graph container: construction, conversions, parallel arcs, explicit zeros, errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import semiring as sr
from graphs import Graph, GraphError, VertexError, as_graph
from semiring.errors import DTypeError, InvalidEntryError


@st.composite
def edge_lists(draw, max_n=12, max_m=40, weighted=True, negative=False):
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, max_m)) if n else 0
    src = draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m))
    w = None
    if weighted:
        lo = -20 if negative else 0
        w = np.asarray(draw(st.lists(st.integers(lo, 50), min_size=m, max_size=m)), dtype=np.float64)
    return n, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), w


def dense_reference(n, src, dst, w, S=sr.min_plus, dtype=np.float64, directed=True):
    D = np.full((n, n), S.zero_value(dtype), dtype=dtype)
    vals = np.ones(len(src), dtype=dtype) if w is None else w.astype(dtype)
    for u, v, x in zip(src.tolist(), dst.tolist(), vals.tolist()):
        D[u, v] = S.add_ufunc(D[u, v], x)
        if not directed and u != v:
            D[v, u] = S.add_ufunc(D[v, u], x)
    for i in range(n):
        D[i, i] = S.add_ufunc(D[i, i], S.one_value(dtype))
    return D


@settings(deadline=None, max_examples=60)
@given(edge_lists(), st.booleans())
def test_from_edges_csr_and_dense(data, directed):
    n, src, dst, w = data
    G = Graph.from_edges(src, dst, w, n=n, directed=directed)
    assert G.n == n and G.directed == directed
    loops = int((src == dst).sum())
    assert G.nnz == (len(src) if directed else 2 * len(src) - loops)
    assert G.num_edges == len(src)
    # Rows sorted, parallel arcs kept.
    for i in range(n):
        row = G.indices[G.indptr[i]:G.indptr[i + 1]]
        assert np.all(np.diff(row) >= 0)
    np.testing.assert_array_equal(G.to_dense(), dense_reference(n, src, dst, w, directed=directed))
    np.testing.assert_array_equal(G.to_dense(sr.max_plus), dense_reference(n, src, dst, w, sr.max_plus,
                                                                           directed=directed))
    np.testing.assert_array_equal(G.to_dense(sr.lor_land), dense_reference(n, src, dst, None, sr.lor_land, bool,
                                                                           directed=directed))
    # to_scipy combines parallel arcs with min, keeps explicit zeros; from_scipy gives them back.
    A = G.to_scipy()
    assert A.has_canonical_format
    D = np.full((n, n), np.inf)
    C = A.tocoo()
    D[C.row, C.col] = C.data
    np.fill_diagonal(D, np.minimum(np.diag(D), 0) if n else D.diagonal())
    np.testing.assert_array_equal(D, G.to_dense())
    H = Graph.from_scipy(A)
    np.testing.assert_array_equal(H.to_dense(), G.to_dense())
    # Transpose.
    np.testing.assert_array_equal(G.transpose().to_dense(), G.to_dense().T)
    assert G.simplify().nnz == A.nnz


def test_explicit_zero_weights_are_edges():
    G = Graph.from_edges([0, 1], [1, 2], [0.0, 0.0])
    A = G.to_scipy()
    assert A.nnz == 2 and np.all(A.data == 0)
    from scipy.sparse.csgraph import dijkstra

    np.testing.assert_array_equal(dijkstra(A, indices=0), [0.0, 0.0, 0.0])
    B = sp.csr_array((np.array([0.0, 5.0]), np.array([1, 2]), np.array([0, 2, 2, 2])), shape=(3, 3))
    H = Graph.from_scipy(B)
    assert H.nnz == 2
    np.testing.assert_array_equal(H.to_dense()[0], [0.0, 0.0, 5.0])


def test_from_scipy_undirected_takes_the_smaller_direction():
    A = sp.csr_array(np.array([[0, 3.0, 0], [1.0, 0, 0], [0, 7.0, 0]]))
    G = Graph.from_scipy(A, directed=False)
    assert not G.directed
    np.testing.assert_array_equal(G.to_dense(), [[0, 1, np.inf], [1, 0, 7], [np.inf, 7, 0]])
    assert Graph.from_scipy(sp.csr_array(np.eye(2, dtype=bool))).weights is None


def test_from_dense_and_as_graph():
    D = np.array([[0.0, 2.0, np.inf], [np.inf, 3.0, 0.0], [np.inf, np.inf, 0.0]])
    G = as_graph(D)
    assert G.nnz == 3  # the 3.0 self loop is kept, the zeros on the diagonal are the identity
    np.testing.assert_array_equal(G.to_dense(), np.minimum(D, np.diag([0.0, 0.0, 0.0]) + np.where(
        np.eye(3, dtype=bool), 0.0, np.inf)))
    B = Graph.from_dense(np.array([[False, True], [True, False]]), sr.lor_land)
    assert B.weights is None and B.nnz == 2
    M = Graph.from_dense(np.array([[-np.inf, 4.0], [-np.inf, -np.inf]]), "max_plus")
    assert M.nnz == 1
    with pytest.raises(InvalidEntryError, match=r"D\[0, 1\] is NaN"):
        Graph.from_dense(np.array([[0.0, np.nan], [0.0, 0.0]]))
    with pytest.raises(GraphError, match="square"):
        Graph.from_dense(np.zeros((2, 3)))
    with pytest.raises(GraphError, match="cannot make a graph"):
        as_graph([[0, 1]])


def test_networkx_round_trip():
    H = nx.DiGraph()
    H.add_weighted_edges_from([("a", "b", 2.5), ("b", "c", 1.0), ("c", "a", 4.0)])
    H.add_node("z")
    G = Graph.from_networkx(H)
    assert G.n == 4 and G.node_labels == ["a", "b", "c", "z"]
    back = G.to_networkx()
    assert nx.utils.graphs_equal(back, H)
    U = nx.path_graph(4)
    GU = Graph.from_networkx(U)
    assert not GU.directed and GU.weights is None and GU.num_edges == 3
    M = nx.MultiDiGraph()
    M.add_edge(0, 1, weight=5)
    M.add_edge(0, 1, weight=2)
    GM = Graph.from_networkx(M)
    assert GM.nnz == 2 and GM.to_dense()[0, 1] == 2
    assert list(GM.to_networkx().edges(data="weight")) == [(0, 1, 2)]


def test_construction_errors_name_the_entry():
    with pytest.raises(VertexError, match=r"dst\[1\] = 5"):
        Graph.from_edges([0, 1], [1, 5], n=3)
    with pytest.raises(VertexError, match=r"src\[0\] = -1"):
        Graph.from_edges([-1], [0])
    with pytest.raises(DTypeError, match="weights has dtype int8"):
        Graph.from_edges([0], [1], np.array([1], dtype=np.int8))
    with pytest.raises(InvalidEntryError, match=r"weights\[1\] is NaN"):
        Graph.from_edges([0, 1], [1, 0], [1.0, np.nan])
    with pytest.raises(DTypeError, match="integer vertex ids"):
        Graph.from_edges([0.5], [1.0])
    with pytest.raises(GraphError, match="one entry per arc"):
        Graph.from_edges([0, 1], [1, 0], [1.0])
    with pytest.raises(GraphError, match="must not decrease"):
        Graph(np.array([0, 2, 1, 3]), np.array([0, 1, 2]))
    with pytest.raises(GraphError, match="square"):
        Graph.from_scipy(sp.csr_array(np.ones((2, 3))))


def test_small_graphs_and_properties():
    E = Graph.from_edges([], [], n=0)
    assert E.n == 0 and E.nnz == 0 and E.to_dense().shape == (0, 0)
    one = Graph.from_edges([0], [0], [3.0])
    assert one.num_self_loops == 1 and one.to_dense().tolist() == [[0.0]]
    G = Graph.from_edges([0, 0, 2], [1, 2, 0], [1, -2, 3])
    assert G.dtype == np.int64 and G.has_negative_weights
    np.testing.assert_array_equal(G.out_degree(), [2, 0, 1])
    np.testing.assert_array_equal(G.in_degree(), [1, 1, 1])
    assert "Graph(n=3, nnz=3" in repr(G) and len(G) == 3
    D = G.to_dense(dtype=np.float32)
    assert D.dtype == np.float32 and D[1, 0] == np.inf
    with pytest.raises(DTypeError):
        G.to_dense(sr.lor_land, dtype=np.float64)
