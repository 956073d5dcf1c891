"""graphs.csgraph against scipy.sparse.csgraph itself: same names, signatures, results, orders, labels and errors."""

from __future__ import annotations

import inspect
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scs
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import random_csr_with_explicit_zeros, strong_components_by_completion

import graphs
from graphs import csgraph as gcs
from semiring.errors import InvalidEntryError

SETTINGS = settings(max_examples=25, deadline=None)
SEEDS = st.integers(0, 2**32 - 1)


# -- random graphs -------------------------------------------------------------------------------------------

def dense_graph(rng, n, density=0.3, integer=False, negative=False, specials=True):
    """A dense SciPy-convention graph: zeros are no edge; some inf and NaN (no edge too)."""
    if integer:
        W = rng.integers(1, 4, size=(n, n)).astype(np.float64)
    else:
        W = rng.random((n, n)) + 0.01
    if negative:
        W -= 0.3
    W[rng.random((n, n)) >= density] = 0
    if specials and n:
        W[rng.random((n, n)) < 0.03] = np.inf
        W[rng.random((n, n)) < 0.03] = np.nan
    return W


def sparse_graph(rng, n, density=0.3, integer=False, explicit_zeros=True, fmt="csr"):
    """A sparse graph with some explicit zeros (edges of weight 0), unsorted CSR indices."""
    m = int(density * n * n)
    rows = rng.integers(0, max(n, 1), size=m)
    cols = rng.integers(0, max(n, 1), size=m)
    data = rng.integers(1, 4, size=m).astype(np.float64) if integer else rng.random(m) + 0.01
    if explicit_zeros and m:
        data[rng.random(m) < 0.15] = 0.0
    A = sp.coo_array((data, (rows, cols)), shape=(n, n)).tocsr()  # duplicates summed
    if fmt == "csr" and A.nnz:
        perm = np.concatenate([rng.permutation(np.arange(A.indptr[i], A.indptr[i + 1])) for i in range(n)])
        A = sp.csr_array((A.data[perm], A.indices[perm], A.indptr), shape=(n, n))
    return A.asformat(fmt)


def edge_weight(csgraph, directed):
    """Dense weights in SciPy's reading (inf = no edge), symmetrised with min when undirected."""
    if sp.issparse(csgraph):
        W = scs.csgraph_to_dense(csgraph.tocsr(), null_value=np.inf)
    else:
        W = np.array(csgraph, dtype=float)
        W[(W == 0) | ~np.isfinite(W)] = np.inf
    return W if directed else np.minimum(W, W.T)


def assert_valid_predecessors(csgraph, D, P, sources, directed):
    """P is a shortest-path tree of D: every predecessor arc is tight."""
    W = edge_weight(csgraph, directed)
    D = np.atleast_2d(D)
    P = np.atleast_2d(P)
    for r, s in enumerate(np.atleast_1d(sources)):
        for v in range(D.shape[1]):
            p = P[r, v]
            if v == s or not np.isfinite(D[r, v]):
                assert p == -9999
            else:
                assert p >= 0
                assert np.isclose(D[r, p] + W[p, v], D[r, v])


# -- names and signatures ---------------------------------------------------------------------------------------

def test_every_public_scipy_name_is_here():
    public = [n for n in dir(scs) if not n.startswith("_")]
    missing = [n for n in public if not hasattr(gcs, n)]
    assert not missing
    assert set(scs.__all__) <= set(gcs.__all__)


OWN = [n for n in scs.__all__ if getattr(gcs, n) is not getattr(scs, n) and not inspect.isclass(getattr(scs, n))]


def test_own_functions_are_the_path_problems():
    assert set(OWN) == {"shortest_path", "floyd_warshall", "dijkstra", "bellman_ford", "johnson", "yen",
                        "breadth_first_order", "depth_first_order", "breadth_first_tree", "depth_first_tree",
                        "connected_components", "minimum_spanning_tree", "maximum_flow", "reconstruct_path",
                        "construct_dist_matrix"}


@pytest.mark.parametrize("name", OWN)
def test_signatures_match_scipy(name):
    ours, theirs = getattr(gcs, name), getattr(scs, name)
    s_theirs = inspect.signature(theirs)
    s_ours = inspect.signature(ours)
    added = {"dtype", "device"}
    mine = [(p.name, p.default, p.kind) for p in s_ours.parameters.values() if p.name not in added]
    scipy_params = [(p.name, p.default, p.kind) for p in s_theirs.parameters.values()]
    assert mine == scipy_params
    for p in s_ours.parameters.values():
        if p.name in added:
            assert p.kind is inspect.Parameter.KEYWORD_ONLY


def test_negative_cycle_error_is_scipys_and_ours():
    assert gcs.NegativeCycleError is scs.NegativeCycleError  # so `except csgraph.NegativeCycleError` catches SciPy's
    W = np.array([[0, 1.0, 0], [-3.0, 0, 0], [0, 0, 0]])
    raisers = [gcs.floyd_warshall, gcs.bellman_ford, gcs.johnson, lambda W: gcs.yen(W, 0, 1, 2),
               # NaN / -inf entries: SciPy's own loop
               lambda W: gcs.shortest_path(np.ma.masked_values(W + np.diag([0, 0, np.nan]), 0), method="FW"),
               lambda W: gcs.floyd_warshall(sp.csr_array(W + np.diag([0, 0, -np.inf])))]
    for f in raisers:
        with pytest.raises(gcs.NegativeCycleError) as info:
            f(W)
        assert isinstance(info.value, graphs.NegativeCycleError) and isinstance(info.value, ValueError)
        assert info.value.vertex in (0, 1, 2) and set(info.value.cycle) <= {0, 1, 2}
    for name in ("floyd_warshall", "bellman_ford", "johnson"):
        with pytest.raises(gcs.NegativeCycleError):
            getattr(scs, name)(W)  # SciPy's own functions' errors: caught by the drop-in's name
    with pytest.raises(gcs.NegativeCycleError):
        scs.yen(W, 0, 1, 2)
    with pytest.raises(scs.NegativeCycleError, match="Negative cycle in nodes"):
        gcs.floyd_warshall(W)
    with pytest.raises(scs.NegativeCycleError, match="Negative cycle detected on node 0") as info:
        gcs.yen(W, 0, 1, 2)
    assert info.value.vertex == 0


# -- shortest paths -----------------------------------------------------------------------------------------------

METHOD_KW = [("FW", {}), ("D", {}), ("BF", {}), ("J", {}), ("auto", {})]


@SETTINGS
@given(seed=SEEDS, n=st.integers(0, 11), directed=st.booleans(), unweighted=st.booleans(),
       sparse=st.booleans(), method=st.sampled_from(["auto", "FW", "D", "BF", "J"]))
def test_shortest_path_matches_scipy(seed, n, directed, unweighted, sparse, method):
    rng = np.random.default_rng(seed)
    G = sparse_graph(rng, n) if sparse else dense_graph(rng, n)
    kw = dict(method=method, directed=directed, unweighted=unweighted)
    D0, P0 = scs.shortest_path(G, return_predecessors=True, **kw)
    D1, P1 = gcs.shortest_path(G, return_predecessors=True, **kw)
    assert D1.dtype == np.float64 and P1.dtype == np.int32
    assert D1.shape == D0.shape and P1.shape == P0.shape
    np.testing.assert_allclose(D1, D0, rtol=1e-12)
    np.testing.assert_allclose(gcs.shortest_path(G, **kw), D0, rtol=1e-12)
    if unweighted or (sparse and bool((G.data == 0).any())):
        assert_valid_predecessors(np.where(np.isfinite(edge_weight(G, True)), 1.0, 0.0) if unweighted else G,
                                  D1, P1, np.arange(n), directed)
    else:
        np.testing.assert_array_equal(P1, P0)


@SETTINGS
@given(seed=SEEDS, n=st.integers(1, 11), directed=st.booleans(), sparse=st.booleans(),
       method=st.sampled_from(["D", "BF", "J", "auto"]), scalar=st.booleans())
def test_indices_shape_like_scipy(seed, n, directed, sparse, method, scalar):
    rng = np.random.default_rng(seed)
    G = sparse_graph(rng, n, explicit_zeros=False) if sparse else dense_graph(rng, n)
    idx = int(rng.integers(-n, n)) if scalar else rng.integers(-n, n, size=int(rng.integers(0, 4)))
    D0, P0 = scs.shortest_path(G, method=method, directed=directed, indices=idx, return_predecessors=True)
    D1, P1 = gcs.shortest_path(G, method=method, directed=directed, indices=idx, return_predecessors=True)
    assert D1.shape == D0.shape
    np.testing.assert_allclose(D1, D0, rtol=1e-12)
    np.testing.assert_array_equal(P1, P0)


def test_indices_2d_shape():
    G = dense_graph(np.random.default_rng(1), 6)
    idx = [[0, 1], [2, 3]]
    np.testing.assert_allclose(gcs.dijkstra(G, indices=idx), scs.dijkstra(G, indices=idx))
    assert gcs.johnson(G, indices=idx).shape == (2, 2, 6)


@SETTINGS
@given(seed=SEEDS, n=st.integers(1, 11), directed=st.booleans(), sparse=st.booleans())
def test_integer_weights_give_valid_trees(seed, n, directed, sparse):
    rng = np.random.default_rng(seed)
    G = sparse_graph(rng, n, integer=True) if sparse else dense_graph(rng, n, integer=True, specials=False)
    for method in ("FW", "D", "BF", "J"):
        D0 = scs.shortest_path(G, method=method, directed=directed)
        D1, P1 = gcs.shortest_path(G, method=method, directed=directed, return_predecessors=True)
        np.testing.assert_array_equal(D1, D0)
        assert_valid_predecessors(G, D1, P1, np.arange(n), directed)


def test_explicit_zeros_are_edges_in_sparse_input():
    A = sp.csr_array((np.array([0.0, 0.0, 2.0]), np.array([1, 2, 0]), np.array([0, 1, 2, 3])), shape=(3, 3))
    for method in ("FW", "D", "BF", "J"):
        np.testing.assert_array_equal(gcs.shortest_path(A, method=method), scs.shortest_path(A, method=method))
    assert gcs.shortest_path(A, method="D")[0, 2] == 0.0
    dense = A.toarray()
    np.testing.assert_array_equal(gcs.shortest_path(dense), scs.shortest_path(dense))
    assert np.isinf(gcs.shortest_path(dense)[0, 1])


def test_dense_nulls_and_masked_input():
    W = np.array([[0, np.nan, np.inf, 2.0], [-np.inf, 0, 2, 0], [0, 0, 0, 1], [1, 0, 0, 0]])
    for method in ("FW", "D", "BF", "J"):
        np.testing.assert_array_equal(gcs.shortest_path(W, method=method), scs.shortest_path(W, method=method))
    M = np.ma.masked_array(np.array([[0, 1.0, 5], [0, 0, 1], [7, 0, 0]]), mask=[[0, 0, 1], [0, 0, 0], [0, 1, 0]])
    for method in ("FW", "D"):
        np.testing.assert_array_equal(gcs.shortest_path(M, method=method), scs.shortest_path(M, method=method))


def test_duplicates_like_scipy():
    csr = sp.csr_array((np.array([5.0, 2.0]), np.array([1, 1]), np.array([0, 2, 2])), shape=(2, 2))
    np.testing.assert_array_equal(gcs.dijkstra(csr), scs.dijkstra(csr))  # parallel entries: the shorter
    np.testing.assert_array_equal(gcs.floyd_warshall(csr), scs.floyd_warshall(csr))
    coo = sp.coo_array((np.array([5.0, 2.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    np.testing.assert_array_equal(gcs.dijkstra(coo), scs.dijkstra(coo))  # COO: summed by tocsr
    assert gcs.dijkstra(coo)[0, 1] == 7.0


def test_negative_weights():
    rng = np.random.default_rng(5)
    n = 9
    W = np.triu(rng.random((n, n)) - 0.4, 1)  # a DAG: no cycle
    for method in ("FW", "BF", "J", "auto"):
        D0, P0 = scs.shortest_path(W, method=method, return_predecessors=True)
        D1, P1 = gcs.shortest_path(W, method=method, return_predecessors=True)
        np.testing.assert_allclose(D1, D0, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(P1, P0)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        D1 = gcs.dijkstra(W)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(D1, scs.dijkstra(W), atol=1e-12)
    # undirected: a negative edge is a negative cycle (SciPy too)
    for method in ("BF", "J"):
        with pytest.raises(scs.NegativeCycleError):
            scs.shortest_path(W, method=method, directed=False)
        with pytest.raises(scs.NegativeCycleError):
            gcs.shortest_path(W, method=method, directed=False)
    with pytest.raises(scs.NegativeCycleError), pytest.warns(UserWarning):
        gcs.dijkstra(W, directed=False)  # SciPy's search does not stop here


def test_negative_self_loop_ignored_by_floyd_warshall_like_scipy():
    W = np.array([[-1.0, 2.0], [0, 0]])
    np.testing.assert_array_equal(gcs.floyd_warshall(W), scs.floyd_warshall(W))
    with pytest.raises(scs.NegativeCycleError):
        gcs.bellman_ford(W)
    with pytest.raises(scs.NegativeCycleError):
        scs.bellman_ford(W)


@SETTINGS
@given(seed=SEEDS, n=st.integers(1, 12), directed=st.booleans(), limit=st.floats(0, 2.0),
       k=st.integers(1, 4))
def test_dijkstra_limit_and_min_only(seed, n, directed, limit, k):
    rng = np.random.default_rng(seed)
    G = dense_graph(rng, n, density=0.4)
    idx = rng.choice(n, size=min(k, n), replace=False)
    for kw in (dict(limit=limit), dict(min_only=True), dict(min_only=True, limit=limit)):
        r0 = scs.dijkstra(G, directed=directed, indices=idx, return_predecessors=True, **kw)
        r1 = gcs.dijkstra(G, directed=directed, indices=idx, return_predecessors=True, **kw)
        assert len(r0) == len(r1)
        for a, b in zip(r0, r1, strict=True):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(b, a, rtol=1e-12)
        np.testing.assert_allclose(gcs.dijkstra(G, directed=directed, indices=idx, **kw),
                                   scs.dijkstra(G, directed=directed, indices=idx, **kw))


def test_dtype_float32_and_overwrite_in_place():
    rng = np.random.default_rng(3)
    W = dense_graph(rng, 20, density=0.5, specials=False)
    D = scs.floyd_warshall(W)
    for method in ("FW", "D", "BF", "J"):
        D32 = gcs.shortest_path(W, method=method, dtype=np.float32)
        assert D32.dtype == np.float32
        np.testing.assert_allclose(D32, D, rtol=1e-5)
    A = W.copy()
    out = gcs.floyd_warshall(A, overwrite=True)
    assert np.shares_memory(out, A)
    np.testing.assert_allclose(out, D, rtol=1e-12)
    B = W.copy()
    gcs.floyd_warshall(B)
    np.testing.assert_array_equal(B, W)  # not overwritten by default
    with pytest.raises(TypeError):
        gcs.shortest_path(W, dtype=np.int32)


def test_empty_and_single_vertex():
    for n in (0, 1):
        W = np.zeros((n, n))
        for f in (scs.floyd_warshall, scs.dijkstra, scs.bellman_ford, scs.johnson, scs.shortest_path):
            r0 = f(W, return_predecessors=True)
            r1 = getattr(gcs, f.__name__)(W, return_predecessors=True)
            for a, b in zip(r0, r1, strict=True):
                assert a.shape == b.shape and a.dtype == b.dtype
                np.testing.assert_array_equal(a, b)
        k0, l0 = scs.connected_components(W)
        k1, l1 = gcs.connected_components(W)
        assert k1 == k0 and l1.dtype == l0.dtype
        np.testing.assert_array_equal(l1, l0)
        assert gcs.minimum_spanning_tree(W).shape == (n, n)
    np.testing.assert_array_equal(gcs.breadth_first_order(np.zeros((1, 1)), 0)[0], [0])


BAD_INPUTS = [np.ones((2, 3)), np.ones((2, 2, 2)), sp.csr_array(np.ones((2, 3)))]


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=["nonsquare", "3d", "sparse-nonsquare"])
@pytest.mark.parametrize("name", ["shortest_path", "floyd_warshall", "dijkstra", "bellman_ford", "johnson",
                                  "connected_components", "minimum_spanning_tree", "breadth_first_order",
                                  "depth_first_order"])
def test_bad_graphs_raise_scipys_exception_type(bad, name):
    args = (0,) if "order" in name else ()
    with pytest.raises(Exception) as theirs:
        getattr(scs, name)(bad, *args)
    with pytest.raises(type(theirs.value)):
        getattr(gcs, name)(bad, *args)


def test_bad_arguments_like_scipy():
    W = dense_graph(np.random.default_rng(0), 4, specials=False)
    cases = [
        dict(method="XX"), dict(method="FW", indices=0), dict(indices=5), dict(indices=-5), dict(method="D", indices=9),
    ]
    for kw in cases:
        with pytest.raises(ValueError) as theirs:
            scs.shortest_path(W, **kw)
        with pytest.raises(ValueError, match=str(theirs.value).replace("(", r"\(").replace(")", r"\)")
                           .replace(".", r"\.")):
            gcs.shortest_path(W, **kw)
    with pytest.raises(ValueError, match="limit must be >= 0"):
        gcs.dijkstra(W, limit=-1)
    with pytest.raises(ValueError, match="connection must be"):
        gcs.connected_components(W, connection="x")
    with pytest.raises(ValueError):
        gcs.breadth_first_order(W, 7)
    with pytest.raises(TypeError):
        gcs.dijkstra(W, indices=1.5)
    with pytest.raises(ValueError):
        gcs.dijkstra(W, device="tpu")


# -- traversals and components -----------------------------------------------------------------------------------

@SETTINGS
@given(seed=SEEDS, n=st.integers(1, 14), directed=st.booleans(), fmt=st.sampled_from(["dense", "csr", "csc", "coo"]),
       density=st.sampled_from([0.1, 0.25, 0.5]))
def test_traversal_orders_are_scipys(seed, n, directed, fmt, density):
    rng = np.random.default_rng(seed)
    G = dense_graph(rng, n, density) if fmt == "dense" else sparse_graph(rng, n, density, fmt=fmt)
    start = int(rng.integers(0, n))
    for name in ("breadth_first_order", "depth_first_order"):
        o0, p0 = getattr(scs, name)(G, start, directed=directed)
        o1, p1 = getattr(gcs, name)(G, start, directed=directed)
        assert o1.dtype == np.int32 and p1.dtype == np.int32
        np.testing.assert_array_equal(o1, o0)
        np.testing.assert_array_equal(p1, p0)
        np.testing.assert_array_equal(getattr(gcs, name)(G, start, directed, False), o0)
    for name in ("breadth_first_tree", "depth_first_tree"):
        t0 = getattr(scs, name)(G, start, directed=directed)
        t1 = getattr(gcs, name)(G, start, directed=directed)
        assert type(t1) is type(t0)
        np.testing.assert_array_equal(t1.toarray(), t0.toarray())


@SETTINGS
@given(seed=SEEDS, n=st.integers(1, 14), directed=st.booleans(), dtype=st.sampled_from([bool, np.int8, np.float32]))
def test_non_float64_unsorted_input_read_as_scipy(seed, n, directed, dtype):
    """SciPy's float64 conversion sorts the rows and sums duplicates of a non-float64 matrix: orders follow it."""
    rng = np.random.default_rng(seed)
    m = 3 * n
    rows, cols = rng.integers(0, n, size=m), rng.integers(0, n, size=m)
    order = np.argsort(rows, kind="stable")  # CSR with unsorted rows and duplicate entries, built by hand
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))])
    A = sp.csr_array((np.ones(m, dtype=dtype), cols[order], indptr), shape=(n, n))
    start = int(rng.integers(0, n))
    for name in ("breadth_first_order", "depth_first_order"):
        for a, b in zip(getattr(scs, name)(A, start, directed), getattr(gcs, name)(A, start, directed), strict=True):
            np.testing.assert_array_equal(b, a)
    for connection in ("weak", "strong"):
        np.testing.assert_array_equal(gcs.connected_components(A, directed, connection)[1],
                                      scs.connected_components(A, directed, connection)[1])
    np.testing.assert_array_equal(gcs.minimum_spanning_tree(A).toarray(), scs.minimum_spanning_tree(A).toarray())


@SETTINGS
@given(seed=SEEDS, n=st.integers(0, 30), directed=st.booleans(), density=st.sampled_from([0.02, 0.05, 0.1, 0.3]),
       connection=st.sampled_from(["weak", "strong", "Strong"]), dense=st.booleans())
def test_component_labels_are_scipys(seed, n, directed, density, connection, dense):
    rng = np.random.default_rng(seed)
    G = dense_graph(rng, n, density) if dense else sparse_graph(rng, n, density)
    k0, l0 = scs.connected_components(G, directed=directed, connection=connection)
    k1, l1 = gcs.connected_components(G, directed=directed, connection=connection)
    assert k1 == k0 and l1.dtype == l0.dtype
    np.testing.assert_array_equal(l1, l0)
    assert gcs.connected_components(G, directed, connection, return_labels=False) == k0


# Labels SciPy 1.18.1 returned for connected_components(A, directed=True, connection="strong") on the graphs
# random_csr_with_explicit_zeros(seed, 60, 0.05) of tests/reference.py, seeds 0, 1, 2 (recorded on the GPU machine).
SCIPY_1_18_STRONG = {
    0: [3, 4, 3, 1, 3, 3, 6, 3, 3, 3, 3, 3, 3, 3, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 8, 3, 3, 3, 3, 3, 3, 3, 2, 3, 9, 3, 3, 3, 7, 3, 3, 3, 3, 3, 3, 3, 3, 3, 5, 3, 3, 3, 3],
    1: [0, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
        5, 4, 4, 4, 4, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4],
    2: [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 3, 3, 3, 3, 3, 3, 3, 3, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 3, 3, 5, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
}


@pytest.mark.parametrize("seed", sorted(SCIPY_1_18_STRONG))
def test_strong_labels_follow_scipy_1_18_when_it_is_installed(seed, monkeypatch):
    from graphs.csgraph import _traversal

    A = random_csr_with_explicit_zeros(seed, 60, 0.05)
    monkeypatch.setattr(_traversal, "SCIPY_VERSION", (1, 18))
    k, labels = gcs.connected_components(A, directed=True, connection="strong")
    np.testing.assert_array_equal(labels, SCIPY_1_18_STRONG[seed])
    assert k == max(SCIPY_1_18_STRONG[seed]) + 1
    monkeypatch.setattr(_traversal, "SCIPY_VERSION", (1, 17))
    k17, labels17 = gcs.connected_components(A, directed=True, connection="strong")
    assert k17 == k
    from graphs.csgraph._input import SCIPY_VERSION

    if SCIPY_VERSION < (1, 18):  # the installed SciPy numbers them the 1.17 way
        np.testing.assert_array_equal(labels17, scs.connected_components(A, True, "strong")[1])
    assert not np.array_equal(labels17, labels)  # the two numberings differ on these graphs: the switch matters


@SETTINGS
@given(seed=SEEDS, n=st.integers(0, 40), density=st.sampled_from([0.02, 0.05, 0.1, 0.3]), forward=st.booleans())
def test_hypothesis_strong_labels_against_a_recursive_tarjan(seed, n, density, forward):
    """Both visiting orders against a slow recursive Tarjan numbering components as they complete."""
    from graphs.csgraph import _kernels

    rng = np.random.default_rng(seed)
    m = int(density * n * n)
    A = sp.coo_array((np.ones(m), (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n)).tocsr()
    labels = np.empty(n, dtype=np.int32)
    k = _kernels.strong_labels(A.indptr, A.indices, labels, forward) if n else 0
    want = strong_components_by_completion(A.indptr, A.indices, forward)
    np.testing.assert_array_equal(labels, want)
    assert k == (int(want.max()) + 1 if n else 0)


def test_scipy_1_18_reads_a_sparse_input_in_its_stored_row_order(monkeypatch):
    """From SciPy 1.18 strong components keep the input's dtype, so unsorted rows are read as stored."""
    from graphs.csgraph import _traversal

    indptr, indices = np.array([0, 2, 2, 2]), np.array([2, 1])  # 0 -> 2, 0 -> 1: row 0 lists 2 before 1
    A = sp.csr_array((np.ones(2, dtype=np.int64), indices, indptr), shape=(3, 3))
    assert not A.has_sorted_indices
    monkeypatch.setattr(_traversal, "SCIPY_VERSION", (1, 18))
    got = gcs.connected_components(A, directed=True, connection="strong")[1]
    np.testing.assert_array_equal(got, [2, 1, 0])  # 2 completes first, then 1, then 0
    np.testing.assert_array_equal(got, strong_components_by_completion(indptr, indices, forward=True))
    sorted_order = gcs.connected_components(A.astype(np.float64), directed=True, connection="strong")[1]
    np.testing.assert_array_equal(sorted_order, [2, 0, 1])  # float64 astype sorted the row: 1 first


# -- spanning trees ----------------------------------------------------------------------------------------------

@SETTINGS
@given(seed=SEEDS, n=st.integers(0, 16), integer=st.booleans(), dense=st.booleans(), symmetric=st.booleans())
def test_minimum_spanning_tree_is_scipys_entry_for_entry(seed, n, integer, dense, symmetric):
    rng = np.random.default_rng(seed)
    G = dense_graph(rng, n, 0.4, integer=integer) if dense else sparse_graph(rng, n, 0.4, integer=integer)
    if symmetric:
        G = G + G.T if not dense else np.where(np.isfinite(G), G, 0) + np.where(np.isfinite(G.T), G.T, 0)
    T0 = scs.minimum_spanning_tree(G)
    T1 = gcs.minimum_spanning_tree(G)
    assert type(T1) is type(T0) and T1.dtype == T0.dtype and T1.shape == T0.shape
    np.testing.assert_array_equal(T1.toarray(), T0.toarray())  # ties included (integer weights)
    assert T1.nnz == T0.nnz


@SETTINGS
@given(seed=SEEDS, n=st.integers(0, 20), kind=st.sampled_from(["bool", "ones", "int8", "zeros", "half"]),
       density=st.sampled_from([0.1, 0.3, 0.6]))
def test_minimum_spanning_tree_all_ties_is_scipys(seed, n, kind, density):
    """Every stored entry weighs the same (the one-pass route): SciPy's entries, with unsorted indices too."""
    rng = np.random.default_rng(seed)
    A = sparse_graph(rng, n, density, explicit_zeros=False)
    value = {"bool": True, "ones": 1.0, "int8": np.int8(3), "zeros": 0.0, "half": 0.5}[kind]
    A.data = np.full(A.nnz, value, dtype=np.asarray(value).dtype)
    T0 = scs.minimum_spanning_tree(A)
    T1 = gcs.minimum_spanning_tree(A)
    assert type(T1) is type(T0) and T1.dtype == T0.dtype and T1.shape == T0.shape
    np.testing.assert_array_equal(T1.toarray(), T0.toarray())
    assert T1.nnz == T0.nnz
    for T in (T0, T1):
        T.sort_indices()
    np.testing.assert_array_equal(T1.indices, T0.indices)
    np.testing.assert_array_equal(T1.indptr, T0.indptr)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_minimum_spanning_tree_output_types():
    M = np.matrix([[0, 1.0], [1.0, 0]])
    assert isinstance(gcs.minimum_spanning_tree(M), sp.csr_matrix)
    assert isinstance(gcs.minimum_spanning_tree(sp.csr_matrix(M)), sp.csr_matrix)
    assert isinstance(gcs.minimum_spanning_tree(np.asarray(M)), sp.csr_array)


# -- flows -----------------------------------------------------------------------------------------------------

def check_flow(A, flow, value, s, t):
    F = flow.toarray().astype(np.int64)
    C = A.toarray().astype(np.int64)
    np.testing.assert_array_equal(F, -F.T)
    assert (F <= C + 0).all() or (F[C > 0] <= C[C > 0]).all()
    net = F.sum(axis=1)
    assert net[s] == value and net[t] == -value
    others = np.delete(net, [s, t])
    assert not others.any()


@SETTINGS
@given(seed=SEEDS, n=st.integers(2, 14), density=st.sampled_from([0.1, 0.3, 0.6]),
       method=st.sampled_from(["dinic", "edmonds_karp"]), matrix=st.booleans())
def test_maximum_flow_like_scipy(seed, n, density, method, matrix):
    rng = np.random.default_rng(seed)
    C = rng.integers(1, 20, size=(n, n)) * (rng.random((n, n)) < density)
    np.fill_diagonal(C, 0)
    A = (sp.csr_matrix if matrix else sp.csr_array)(C)
    s, t = (int(v) for v in rng.choice(n, 2, replace=False))
    r0 = scs.maximum_flow(A, s, t, method=method)
    r1 = gcs.maximum_flow(A, s, t, method=method)
    assert isinstance(r1, type(r0))
    assert r1.flow_value == r0.flow_value
    assert type(r1.flow) is type(r0.flow) and r1.flow.dtype == r0.flow.dtype
    check_flow(A, r1.flow, r1.flow_value, s, t)
    assert r1.source_side[s] and not r1.source_side[t]


def test_maximum_flow_int64_exact_where_scipy_wraps():
    big = 3 * 2**31
    A = sp.csr_array((np.array([big, big], dtype=np.int64), np.array([1, 2]), np.array([0, 1, 2, 2])), shape=(3, 3))
    r = gcs.maximum_flow(A, 0, 2)
    assert r.flow_value == big and r.flow.dtype == np.int64
    check_flow(A, r.flow, r.flow_value, 0, 2)
    assert scs.maximum_flow(A, 0, 2).flow_value != big  # SciPy casts to int32


def test_maximum_flow_errors_like_scipy():
    A = sp.csr_array(np.array([[0, 3], [0, 0]]))
    cases = [(A.tocoo(), 0, 1, {}), (A.astype(float), 0, 1, {}), (A, 0, 0, {}), (A, 0, 5, {}), (A, -1, 1, {}),
             (A, 0, 1, dict(method="xx")), (sp.csr_array(np.ones((2, 3), dtype=int)), 0, 1, {})]
    for G, s, t, kw in cases:
        with pytest.raises(Exception) as theirs:
            scs.maximum_flow(G, s, t, **kw)
        with pytest.raises(type(theirs.value), match=str(theirs.value).replace("(", r"\(").replace(")", r"\)")
                           .replace(".", r"\.")):
            gcs.maximum_flow(G, s, t, **kw)


# -- helpers ----------------------------------------------------------------------------------------------------

def test_reconstruct_path_and_dist_matrix():
    rng = np.random.default_rng(2)
    G = dense_graph(rng, 8, 0.4, specials=False)
    D, P = gcs.shortest_path(G, return_predecessors=True)
    np.testing.assert_array_equal(gcs.construct_dist_matrix(G, P), scs.construct_dist_matrix(G, P))
    np.testing.assert_allclose(gcs.construct_dist_matrix(G, P), D)
    _, p = gcs.breadth_first_order(G, 0)
    np.testing.assert_array_equal(gcs.reconstruct_path(G, p).toarray(), scs.reconstruct_path(G, p).toarray())
    assert gcs.csgraph_from_dense is scs.csgraph_from_dense and gcs.laplacian is scs.laplacian


@pytest.mark.parametrize("c", [1.0, 0.5, 3.0, 0.1])
@pytest.mark.parametrize("directed", [True, False])
def test_equal_weights_search_breadth_first_with_exact_distances(c, directed):
    """All arcs weigh c: searched breadth-first when c's multiples are exact (not for 0.1), same distances."""
    rng = np.random.default_rng(int(c * 10))
    A = sparse_graph(rng, 40, 0.06, explicit_zeros=False)
    A.data[:] = c
    src = [0, 5, 17]
    for f in ("dijkstra", "johnson", "bellman_ford"):
        D0 = getattr(scs, f)(A, directed=directed, indices=src)
        D1, P1 = getattr(gcs, f)(A, directed=directed, indices=src, return_predecessors=True)
        np.testing.assert_array_equal(D1, D0)
        assert_valid_predecessors(A, D1, P1, src, directed)
    D0 = scs.dijkstra(A, directed=directed, indices=src, limit=2 * c)
    np.testing.assert_array_equal(gcs.dijkstra(A, directed=directed, indices=src, limit=2 * c), D0)
    np.testing.assert_array_equal(gcs.dijkstra(A, directed=directed, indices=src, unweighted=True),
                                  scs.dijkstra(A, directed=directed, indices=src, unweighted=True))


# -- limit: the searches stop there (the many-source engine) ---------------------------------------------------

def arc_weights(A, p, v, directed):
    """The weight SciPy's search reads for each arc ``p[i] -> v[i]`` of the CSR matrix ``A`` (``inf``: none)."""
    n = A.shape[0]
    keys = np.repeat(np.arange(n, dtype=np.int64), np.diff(A.indptr)) * n + A.indices
    order = np.argsort(keys, kind="stable")
    keys, data = keys[order], A.data[order]

    def lookup(a, b):
        q = a.astype(np.int64) * n + b
        i = np.minimum(np.searchsorted(keys, q), keys.shape[0] - 1)
        return np.where(keys[i] == q, data[i], np.inf)

    w = lookup(p, v)
    return w if directed else np.minimum(w, lookup(v, p))


def assert_tree(A, D, P, src, directed):
    """``P`` is a shortest-path tree of ``D`` (vectorized ``assert_valid_predecessors``), -9999 where none."""
    rows, cols = np.nonzero(P != -9999)
    assert np.all(np.isfinite(D[rows, cols])) and np.all(cols != np.asarray(src)[rows])
    w = arc_weights(A, P[rows, cols], cols, directed)
    np.testing.assert_allclose(D[rows, P[rows, cols]] + w, D[rows, cols], rtol=1e-12)
    none = P == -9999
    assert np.all(~np.isfinite(D[none]) | (D[none] == 0))


@pytest.mark.parametrize("directed", [True, False])
def test_limit_on_a_deep_graph_matches_scipy(directed):
    """Sources on a 5,000-vertex road network (enough for the engine's renumbered route), searches stopping at limit;
    unit weights: searches stopping at the limit while it keeps them local, else breadth-first ones cut there."""
    from graphs.paths.many_source import RENUMBER_SOURCES_PER_THREAD
    from semiring.kernels import num_threads

    A = graphs.generators.road_network(5000, seed=1).to_scipy()  # integer lengths: float32 is exact
    U = A.copy()
    U.data[:] = 1.0
    k = max(12, RENUMBER_SOURCES_PER_THREAD * num_threads())
    src = np.random.default_rng(4).choice(A.shape[0], k, replace=False)
    for limit, hops in ((0.0, 0), (250.0, 5), (1500.0, 40), (1e9, 10**6)):  # 5 hops: 1% of the vertices, 40: 48%
        D0, P0 = scs.dijkstra(A, directed, src, True, limit=limit)
        D1, P1 = gcs.dijkstra(A, directed, src, True, limit=limit)
        assert D1.dtype == np.float64 and P1.dtype == np.int32
        np.testing.assert_array_equal(D1, D0)
        np.testing.assert_array_equal(P1 == -9999, P0 == -9999)
        assert_tree(A, D1, P1, src, directed)
        D32 = gcs.dijkstra(A, directed, src, limit=limit, dtype=np.float32)
        assert D32.dtype == np.float32
        np.testing.assert_array_equal(D32, D0.astype(np.float32))
        H0, Q0 = scs.dijkstra(A, directed, src, True, unweighted=True, limit=hops)
        H1, Q1 = gcs.dijkstra(A, directed, src, True, unweighted=True, limit=hops)
        np.testing.assert_array_equal(H1, H0)
        np.testing.assert_array_equal(Q1 == -9999, Q0 == -9999)
        assert_tree(U, H1, Q1, src, directed)
        d0, p0, s0 = scs.dijkstra(A, directed, src, True, limit=limit, min_only=True)
        d1, p1, s1 = gcs.dijkstra(A, directed, src, True, limit=limit, min_only=True)
        np.testing.assert_array_equal(d1, d0)
        np.testing.assert_array_equal(s1 == -9999, s0 == -9999)
        reached = s1 != -9999
        row = {int(s): r for r, s in enumerate(src)}
        rows = np.array([row[int(x)] for x in s1[reached]], dtype=np.int64)
        np.testing.assert_array_equal(D0[rows, np.flatnonzero(reached)], d1[reached])  # a source at the least distance
        assert_tree(A, d1[None, :], p1[None, :], [-1], directed)


def test_limit_goes_into_the_searches(monkeypatch):
    """dijkstra and shortest_path hand limit and the checked sources to the engine, which stops there."""
    here = gcs.shortest_path.__globals__  # the module gcs runs (a doctest run may import the file a second time)
    seen = []
    real = here["distance_rows"]

    def spy(G, src, cols, **kw):
        seen.append((src.tolist(), kw["limit"]))
        return real(G, src, cols, **kw)

    monkeypatch.setitem(here, "distance_rows", spy)
    G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]], dtype=float)
    np.testing.assert_array_equal(gcs.dijkstra(G, indices=[0, -1], limit=1.5),
                                  scs.dijkstra(G, indices=[0, -1], limit=1.5))
    np.testing.assert_array_equal(gcs.dijkstra(G, indices=2, limit=1.0, unweighted=True),
                                  scs.dijkstra(G, indices=2, limit=1.0, unweighted=True))
    np.testing.assert_array_equal(gcs.dijkstra(G, indices=[1, 2], limit=1.5, min_only=True),
                                  scs.dijkstra(G, indices=[1, 2], limit=1.5, min_only=True))
    np.testing.assert_array_equal(gcs.shortest_path(G, indices=[1]), scs.shortest_path(G, indices=[1]))
    assert seen == [([0, 3], 1.5), ([2], 1.0), ([4], 1.5), ([1], None)]


def test_equal_weights_are_searched_breadth_first_when_the_limit_reaches_far(monkeypatch):
    """Unit weights: searches stopping at a limit that keeps them local; breadth-first ones (then cut) otherwise."""
    here = gcs.shortest_path.__globals__  # the module gcs runs (a doctest run may import the file a second time)
    calls = []
    real = here["bfs"]
    monkeypatch.setitem(here, "bfs", lambda G, s: calls.append(s) or real(G, s))
    A = graphs.generators.road_network(5000, seed=1).to_scipy()
    src = np.random.default_rng(4).choice(A.shape[0], 10, replace=False)
    for hops, searched in ((5, []), (60, src[1:].tolist()), (np.inf, src.tolist())):  # 1%, 84% of the vertices
        calls.clear()
        np.testing.assert_array_equal(gcs.dijkstra(A, indices=src, unweighted=True, limit=hops),
                                      scs.dijkstra(A, indices=src, unweighted=True, limit=hops))
        assert calls == searched


def test_limit_in_float32_is_compared_as_scipy_compares_it():
    """A distance equal to limit is kept: in float32 the limit is rounded as the distances are (0.1 -> 0.1f)."""
    G = sp.csr_array(np.array([[0, 0.1, 0], [0, 0, 0.2], [0, 0, 0]]))
    want = scs.dijkstra(G, indices=0, limit=0.1)
    assert np.isfinite(want[1]) and not np.isfinite(want[2])
    for min_only in (False, True):
        got = gcs.dijkstra(G, indices=0, limit=0.1, dtype=np.float32, min_only=min_only)
        np.testing.assert_array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize("directed", [True, False])
def test_nan_limit_reaches_only_the_sources_as_scipy(directed):
    rng = np.random.default_rng(6)
    W = dense_graph(rng, 9, density=0.5, specials=False)
    W[W > 0.9] = 0.0  # some zero-weight edges are still no edges in a dense graph
    A = sp.csr_array(W)
    A.data[:3] = 0.0  # explicit zeros: arcs of weight 0, not followed either
    for G in (W, A):
        for kw in (dict(indices=[3, 0]), dict(indices=[3, 0], min_only=True), dict(indices=4)):
            r0 = scs.dijkstra(G, directed, return_predecessors=True, limit=np.nan, **kw)
            r1 = gcs.dijkstra(G, directed, return_predecessors=True, limit=np.nan, **kw)
            for a, b in zip(r0, r1, strict=True):
                assert a.dtype == b.dtype
                np.testing.assert_array_equal(b, a)


def test_bad_graph_reported_before_bad_method():
    for bad in (np.ones((2, 3)), sp.csr_array(np.ones((2, 3)))):
        with pytest.raises(ValueError) as theirs:
            scs.shortest_path(bad, method="XX")
        with pytest.raises(ValueError, match=re.escape(str(theirs.value))):
            gcs.shortest_path(bad, method="XX")


# -- SciPy's reading of every input: tolerance, infinities, NaN, dtypes, pydata --------------------------------------

NEAR_ZERO = [0.0, -0.0, 5e-9, -5e-9, 1e-8, -1e-8, float(np.nextafter(1e-8, 1)), -float(np.nextafter(1e-8, 1)),
             1.5e-8, 1e-300]
ORDINARY = [0.5, 1.0, 2.0, 3.0]
SPECIAL = [np.inf, -np.inf, np.nan]
READERS = ["floyd_warshall", "FW", "D", "BF", "J", "auto", "bfo", "dfo", "cc_weak", "cc_strong", "mst"]


def outcome(f):
    """``f()``, or the exception it raised (compared by type with SciPy's)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ComplexWarning, SciPy's negative-weight warning
            return f()
    except Exception as err:  # noqa: BLE001 - the exception is the result compared
        return err


def assert_same_outcome(ours, theirs, exact=False):
    if isinstance(theirs, Exception):
        kind = type(theirs)
        if kind.__module__.startswith("numpy"):  # NumPy's own subclass (UFuncTypeError): its builtin base counts
            kind = next(k for k in kind.__mro__ if k.__module__ == "builtins")
        assert isinstance(ours, kind), f"SciPy raised {theirs!r}, ours gave {ours!r}"
        return
    assert not isinstance(ours, Exception), f"ours raised {ours!r} where SciPy answered"
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_same_outcome(a, b, exact)
        return
    if sp.issparse(theirs):
        assert type(ours) is type(theirs)
        ours, theirs = ours.toarray(), theirs.toarray()
    if isinstance(theirs, np.ndarray):
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        if exact or theirs.dtype.kind != "f":
            np.testing.assert_array_equal(ours, theirs)
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-14)
    else:
        assert ours == theirs


def distances(result):
    """The distances of a (distances, predecessors) result; an exception as it is."""
    return result[0] if isinstance(result, tuple) else result


def read_with(module, name, G, directed=True, unweighted=False):
    """One function of ``module`` (SciPy's csgraph or the drop-in) on ``G``: what it makes of the graph."""
    if name == "floyd_warshall":
        return module.floyd_warshall(G, directed, unweighted=unweighted)
    if name in ("FW", "D", "BF", "J", "auto"):
        return module.shortest_path(G, name, directed, unweighted=unweighted)
    if name == "bfo":
        return module.breadth_first_order(G, 0, directed)
    if name == "dfo":
        return module.depth_first_order(G, 0, directed)
    if name == "cc_weak":
        return module.connected_components(G, directed)
    if name == "cc_strong":
        return module.connected_components(G, directed, "strong")
    return module.minimum_spanning_tree(G)


def square(values, n):
    return st.lists(st.sampled_from(values), min_size=n * n, max_size=n * n).map(
        lambda v: np.array(v, dtype=np.float64).reshape(n, n))


@st.composite
def dense_near_zero(draw):
    """A dense graph whose entries sit on both sides of SciPy's null tolerance (|x| <= 1e-8), in some dtype."""
    n = draw(st.integers(1, 6))
    W = draw(square(NEAR_ZERO + ORDINARY + SPECIAL, n))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.float16, np.complex128, np.int64, np.bool_]))
    if np.dtype(dtype).kind in "bi":
        W = np.nan_to_num(W, nan=0, posinf=0, neginf=0).round()
    return W.astype(dtype)


@settings(max_examples=60, deadline=None)
@given(G=dense_near_zero(), name=st.sampled_from(READERS), directed=st.booleans(), unweighted=st.booleans())
def test_hypothesis_dense_entries_near_zero_are_read_as_scipy_reads_them(G, name, directed, unweighted):
    """One rule (|x| <= 1e-8 is no edge in a float dense graph, as numpy.ma.masked_values decides) for every function."""
    if name == "D" and (np.real(G) < 0).any():
        G = np.abs(G)  # SciPy's Dijkstra is not meant for negative weights (it may not even stop)
    theirs = outcome(lambda: read_with(scs, name, G, directed, unweighted))
    ours = outcome(lambda: read_with(gcs, name, G, directed, unweighted))
    assert_same_outcome(ours, theirs, exact=name in ("bfo", "dfo", "cc_weak", "cc_strong", "mst"))


def test_dense_entries_within_the_tolerance_are_no_edge_for_floyd_warshall():
    W = np.array([[0, 5e-9, 2.0], [0, 0, 1.0], [-1e-8, 0, 0]])
    want = np.array([[0, np.inf, 2.0], [np.inf, 0, 1.0], [np.inf, np.inf, 0]])
    for f in (lambda X: gcs.floyd_warshall(X), lambda X: gcs.shortest_path(X, method="FW"),
              lambda X: gcs.dijkstra(X), lambda X: gcs.floyd_warshall(X.astype(np.float32), dtype=np.float32)):
        np.testing.assert_array_equal(f(W), want)
    np.testing.assert_array_equal(gcs.floyd_warshall(W), scs.floyd_warshall(W))
    assert gcs.floyd_warshall(np.array([[0, 1.5e-8], [0, 0]]))[0, 1] == 1.5e-8  # beyond the tolerance: an edge
    Z = np.array([[0, 1j, 2], [0, 0, 1], [0, 0, 0]])  # complex: x == 0 is no edge; FW then drops real zeros too
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(gcs.floyd_warshall(Z), scs.floyd_warshall(Z))
        np.testing.assert_array_equal(gcs.dijkstra(Z), scs.dijkstra(Z))


@st.composite
def sparse_with_specials(draw, values):
    """A sparse graph (CSR with parallel entries, CSC, COO or LIL) whose stored entries include ``values``."""
    n = draw(st.integers(1, 6))
    m = draw(st.integers(0, 2 * n * n))
    rows = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    cols = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    data = draw(st.lists(st.sampled_from(values), min_size=m, max_size=m))
    fmt = draw(st.sampled_from(["csr_parallel", "csr", "csc", "coo", "lil"]))
    rows, cols, data = np.array(rows, dtype=np.int32), np.array(cols, dtype=np.int32), np.array(data, dtype=float)
    if fmt == "csr_parallel":  # parallel entries kept, rows in the drawn order
        order = np.argsort(rows, kind="stable")
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))]).astype(np.int32)
        return sp.csr_array((data[order], cols[order], indptr), shape=(n, n))
    return sp.coo_array((data, (rows, cols)), shape=(n, n)).asformat(fmt)


SPARSE_VALUES = [0.0, 0.5, 1.0, 2.0, 3.0, np.inf, np.nan]


@settings(max_examples=60, deadline=None)
@given(G=sparse_with_specials(SPARSE_VALUES), method=st.sampled_from(["FW", "D", "BF", "J", "auto"]),
       directed=st.booleans())
def test_hypothesis_unweighted_counts_every_stored_entry(G, method, directed):
    """unweighted=True: every stored entry is an edge of one hop, +inf and NaN included (FW reads +inf/NaN as none)."""
    kw = dict(method=method, directed=directed, unweighted=True, return_predecessors=True)
    theirs = outcome(lambda: scs.shortest_path(G, **kw))
    ours = outcome(lambda: gcs.shortest_path(G, **kw))
    assert_same_outcome(distances(ours), distances(theirs), exact=True)  # hop counts; trees may break ties otherwise
    if isinstance(theirs, Exception):
        return
    unit = G.tocsr().copy()
    unit.data[:] = 1.0
    if method not in ("FW", "auto"):
        assert_valid_predecessors(unit, ours[0], ours[1], np.arange(G.shape[0]), directed)


def test_unweighted_infinite_sparse_entry_is_one_hop():
    A = sp.csr_array(np.array([[0, np.inf, 2.0], [0, 0, 1], [0, 0, 0]]))
    for method in ("D", "BF", "J"):
        D = gcs.shortest_path(A, method=method, unweighted=True)
        np.testing.assert_array_equal(D[0], [0, 1, 1])
        np.testing.assert_array_equal(D, scs.shortest_path(A, method=method, unweighted=True))
    np.testing.assert_array_equal(gcs.shortest_path(A, method="FW", unweighted=True)[0], [0, np.inf, 1])


@settings(max_examples=80, deadline=None)
@given(G=sparse_with_specials(SPARSE_VALUES + [-1.0, -0.5]), method=st.sampled_from(["FW", "D", "BF", "J", "auto"]),
       directed=st.booleans(), predecessors=st.booleans())
def test_hypothesis_nan_and_inf_sparse_entries_are_no_path(G, method, directed, predecessors):
    """A stored NaN or +inf is never relaxed by SciPy's searches (nor read by its FW): same distances, no error."""
    if method == "D":
        G = abs(G)
    kw = dict(method=method, directed=directed, return_predecessors=predecessors)
    theirs = outcome(lambda: scs.shortest_path(G, **kw))
    ours = outcome(lambda: gcs.shortest_path(G, **kw))
    assert_same_outcome(distances(ours), distances(theirs))


@settings(max_examples=40, deadline=None)
@given(G=sparse_with_specials(SPARSE_VALUES), directed=st.booleans(), limit=st.sampled_from([np.inf, 0.5, 2.5]))
def test_hypothesis_nan_sparse_entries_in_dijkstra_limit_and_min_only(G, directed, limit):
    for kw in (dict(limit=limit), dict(indices=[0], min_only=True, limit=limit)):
        theirs = outcome(lambda kw=kw: scs.dijkstra(G, directed, **kw))
        ours = outcome(lambda kw=kw: gcs.dijkstra(G, directed, **kw))
        assert_same_outcome(ours, theirs, exact=True)


def test_nan_sparse_entries_answer_like_scipy():
    A = sp.csr_array(np.array([[0, np.nan, 2.0], [0, 0, 1], [0, 0, 0]]))
    for method in ("FW", "D", "BF", "J"):
        for unweighted in (False, True):
            np.testing.assert_array_equal(gcs.shortest_path(A, method=method, unweighted=unweighted),
                                          scs.shortest_path(A, method=method, unweighted=unweighted))
    assert gcs.dijkstra(A)[0, 1] == np.inf and gcs.dijkstra(A, unweighted=True)[0, 1] == 1


@settings(max_examples=80, deadline=None)
@given(G=sparse_with_specials([0.0, 0.5, 1.0, 2.0, -1.0, np.inf, -np.inf, np.nan]))
def test_hypothesis_minimum_spanning_tree_keeps_infinite_and_nan_entries_like_scipy(G):
    """SciPy's Kruskal sorts +inf and NaN entries last (NaN after +inf) and keeps them where they join components."""
    assert_same_outcome(outcome(lambda: gcs.minimum_spanning_tree(G)), outcome(lambda: scs.minimum_spanning_tree(G)),
                        exact=True)


def test_minimum_spanning_tree_keeps_an_infinite_entry():
    A = sp.csr_array(np.array([[0, np.inf, 0], [0, 0, np.nan], [0, 0, 0]]))
    T = gcs.minimum_spanning_tree(A).toarray()
    np.testing.assert_array_equal(T, scs.minimum_spanning_tree(A).toarray())
    assert T[0, 1] == np.inf and np.isnan(T[1, 2])


@settings(max_examples=60, deadline=None)
@given(G=st.integers(1, 6).flatmap(lambda n: square([0.0, 1.0, 2.0, -1.0, 0.5, np.nan, -np.inf, np.inf], n)),
       masked=st.booleans(), directed=st.booleans(), unweighted=st.booleans())
def test_hypothesis_floyd_warshall_with_nan_or_minus_inf_is_scipys_loop(G, masked, directed, unweighted):
    """Masked arrays keep NaN and -inf entries, sparse ones -inf: FW's answer is SciPy's loop's, predecessors too."""
    X = np.ma.masked_array(G, mask=G == 1.0) if masked else sp.csr_array(np.where(np.isnan(G), 0, G))
    kw = dict(directed=directed, unweighted=unweighted, return_predecessors=True)
    assert_same_outcome(outcome(lambda: gcs.floyd_warshall(X, **kw)), outcome(lambda: scs.floyd_warshall(X, **kw)),
                        exact=True)


NOT_NUMBERS = [object, "U3", "S3", "datetime64[s]", "timedelta64[s]"]


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(NOT_NUMBERS + [np.float64, np.int8, np.bool_, np.complex64, np.float16]),
       name=st.sampled_from(READERS + ["reconstruct_path"]))
def test_hypothesis_a_dense_graph_must_hold_numbers(dtype, name):
    """TypeError for object, string and date arrays from every function, as SciPy; numbers are read."""
    G = np.array([[0, 1, 0], [1, 0, 2], [0, 0, 0]]).astype(dtype)
    if name == "reconstruct_path":
        f = lambda m: m.reconstruct_path(G, np.array([-9999, 0, 1]))  # noqa: E731
    else:
        f = lambda m: read_with(m, name, G)  # noqa: E731
    theirs, ours = outcome(lambda: f(scs)), outcome(lambda: f(gcs))
    assert isinstance(theirs, TypeError) == (dtype in NOT_NUMBERS)
    assert_same_outcome(ours, theirs)


def test_floyd_warshall_refuses_an_object_array():
    with pytest.raises(TypeError, match="dtype object"):
        gcs.floyd_warshall(np.array([[0, 1], [1, 0]], dtype=object))
    M = np.ma.masked_array(np.array([[0, 1], [1, 0]], dtype=object), mask=[[1, 0], [0, 1]])
    np.testing.assert_array_equal(gcs.floyd_warshall(M), scs.floyd_warshall(M))  # masked: SciPy converts the data


def test_floyd_warshall_reads_only_the_formats_scipy_reads():
    A = sp.coo_array(np.array([[0, 1.0], [1.0, 0]]))
    for f in (gcs.floyd_warshall, lambda X: gcs.shortest_path(X, method="FW"), gcs.shortest_path):
        with pytest.raises(ValueError, match="lil, csr, or csc"):
            f(A)
        with pytest.raises(ValueError, match="lil, csr, or csc"):
            scs.shortest_path(A) if f is gcs.shortest_path else scs.floyd_warshall(A)
    np.testing.assert_array_equal(gcs.dijkstra(A), scs.dijkstra(A))


def test_minus_inf_is_refused_by_the_searches_and_float32_overflow_is_an_error():
    A = sp.csr_array(np.array([[0, 1.0, 0], [0, 0, -np.inf], [0, 0, 0]]))
    for method in ("D", "BF", "J"):
        with pytest.raises(InvalidEntryError, match=r"csgraph\[1, 2\] is -inf"):
            gcs.shortest_path(A, method=method)
    np.testing.assert_array_equal(gcs.shortest_path(A, method="D", unweighted=True),
                                  scs.shortest_path(A, method="D", unweighted=True))
    with pytest.raises(InvalidEntryError, match="does not fit float32"):
        gcs.floyd_warshall(np.array([[0, 1e300], [0, 0]]), dtype=np.float32)
    with pytest.raises(InvalidEntryError, match="does not fit float32"):
        gcs.dijkstra(sp.csr_array(np.array([[0, -1e300], [0, 0]])), dtype=np.float32)


# pydata sparse arrays: read as SciPy reads them, graphs returned in their class

pydata = pytest.importorskip  # the pydata tests below skip without the `sparse` package


@pytest.mark.parametrize("cls", ["COO", "GCXS"])
def test_pydata_sparse_input_gives_scipys_answers(cls):
    sparse = pydata("sparse")
    W = np.array([[0, 1, 2, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0]], dtype=float)
    X = getattr(sparse, cls).from_numpy(W)
    calls = [lambda m: m.shortest_path(X), lambda m: m.floyd_warshall(X, return_predecessors=True),
             lambda m: m.dijkstra(X, indices=[0, 3]), lambda m: m.bellman_ford(X), lambda m: m.johnson(X, False),
             lambda m: m.shortest_path(X, method="FW", directed=False), lambda m: m.breadth_first_order(X, 0, False),
             lambda m: m.depth_first_order(X, 3), lambda m: m.connected_components(X, connection="strong"),
             lambda m: m.connected_components(X)]
    for call in calls:
        assert_same_outcome(outcome(lambda call=call: call(gcs)), outcome(lambda call=call: call(scs)), exact=True)
    # yen: SciPy's own rejects pydata's int64 indices; the drop-in reads them as its other functions do
    with pytest.raises(ValueError, match="Buffer dtype mismatch"):
        scs.yen(X, 0, 2, 2)
    for directed in (True, False):  # two paths of length 2 tie: the same rows, in the drop-in's order
        (d1, p1), (d2, p2) = (m.yen(Y, 0, 2, 3, directed=directed, return_predecessors=True)
                              for m, Y in ((gcs, X), (scs, sp.csr_array(W))))
        np.testing.assert_array_equal(d1, d2)
        assert p1.dtype == p2.dtype and sorted(map(tuple, p1.tolist())) == sorted(map(tuple, p2.tolist()))
    graph_results = [lambda m: m.minimum_spanning_tree(X), lambda m: m.breadth_first_tree(X, 0),
                     lambda m: m.depth_first_tree(X, 0, False),
                     lambda m: m.reconstruct_path(X, np.array([-9999, 0, 0, 4, 3]))]
    for call in graph_results:
        ours, theirs = call(gcs), call(scs)
        assert type(ours) is type(theirs) and ours.fill_value == theirs.fill_value
        np.testing.assert_array_equal(ours.todense(), theirs.todense())


def test_pydata_sparse_flow_and_fill_values():
    sparse = pydata("sparse")
    C = sparse.COO.from_numpy(np.array([[0, 5, 3], [0, 0, 4], [0, 0, 0]]))
    ours, theirs = gcs.maximum_flow(C, 0, 2), scs.maximum_flow(C, 0, 2)
    assert ours.flow_value == theirs.flow_value == 7
    assert type(ours.flow) is type(theirs.flow)
    np.testing.assert_array_equal(ours.flow.todense(), theirs.flow.todense())
    inf_fill = sparse.COO.from_numpy(np.array([[np.inf, 1.0], [2.0, np.inf]]), fill_value=np.inf)
    np.testing.assert_array_equal(gcs.shortest_path(inf_fill), scs.shortest_path(inf_fill))
    with pytest.raises(ValueError):
        scs.maximum_flow(sparse.COO.from_numpy(np.array([[7, 1], [1, 7]]), fill_value=7), 0, 1)
    with pytest.raises(ValueError):
        gcs.maximum_flow(sparse.COO.from_numpy(np.array([[7, 1], [1, 7]]), fill_value=7), 0, 1)


@pytest.mark.gpu
def test_gpu_reads_special_values_as_scipy_reads_them():
    """The same reading on the device: the dense tolerance, stored +inf / NaN, MST order, SciPy's own FW loop."""
    cp = pytest.importorskip("cupy")
    import cupyx.scipy.sparse as csp

    from semiring.backend import gpu_available

    if not gpu_available():
        pytest.skip("no usable CUDA GPU")
    rng = np.random.default_rng(5)
    W = np.abs(rng.choice(np.array(NEAR_ZERO + ORDINARY + [np.inf, np.nan]), size=(12, 12)))  # no negative cycle
    S = sp.csr_array(np.where(rng.random((12, 12)) < 0.4, rng.choice([0.0, 1.0, 2.0, np.inf, np.nan], (12, 12)), 0))
    for method in ("FW", "D", "BF", "J"):
        for directed in (True, False):
            want = scs.shortest_path(W, method, directed)
            np.testing.assert_allclose(gcs.shortest_path(cp.asarray(W), method, directed).get(), want, rtol=1e-12)
            np.testing.assert_allclose(gcs.shortest_path(W, method, directed, device="gpu"), want, rtol=1e-12)
            for unweighted in (False, True):
                want = scs.shortest_path(S, method, directed, unweighted=unweighted)
                got = gcs.shortest_path(csp.csr_matrix(S), method, directed, unweighted=unweighted)
                np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    T = gcs.minimum_spanning_tree(csp.csr_matrix(S))
    np.testing.assert_array_equal(T.get().toarray(), scs.minimum_spanning_tree(S).toarray())
    np.testing.assert_array_equal(gcs.minimum_spanning_tree(S, device="gpu").toarray(),
                                  scs.minimum_spanning_tree(S).toarray())
    M = np.ma.masked_values(np.where(rng.random((8, 8)) < 0.3, np.nan, rng.random((8, 8))), 0)
    D, P = gcs.floyd_warshall(M, return_predecessors=True, device="gpu")
    D0, P0 = scs.floyd_warshall(M, return_predecessors=True)
    np.testing.assert_array_equal(D, D0)
    np.testing.assert_array_equal(P, P0)
