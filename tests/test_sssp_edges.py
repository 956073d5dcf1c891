"""Shortest paths at the edges: integer weights near the dtype's limits, float sums that overflow,
bucket widths far from the weights, vertex arguments of every kind.

The references are exact (Python integers) or SciPy; the saturation policy
(:mod:`semiring.dtypes`, :func:`graphs.sssp`) says what a distance beyond the
dtype's range becomes: ``iinfo.max`` (+inf) or ``iinfo.min`` (-inf), which sticks.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

import graphs
from graphs import Graph, NegativeCycleError, VertexError, VertexTypeError

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INT_DTYPES = (np.int32, np.int64)


def _exact(n, src, dst, w, s):
    """Exact distances from ``s`` (Python ints; None where unreachable) and whether a negative cycle is reachable."""
    d = [None] * n
    d[s] = 0
    for _ in range(n):
        changed = False
        for u, v, x in zip(src, dst, w):
            if d[u] is not None and (d[v] is None or d[u] + x < d[v]):
                d[v] = d[u] + x
                changed = True
        if not changed:
            return d, False
    return d, True


@st.composite
def int_graphs(draw, dag: bool = False):
    dtype = draw(st.sampled_from(INT_DTYPES))
    info = np.iinfo(dtype)
    n = draw(st.integers(1, 7))
    m = draw(st.integers(0, 12))
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    pairs = draw(st.lists(edge, min_size=m, max_size=m))
    if dag:
        pairs = [(min(u, v), max(u, v)) for u, v in pairs if u != v]
    near = st.one_of(
        st.integers(info.min + 1, info.min + 2**12), st.integers(info.max - 2**12, info.max - 1),
        st.integers(info.min // 2 - 8, info.min // 2 + 8), st.integers(info.max // 3 - 8, info.max // 3 + 8),
        st.integers(-10, 10),
    )
    w = [draw(near) for _ in pairs]
    src = [u for u, _ in pairs]
    dst = [v for _, v in pairs]
    return dtype, n, src, dst, w


def _check_against_exact(dtype, n, src, dst, w, s, dist):
    info = np.iinfo(dtype)
    exact, _ = _exact(n, src, dst, w, s)
    if all(x is None or info.min < x < info.max for x in exact):
        want = [info.max if x is None else x for x in exact]
        assert dist.tolist() == want
    for v, x in enumerate(exact):
        if x is not None and x <= info.min:
            assert dist[v] == info.min  # -inf sticks
        if x is None:
            assert dist[v] == info.max


@SETTINGS
@given(int_graphs())
def test_bellman_ford_saturation_and_cycles(g):
    dtype, n, src, dst, w = g
    G = Graph.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), np.array(w, dtype=dtype), n=n)
    any_cycle = any(_exact(n, src, dst, w, s)[1] for s in range(n))
    for s in range(n):
        _, cyc = _exact(n, src, dst, w, s)
        if cyc:
            with pytest.raises(NegativeCycleError) as info:
                graphs.sssp(G, s, method="bellman-ford")
            c = info.value.cycle
            total = 0
            for a, b in zip(c, c[1:] + c[:1]):
                total += min(x for u, v, x in zip(src, dst, w) if (u, v) == (a, b))
            assert total < 0  # the cycle named exists and is negative (exactly)
            continue
        dist, pred = graphs.sssp(G, s, method="bellman-ford")
        assert dist.dtype == dtype
        _check_against_exact(dtype, n, src, dst, w, s, dist)
        if not any_cycle:  # Johnson's potentials need a graph without negative cycles
            D, _ = graphs.multi_source_sssp(G, [s])
            np.testing.assert_array_equal(D[0], dist)


@SETTINGS
@given(int_graphs(dag=True))
def test_dag_never_reports_a_cycle(g):
    dtype, n, src, dst, w = g
    G = Graph.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), np.array(w, dtype=dtype), n=n)
    D, _ = graphs.multi_source_sssp(G)
    for s in range(n):
        dist, _ = graphs.sssp(G, s)
        _check_against_exact(dtype, n, src, dst, w, s, dist)
        np.testing.assert_array_equal(D[s], dist)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_reproducers_integer(dtype):
    info = np.iinfo(dtype)
    big = 1_200_000_000 if dtype == np.int32 else 5 * 10**18
    neg = -(2**30) if dtype == np.int32 else -(2**62)
    G = Graph.from_edges([0, 0, 3], [1, 3, 1], np.array([big, 0, neg], dtype))
    D, _ = graphs.multi_source_sssp(G, [0])
    assert D[0].tolist() == [0, neg, info.max, 0]
    np.testing.assert_array_equal(graphs.sssp(G, 0)[0], D[0])
    step = -(2**30) + 1 if dtype == np.int32 else -(2**62) + 1
    P = Graph.from_edges([0, 1, 2], [1, 2, 3], np.full(3, step, dtype))
    dist, pred = graphs.sssp(P, 0)
    assert dist[3] == info.min and pred.tolist() == [-1, 0, 1, 2]
    # -inf sticks through a later positive arc; a real cycle is still found.
    P2 = Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4], np.array([step, step, step, 5], dtype))
    assert graphs.sssp(P2, 0)[0][4] == info.min
    C = Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 1], np.full(4, step, dtype))
    with pytest.raises(NegativeCycleError, match="1 -> 2 -> 3 -> 1"):
        graphs.sssp(C, 0)
    with pytest.raises(NegativeCycleError):
        graphs.multi_source_sssp(C)


def test_float_overflow_is_minus_inf_not_a_cycle():
    G = Graph.from_edges([0, 1], [1, 2], [-1e308, -1e308])
    assert graphs.sssp(G, 0)[0].tolist() == [0.0, -1e308, -np.inf]
    assert graphs.multi_source_sssp(G, [0])[0][0].tolist() == [0.0, -1e308, -np.inf]
    G32 = Graph.from_edges([0, 1], [1, 2], np.array([-3e38, -3e38], np.float32))
    assert graphs.sssp(G32, 0)[0][2] == -np.inf
    with pytest.raises(NegativeCycleError):
        graphs.sssp(Graph.from_edges([0, 1, 2], [1, 2, 1], [-1e308, -1e308, 5.0]), 0)


@SETTINGS
@given(
    st.integers(2, 30),
    st.integers(0, 2**31 - 1),
    st.sampled_from([1e-300, 1e-12, 1.0, 1e6, 1e300, None]),
    st.sampled_from([np.float64, np.float32, np.int64, np.int32]),
    st.sampled_from([1.0, 1e9, 1e15]),
)
def test_delta_stepping_any_delta(n, seed, delta, dtype, scale):
    rng = np.random.default_rng(seed)
    m = 3 * n
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.random(m) * scale
    if np.dtype(dtype).kind == "i":
        w = np.floor(w)
        if dtype == np.int32:
            w = np.minimum(w, 2**20)
    w = w.astype(dtype)
    G = Graph.from_edges(src, dst, w, n=n)
    A = sp.coo_array((w.astype(np.float64) + 0.0, (src, dst)), shape=(n, n)).tocsr()
    A = sp.csr_array(G.simplify().to_scipy().astype(np.float64))
    want = shortest_path(A, indices=0)
    dist, pred = graphs.sssp(G, 0, method="delta-stepping", delta=delta)
    got = dist.astype(np.float64)
    if np.dtype(dtype).kind == "i":
        got[dist == np.iinfo(dtype).max] = np.inf
    np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == np.float32 else 1e-12)


def test_delta_stepping_reproducers():
    with pytest.raises(graphs.GraphError.__mro__[1], match=r"\+inf"):
        Graph.from_edges([0, 1], [1, 2], [1.0, np.inf])
    G = Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    assert graphs.sssp(G, 0, delta=1e-300)[0].tolist() == [0.0, 1.0, 3.0]
    Big = Graph.from_edges([0, 1], [1, 2], np.array([10**15, 10**15], np.int64))
    assert graphs.sssp(Big, 0, delta=1.0)[0].tolist() == [0, 10**15, 2 * 10**15]
    far = Graph.from_edges([0, 1, 2], [1, 2, 3], [1e-300, 1e300, 1.0])
    assert graphs.sssp(far, 0, method="delta-stepping")[0].tolist() == [0.0, 1e-300, 1e300, 1e300]


# -- vertex arguments -----------------------------------------------------------------

BAD_TYPES = [float("inf"), float("nan"), 1.0, 1.5, np.float64(1.0), True, np.bool_(False), "1", None, 1 + 0j]


@pytest.mark.parametrize("v", BAD_TYPES, ids=repr)
def test_vertex_of_a_wrong_type_is_a_type_error(v):
    G = Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    calls = {
        "bfs": lambda: graphs.bfs(G, v),
        "sssp": lambda: graphs.sssp(G, v),
        "st_connectivity": lambda: graphs.st_connectivity(G, v, 1),
        "st_connectivity t": lambda: graphs.st_connectivity(G, 0, v),
        "multi_source_sssp": lambda: graphs.multi_source_sssp(G, [v]),
        "multi_source_sssp list": lambda: graphs.multi_source_sssp(G, [0, v]),
    }
    for name, call in calls.items():
        with pytest.raises(TypeError) as info:
            call()
        assert isinstance(info.value, VertexError), name
        assert "source" in str(info.value) or " s " in f" {info.value}" or "t must" in str(info.value) \
            or str(info.value).startswith(("s ", "t ", "sources")), name


@SETTINGS
@given(st.one_of(st.integers(-(2**70), -1), st.integers(3, 2**70), st.integers(2**31 - 4, 2**31 + 4)))
def test_vertex_out_of_range_is_a_vertex_error(v):
    G = Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    for call in (lambda: graphs.sssp(G, v), lambda: graphs.bfs(G, v), lambda: graphs.multi_source_sssp(G, [v]),
                 lambda: graphs.st_connectivity(G, 0, v)):
        with pytest.raises(VertexError, match=f"= {v} is not a vertex") as info:
            call()
        assert not isinstance(info.value, TypeError)
    if -(2**63) <= v < 2**63:
        with pytest.raises(VertexError, match="sources"):
            graphs.multi_source_sssp(G, np.array([0, v], dtype=np.int64))


@pytest.mark.parametrize("v", [1, np.int32(1), np.int64(1), np.uint8(1), np.array(1)], ids=repr)
def test_integer_vertex_kinds(v):
    G = Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    assert graphs.sssp(G, v)[0].tolist() == [np.inf, 0.0, 2.0]
    assert graphs.multi_source_sssp(G, v)[0].tolist() == [[np.inf, 0.0, 2.0]]


def test_labels_as_vertex_arguments():
    H = nx.DiGraph()
    H.add_weighted_edges_from([("v0", "v1", 2.0), ("v1", "v2", 3.0), ("v0", "v2", 9.0)])
    G = Graph.from_networkx(H)
    assert graphs.sssp(G, "v0")[0].tolist() == [0.0, 2.0, 5.0]
    assert graphs.sssp(G, 0)[0].tolist() == [0.0, 2.0, 5.0]  # an integer is always an id
    assert graphs.bfs(G, "v1")[0].tolist() == [-1, 0, 1]
    assert repr(graphs.st_connectivity(G, "v0", "v2")) == repr(graphs.st_connectivity(G, 0, 2))
    D, _ = graphs.multi_source_sssp(G, ["v2", "v0"])
    assert D[1].tolist() == [0.0, 2.0, 5.0]
    with pytest.raises(VertexError, match="'v9' is not a label"):
        graphs.sssp(G, "v9")
    with pytest.raises(TypeError):
        graphs.sssp(G, 1.5)
    with pytest.raises(VertexTypeError, match="unhashable"):
        graphs.sssp(G, ["v0"])


def test_dimacs_graph_says_ids_are_0_based(tmp_path):
    p = tmp_path / "g.gr"
    p.write_text("p sp 3 2\na 1 2 7\na 2 3 1\n")
    G = graphs.read(p)
    with pytest.raises(VertexError, match="1-based id k is vertex k - 1"):
        graphs.sssp(G, 3)


@pytest.mark.parametrize("method", ["dijkstra", "spmm"])
@pytest.mark.parametrize("negative", [False, True])
def test_multi_source_without_predecessors_gives_the_same_distances(method, negative):
    rng = np.random.default_rng(5)
    n, m = 70, 500
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 30, m).astype(np.float64)
    if negative:  # a DAG with some negative arcs: no cycle, Johnson's reweighting on the CPU
        src, dst = np.minimum(src, dst), np.maximum(src, dst)
        keep = src != dst
        src, dst, w = src[keep], dst[keep], w[keep]
        w[::7] = -3.0
    G = Graph.from_edges(src, dst, w, n=n)
    D0, P0 = graphs.multi_source_sssp(G, [0, 9, 33], method=method)
    D1, P1 = graphs.multi_source_sssp(G, [0, 9, 33], method=method, predecessors=False)
    assert P0 is not None and P1 is None
    np.testing.assert_array_equal(D1, D0)
    np.testing.assert_array_equal(D0, shortest_path(G.to_scipy(), indices=[0, 9, 33]))
    with pytest.raises(TypeError, match="predecessors must be a bool"):
        graphs.multi_source_sssp(G, [0], predecessors="no")


def test_finite_negative_cycle_behind_a_saturated_one():
    """A saturated cycle (vertex 0, its loops far below zero) found first in the predecessor scan must not hide a
    finite negative cycle (the loop 1 -> 1 of weight -7): the search stops and names the finite one."""
    src = [1, 1, 0, 2, 0, 0, 0, 2]
    dst = [1, 0, 0, 0, 0, 0, 0, 2]
    w = [-7, -6, 3_074_457_345_618_258_597, -4_611_686_018_427_387_904, 9_223_372_036_854_772_599,
         -4_611_686_018_427_387_901, -4_611_686_018_427_387_898, 9_223_372_036_854_774_863]
    G = Graph.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), np.array(w, dtype=np.int64), n=3)
    with pytest.raises(NegativeCycleError) as info:
        graphs.sssp(G, 1, method="bellman-ford")
    assert info.value.cycle == [1]
    for s in (0, 2):
        with pytest.raises(NegativeCycleError) as info:
            graphs.sssp(G, s, method="bellman-ford")
        assert info.value.cycle == [0]
