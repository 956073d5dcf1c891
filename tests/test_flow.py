"""graphs.maximum_flow on the CPU: against SciPy, NetworkX and the definition of a maximum flow."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from flow_reference import check_flow, networkx_flow_value, scipy_flow_value
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs import CapacityError, Graph, GraphError, VertexError
from graphs import _flow_kernels as K
from graphs import generators as gen
from graphs._flow_network import capacities, flood_from_sink, residual_arrays
from semiring.errors import InvalidEntryError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Compile the kernels (int64 and float64) once."""
    G = Graph.from_edges([0, 1], [1, 2], [1, 2])
    graphs.maximum_flow(G, 0, 2)
    graphs.maximum_flow(Graph.from_edges([0, 1], [1, 2], [1.0, 2.0]), 0, 2)


@st.composite
def flow_problems(draw, floats: bool = False):
    """Small graphs with parallel arcs, self loops, zero capacities, disconnected terminals."""
    n = draw(st.integers(2, 12))
    m = draw(st.integers(0, 40))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    if floats:
        w = draw(st.lists(st.floats(0, 1e3, allow_nan=False, width=64), min_size=m, max_size=m))
        w = np.asarray(w, dtype=np.float64)
    else:
        w = np.asarray(draw(st.lists(st.integers(0, 9), min_size=m, max_size=m)), dtype=np.int64)
    directed = draw(st.booleans())
    G = Graph.from_edges(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), w, n=n, directed=directed)
    s = draw(st.integers(0, n - 1))
    t = draw(st.integers(0, n - 2))
    return G, s, t if t < s else t + 1


@settings(max_examples=150, deadline=None)
@given(flow_problems())
def test_integer_flows_match_scipy_and_networkx(problem):
    G, s, t = problem
    r = graphs.maximum_flow(G, s, t)
    assert isinstance(r.flow_value, int)
    assert r.flow_value == scipy_flow_value(G, s, t) == networkx_flow_value(G, s, t)
    check_flow(G, s, t, r)


@settings(max_examples=60, deadline=None)
@given(flow_problems(floats=True))
def test_float_flows_match_networkx(problem):
    G, s, t = problem
    r = graphs.maximum_flow(G, s, t)
    ref = networkx_flow_value(G, s, t)
    assert r.flow_value == pytest.approx(ref, rel=1e-9, abs=1e-9)
    check_flow(G, s, t, r, tol=1e-9 * max(1.0, float(G.weights.max()) if G.nnz else 1.0))


def test_equal_weights_unweighted_and_disconnected():
    G = Graph.from_edges([0, 0, 1, 2, 4], [1, 2, 3, 3, 5], n=6)  # unweighted: capacity 1
    r = graphs.maximum_flow(G, 0, 3)
    assert r.flow_value == 2 and r.flow.dtype == np.int64
    check_flow(G, 0, 3, r)
    r = graphs.maximum_flow(G, 0, 5)  # t unreachable
    assert r.flow_value == 0 and r.cut_edges[0].size == 0
    check_flow(G, 0, 5, r)


def test_empty_graph_and_two_vertices():
    G = Graph.from_edges([], [], n=2)
    r = graphs.maximum_flow(G, 0, 1)
    assert r.flow_value == 0 and r.flow.shape == (2, 2) and r.flow.nnz == 0
    assert r.source_side.tolist() == [True, False]
    check_flow(G, 0, 1, r)
    for n in (0, 1):
        with pytest.raises(VertexError):
            graphs.maximum_flow(Graph.from_edges([], [], n=n), 0, 0)


def test_scipy_layout_and_inputs():
    A = sp.csr_array(np.array([[0, 5, 4, 0], [0, 0, 2, 3], [0, 0, 0, 6], [0, 0, 0, 0]]))
    r = graphs.maximum_flow(A, 0, 3)
    import scipy.sparse.csgraph as csg

    ref = csg.maximum_flow(A, 0, 3)
    assert r.flow_value == ref.flow_value == 9
    assert isinstance(r.flow, sp.csr_array)
    np.testing.assert_array_equal(r.flow.toarray(), -r.flow.toarray().T)
    assert r.source_side.tolist() == [True, False, False, False]
    assert dataclasses.is_dataclass(r)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.flow_value = 0


def test_int64_capacities_above_2_31_are_exact():
    big = 2**40 + 7
    G = Graph.from_edges([0, 0, 1, 2, 1], [1, 2, 3, 3, 2], np.array([big, 3 * big, big + 1, 2**33, 5], dtype=np.int64))
    r = graphs.maximum_flow(G, 0, 3)
    assert r.flow_value == networkx_flow_value(G, 0, 3) == big + 2**33
    check_flow(G, 0, 3, r)
    # Near the top of int64: one arc of 2**63 - 2 (2**63 - 1 is the +inf sentinel, no arc weight)
    # and parallel arcs summing to it.
    top = 2**63 - 2
    G = Graph.from_edges([0, 1, 1], [1, 2, 2], np.array([top, top // 2, top - top // 2], dtype=np.int64))
    r = graphs.maximum_flow(G, 0, 2)
    assert r.flow_value == top == networkx_flow_value(G, 0, 2)
    check_flow(G, 0, 2, r)


def test_int64_overflow_is_refused():
    G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], np.array([2**62, 2**62, 1, 1], dtype=np.int64))
    with pytest.raises(CapacityError, match="out of the source 0"):
        graphs.maximum_flow(G, 0, 3)
    G = Graph.from_edges([1, 2, 0], [2, 1, 1], np.array([2**62, 2**62, 1], dtype=np.int64))
    with pytest.raises(CapacityError, match="between vertices 1 and 2"):
        graphs.maximum_flow(G, 0, 2)


def test_bad_input_names_the_entry():
    G = Graph.from_edges([0, 1, 2], [1, 2, 3], np.array([1, -4, 2]))
    with pytest.raises(CapacityError, match=r"arc 1 \(1 -> 2\) is -4"):
        graphs.maximum_flow(G, 0, 3)
    with pytest.raises(InvalidEntryError):  # a NaN weight is refused when the graph is built
        Graph.from_edges([0, 1], [1, 2], np.array([1.0, np.nan]))
    G = Graph(np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([1.0, np.nan]), check=False)
    with pytest.raises(CapacityError, match=r"arc 1 \(1 -> 2\) is nan"):
        graphs.maximum_flow(G, 0, 2)
    with pytest.raises(InvalidEntryError):  # so is an infinite one (no arc weighs +inf)
        Graph.from_edges([0, 1], [1, 2], np.array([np.inf, 1.0]))
    G = Graph(np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([np.inf, 1.0]), check=False)
    with pytest.raises(CapacityError, match="arc 0"):
        graphs.maximum_flow(G, 0, 2)
    G = Graph.from_edges([0, 1], [1, 2], [1, 1])
    for s, t, what in [(0, 0, "differ"), (0, 3, "t = 3"), (-1, 2, "s = -1"), (1.5, 2, "s must be"),
                       (0, 2.0, "t must be"), ("a", 2, "s must be"), (True, 2, "s must be"), (None, 2, "s must be")]:
        with pytest.raises(VertexError, match=what):
            graphs.maximum_flow(G, s, t)
    assert graphs.maximum_flow(G, np.int64(0), np.int32(2)).flow_value == 1
    with pytest.raises(GraphError, match="method"):
        graphs.maximum_flow(G, 0, 2, method="dinic")
    with pytest.raises(GraphError, match="device"):
        graphs.maximum_flow(G, 0, 2, device="tpu")
    for e in (CapacityError, VertexError):
        assert issubclass(e, ValueError)


@pytest.mark.parametrize("name, G", [
    ("rmat10", gen.rmat(10, seed=3, dtype=np.int64)),
    ("rmat10-directed", gen.rmat(10, seed=4, directed=True, dtype=np.int32)),
    ("grid", gen.grid_2d(37, 53, seed=5, dtype=np.int64)),
    ("road", gen.road_network(1500, seed=6, dtype=np.int64)),
    ("ssca2", gen.ssca2(9, seed=7, dtype=np.int64)),
])
def test_generated_graphs(name, G):
    rng = np.random.default_rng(11)
    deg = np.diff(G.indptr)
    order = np.argsort(-deg, kind="stable")
    pairs = [(int(order[0]), int(order[1])), (0, G.n - 1)] + [tuple(int(x) for x in rng.choice(G.n, 2, replace=False))]
    for s, t in pairs:
        r = graphs.maximum_flow(G, s, t)
        assert r.flow_value == scipy_flow_value(G, s, t), (name, s, t)
        check_flow(G, s, t, r)


@pytest.mark.parametrize("name", ["rome99.gr", "facebook_combined.txt", "email-Enron.txt"])
def test_real_graphs_with_seeded_capacities(name):
    if not (DATA / name).exists():
        pytest.skip(f"{name} not in {DATA}")
    G0 = graphs.read(DATA / name)
    rng = np.random.default_rng(2024)
    src, dst, _ = G0.edges()
    w = rng.integers(1, 1000, src.size).astype(np.int64)
    G = Graph.from_edges(src, dst, w, n=G0.n, directed=G0.directed)
    deg = np.diff(G.indptr)
    order = np.argsort(-deg, kind="stable")
    for s, t in [(int(order[0]), int(order[3])), tuple(int(x) for x in rng.choice(G.n, 2, replace=False))]:
        r = graphs.maximum_flow(G, s, t)
        assert r.flow_value == scipy_flow_value(G, s, t), (name, s, t)
        check_flow(G, s, t, r)


def test_residual_builders_agree():
    """The Numba builder (CPU) and the sorting builder (GPU driver's, run here with NumPy) agree."""
    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(1, 40))
        m = int(rng.integers(0, 200))
        directed = bool(rng.integers(0, 2))
        G = Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(0, 50, m), n=n,
                             directed=directed)
        cap = capacities(G)
        a = residual_arrays(np, G, cap)
        b = K.residual_csr(G.indptr, G.indices, cap)
        for x, y, z in zip(a, b, K.residual_csr(G.indptr, G.indices, cap, not directed)):
            np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(x, z)
        ptr, head, mate, _ = b
        tails = np.repeat(np.arange(n), np.diff(ptr))
        assert np.array_equal(mate[mate], np.arange(mate.size))
        assert np.array_equal(tails[mate], head) and np.array_equal(head[mate], tails)
    # A graph that claims symmetry without it is built the general way.
    G = Graph(np.array([0, 1, 1, 1]), np.array([1]), np.array([4]), directed=False, check=False)
    ptr, head, mate, cap0 = K.residual_csr(G.indptr, G.indices, capacities(G), True)
    assert head.tolist() == [1, 0] and mate.tolist() == [1, 0] and cap0.tolist() == [4, 0]
    assert graphs.maximum_flow(G, 0, 1).flow_value == 4
    # Unsorted rows are sorted first.
    G = Graph(np.array([0, 3, 3, 3]), np.array([2, 1, 2]), np.array([1, 2, 3]))
    ptr, head, mate, cap0 = K.residual_csr(G.indptr, G.indices, capacities(G))
    assert head.tolist() == [1, 2, 0, 0] and cap0.tolist() == [2, 4, 0, 0]


# --- the checker catches planted errors --------------------------------------------------------


def _diamond():
    G = Graph.from_edges([0, 0, 1, 1, 2, 3], [1, 2, 2, 3, 4, 4], np.array([4, 3, 2, 3, 5, 2]), n=5)
    return G, graphs.maximum_flow(G, 0, 4)


def _with_flow(r, F):
    return dataclasses.replace(r, flow=sp.csr_array(F))


def test_check_flow_catches_planted_errors():
    G, r = _diamond()
    check_flow(G, 0, 4, r)
    F = r.flow.toarray()
    bad = F.copy()
    bad[0, 1] += 1  # antisymmetry broken
    with pytest.raises(AssertionError, match="antisymmetric"):
        check_flow(G, 0, 4, _with_flow(r, bad))
    bad = F.copy()
    u, v = next((u, v) for u, v in zip(*np.nonzero(F > 0)) if u not in (0, 4) and v not in (0, 4))
    bad[u, v] -= 1
    bad[v, u] += 1  # one unit less on an inner arc: conservation broken at both ends
    with pytest.raises(AssertionError, match="conservation"):
        check_flow(G, 0, 4, _with_flow(r, bad))
    bad = F.copy()
    for u, v in [(0, 1), (1, 3), (3, 4)]:  # one more unit along a saturated path
        bad[u, v] += 1
        bad[v, u] -= 1
    with pytest.raises(AssertionError, match="capacity"):
        check_flow(G, 0, 4, dataclasses.replace(_with_flow(r, bad), flow_value=r.flow_value + 1))
    with pytest.raises(AssertionError, match="conservation"):
        check_flow(G, 0, 4, dataclasses.replace(r, flow_value=r.flow_value - 1))
    side = r.source_side.copy()
    side[3] = ~side[3]
    with pytest.raises(AssertionError, match="source_side"):
        check_flow(G, 0, 4, dataclasses.replace(r, source_side=side))
    with pytest.raises(AssertionError, match="cut_edges"):
        check_flow(G, 0, 4, dataclasses.replace(r, cut_edges=(r.cut_edges[0][:-1], r.cut_edges[1][:-1])))


def test_a_planted_bug_in_the_algorithm_is_caught(monkeypatch):
    """Skipping the second phase leaves a preflow (excess stranded at 1): the check fails."""
    G = Graph.from_edges([0, 1, 3], [1, 2, 2], np.array([10, 1, 20]), n=4)  # floods from s: 10 < 21
    check_flow(G, 0, 2, graphs.maximum_flow(G, 0, 2))
    monkeypatch.setattr(K, "stranded", lambda *a: False)
    r = graphs.maximum_flow(G, 0, 2)
    assert r.flow_value == 1  # the value is right, the flow is not
    with pytest.raises(AssertionError, match="conservation"):
        check_flow(G, 0, 2, r)


# --- the GPU algorithm, emulated ---------------------------------------------------------------


def _emulated_gpu_flow(G, s, t, rng):
    """The GPU driver's loop with its kernels written out in NumPy, vertices in random order.

    One sweep steps the vertices one after another in a random order (a legal
    interleaving of the lock-free kernel ``flow_discharge``: push along every residual
    arc to a lower head, in arc order, until the excess is gone, else relabel); global relabels are
    the BFS of ``flow_bfs_level``.  Checks the algorithm, not the CUDA code.
    """
    cap = capacities(G)
    tol = 0  # integer capacities (the GPU driver scales float ones to integers)
    ptr, head, mate, cap0 = residual_arrays(np, G, cap)
    n = G.n
    reverse = flood_from_sink(ptr, mate, cap0, s, t)
    s0 = s
    if reverse:
        s, t = t, s
    res = cap0[mate] if reverse else cap0.copy()
    excess, label = np.zeros(n, cap0.dtype), np.zeros(n, np.int64)
    for a in range(ptr[s], ptr[s + 1]):
        excess[head[a]] += res[a]
        res[mate[a]] += res[a]
        res[a] = 0

    def relabel(sink, blocked):
        label[:] = n
        label[sink] = 0
        frontier = [sink]
        while frontier:
            nxt = []
            for x in frontier:
                for a in range(ptr[x], ptr[x + 1]):
                    y = head[a]
                    if y != blocked and label[y] == n and res[mate[a]] > tol:
                        label[y] = label[x] + 1
                        nxt.append(y)
            frontier = nxt

    def active(sink, blocked):
        return [u for u in range(n) if u not in (sink, blocked) and excess[u] > tol and label[u] < n]

    def phase(sink, blocked):
        relabel(sink, blocked)
        while active(sink, blocked):
            for _ in range(3):
                for u in rng.permutation(n):
                    for _ in range(2):
                        if u in (sink, blocked) or not excess[u] > tol or label[u] >= n:
                            break
                        hu, left, hmin = label[u], excess[u], n
                        for a in range(ptr[u], ptr[u + 1]):
                            if not res[a] > tol:
                                continue
                            v = head[a]
                            if label[v] < hu:
                                d = min(left, res[a])
                                res[a] -= d
                                res[mate[a]] += d
                                excess[v] += d
                                excess[u] -= d
                                left -= d
                                if not left > tol:
                                    break
                            else:
                                hmin = min(hmin, label[v])
                        if left > tol:
                            label[u] = min(hmin + 1, n)
            relabel(sink, blocked)

    phase(t, s)
    value = excess[t].item()
    if any(excess[u] > tol for u in range(n) if u not in (s, t)):
        phase(s, t)
    if reverse:
        res = res[mate]
    side = K.reachable_from(ptr, head, res, s0)
    return graphs.FlowResult(value, sp.csr_array((cap0 - res, head, ptr), shape=(n, n)), side,
                             K.cut_arcs(G.indptr, G.indices, cap, side))


@settings(max_examples=60, deadline=None)
@given(flow_problems(), st.integers(0, 2**32 - 1))
def test_gpu_algorithm_emulated(problem, seed):
    G, s, t = problem
    r = _emulated_gpu_flow(G, s, t, np.random.default_rng(seed))
    assert r.flow_value == _emulated_gpu_flow(G, s, t, np.random.default_rng(seed + 1)).flow_value
    assert r.flow_value == graphs.maximum_flow(G, s, t).flow_value
    check_flow(G, s, t, r)
