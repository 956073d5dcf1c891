"""graphs.DynamicSSSP: after every batch, the trees equal fresh searches on the current graph."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra

import graphs
from graphs import DynamicSSSP
from graphs.errors import GraphError, VertexError


def _reference(T: DynamicSSSP) -> np.ndarray:
    H = T.to_graph()
    n = H.n
    A = sp.csr_matrix((np.asarray(H.weights, dtype=np.float64), H.indices, H.indptr), shape=(n, n))
    # explicit zeros of a CSR are arcs of weight 0 for SciPy's csgraph
    return dijkstra(A, directed=H.directed, indices=T.sources)


def _assert_current(T: DynamicSSSP) -> None:
    ref = _reference(T)
    got = np.asarray(T.distances, dtype=np.float64)
    if np.dtype(T.distances.dtype).kind in "iu":
        got = np.where(T.distances == np.iinfo(T.distances.dtype).max, np.inf, got)
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-12)
    for r, s in enumerate(T.sources.tolist()):  # every tree route weighs its distance
        for t in range(0, T.n, max(1, T.n // 7)):
            route = T.path(s, t)
            if not np.isfinite(ref[r, t]):
                assert route == []
                continue
            assert route[0] == s and route[-1] == t
            total = sum(float(T.weight(a, b)) for a, b in zip(route, route[1:]))
            assert np.isclose(total, ref[r, t], rtol=1e-12)


def _graph(rng, n, m, directed, integer):
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 9, m) if integer else rng.random(m) * 10
    w[rng.random(m) < 0.1] = 0  # zero-weight arcs
    return graphs.Graph.from_edges(src, dst, w.astype(np.int64 if integer else np.float64), n=n, directed=directed)


def _sequence(seed: int, steps: int = 10) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    directed, integer = bool(rng.random() < 0.6), bool(rng.random() < 0.4)
    G = _graph(rng, n, int(rng.integers(0, 4 * n)), directed, integer)
    T = DynamicSSSP(G, rng.choice(n, size=int(rng.integers(1, min(n, 5) + 1)), replace=False))
    _assert_current(T)
    for _ in range(steps):
        k = int(rng.integers(1, 8))
        flat = rng.choice(n * n, size=min(k, n * n), replace=False)
        us, vs = flat // n, flat % n
        if not directed:  # one of the two directions of an edge per batch
            keep = np.unique(np.minimum(us, vs) * n + np.maximum(us, vs), return_index=True)[1]
            us, vs = us[keep], vs[keep]
        ws = rng.integers(0, 9, us.size) if integer else rng.random(us.size) * 10
        close = rng.random(us.size) < 0.35
        if rng.random() < 0.2:
            T.remove(us[close], vs[close])
        else:
            ws = np.where(close, np.inf, ws) if not integer else ws
            T.update(us, vs, ws)
        _assert_current(T)


@pytest.mark.parametrize("seed", range(40))
def test_updates_equal_fresh_searches(seed):
    _sequence(seed)


@pytest.mark.slow
def test_many_sequences():
    for seed in range(1000, 1400):
        _sequence(seed, steps=15)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1))
def test_close_and_reopen_restores_the_trees(seed):
    rng = np.random.default_rng(seed)
    G = graphs.generators.grid_2d(6, 7, seed=int(rng.integers(1000)))
    T = DynamicSSSP(G, [0, 17])
    start = np.array(T.distances)
    W = G.to_scipy().tocoo()
    picks = rng.choice(W.nnz, size=5, replace=False)
    us, vs = W.row[picks], W.col[picks]
    old = [T.weight(u, v) for u, v in zip(us, vs)]
    T.remove(us, vs)
    _assert_current(T)
    T.update(us, vs, np.array(old))
    np.testing.assert_array_equal(np.array(T.distances), start)


def test_a_road_network_against_rerunning_the_searches():
    G = graphs.generators.road_network(3000, seed=3)
    T = DynamicSSSP(G, [0, 11, 2999])
    rng = np.random.default_rng(0)
    A = G.to_scipy().tocoo()
    for _ in range(5):
        picks = rng.choice(A.nnz, size=3, replace=False)
        T.remove(A.row[picks], A.col[picks])
        D, _ = graphs.multi_source_sssp(T.to_graph(), T.sources)
        np.testing.assert_allclose(T.distances, D, rtol=1e-12)
        T.update(A.row[picks], A.col[picks], A.data[picks] * 0.5)
        D, _ = graphs.multi_source_sssp(T.to_graph(), T.sources)
        np.testing.assert_allclose(T.distances, D, rtol=1e-12)


def test_bad_input_changes_nothing():
    G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    T = DynamicSSSP(G, 0)
    D = np.array(T.distances)
    with pytest.raises(VertexError, match=r"dst\[1\]"):
        T.update([0, 1], [1, 7], [1.0, 1.0])
    with pytest.raises(GraphError, match=r"weights\[0\] = -1.0 is negative"):
        T.update([0], [1], [-1.0])
    with pytest.raises(GraphError, match="NaN|nan"):
        T.update([0], [1], [np.nan])
    with pytest.raises(GraphError, match="given twice"):
        T.update([0, 0], [1, 1], [1.0, 2.0])
    with pytest.raises(TypeError):
        T.update([0], [1], ["a"])
    np.testing.assert_array_equal(np.array(T.distances), D)
    with pytest.raises(GraphError, match="non-negative"):
        DynamicSSSP(graphs.Graph.from_edges([0], [1], [-1.0]), 0)
    Ti = DynamicSSSP(graphs.Graph.from_edges([0], [1], np.array([3], dtype=np.int32)), 0)
    with pytest.raises(GraphError, match="no exact int32"):
        Ti.update([0], [1], [2.5])
    Ti.remove([0], [1])
    assert Ti.distances[0, 1] == np.iinfo(np.int32).max and Ti.path(0, 1) == []
