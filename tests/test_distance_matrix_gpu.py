"""The GPU route of the many-source engine (graphs.cuda.batched_search) against SciPy and the CPU route."""

from __future__ import annotations

import numpy as np
import pytest
from gpu_support import cupy_or_skip

import apsp
import graphs
from graphs import Graph

cp, pytestmark = cupy_or_skip()


from test_distance_matrix import as_float, check_routes, expect, random_graph, scipy_of  # noqa: E402


def BS():
    from graphs.cuda import batched_search

    return batched_search


@pytest.mark.parametrize("S", [1, 7, 1 << 30])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("kind", ["float", "int", "int32", "float32"])
def test_gpu_equals_scipy(kind, directed, S, monkeypatch):
    monkeypatch.setattr(BS(), "BATCH_SOURCES", S)
    G = random_graph(333, 1100, 17, directed=directed, kind=kind, zeros=0.05 if kind == "int" else 0.0)
    rng = np.random.default_rng(3)
    src, tgt = rng.integers(0, 333, 23), rng.integers(0, 333, 71)
    D = graphs.distance_matrix(G.to("gpu"), src, tgt)
    assert isinstance(D, cp.ndarray) and D.dtype == G.weights.dtype
    ref = expect(G, src, tgt)
    if kind == "float32":
        np.testing.assert_allclose(as_float(D.get()), ref, rtol=1e-5)
    else:
        assert np.array_equal(as_float(D.get()), ref)
    assert np.array_equal(D.get(), graphs.distance_matrix(G, src, tgt))  # float32: summed as the CPU sums


@pytest.mark.parametrize("zeros", [0.0, 0.2])
@pytest.mark.parametrize("limit", [None, 9.0])
def test_gpu_road_network_predecessors_and_limit(zeros, limit, monkeypatch):
    monkeypatch.setattr(BS(), "BATCH_SOURCES", 13)
    G = graphs.generators.road_network(5000, seed=8)
    if zeros:
        w = G.weights.copy()
        w[np.random.default_rng(1).random(w.shape[0]) < zeros] = 0
        G = Graph(G.indptr, G.indices, w, check=False)
    lim = np.inf if limit is None else limit * float(np.median(G.weights))
    src = np.random.default_rng(4).choice(G.n, 40, replace=False)
    D, P = graphs.distance_matrix(G.to("gpu"), src, None, predecessors=True, limit=None if limit is None else lim)
    D, P = D.get(), P.get()
    assert np.array_equal(D, expect(G, src, limit=lim))
    assert np.array_equal(P < 0, (~np.isfinite(D)) | (np.arange(G.n)[None, :] == src[:, None]))
    check_routes(G, src, D, P, np.random.default_rng(5).choice(G.n, 15, replace=False))


def test_gpu_hops_negative_and_host_out(tmp_path):
    G = graphs.generators.road_network(3000, seed=2)
    src = np.arange(0, 3000, 97)
    hops = graphs.distance_matrix(G.to("gpu"), src, weighted=False).get()
    assert np.array_equal(hops, graphs.distance_matrix(G, src, weighted=False))
    N = random_graph(200, 700, 5, negative=True)
    np.testing.assert_allclose(graphs.distance_matrix(N.to("gpu"), np.arange(20)).get(),
                               expect(N, np.arange(20), negative=True), rtol=1e-12)
    path = tmp_path / "D.npy"
    D = graphs.distance_matrix(G.to("gpu"), src, np.arange(100), out=path)
    assert isinstance(D, np.memmap) and np.array_equal(np.load(path), expect(G, src, np.arange(100)))
    buf = np.full((src.shape[0], 100), -1.0)
    graphs.distance_matrix(G.to("gpu"), src, np.arange(100), out=buf)
    assert np.array_equal(buf, expect(G, src, np.arange(100)))


def BB():
    from graphs.cuda import bit_bfs

    return bit_bfs


@pytest.mark.parametrize("batch_bytes", [1, 1 << 40])
@pytest.mark.parametrize("directed", [True, False])
def test_gpu_hop_rows_of_the_bit_parallel_bfs(directed, batch_bytes, monkeypatch):
    """Hop rows (weighted=False) run on the bit-parallel BFS: equal to SciPy's unweighted rows for sources that
    repeat, fill part of a word or several batches, targets repeated and unordered, with and without limit,
    into a device result and a host array; the CPU rows equal them."""
    import scipy.sparse.csgraph as csg

    monkeypatch.setattr(BB(), "ROW_BYTES", batch_bytes)  # 1: one word of 64 sources per batch
    calls = []
    real = BB().BitPlanes.step
    monkeypatch.setattr(BB().BitPlanes, "step", lambda self, *a: calls.append(1) or real(self, *a))
    G = random_graph(1237, 3000, 11, directed=directed)
    rng = np.random.default_rng(12)
    src = np.concatenate([rng.integers(0, G.n, 150), [5, 5, 5]])
    tgt = rng.permutation(np.concatenate([rng.integers(0, G.n, 40), [3, 3]]))
    A = (scipy_of(G) != 0).astype(np.float64)
    ref = csg.shortest_path(A, method="D", directed=directed, unweighted=True, indices=src)
    Gg = G.to("gpu")
    D = graphs.distance_matrix(Gg, src, weighted=False)
    assert isinstance(D, cp.ndarray) and D.dtype == np.float64
    assert np.array_equal(D.get(), ref) and calls
    assert np.array_equal(graphs.distance_matrix(Gg, src, tgt, weighted=False).get(), ref[:, tgt])
    lim = csg.dijkstra(A, directed=directed, unweighted=True, indices=src, limit=3.5)
    assert np.array_equal(graphs.distance_matrix(Gg, src, tgt, weighted=False, limit=3.5).get(), lim[:, tgt])
    host = np.full((src.shape[0], G.n), -1.0)
    graphs.distance_matrix(Gg, src, weighted=False, out=host)
    assert np.array_equal(host, ref)
    np.testing.assert_array_equal(graphs.distance_matrix(Gg, src, weighted=False).get(),
                                  graphs.distance_matrix(G, src, weighted=False))


def test_gpu_integer_sums_past_2_53_run_exactly():
    """Integer weights whose path sums could pass 2**53 do not take the float64 batched search."""
    w = np.array([2**52, 2**52, 3], dtype=np.int64)
    G = Graph.from_edges([0, 1, 2], [1, 2, 3], w)
    D = graphs.distance_matrix(G.to("gpu"), [0], [3]).get()
    assert D[0, 0] == 2**53 + 3


def test_multi_source_sssp_and_statistics_on_the_batched_search():
    G = graphs.generators.road_network(4000, seed=6)
    src = np.arange(0, 4000, 211)
    D, P = graphs.multi_source_sssp(G.to("gpu"), src)
    assert np.array_equal(D.get(), expect(G, src))
    check_routes(G, src, D.get(), P.get(), np.arange(0, 4000, 400))
    np.testing.assert_allclose(graphs.closeness_centrality(G.to("gpu")).get(), graphs.closeness_centrality(G),
                               rtol=1e-12)
    assert apsp.path(P.get()[0], int(src[0]), int(src[0])) == [int(src[0])]
