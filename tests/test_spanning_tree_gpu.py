"""GPU minimum spanning forests against the CPU ones (the same unique forest, edge for edge)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

cp = pytest.importorskip("cupy")

import graphs  # noqa: E402
from graphs import Graph, minimum_spanning_tree  # noqa: E402
from graphs import generators as gen  # noqa: E402
from semiring.backend import gpu_available  # noqa: E402
from semiring.errors import InvalidEntryError  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")]

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def poison_pool() -> None:
    """Leave the memory pool's free blocks full of 0xFF, so a buffer the driver forgets to set shows."""
    junk = [cp.full(s, 0xFF, dtype=cp.uint8) for s in (1 << 12, 1 << 16, 1 << 20, 1 << 24)]
    cp.cuda.Device().synchronize()
    del junk


def same_on_gpu(G: Graph) -> None:
    try:
        F = minimum_spanning_tree(G.to("cpu"))
    except graphs.GraphError:  # a float total beyond float64's range: refused on both devices
        with pytest.raises(graphs.GraphError, match="beyond float64's range"):
            minimum_spanning_tree(G.to("gpu"))
        return
    poison_pool()
    Fg = minimum_spanning_tree(G.to("gpu"))
    assert Fg.graph.device == "gpu"
    for a, b in zip(Fg.edges, F.edges):
        assert isinstance(a, cp.ndarray) and a.dtype == b.dtype
        np.testing.assert_array_equal(a.get(), b)
    assert Fg.weight == F.weight  # exact sums rounded once: the same on both devices
    assert type(Fg.weight) is type(F.weight) and Fg.n_components == F.n_components
    R = F.to_scipy()
    if R.dtype.kind == "i":  # the host keeps the integers; the GPU's matrix is float64, exact or refused
        lo = int(np.iinfo(R.dtype).min)  # the sentinel of -inf becomes -inf
        if not all(x == lo or float(x) == x for x in R.data.tolist()):
            with pytest.raises(InvalidEntryError, match="no exact float64 value"):
                Fg.to_scipy()
            return
        R = sp.csr_matrix((np.where(R.data == lo, -np.inf, R.data.astype(np.float64)), R.indices, R.indptr),
                          shape=R.shape)
    T = Fg.to_scipy()
    assert T.shape == (G.n, G.n) and T.dtype == np.float64
    T = T.get()  # compared as sparse matrices: a dense copy of a large graph would not fit
    T.sort_indices()
    R.sort_indices()
    for a, b in ((T.indptr, R.indptr), (T.indices, R.indices), (T.data, R.data)):
        np.testing.assert_array_equal(a, b)


def random_graph(seed: int, n: int, m: int, dtype, directed: bool, extremes: bool = False) -> Graph:
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)  # self loops and parallel arcs included
    if dtype is None:
        return Graph.from_edges(src, dst, None, n=n, directed=directed)
    dt = np.dtype(dtype)
    w = rng.integers(-4, 5, m).astype(dt)  # many ties, zeros and negatives
    if extremes:
        if dt.kind == "f":
            pool = np.array([np.finfo(dt).max, -np.finfo(dt).max, -np.inf, -0.0, 0.0], dtype=dt)
        else:  # +inf and the integer +inf sentinel are no arc weights (a Graph refuses them)
            pool = np.array([np.iinfo(dt).min, np.iinfo(dt).max - 1, np.iinfo(dt).min + 1], dtype=dt)
        sel = rng.random(m) < 0.3
        w[sel] = pool[rng.integers(0, pool.size, int(sel.sum()))]
    return Graph.from_edges(src, dst, w, n=n, directed=directed)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", None])
@pytest.mark.parametrize("directed", [False, True])
def test_random_graphs_match_cpu(dtype, directed):
    for seed, (n, m) in enumerate([(1, 0), (2, 1), (3, 5), (33, 40), (257, 600), (1000, 999), (4099, 30011)]):
        same_on_gpu(random_graph(seed, n, m, dtype, directed))
        same_on_gpu(random_graph(seed + 100, n, m, dtype, directed, extremes=True))


def test_empty_graph():
    F = minimum_spanning_tree(Graph.from_edges([], [], n=0, device="gpu"))
    assert F.n_components == 0 and F.edges[0].size == 0 and F.weight == 0.0


@pytest.mark.parametrize("make", [
    lambda: gen.rmat(14, 16, seed=3),
    lambda: gen.rmat(12, 8, seed=4, directed=True, dtype=np.int64),
    lambda: gen.grid_2d(301, 299, seed=5),
    lambda: gen.road_network(5000, seed=6),
    lambda: gen.erdos_renyi(70001, 200003, seed=7, directed=False, weights=(1, 3), dtype=np.int32),
], ids=["rmat14", "rmat12-directed-int64", "grid", "road", "er-ties"])
def test_generated_graphs_match_cpu(make):
    same_on_gpu(make())


@pytest.mark.parametrize("name", ["rome99.gr", "facebook_combined.txt", "email-Enron.txt"])
def test_real_graphs_match_cpu(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    G0 = graphs.read(path)
    w = np.random.default_rng(8).integers(1, 1000, G0.nnz).astype(np.float32)
    same_on_gpu(Graph(G0.indptr, G0.indices, w, directed=True))


def test_device_argument_and_nan():
    G = gen.rmat(8, 4, seed=9)
    F = minimum_spanning_tree(G, device="gpu")
    assert isinstance(F.edges[0], cp.ndarray)
    assert F.weight == minimum_spanning_tree(G).weight
    w = cp.asarray(G.weights).copy()
    w[5] = cp.nan
    bad = Graph(cp.asarray(G.indptr), cp.asarray(G.indices), w, directed=False, check=False)
    with pytest.raises(InvalidEntryError, match=r"weights\[5\] is NaN"):
        minimum_spanning_tree(bad)
