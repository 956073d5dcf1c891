"""graphs.distance_matrix and the many-source engine: against SciPy's dijkstra / johnson on held-out graphs."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra, johnson

import apsp
import graphs
from graphs import Graph
from graphs.errors import GraphError, NegativeCycleError, VertexError
from semiring import DTypeError


def scipy_of(G: Graph) -> sp.csr_matrix:
    """The graph as SciPy reads it: parallel arcs by their least weight, explicit zeros kept."""
    r, c, w = G.edges()
    w = np.ones(r.shape[0]) if w is None else w.astype(np.float64)
    order = np.lexsort((w, c, r))
    r, c, w = r[order], c[order], w[order]
    first = np.ones(r.shape[0], dtype=bool)
    first[1:] = (r[1:] != r[:-1]) | (c[1:] != c[:-1])
    A = sp.csr_matrix((w[first], (r[first], c[first])), shape=(G.n, G.n))
    return A


def random_graph(n, m, seed, *, directed=True, kind="float", zeros=0.0, negative=False):
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n, m)
    v = rng.integers(0, n, m)
    if kind == "int":
        w = rng.integers(0 if zeros else 1, 50, m).astype(np.int64)
    elif kind == "int32":
        w = rng.integers(1, 50, m).astype(np.int32)
    elif kind == "float32":
        w = rng.uniform(0.5, 10.0, m).astype(np.float32)
    else:
        w = rng.uniform(0.1, 10.0, m)
    if zeros:
        w[rng.random(m) < zeros] = 0
    if negative:  # a DAG with some negative arcs: no negative cycle
        lo, hi = np.minimum(u, v), np.maximum(u, v)
        keep = lo != hi
        u, v, w = lo[keep], hi[keep], w[keep]
        w = w - (rng.random(w.shape[0]) < 0.3) * (w.max() if w.size else 0) * 0.7
        w = w.astype(np.float64)
    return Graph.from_edges(u, v, w, n=n, directed=directed)


def expect(G, sources, targets=None, limit=np.inf, negative=False):
    A = scipy_of(G)
    if negative:
        D = johnson(A, directed=G.directed, indices=sources)
        if limit != np.inf:
            D[D > limit] = np.inf
    else:
        D = dijkstra(A, directed=G.directed, indices=sources, limit=limit)
    return D if targets is None else D[:, targets]


def as_float(D):
    D = np.asarray(D)
    if D.dtype.kind == "i":
        return np.where(D == np.iinfo(D.dtype).max, np.inf, D.astype(np.float64))
    return D.astype(np.float64)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("kind", ["float", "int", "int32", "float32"])
def test_equals_scipy_on_random_graphs(directed, kind):
    G = random_graph(300, 900, 7, directed=directed, kind=kind, zeros=0.05 if kind == "int" else 0.0)
    rng = np.random.default_rng(1)
    src = rng.integers(0, 300, 40)
    tgt = rng.integers(0, 300, 70)  # repeated and unordered
    D = graphs.distance_matrix(G, src, tgt)
    assert D.dtype == G.weights.dtype and D.shape == (40, 70)
    ref = expect(G, src, tgt)
    if kind == "float32":
        np.testing.assert_allclose(as_float(D), ref, rtol=1e-5)
    else:
        assert np.array_equal(as_float(D), ref)


def test_road_network_renumbered_equals_scipy():
    """A deep graph runs in reverse Cuthill-McKee order; the answer is in the caller's numbering."""
    G = graphs.generators.road_network(6000, seed=3)
    assert graphs.locality.renumbered(G) is not None
    rng = np.random.default_rng(2)
    src, tgt = rng.choice(G.n, 30, replace=False), rng.choice(G.n, 200, replace=False)
    assert np.array_equal(graphs.distance_matrix(G, src, tgt), expect(G, src, tgt))
    D, P = graphs.distance_matrix(G, src, None, predecessors=True)
    assert np.array_equal(D, expect(G, src))
    check_routes(G, src, D, P, tgt[:40])


def test_few_sources_on_a_fresh_graph_are_searched_without_renumbering(monkeypatch):
    """Making the order costs about three searches: one source on a fresh deep graph runs in its own numbering,
    and the graph is renumbered once the sources searched on it reach RENUMBER_SOURCES_PER_THREAD per thread."""
    from semiring.kernels import num_threads

    engine = graphs.distance_matrix.__globals__["distance_rows"].__globals__  # the engine module in use
    made = []
    real = engine["renumbered"]
    monkeypatch.setitem(engine, "renumbered", lambda G: made.append(G.n) or real(G))
    need = engine["RENUMBER_SOURCES_PER_THREAD"] * num_threads()
    G = graphs.generators.road_network(6000, seed=3)
    src = np.random.default_rng(5).choice(G.n, need, replace=False)
    assert np.array_equal(graphs.distance_matrix(G, src[:1]), expect(G, src[:1]))
    assert made == []
    assert np.array_equal(graphs.distance_matrix(G, src[1:]), expect(G, src[1:]))  # the count reaches need
    assert made == [6000] and graphs.locality.renumbered(G) is not None
    D, P = graphs.distance_matrix(G, src[:1], predecessors=True)  # the order is there now: used for one source too
    assert made == [6000, 6000] and np.array_equal(D, expect(G, src[:1]))
    check_routes(G, src[:1], D, P, src[1:9])


def check_routes(G, src, D, P, targets):
    """Each route read from the predecessors weighs the distance."""
    A = scipy_of(G).tocsr()
    for r, s in enumerate(src):
        for t in targets:
            route = apsp.path(P[r], int(s), int(t))
            if not np.isfinite(D[r, t]):
                assert route == []
                continue
            assert route[0] == s and route[-1] == t
            total = sum(A[a, b] for a, b in zip(route, route[1:]))
            assert np.isclose(total, D[r, t], rtol=1e-12, atol=0)


@pytest.mark.parametrize("limit", [0.0, 3.5, 12.0, 40.0])
def test_limit_equals_scipy(limit):
    G = random_graph(250, 700, 11)
    src = np.arange(0, 250, 7)
    for targets in (None, np.arange(249, 0, -3)):
        got = graphs.distance_matrix(G, src, targets, limit=limit)
        assert np.array_equal(got, expect(G, src, targets, limit=limit))
    D, P = graphs.distance_matrix(G, src, None, limit=limit, predecessors=True)
    assert np.array_equal(P < 0, (~np.isfinite(D)) | (np.arange(250)[None, :] == src[:, None]))


def test_disconnected_and_zero_weights():
    u = [0, 1, 2, 3, 5, 6, 6]
    v = [1, 2, 0, 4, 6, 5, 7]
    w = [0.0, 0.0, 0.0, 2.0, 1.0, 0.0, 3.0]
    G = Graph.from_edges(u, v, w, n=9)
    src = [0, 5, 8, 3]
    D, P = graphs.distance_matrix(G, src, predecessors=True)
    assert np.array_equal(D, expect(G, src))
    check_routes(G, np.array(src), D, P, range(9))


def test_negative_weights_by_johnson():
    G = random_graph(200, 800, 5, negative=True)
    assert G.has_negative_weights
    src = np.arange(0, 200, 9)
    tgt = np.arange(199, -1, -4)
    np.testing.assert_allclose(graphs.distance_matrix(G, src, tgt), expect(G, src, tgt, negative=True), rtol=1e-12)
    D, P = graphs.distance_matrix(G, src, predecessors=True, limit=5.0)
    np.testing.assert_allclose(D, expect(G, src, limit=5.0, negative=True), rtol=1e-12)


def test_negative_cycle_is_named():
    G = Graph.from_edges([0, 1, 2, 2], [1, 2, 1, 3], [1.0, 2.0, -3.0, 1.0])
    with pytest.raises(NegativeCycleError) as err:
        graphs.distance_matrix(G, [0], [3])
    assert {1, 2} <= set(err.value.cycle)


def test_unweighted_counts_hops_and_labels():
    G = Graph(np.array([0, 1, 2, 3, 3]), np.array([1, 2, 3], dtype=np.int32), np.array([5.0, 5.0, 5.0]),
              node_labels=["a", "b", "c", "d"])
    assert graphs.distance_matrix(G, ["a"], ["d", "b"], weighted=False).tolist() == [[3.0, 1.0]]
    assert graphs.distance_matrix(G, "a", ["d"]).tolist() == [[15.0]]
    with pytest.raises(VertexError, match="targets"):
        graphs.distance_matrix(G, ["a"], ["z"])


def test_out_file_and_array(tmp_path):
    G = random_graph(120, 400, 9)
    src, tgt = np.arange(10), np.arange(0, 120, 2)
    ref = expect(G, src, tgt)
    path = tmp_path / "D.npy"
    D = graphs.distance_matrix(G, src, tgt, out=path)
    assert isinstance(D, np.memmap) and np.array_equal(np.load(path), ref)
    buf = np.full((10, 60), -7.0)
    assert graphs.distance_matrix(G, src, tgt, out=buf) is buf and np.array_equal(buf, ref)
    with pytest.raises(DTypeError, match="out"):
        graphs.distance_matrix(G, src, tgt, out=np.empty((10, 60), np.float32))
    with pytest.raises(GraphError, match="out"):
        graphs.distance_matrix(G, src, tgt, out=np.empty((10, 61)))


def test_interrupted_file_is_not_left_behind(tmp_path, monkeypatch):
    from graphs.paths import many_source

    G = random_graph(120, 400, 9)
    path = tmp_path / "D.npy"
    calls = []

    def broken(*args, **kw):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(many_source.MK, "dijkstra_rows", broken)
    with pytest.raises(KeyboardInterrupt):
        graphs.distance_matrix(G, np.arange(10), out=path)
    assert calls and not path.exists() and list(tmp_path.iterdir()) == []


def test_refused_before_anything_runs():
    G = graphs.generators.road_network(2000, seed=1)
    with pytest.raises(apsp.PlanError) as err:
        graphs.distance_matrix(G, np.arange(2000), memory_limit=2**20)
    msg = str(err.value)
    assert "does not fit" in msg and 'out="D.npy"' in msg and "fewer targets" in msg and "float32" in msg
    plan = graphs.plan_distance_matrix(G, np.arange(100), np.arange(50))
    assert plan.shape == (100, 50) and plan.result_bytes == 100 * 50 * 8


def test_bad_arguments():
    G = random_graph(20, 50, 1)
    with pytest.raises(TypeError, match="limit"):
        graphs.distance_matrix(G, [0], limit="3")
    with pytest.raises(GraphError, match="limit"):
        graphs.distance_matrix(G, [0], limit=-1.0)
    with pytest.raises(GraphError, match="limit"):
        graphs.distance_matrix(G, [0], limit=float("nan"))
    with pytest.raises(TypeError, match="predecessors"):
        graphs.distance_matrix(G, [0], predecessors=1)
    with pytest.raises(VertexError, match=r"sources\[1\]"):
        graphs.distance_matrix(G, [0, 20])


def test_multi_source_sssp_and_all_pairs_share_the_engine():
    G = graphs.generators.road_network(5000, seed=2)
    src = np.arange(0, 5000, 250)
    D, P = graphs.multi_source_sssp(G, src)
    assert np.array_equal(D, expect(G, src))
    check_routes(G, src, D, P, np.arange(0, 5000, 500))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(0, 120), st.integers(0, 10**6), st.booleans(),
       st.sampled_from(["float", "int"]), st.sampled_from([None, 0.0, 2.5, 30.0]))
def test_property_equals_scipy(n, m, seed, directed, kind, limit):
    G = random_graph(n, m, seed, directed=directed, kind=kind, zeros=0.2)
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, rng.integers(1, 6))
    tgt = rng.integers(0, n, rng.integers(1, 8))
    got = graphs.distance_matrix(G, src, tgt, limit=limit)
    assert np.array_equal(as_float(got), expect(G, src, tgt, limit=np.inf if limit is None else limit))
