"""Closures over the other semirings, transitive closure, the streamed driver, real data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import closure_reference_scalar, scalar_mul
from scipy.sparse.csgraph import breadth_first_order, dijkstra
from test_apsp_strategies import SETTINGS, scipy_distances, to_scipy, weighted_digraphs

import apsp
import semiring as sr
from apsp.streaming import NumpyDevice, plan, streamed_closure
from semiring.errors import DeviceError

METHODS = ["rkleene", "blocked-fw", "squaring", "fw"]
BLOCKS = st.sampled_from([None, 1, 2, 3, 5])
DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def closure_reference(S, W: np.ndarray) -> np.ndarray:
    """Floyd-Warshall with Python scalars and the semiring's ufuncs: slow and obviously right."""
    n = W.shape[0]
    D = W.copy()
    one = S.one_value(W.dtype)
    for i in range(n):
        D[i, i] = S.add_ufunc(D[i, i], one)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                D[i, j] = S.add_ufunc(D[i, j], S.mul_ufunc(D[i, k], D[k, j]))
    return D


def path_product(S, W, p):
    w = S.one_value(W.dtype)
    for a, b in zip(p, p[1:]):
        assert W[a, b] != S.zero_value(W.dtype), (a, b)
        w = S.mul_ufunc(w, W[a, b])
    return w


@st.composite
def capacities(draw, zero: float, max_n: int = 14):
    n = draw(st.integers(0, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    C = rng.integers(0, 5, (n, n)).astype(np.float64)  # few distinct values: ties everywhere
    C[rng.random((n, n)) < draw(st.sampled_from([0.1, 0.4, 0.8]))] = zero
    return C


@pytest.fixture(scope="module", autouse=True)
def warm_kernels():
    for S, W in ((sr.max_min, np.full((3, 3), -np.inf)), (sr.min_max, np.full((3, 3), np.inf)),
                 (sr.lor_land, np.zeros((3, 3), bool)), (sr.max_times, np.zeros((3, 3))),
                 (sr.max_plus, np.full((3, 3), -np.inf)), (sr.min_times, np.full((3, 3), np.inf))):
        for m in METHODS:
            apsp.shortest_paths(W, m, semiring=S, block_size=1, predecessors=True)
            apsp.shortest_paths(W, m, semiring=S, block_size=1)


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(C=capacities(-np.inf), block=BLOCKS)
def test_widest_paths(method, C, block):
    D, P = apsp.widest_paths(C, method, block_size=block, predecessors=True)
    np.testing.assert_array_equal(D, closure_reference(sr.max_min, C))
    np.testing.assert_array_equal(apsp.widest_paths(C, method, block_size=block), D)
    for i in range(C.shape[0]):
        for j in range(C.shape[0]):
            p = apsp.path(P, i, j)
            assert (p == []) == (D[i, j] == -np.inf)
            if p:
                assert path_product(sr.max_min, C, p) == D[i, j]


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(C=capacities(np.inf), block=BLOCKS)
def test_minimax_paths(method, C, block):
    D, P = apsp.minimax_paths(C, method, block_size=block, predecessors=True)
    np.testing.assert_array_equal(D, closure_reference(sr.min_max, C))
    for i in range(C.shape[0]):
        for j in range(C.shape[0]):
            p = apsp.path(P, i, j)
            if p:
                assert path_product(sr.min_max, C, p) == D[i, j]


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(W=weighted_digraphs(max_n=30), block=BLOCKS)
def test_longest_paths_in_dags(method, W, block):
    """max_plus on a DAG (upper triangle) is min_plus of the negated weights."""
    L = np.triu(np.where(np.isinf(W), -np.inf, W), 1)
    L[np.tril_indices_from(L)] = -np.inf
    D = apsp.shortest_paths(L, method, semiring=sr.max_plus, block_size=block)
    ref = -scipy_distances(np.where(np.isinf(L), np.inf, -L))
    np.testing.assert_array_equal(D, ref)


def test_positive_cycle_in_max_plus_raises():
    L = np.array([[-np.inf, 1.0], [0.0, -np.inf]])
    with pytest.raises(apsp.NegativeCycleError, match="positive cycle") as info:
        apsp.shortest_paths(L, semiring=sr.max_plus)
    assert sorted(info.value.cycle) == [0, 1]


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(data=st.data(), block=BLOCKS)
def test_most_reliable_paths(method, data, block):
    n = data.draw(st.integers(0, 12))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    R = rng.choice([0.0, 0.25, 0.5, 1.0], size=(n, n))  # exact in binary: products are exact
    D, P = apsp.shortest_paths(R, method, semiring=sr.max_times, block_size=block, predecessors=True)
    np.testing.assert_array_equal(D, closure_reference(sr.max_times, R))
    for i in range(n):
        for j in range(n):
            p = apsp.path(P, i, j)
            if p:
                assert path_product(sr.max_times, R, p) == D[i, j]


def test_reliability_above_one_diverges():
    with pytest.raises(apsp.NegativeCycleError, match="max_times"):
        apsp.shortest_paths(np.array([[0.0, 2.0], [0.75, 0.0]]), semiring=sr.max_times)


@st.composite
def multiplicative_costs(draw, dtype: str, max_n: int = 12):
    """Costs >= 1 with +inf off-edge, and 0-cost arcs on no cycle (a cycle through one would diverge).

    The 0-cost arcs run from the first half of the vertices to the second, and no arc runs back.

    Powers of two up to 4: every path product (at most 4**11) is exact in every dtype and
    never saturates, so the order in which an algorithm forms products cannot matter.
    """
    n = draw(st.integers(0, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    W = rng.choice([1, 2, 4], size=(n, n)).astype(dtype)
    W[rng.random((n, n)) < draw(st.sampled_from([0.2, 0.5, 0.9]))] = sr.min_times.zero_value(dtype)
    h = n // 2
    W[h:, :h] = sr.min_times.zero_value(dtype)
    W[:h, h:][rng.random((h, n - h)) < 0.2] = 0
    return W


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64"])
@SETTINGS
@given(data=st.data(), block=BLOCKS)
def test_least_product_paths(method, dt, data, block):
    """min_times: closure against a scalar Floyd-Warshall (0 * inf = inf), paths reproduce their product."""
    S = sr.min_times
    W = data.draw(multiplicative_costs(dt))
    D, P = apsp.shortest_paths(W, method, semiring=S, block_size=block, predecessors=True)
    assert D.dtype == W.dtype
    np.testing.assert_array_equal(D, closure_reference_scalar(S, W))
    np.testing.assert_array_equal(apsp.shortest_paths(W, method, semiring=S, block_size=block), D)
    for i in range(W.shape[0]):
        for j in range(W.shape[0]):
            p = apsp.path(P, i, j)
            assert (p == []) == (D[i, j] == S.zero_value(W.dtype))
            if p:
                w = S.one_value(W.dtype).item()
                for a, b in zip(p, p[1:]):
                    w = scalar_mul(S, w, W[a, b].item(), W.dtype)
                assert w == D[i, j]


@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_least_product_integer_paths_saturate_to_inf(dt):
    hi = int(sr.posinf(np.dtype(dt)))
    big = hi // 2 + 1
    W = np.array([[1, big, hi], [hi, 1, 3], [hi, hi, 1]], dtype=dt)
    D = apsp.shortest_paths(W, semiring=sr.min_times)
    np.testing.assert_array_equal(D, closure_reference_scalar(sr.min_times, W))
    assert D[0, 2] == hi and D[0, 1] == big and D[1, 2] == 3  # big * 3 saturates: unreachable


def test_product_below_one_diverges_in_min_times():
    W = np.array([[np.inf, 0.5], [1.5, np.inf]])
    with pytest.raises(apsp.NegativeCycleError, match=r"cycle better than the identity \(min_times\)") as info:
        apsp.shortest_paths(W, semiring=sr.min_times)
    assert sorted(info.value.cycle) == [0, 1]
    with pytest.raises(apsp.NegativeCycleError, match="min_times"):
        apsp.shortest_paths(np.array([[np.inf, 0.0], [np.inf, 0.0]]), semiring=sr.min_times)


def reachability_by_bfs(A: np.ndarray) -> np.ndarray:
    n = A.shape[0]
    G = to_scipy(np.where(A, 1.0, np.inf))
    R = np.zeros((n, n), bool)
    for i in range(n):
        R[i, breadth_first_order(G, i, directed=True, return_predecessors=False)] = True
    return R


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(data=st.data(), block=BLOCKS)
def test_transitive_closure_is_bfs_reachability(method, data, block):
    n = data.draw(st.integers(0, 70))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    A = rng.random((n, n)) < data.draw(st.sampled_from([0.01, 0.03, 0.1]))
    R = apsp.transitive_closure(A, method, block_size=block)
    assert R.dtype == np.bool_
    np.testing.assert_array_equal(R, reachability_by_bfs(A))
    R2, P = apsp.transitive_closure(A, method, block_size=block, predecessors=True)
    np.testing.assert_array_equal(R2, R)
    for i in range(0, n, 7):
        for j in range(n):
            p = apsp.path(P, i, j)
            assert bool(p) == R[i, j]
            assert all(A[a, b] for a, b in zip(p, p[1:]))


def test_semiring_closure_and_star_delegate_here():
    C = np.array([[-np.inf, 2.0], [-np.inf, -np.inf]])
    np.testing.assert_array_equal(sr.max_min.closure(C), apsp.widest_paths(C))
    W = np.array([[0.0, 1.0], [np.inf, 0.0]])
    np.testing.assert_array_equal(sr.min_plus.array(W).star(method="fw").data, W)


# -- the streamed (out-of-core) schedule, run with NumPy standing in for the device ----------------
@SETTINGS
@given(W=weighted_digraphs(max_n=40), block=st.sampled_from([None, 1, 3, 8]), pred=st.booleans())
def test_streamed_schedule_matches_scipy(W, block, pred):
    budget = 1 << 20 if block is not None else 64 * max(1, W.shape[0]) * 8
    out = streamed_closure(sr.min_plus, W, pred, memory_budget=budget, block_size=block, device=NumpyDevice())
    D = out[0] if pred else out
    np.testing.assert_array_equal(D, scipy_distances(W))
    if pred:
        P = out[1]
        for i in range(W.shape[0]):
            for j in range(W.shape[0]):
                p = apsp.path(P, i, j)
                if p:
                    assert sum(W[a, b] for a, b in zip(p, p[1:])) == D[i, j]


def test_streamed_schedule_raises_negative_cycles():
    W = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, -3.0], [1.0, np.inf, 0.0]])
    with pytest.raises(apsp.NegativeCycleError) as info:
        streamed_closure(sr.min_plus, W, memory_budget=1 << 20, block_size=1, device=NumpyDevice())
    assert sorted(info.value.cycle) == [0, 1, 2]


def test_stream_plan_fits_the_budget():
    p = plan(10_000, 4, True, 1 << 30)
    assert p.device_bytes <= 1 << 30 and p.block >= 1024
    with pytest.raises(DeviceError):
        plan(10_000, 4, False, 1000)


# -- real data --------------------------------------------------------------------------------------
def read_dimacs(path: Path) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    arcs = [line.split()[1:] for line in path.read_text().splitlines() if line.startswith("a ")]
    n = int(next(line.split()[2] for line in path.read_text().splitlines() if line.startswith("p ")))
    a = np.array(arcs, dtype=np.int64)
    return n, a[:, 0] - 1, a[:, 1] - 1, a[:, 2].astype(np.float64)


@pytest.mark.slow
def test_rome_road_network_subgraph():
    """Rome (DIMACS): the first 700 vertices' induced subgraph against SciPy's Dijkstra; paths checked."""
    path = DATA / "rome99.gr"
    if not path.exists():
        pytest.skip("shared data folder not present")
    n, u, v, w = read_dimacs(path)
    m = 700
    keep = (u < m) & (v < m)
    W = np.full((m, m), np.inf)
    np.minimum.at(W, (u[keep], v[keep]), w[keep])  # parallel arcs: the lightest counts
    ref = dijkstra(to_scipy(W), directed=True)
    np.testing.assert_array_equal(apsp.shortest_paths(W), ref)
    D, P = apsp.shortest_paths(W, "blocked-fw", predecessors=True)
    np.testing.assert_array_equal(D, ref)
    rng = np.random.default_rng(0)
    for i, j in rng.integers(0, m, (300, 2)):
        p = apsp.path(P, i, j)
        if np.isfinite(D[i, j]):
            assert sum(W[a, b] for a, b in zip(p, p[1:])) == D[i, j]
        else:
            assert p == []
