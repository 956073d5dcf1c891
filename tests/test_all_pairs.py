"""graphs.all_pairs_shortest_paths: the sparse route (BFS, Dijkstra) against SciPy under a tiny budget."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import apsp
import graphs

MiB = 2**20


def random_graph(n: int, m: int, seed: int, weighted: bool, negative: bool = False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = None
    if weighted:
        w = rng.integers(0, 20, m).astype(np.float64)
        if negative:  # potentials keep every cycle non-negative
            h = rng.integers(0, 10, n)
            w = w + h[src] - h[dst]
    return graphs.Graph.from_edges(src, dst, w, n=n)


@pytest.mark.parametrize("weighted,negative", [(False, False), (True, False), (True, True)])
def test_sparse_route_equals_scipy(weighted, negative):
    n = 3000
    G = random_graph(n, 3 * n, 1, weighted, negative)
    budget = 2 * n * n * 4  # both routes fit: the sparse one is estimated faster (n (n + m) << n^3)
    p = graphs.plan_all_pairs(G, memory_limit=budget)
    assert p.est_seconds < apsp.planner.dense_seconds(n, np.float32, "cpu")
    assert p.route == "sparse" and p.method == ("dijkstra" if weighted else "bfs")
    D = graphs.all_pairs_shortest_paths(G, memory_limit=budget)
    assert D.dtype == np.float32  # exact here: integer weights, small sums
    ref = shortest_path(G.to_scipy(), method="J" if negative else "D")
    np.testing.assert_array_equal(D, ref.astype(np.float32))


def test_sparse_route_into_a_memmap_on_disk(tmp_path):
    G = random_graph(400, 1200, 2, weighted=False)
    budget = 400 * 400 * 4 // 2  # half the result: only the disk route fits
    with pytest.raises(apsp.PlanError):
        graphs.all_pairs_shortest_paths(G, memory_limit=budget)
    mm = np.lib.format.open_memmap(tmp_path / "D.npy", mode="w+", dtype=np.float32, shape=(400, 400))
    assert graphs.all_pairs_shortest_paths(G, out=mm, memory_limit=budget) is mm
    ref = shortest_path(G.to_scipy(), unweighted=True)
    np.testing.assert_array_equal(np.load(tmp_path / "D.npy"), ref)


def test_dense_route_when_memory_allows():
    G = random_graph(120, 3000, 3, weighted=True)
    p = graphs.plan_all_pairs(G, memory_limit=2**30, dtype=np.float64)
    D = graphs.all_pairs_shortest_paths(G, plan=p)
    np.testing.assert_allclose(D, shortest_path(G.to_scipy(), method="D"))
    assert p.route == "dense" and D.dtype == np.float64


def test_accepts_what_graphs_accepts():
    A = sp.csr_array(np.array([[0, 1.0, 0], [0, 0, 1.0], [0, 0, 0]]))
    D = graphs.all_pairs_shortest_paths(A, memory_limit=2**12)
    np.testing.assert_array_equal(D, [[0, 1, 2], [np.inf, 0, 1], [np.inf, np.inf, 0]])
    with pytest.raises(TypeError):
        graphs.all_pairs_shortest_paths(A, out=[[0.0]])
