"""BFS, st-connectivity, SSSP and components against SciPy on real and hypothesis graphs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse.csgraph as csg
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs import Graph, GraphError, NegativeCycleError, VertexError
from graphs import generators as gen
from semiring.errors import InvalidEntryError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def real_graph(name: str, weighted: bool) -> Graph:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    G = graphs.read(path)
    if weighted and G.weights is None:
        w = np.random.default_rng(0).integers(1, 101, G.nnz).astype(np.float64)
        if not G.directed:  # both arcs of an edge weigh the same
            src, dst, _ = G.edges()
            key = np.minimum(src, dst).astype(np.int64) * G.n + np.maximum(src, dst)
            _, first = np.unique(key, return_inverse=True)
            w = w[first]
        G = Graph(G.indptr, G.indices, w, directed=G.directed)
    return G


def scipy_levels(A, s: int) -> np.ndarray:
    order, pred = csg.breadth_first_order(A, s, directed=True, return_predecessors=True)
    lv = np.full(A.shape[0], -1)
    lv[s] = 0
    for v in order[1:]:
        lv[v] = lv[pred[v]] + 1
    return lv


def arc_min(G: Graph):
    """dict (u, v) -> lightest arc weight (1 if unweighted)."""
    src, dst, w = G.edges()
    out: dict = {}
    for k, (u, v) in enumerate(zip(src.tolist(), dst.tolist())):
        x = 1 if w is None else w[k].item()
        out[(u, v)] = min(out.get((u, v), x), x)
    return out


def check_bfs_tree(G: Graph, s: int, levels, parents) -> None:
    arcs = set(arc_min(G))
    assert parents[s] == -1 and levels[s] == 0
    for v in range(G.n):
        if v == s:
            continue
        if levels[v] < 0:
            assert parents[v] == -1
        else:
            p = int(parents[v])
            assert levels[p] == levels[v] - 1 and (p, v) in arcs


def check_sp_tree(G: Graph, s: int, dist, pred) -> None:
    arcs = arc_min(G)
    assert pred[s] == -1 and dist[s] == 0
    inf = np.inf if dist.dtype.kind == "f" else np.iinfo(dist.dtype).max
    for v in range(G.n):
        if v == s:
            continue
        if dist[v] == inf:
            assert pred[v] == -1
            continue
        p = int(pred[v])
        assert (p, v) in arcs and np.isclose(dist[v], dist[p] + arcs[(p, v)])
        # The chain reaches the source without a cycle.
        seen, u = 0, v
        while u != s:
            u = int(pred[u])
            seen += 1
            assert u >= 0 and seen <= G.n


def canonical(labels) -> np.ndarray:
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[np.unique(labels, return_inverse=True)[1]]


def sources_of(G: Graph, k: int, seed: int = 0):
    deg = np.diff(G.indptr)
    cand = np.flatnonzero(deg > 0)
    return np.random.default_rng(seed).choice(cand, size=min(k, cand.size), replace=False).tolist()


# -- real graphs -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["rome99.gr", "email-Enron.txt", "facebook_combined.txt"])
def test_real_graphs_match_scipy(name):
    G = real_graph(name, weighted=True)
    A = G.to_scipy().astype(np.float64)
    for s in sources_of(G, 3):
        for direction in ("auto", "push", "pull"):
            levels, parents = graphs.bfs(G, s, direction=direction)
            np.testing.assert_array_equal(levels, scipy_levels(A, s))
        check_bfs_tree(G, s, levels, parents)
        want = csg.dijkstra(A, indices=s)
        for method in ("dijkstra", "delta-stepping", "bellman-ford", "label-correcting"):
            dist, pred = graphs.sssp(G, s, method=method)
            np.testing.assert_array_equal(np.where(np.isinf(want), np.inf, dist.astype(np.float64)),
                                          want if G.dtype.kind == "f" else np.where(np.isinf(want), np.inf, want))
        check_sp_tree(G, s, dist, pred)
        t = int(np.flatnonzero(levels == levels.max())[0])
        d, path = graphs.st_connectivity(G, s, t)
        assert d == levels[t] and path[0] == s and path[-1] == t and len(path) == d + 1
    for connection in ("weak", "strong"):
        k, labels = graphs.connected_components(G, connection)
        k2, lab2 = csg.connected_components(A, directed=True, connection=connection)
        assert k == k2
        np.testing.assert_array_equal(labels, canonical(lab2))


def test_multi_source_on_rome99():
    G = real_graph("rome99.gr", weighted=True)
    src = sources_of(G, 6, seed=2)
    want = csg.dijkstra(G.to_scipy().astype(np.float64), indices=src)
    for method in ("dijkstra", "spmm"):
        D, P = graphs.multi_source_sssp(G, src, method=method)
        np.testing.assert_array_equal(np.where(D == np.iinfo(np.int64).max, np.inf, D), want)
        for r, s in enumerate(src):
            check_sp_tree(G, s, D[r], P[r])


# -- hypothesis graphs -------------------------------------------------------------------
@st.composite
def graphs_st(draw, negative=False, weighted=True):
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 36))
    src = np.asarray(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=np.int64)
    dst = np.asarray(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=np.int64)
    w = None
    if weighted:
        lo = -6 if negative else 0
        w = np.asarray(draw(st.lists(st.integers(lo, 30), min_size=m, max_size=m)), dtype=np.float64)
    directed = draw(st.booleans())
    return Graph.from_edges(src, dst, w, n=n, directed=directed), draw(st.integers(0, n - 1))


@settings(deadline=None, max_examples=80)
@given(graphs_st(weighted=False))
def test_bfs_matches_scipy_on_small_graphs(data):
    G, s = data
    A = G.to_scipy().astype(np.float64)
    want = scipy_levels(A, s)
    for direction in ("auto", "push", "pull"):
        levels, parents, trace = graphs.bfs(G, s, direction=direction, return_trace=True)
        np.testing.assert_array_equal(levels, want)
        check_bfs_tree(G, s, levels, parents)
        assert len(trace) == levels.max() + 1
        assert [t["frontier"] for t in trace] == [int((levels == d).sum()) for d in range(len(trace))]
        if direction != "auto":
            assert {t["direction"] for t in trace} == {direction}
    t = int(np.random.default_rng(s).integers(0, G.n))
    d, path = graphs.st_connectivity(G, s, t)
    assert d == want[t]
    if d >= 0:
        arcs = set(arc_min(G))
        assert len(path) == d + 1 and path[0] == s and path[-1] == t
        assert all((int(a), int(b)) in arcs for a, b in zip(path[:-1], path[1:]))
    else:
        assert path.size == 0


@settings(deadline=None, max_examples=80)
@given(graphs_st(negative=False))
def test_sssp_nonnegative_matches_scipy(data):
    G, s = data
    want = csg.dijkstra(G.to_scipy().astype(np.float64), indices=s)
    for method in ("auto", "dijkstra", "delta-stepping", "bellman-ford", "label-correcting"):
        dist, pred = graphs.sssp(G, s, method=method)
        np.testing.assert_array_equal(dist, want)
        check_sp_tree(G, s, dist, pred)
    dist, _ = graphs.sssp(G, s, method="delta-stepping", delta=1.0)
    np.testing.assert_array_equal(dist, want)


@settings(deadline=None, max_examples=100)
@given(graphs_st(negative=True))
def test_sssp_negative_weights_match_scipy(data):
    G, s = data
    A = G.to_scipy().astype(np.float64)
    try:
        want = csg.bellman_ford(A, indices=s)
    except csg.NegativeCycleError:
        want = None
    if want is None:
        # SciPy looks for cycles anywhere; ours only reachable from s.
        try:
            graphs.sssp(G, s)
        except NegativeCycleError as err:
            cyc = err.cycle
            arcs = arc_min(G)
            total = sum(arcs[(a, b)] for a, b in zip(cyc, cyc[1:] + cyc[:1]))
            assert err.vertex == cyc[0] and total < 0
        return
    dist, pred = graphs.sssp(G, s)
    np.testing.assert_array_equal(dist, want)
    check_sp_tree(G, s, dist, pred)
    try:
        want_all = csg.johnson(A)
    except csg.NegativeCycleError:  # a cycle that s does not reach
        for method in ("dijkstra", "spmm"):
            with pytest.raises(NegativeCycleError):
                graphs.multi_source_sssp(G, method=method)
        return
    D, P = graphs.multi_source_sssp(G)
    np.testing.assert_array_equal(D, want_all)
    D2, _ = graphs.multi_source_sssp(G, method="spmm")
    np.testing.assert_array_equal(D2, D)
    for r in range(G.n):
        check_sp_tree(G, r, D[r], P[r])


@settings(deadline=None, max_examples=60)
@given(graphs_st(weighted=False))
def test_components_match_scipy(data):
    G, _ = data
    A = G.to_scipy().astype(np.float64)
    for connection in ("weak", "strong"):
        k, labels = graphs.connected_components(G, connection)
        k2, lab2 = csg.connected_components(A, directed=True, connection=connection)
        assert k == k2
        np.testing.assert_array_equal(labels, canonical(lab2))


# -- edge cases and errors ---------------------------------------------------------------
def test_negative_cycle_names_a_vertex_on_it():
    G = Graph.from_edges([0, 1, 2, 3, 2], [1, 2, 3, 1, 4], [1.0, 2.0, -4.0, 1.0, 1.0])
    with pytest.raises(NegativeCycleError) as info:
        graphs.sssp(G, 0)
    assert info.value.vertex in (1, 2, 3) and sorted(info.value.cycle) == [1, 2, 3] and info.value.weight == -1.0
    assert isinstance(info.value, ValueError)
    dist, _ = graphs.sssp(G, 4)  # the cycle is not reachable from 4
    assert dist[4] == 0 and np.isinf(dist[:4]).all()
    with pytest.raises(NegativeCycleError):
        graphs.multi_source_sssp(G, [4])
    with pytest.raises(NegativeCycleError):
        graphs.multi_source_sssp(G, [0], method="spmm")
    with pytest.raises(NegativeCycleError):
        graphs.sssp(Graph.from_edges([0], [1], [-1.0], directed=False), 0)


def test_sssp_errors_and_special_cases():
    G = Graph.from_edges([0, 1], [1, 2], [1.0, -1.0])
    with pytest.raises(InvalidEntryError, match="arc 1 -> 2 weighs -1.0"):
        graphs.sssp(G, 0, method="dijkstra")
    with pytest.raises(InvalidEntryError, match="-inf"):
        graphs.sssp(Graph.from_edges([0], [1], [-np.inf]), 0)
    with pytest.raises(GraphError, match="method"):
        graphs.sssp(G, 0, method="a-star")
    with pytest.raises(VertexError, match="source = 3"):
        graphs.sssp(G, 3)
    with pytest.raises(VertexError):
        graphs.bfs(Graph.from_edges([], [], n=0), 0)
    with pytest.raises(GraphError, match="direction"):
        graphs.bfs(G, 0, direction="sideways")
    with pytest.raises(GraphError, match="connection"):
        graphs.connected_components(G, "medium")
    # Unweighted graphs count hops; integer weights saturate instead of wrapping.
    U = Graph.from_edges([0, 1], [1, 2])
    dist, pred = graphs.sssp(U, 0)
    assert dist.tolist() == [0.0, 1.0, 2.0] and pred.tolist() == [-1, 0, 1]
    big = np.iinfo(np.int32).max - 5
    I32 = Graph.from_edges([0, 1], [1, 2], np.array([big, 10], dtype=np.int32))
    d32, p32 = graphs.sssp(I32, 0)
    assert d32.dtype == np.int32 and d32.tolist() == [0, big, np.iinfo(np.int32).max] and p32[2] == -1
    assert graphs.connected_components(Graph.from_edges([], [], n=0)) [0] == 0
    # Zero-weight cycles keep the predecessors a tree.
    Z = Graph.from_edges([0, 1, 2, 1], [1, 2, 1, 3], [0.0, 0.0, 0.0, 5.0])
    for method in ("dijkstra", "delta-stepping", "bellman-ford", "label-correcting"):
        dist, pred = graphs.sssp(Z, 0, method=method)
        check_sp_tree(Z, 0, dist, pred)
    D, P = graphs.multi_source_sssp(Z, method="spmm")
    for r in range(Z.n):
        check_sp_tree(Z, r, D[r], P[r])


def test_inputs_other_than_graphs():
    import networkx as nx

    H = nx.gnp_random_graph(30, 0.1, seed=1, directed=True)
    G = Graph.from_networkx(H)
    levels, _ = graphs.bfs(H, 0)
    np.testing.assert_array_equal(levels, graphs.bfs(G, 0)[0])
    want = nx.single_source_shortest_path_length(H, 0)
    assert {v: int(levels[v]) for v in range(30) if levels[v] >= 0} == want
    A = G.to_scipy()
    np.testing.assert_array_equal(graphs.bfs(A, 0)[0], levels)


def test_generated_graphs_and_bfs_directions():
    for G in (gen.rmat(11, seed=1), gen.grid_2d(40, 50, weights=None), gen.road_network(1500, seed=2),
              gen.ssca2(9, seed=3)):
        A = G.to_scipy().astype(np.float64)
        s = sources_of(G, 1, seed=9)[0]
        levels, parents, trace = graphs.bfs(G, s, return_trace=True)
        np.testing.assert_array_equal(levels, scipy_levels(A, s))
        check_bfs_tree(G, s, levels, parents)
        if G.weights is not None:
            dist, pred = graphs.sssp(G, s)
            np.testing.assert_allclose(dist, csg.dijkstra(A, indices=s))
    # R-MAT switches to pull in the middle levels; a grid stays in push until the last few vertices.
    trace = graphs.bfs(gen.rmat(12, seed=0), sources_of(gen.rmat(12, seed=0), 1)[0], return_trace=True)[2]
    assert "pull" in {t["direction"] for t in trace}
    trace = graphs.bfs(gen.grid_2d(30, weights=None), 0, return_trace=True)[2]
    assert sum(t["direction"] == "push" for t in trace) > 0.9 * len(trace) and len(trace) == 59


def test_label_correcting_hands_over_when_over_budget(monkeypatch):
    import graphs.paths.engine as engine

    G = gen.rmat(9, seed=4, dtype=np.float64)
    s = sources_of(G, 1)[0]
    want = csg.dijkstra(G.to_scipy().astype(np.float64), indices=s)
    monkeypatch.setattr(engine, "LABEL_CORRECTING_BUDGET", 0)
    ran = []
    for name in ("label-correcting", "delta-stepping"):
        monkeypatch.setitem(engine.SEARCHES, name, lambda *a, _f=engine.SEARCHES[name], _n=name: ran.append(_n) or _f(*a))
    dist, pred = graphs.sssp(G, s, method="label-correcting")
    np.testing.assert_array_equal(dist, want)
    check_sp_tree(G, s, dist, pred)
    assert ran == ["label-correcting"]  # (it handed over to the delta-stepping function itself, not the table's)
    ran.clear()
    graphs.sssp(G, s)  # "auto" on a low-diameter graph of float weights
    assert ran == ["delta-stepping"]
    ran.clear()
    H = gen.rmat(9, seed=4, dtype=np.int64)
    graphs.sssp(H, sources_of(H, 1)[0])  # ... and of integer weights (few arcs)
    assert ran == ["label-correcting"]
    ran.clear()
    monkeypatch.setattr(engine, "LABEL_CORRECTING_ARCS", 16)
    graphs.sssp(H, sources_of(H, 1)[0])  # ... more arcs than label-correcting is taken for
    assert ran == ["delta-stepping"]
    ran.clear()
    graphs.sssp(gen.road_network(200), 0)
    assert ran == ["delta-stepping"]


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_delta_stepping_lists_heavy_arcs_on_threads_with_one_threads_result(dtype):
    """Buckets that settle many vertices list their heavy arcs on several threads (shares balanced by arcs) and
    apply them in order: distances and predecessors equal the one-thread run bit for bit (integer ties included),
    and SciPy's distances."""
    from graphs.door import weight_facts
    from graphs.paths import _sssp_kernels as K
    from graphs.paths import engine

    rng = np.random.default_rng(11)
    n, m = 20000, 400000  # buckets of up to ~10**5 heavy arcs: listed in shares
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    hub = rng.integers(0, n, 30000)  # a hub of 30000 arcs: its row is one share
    src, dst = np.concatenate([src, np.zeros(30000, dtype=src.dtype)]), np.concatenate([dst, hub])
    w = rng.integers(1, 9, src.size).astype(dtype) if dtype == np.int64 else rng.random(src.size).astype(dtype)
    G = Graph.from_edges(src, dst, w, n=n)
    f = weight_facts(G)
    d = engine.bucket_width(G, None, facts=f)
    mid, ind2, w2 = engine.light_heavy_rows(G, d)
    runs = []
    for threads in (1, 2, 3):
        dist = np.full(n, f.hi, dtype=G.weights.dtype)
        pred = np.full(n, -1, dtype=np.int32)
        assert K.delta_stepping(G.indptr, mid, ind2, w2, 0, d, f.wmax, dist, pred, f.lo, f.hi, 2 * n + 1024, threads) > 0
        runs.append((dist, pred))
    for dist, pred in runs[1:]:
        np.testing.assert_array_equal(dist, runs[0][0])
        np.testing.assert_array_equal(pred, runs[0][1])
    want = csg.dijkstra(G.to_scipy().astype(np.float64), indices=0)
    reached = np.isfinite(want)
    np.testing.assert_allclose(runs[0][0][reached].astype(np.float64), want[reached], rtol=1e-5)
    assert (runs[0][0][~reached] == f.hi).all()
    check_sp_tree(G, 0, runs[0][0], runs[0][1])
