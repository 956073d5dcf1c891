"""Seeded generators: reproducible, and with the structure each model promises."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components

from graphs import GraphError
from graphs import generators as gen


def same(G, H) -> bool:
    return (G.n == H.n and np.array_equal(G.indptr, H.indptr) and np.array_equal(G.indices, H.indices)
            and (G.weights is None) == (H.weights is None)
            and (G.weights is None or np.array_equal(G.weights, H.weights)))


@pytest.mark.parametrize("make", [
    lambda s: gen.erdos_renyi(50, 200, seed=s),
    lambda s: gen.erdos_renyi(100000, 5000, seed=s, directed=False),
    lambda s: gen.rmat(9, seed=s),
    lambda s: gen.ssca2(7, seed=s),
    lambda s: gen.grid_2d(6, 9, seed=s),
    lambda s: gen.road_network(300, seed=s),
    lambda s: gen.random_dag(40, 100, seed=s),
], ids=["er-dense", "er-sparse", "rmat", "ssca2", "grid", "road", "dag"])
def test_seeded_and_reproducible(make):
    assert same(make(3), make(3))
    assert not same(make(3), make(4))


def test_erdos_renyi_counts_and_no_repeats():
    for directed in (True, False):
        for n, m in [(1, 0), (5, 20 if directed else 10), (60, 500), (100000, 3000)]:
            G = gen.erdos_renyi(n, m, seed=1, directed=directed)
            assert G.num_edges == m and G.num_self_loops == 0
            assert G.simplify().nnz == G.nnz  # no parallel arcs
            w = G.weights
            assert w.dtype == np.float64 and (m == 0 or (w.min() >= 1 and w.max() <= 100 and np.all(w == np.round(w))))
    with pytest.raises(GraphError, match="at most 20 arcs"):
        gen.erdos_renyi(5, 21)


def test_rmat_follows_graph500():
    G = gen.rmat(10, edge_factor=8, seed=0, weights=None)
    assert G.n == 1024 and G.num_edges == 8 * 1024 and not G.directed and G.weights is None
    deg = np.diff(G.indptr)
    assert deg.max() > 20 * deg.mean()  # heavy-tailed
    D = gen.rmat(8, seed=0, directed=True, permute=False)
    # Without the permutation, a = 0.57 puts most arcs among low ids.
    src, dst, _ = D.edges()
    assert np.mean((src < 128) & (dst < 128)) > 0.5
    with pytest.raises(GraphError):
        gen.rmat(5, a=0.5, b=0.3, c=0.3)
    assert gen.kronecker(6).n == 64


def test_grid_road_dag_ssca2_structure():
    G = gen.grid_2d(30, 40, weights=None)
    assert G.n == 1200 and G.num_edges == 30 * 39 + 29 * 40
    assert np.diff(G.indptr).max() == 4 and G.coords.shape == (1200, 2)
    R = gen.road_network(2000, seed=5)
    assert connected_components(R.to_scipy(), connection="strong")[0] == 1
    assert 2.0 < R.nnz / R.n < 5.0 and R.coords.shape == (2000, 2)
    src, dst, w = R.edges()
    length = np.hypot(*(R.coords[src] - R.coords[dst]).T)
    assert np.all(w >= length) and np.all(w <= length + 1 + 1e-9)
    D = gen.random_dag(200, 800, seed=2)
    assert connected_components(D.to_scipy(), connection="strong")[0] == 200
    S = gen.ssca2(8, max_clique_size=6, seed=1)
    assert S.n == 256 and S.directed
    # Cliques give many reciprocal arcs.
    A = S.to_scipy()
    assert (A.multiply(A.T) != 0).sum() > 0.3 * A.nnz
    with pytest.raises(GraphError, match="weights"):
        gen.grid_2d(3, weights=5)
    assert gen.grid_2d(3, dtype=np.int32).dtype == np.int32
