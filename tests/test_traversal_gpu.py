"""GPU graphs, generators, BFS, st-connectivity, SSSP and components against the CPU versions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

cp = pytest.importorskip("cupy")

import graphs  # noqa: E402
from graphs import Graph  # noqa: E402
from graphs import generators as gen  # noqa: E402
from semiring.backend import gpu_available  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")]

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def check_bfs_tree(G: Graph, s: int, levels: np.ndarray, parents: np.ndarray) -> None:
    src, dst, _ = G.to("cpu").edges()
    arcs = set(zip(src.tolist(), dst.tolist()))
    assert parents[s] == -1 and levels[s] == 0
    reached = np.flatnonzero(levels >= 0)
    for v in reached.tolist():
        if v != s:
            p = int(parents[v])
            assert levels[p] == levels[v] - 1 and (p, v) in arcs
    assert np.all(parents[levels < 0] == -1)


def check_sp_tree(G: Graph, s: int, dist: np.ndarray, pred: np.ndarray) -> None:
    Gc = G.to("cpu")
    src, dst, w = Gc.edges()
    best: dict = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        best[(u, v)] = min(best.get((u, v), x), x)
    inf = np.inf if dist.dtype.kind == "f" else np.iinfo(dist.dtype).max
    for v in range(G.n):
        if v == s or dist[v] == inf:
            assert pred[v] == -1
            continue
        p = int(pred[v])
        assert (p, v) in best and dist[v] == dist[p] + best[(p, v)]
        hops, u = 0, v
        while u != s:
            u = int(pred[u])
            hops += 1
            assert u >= 0 and hops <= G.n


def graphs_under_test():
    out = [("rmat12", gen.rmat(12, seed=1)), ("grid", gen.grid_2d(60, 70, seed=2)),
           ("road", gen.road_network(3000, seed=3)), ("ssca2", gen.ssca2(10, seed=4)),
           ("dag", gen.random_dag(2000, 8000, seed=5))]
    for name in ("email-Enron.txt", "rome99.gr"):
        if (DATA / name).exists():
            G = graphs.read(DATA / name)
            if G.weights is None:
                G = Graph(G.indptr, G.indices, np.random.default_rng(0).integers(1, 101, G.nnz).astype(np.float32))
            out.append((name, G))
    return out


@pytest.fixture(scope="module")
def cases():
    return [(name, G, G.to("gpu")) for name, G in graphs_under_test()]


def sources(G: Graph, k: int):
    deg = np.diff(G.indptr)
    return np.random.default_rng(0).choice(np.flatnonzero(deg > 0), size=k, replace=False).tolist()


def test_bfs_matches_cpu(cases):
    for name, G, D in cases:
        for s in sources(G, 3):
            want, _ = graphs.bfs(G, s)
            for direction in ("auto", "push", "pull"):
                lv, par, trace = graphs.bfs(D, s, direction=direction, return_trace=True)
                assert isinstance(lv, cp.ndarray)
                lv, par = lv.get(), par.get()
                np.testing.assert_array_equal(lv, want, err_msg=f"{name} {direction}")
                check_bfs_tree(G, s, lv, par)
                assert sum(t["frontier"] for t in trace) == int((lv >= 0).sum())
                assert all({"frontier_format", "granularity", "direction"} <= set(t) for t in trace)


def test_bfs_on_a_long_grid_uses_the_single_block_levels():
    G = gen.grid_2d(300, 40, weights=None, device="gpu")
    lv, par, trace = graphs.bfs(G, 0, return_trace=True)
    assert int(lv.max()) == 338 and len(trace) == 339
    assert all(t["granularity"].startswith("thread (one block") for t in trace)
    want, _ = graphs.bfs(G.to("cpu"), 0)
    np.testing.assert_array_equal(lv.get(), want)


def test_st_connectivity_matches_cpu(cases):
    for _, G, D in cases:
        s, t = sources(G, 2)
        d_cpu, _ = graphs.st_connectivity(G, s, t)
        d, path = graphs.st_connectivity(D, s, t)
        assert d == d_cpu
        if d >= 0:
            src, dst, _ = G.edges()
            arcs = set(zip(src.tolist(), dst.tolist()))
            assert path[0] == s and path[-1] == t and len(path) == d + 1
            assert all((int(a), int(b)) in arcs for a, b in zip(path[:-1], path[1:]))
    assert graphs.st_connectivity(cases[0][2], 5, 5)[0] == 0


def test_sssp_delta_stepping_matches_cpu(cases):
    for name, G, D in cases:
        if G.weights is None:
            continue
        for s in sources(G, 2):
            want, _ = graphs.sssp(G, s, method="dijkstra")
            dist, pred = graphs.sssp(D, s)
            dist, pred = dist.get(), pred.get()
            np.testing.assert_array_equal(dist, want, err_msg=name)
            check_sp_tree(G, s, dist, pred)


def hub_graph(k: int = 5000) -> Graph:
    """0 -> 1..k (weight 10, but 1 for the arc to k), i -> hub (weight 10, 1 from k), hub -> 20000 leaves.

    The hub's only tight in-arc is its last one (from k), five PRED_CHUNKs in; vertex 0 and
    the hub have thousands of arcs, so BFS, st-connectivity and SSSP cut them into chunks.
    """
    hub = k + 1
    leaves = np.arange(k + 2, k + 2 + 20000)  # more arcs than one block's levels take (SMALL_MF)
    src = np.concatenate((np.zeros(k, np.int64), np.arange(1, k + 1), np.full(leaves.size, hub)))
    dst = np.concatenate((np.arange(1, k + 1), np.full(k, hub), leaves))
    w = np.full(src.size, 10.0, np.float32)
    w[k - 1] = 1.0
    w[2 * k - 1] = 1.0
    return Graph.from_edges(src, dst, w, n=int(leaves[-1]) + 1, directed=True)


def test_long_vertices_take_the_chunk_paths():
    G = hub_graph()
    D = G.to("gpu")
    hub = 5001
    lv, par, trace = graphs.bfs(D, 0, direction="push", return_trace=True)
    want, _ = graphs.bfs(G, 0)
    np.testing.assert_array_equal(lv.get(), want)
    check_bfs_tree(G, 0, lv.get(), par.get())
    assert any("a warp per" in t["granularity"] for t in trace)
    assert graphs.st_connectivity(D, 0, 5002)[0] == 3
    dist, pred = graphs.sssp(D, 0)
    want_d, _ = graphs.sssp(G, 0, method="dijkstra")
    np.testing.assert_array_equal(dist.get(), want_d)
    assert int(pred[hub]) == 5000 and float(dist[hub]) == 2.0
    check_sp_tree(G, 0, dist.get(), pred.get())


def test_sssp_zero_weights_and_integer_dtypes():
    rng = np.random.default_rng(4)
    G = gen.erdos_renyi(3000, 20000, seed=6, weights=(0, 5), dtype=np.int32)
    D = G.to("gpu")
    for s in rng.choice(G.n, 3, replace=False).tolist():
        want, _ = graphs.sssp(G, s, method="dijkstra")
        dist, pred = graphs.sssp(D, s)
        np.testing.assert_array_equal(dist.get(), want)
        check_sp_tree(G, s, dist.get(), pred.get())
    G64 = gen.road_network(2000, seed=7, dtype=np.float64)
    want, _ = graphs.sssp(G64, 0)
    np.testing.assert_array_equal(graphs.sssp(G64.to("gpu"), 0)[0].get(), want)


def test_components_and_multi_source(cases):
    for _, G, D in cases:
        k, labels = graphs.connected_components(G)
        kg, lg = graphs.connected_components(D)
        assert kg == k
        np.testing.assert_array_equal(lg.get(), labels)
        ks, ls = graphs.connected_components(D, "strong")
        assert ks == graphs.connected_components(G, "strong")[0]
    G = gen.erdos_renyi(500, 3000, seed=8, dtype=np.float32)
    src = [0, 7, 99]
    Dd, Pd = graphs.multi_source_sssp(G.to("gpu"), src)
    Dc, _ = graphs.multi_source_sssp(G, src)
    np.testing.assert_array_equal(Dd.get(), Dc)
    for r, s in enumerate(src):
        check_sp_tree(G, s, Dd.get()[r], Pd.get()[r])


def test_gpu_generators_and_conversions():
    R = gen.rmat(12, seed=3, device="gpu")
    assert R.device == "gpu" and R.n == 4096 and R.num_edges == 16 * 4096
    Rc = R.to("cpu")
    assert np.all(np.diff(Rc.indptr) >= 0) and Rc.indices.max() < R.n
    E = gen.erdos_renyi(2000, 10000, seed=1, device="gpu", directed=False)
    assert E.num_edges == 10000 and E.to("cpu").simplify().nnz == E.nnz
    Gd = gen.grid_2d(30, 20, device="gpu")
    np.testing.assert_array_equal(Gd.to("cpu").indices, gen.grid_2d(30, 20).indices)
    H = Graph.from_edges(cp.asarray([0, 0, 1]), cp.asarray([1, 1, 2]), cp.asarray([3.0, 1.0, 2.0]))
    assert H.device == "gpu"
    np.testing.assert_array_equal(H.to_dense().get(), Graph.from_edges([0, 0, 1], [1, 1, 2], [3.0, 1.0, 2.0]).to_dense())
    A = H.to_scipy()
    assert A.nnz == 2
    assert Graph.from_scipy(A).device == "gpu"


def test_graph_kernel_sources_share_the_sparse_device_header():
    """Each graph kernel file inlines semiring/cuda/sparse_device.cuh once and builds its kernels."""
    from graphs.cuda import launch
    from semiring.cuda.compile import source_of

    kernels = {"bfs.cu": ("bfs_push", "bfs_push_chunks", "bfs_pull", "bfs_small", "bfs_start", "bfs_queue_to_bitmap"),
               "sssp.cu": ("sssp_relax", "sssp_relax_chunks", "sssp_split", "sssp_pred_pull", "sssp_pred_chunks",
                           "sssp_pred_fixup", "sssp_tight_push"),
               "components.cu": ("cc_hook", "cc_shortcut")}
    for file, names in kernels.items():
        src = source_of(launch.HERE / file, {"SP_FLOAT": 1})
        assert src.count("void sp_list_chunks(") == 1 and '#include "' not in src
        mod = launch.module(file, names[0], None, True)
        for name in names:
            mod.get_function(name)
