"""APSP at the edges: integer weights near the limits, float sums that overflow, masked arrays, bad arguments.

Every method (with and without predecessors) must give the exact answer, or
the infinity at the dtype's edge, and agree with the others; an overflowed
sum is an answer, never a negative cycle, while a real negative cycle is
still found and named; ``numpy.ma`` masks mean "no edge"; integer arguments
are Python / NumPy integers, checked by name.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import csgraph_from_masked, floyd_warshall
from test_apsp_strategies import scipy_distances

import apsp
import graphs
import semiring as sr
from apsp.errors import PredecessorError, VertexError
from semiring.errors import SemiringError

METHODS = ["rkleene", "blocked-fw", "squaring", "fw"]


# -- references -----------------------------------------------------------------------------------
def exact_closure(W: np.ndarray, family: str = "min_plus"):
    """Floyd-Warshall in exact Python integers; ``None`` if a cycle diverges; else clamped to the sentinels."""
    info = np.iinfo(W.dtype)
    lo, hi = int(info.min), int(info.max)
    n = W.shape[0]
    none = math.inf if family == "min_plus" else -math.inf
    better = (lambda x, y: x < y) if family == "min_plus" else (lambda x, y: x > y)
    D = [[none if int(W[i, j]) == (hi if family == "min_plus" else lo) else int(W[i, j]) for j in range(n)]
         for i in range(n)]
    for i in range(n):
        if better(0, D[i][i]) or D[i][i] == none:
            D[i][i] = 0
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if D[i][k] != none and D[k][j] != none and better(D[i][k] + D[k][j], D[i][j]):
                    D[i][j] = D[i][k] + D[k][j]
    if any(D[i][i] != 0 for i in range(n)):
        return None
    out = np.empty((n, n), W.dtype)
    for i in range(n):
        for j in range(n):
            v = D[i][j]
            out[i, j] = (hi if v > 0 else lo) if v in (math.inf, -math.inf) else max(lo, min(hi, v))
    return out


def all_results(W, semiring=sr.min_plus, **kw):
    """``{(method, predecessors): D or the NegativeCycleError}``."""
    out = {}
    for m in METHODS:
        for pred in (False, True):
            try:
                r = apsp.shortest_paths(W, m, semiring=semiring, predecessors=pred, block_size=2, **kw)
                out[(m, pred)] = r[0] if pred else r
            except apsp.NegativeCycleError as e:
                out[(m, pred)] = e
    return out


def assert_all_equal(results, want):
    for key, got in results.items():
        if want is None:
            assert isinstance(got, apsp.NegativeCycleError), (key, got)
        else:
            assert isinstance(got, np.ndarray), (key, got)
            np.testing.assert_array_equal(got, want, err_msg=str(key))


# -- integers near the limits (item: saturation sticks, methods agree) -----------------------------
@pytest.mark.parametrize("dtype,w", [(np.int32, -2**30 + 1), (np.int64, -2**62 + 1)])
def test_a_saturated_chain_stays_minus_inf_in_every_method(dtype, w):
    info = np.iinfo(dtype)
    W = np.full((5, 5), info.max, dtype)
    for i in range(3):
        W[i, i + 1] = w
    W[3, 4] = 5
    results = all_results(W)
    want = exact_closure(W)
    assert want[0, 4] == info.min and want[0, 3] == info.min
    assert_all_equal(results, want)


def _near(bits: int):
    half = 2 ** (bits - 2)
    return st.one_of(st.integers(half - 64, half + 64), st.integers(-half - 64, -half + 64),
                     st.integers(-16, 16), st.integers(-(2 ** (bits - 1)) + 2, 2 ** (bits - 1) - 2))


@st.composite
def int_graphs(draw, dtype, sign: int = 0, dag: bool = False):
    """Small int graphs with weights near +-2**(bits-2) (``sign``: all >= 0, all <= 0, or mixed)."""
    dtype = np.dtype(dtype)
    bits = np.iinfo(dtype).bits
    n = draw(st.integers(2, 6))
    W = np.full((n, n), np.iinfo(dtype).max, dtype)
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), _near(bits)),
                          min_size=1, max_size=3 * n))
    for u, v, w in edges:
        if dag and u >= v:
            continue
        if sign:
            w = sign * abs(w)
        W[u, v] = w
    return W


@settings(max_examples=40, deadline=None)
@given(W=int_graphs(np.int32))
def test_hypothesis_int32_mixed_signs_near_the_limits_are_exact(W):
    """int32: exact (sums formed in int64 when they could leave the range), clamped to the sentinels."""
    assert_all_equal(all_results(W), exact_closure(W))


@settings(max_examples=30, deadline=None)
@given(W=st.one_of(int_graphs(np.int64, sign=-1), int_graphs(np.int64, sign=1), int_graphs(np.int32, sign=-1)))
def test_hypothesis_one_signed_weights_near_the_limits_saturate_exactly(W):
    """Weights of one sign: saturated sums are the exact ones clamped, in any order of the sums."""
    assert_all_equal(all_results(W), exact_closure(W))


@settings(max_examples=25, deadline=None)
@given(W=st.one_of(int_graphs(np.int32, sign=1), int_graphs(np.int64, sign=1), int_graphs(np.int32, dag=True)))
def test_hypothesis_max_plus_near_the_limits(W):
    info = np.iinfo(W.dtype)
    W = np.where(W == info.max, info.min, W).astype(W.dtype)  # max_plus: -inf is no edge
    assert_all_equal(all_results(W, semiring=sr.max_plus), exact_closure(W, "max_plus"))


def test_int32_sums_are_formed_exactly_where_saturation_would_depend_on_the_order():
    big = 2**30
    W = np.full((4, 4), np.iinfo(np.int32).max, np.int32)
    W[0, 1], W[1, 2], W[2, 3] = big, big, -big  # exact 0 -> 3: 2**30, but 2**30 + 2**30 saturates
    want = exact_closure(W)
    assert want[0, 3] == big and want[0, 2] == np.iinfo(np.int32).max  # 2**31 is beyond int32: +inf
    assert_all_equal(all_results(W), want)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("method", ["rkleene", "blocked-fw", "fw", "squaring"])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 90), wmax=st.sampled_from([1, 100, 10**6]))
def test_hypothesis_non_negative_integers_with_missing_arcs_run_on_a_stand_in_and_are_exact(dtype, method, seed,
                                                                                          n, wmax):
    from apsp.paths.exact_integers import plain_infinity

    rng = np.random.default_rng(seed)
    top = np.iinfo(dtype).max
    W = rng.integers(0, wmax + 1, (n, n)).astype(dtype)
    W[rng.random((n, n)) < 0.8] = top
    np.fill_diagonal(W, 0)
    assert plain_infinity(W, sr.min_plus) == (int(top) - 1) // 2
    got = apsp.shortest_paths(W, method=method, device="cpu")
    ref = scipy_distances(np.where(W == top, np.inf, W.astype(np.float64)))
    want = np.where(np.isinf(ref), 0, ref).astype(dtype)
    want[np.isinf(ref)] = top
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_the_stand_in_rule_at_its_edge(dtype):
    """Applies while (n - 1) * max weight < P = (iinfo.max - 1) // 2, with no negative weight; exact on both sides."""
    from apsp.paths.exact_integers import plain_infinity

    n, top = 40, int(np.iinfo(dtype).max)
    P = (top - 1) // 2
    for w, applies in ((P // (n - 1), True), (P // (n - 1) + 1, False)):
        W = np.full((n, n), top, dtype)
        np.fill_diagonal(W, 0)
        W[np.arange(n - 1), np.arange(1, n)] = w
        assert (plain_infinity(W, sr.min_plus) is not None) == applies
        steps = np.arange(n)[None, :] - np.arange(n)[:, None]
        want = np.where(steps >= 0, steps.astype(object) * w, top)
        for method in ("rkleene", "fw"):
            got = apsp.shortest_paths(W, method=method, device="cpu")
            assert np.array_equal(got.astype(object), want)
    W = np.array([[0, 5], [-1, 0]], dtype)
    assert plain_infinity(W, sr.min_plus) is None and plain_infinity(W.astype(np.float32), sr.min_plus) is None
    assert plain_infinity(np.abs(W), sr.max_plus) is None


# -- floats that overflow (an overflowed sum is an answer, not a cycle) ---------------------------
@pytest.mark.parametrize("dtype,w", [(np.float64, -1e308), (np.float32, -3e38)])
def test_an_overflowing_float_path_is_minus_inf_not_a_cycle(dtype, w):
    W = np.array([[0, w, np.inf], [np.inf, 0, w], [np.inf, np.inf, 0]], dtype)
    with np.errstate(over="ignore"):
        want = scipy_distances(W).astype(dtype)
    assert want[0, 2] == -np.inf
    assert_all_equal(all_results(W), want)


@st.composite
def overflowing_dags(draw, dtype):
    """DAGs (edges i -> j, i < j) with huge negative and small weights: sums overflow to -inf.

    Powers of two, so that every sum is exact (or -inf) in the float type and in float64 alike.
    """
    n = draw(st.integers(2, 7))
    info = np.finfo(dtype)
    e = int(info.maxexp) - 1
    W = np.full((n, n), np.inf, dtype)
    for i in range(n):
        for j in range(i + 1, n):
            if draw(st.booleans()):
                W[i, j] = draw(st.sampled_from([-float(info.max), -(2.0**e), -(2.0 ** (e - 1)), -(2.0 ** (e - 2)),
                                                -1.0, 0.0, -(2.0**20)]))
    np.fill_diagonal(W, 0)
    return W


@settings(max_examples=40, deadline=None)
@given(W=st.one_of(overflowing_dags(np.float64), overflowing_dags(np.float32)))
def test_hypothesis_overflowing_dags_agree_with_scipy(W):
    with np.errstate(over="ignore"):
        want = scipy_distances(W).astype(W.dtype)
    results = all_results(W)
    assert_all_equal(results, want)


@st.composite
def graphs_with_a_negative_cycle(draw, dtype):
    """An overflowing DAG plus one back arc that closes a really negative cycle."""
    W = draw(overflowing_dags(dtype))
    n = W.shape[0]
    i = draw(st.integers(0, n - 2))
    W[i, i + 1] = -float(np.finfo(dtype).max) / 2 if draw(st.booleans()) else -1.0
    W[i + 1, i] = draw(st.sampled_from([0.0, 0.5]))
    return W


@settings(max_examples=30, deadline=None)
@given(W=st.one_of(graphs_with_a_negative_cycle(np.float64), graphs_with_a_negative_cycle(np.float32)))
def test_hypothesis_a_real_negative_cycle_is_still_found_and_named(W):
    for key, got in all_results(W).items():
        assert isinstance(got, apsp.NegativeCycleError), key
        cyc = got.cycle
        assert got.vertex == cyc[0]
        weight = sum(float(W[a, b]) for a, b in zip(cyc, cyc[1:] + cyc[:1]))
        assert all(np.isfinite(W[a, b]) for a, b in zip(cyc, cyc[1:] + cyc[:1])), (key, cyc)
        assert weight < 0, (key, cyc, weight)


def test_an_overflowing_cycle_is_a_negative_cycle():
    W = np.array([[0, -1e308, np.inf], [np.inf, 0, -1e308], [-1e308, np.inf, 0]])
    for key, got in all_results(W).items():
        assert isinstance(got, apsp.NegativeCycleError), key
        assert sorted(got.cycle) == [0, 1, 2]


# -- masked arrays -----------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9))
def test_hypothesis_masked_entries_are_no_edge_as_in_scipy(seed, n):
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 9, (n, n)).astype(np.float64)
    data[rng.random((n, n)) < 0.2] = np.nan  # whatever lies under the mask is ignored
    mask = rng.random((n, n)) < 0.5
    mask |= np.isnan(data)
    Wm = np.ma.masked_array(data, mask=mask)
    want = floyd_warshall(csgraph_from_masked(Wm), directed=True)
    for m in METHODS:
        got = apsp.shortest_paths(Wm, m)
        assert type(got) is np.ndarray
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(apsp.closure(Wm), want)


def test_every_entry_point_honours_the_mask():
    data = np.array([[0.0, 1.0, 5.0], [2.0, 0.0, 1.0], [1.0, 3.0, 0.0]])
    mask = np.array([[False, True, False], [False, False, False], [True, False, False]])
    Wm = np.ma.masked_array(data, mask=mask)
    filled = np.where(mask, np.inf, data)
    np.testing.assert_array_equal(apsp.shortest_paths(Wm), apsp.shortest_paths(filled))
    np.testing.assert_array_equal(apsp.closure(Wm), apsp.shortest_paths(filled))
    np.testing.assert_array_equal(apsp.widest_paths(Wm), apsp.widest_paths(np.where(mask, -np.inf, data)))
    np.testing.assert_array_equal(apsp.minimax_paths(Wm), apsp.minimax_paths(filled))
    B = np.ma.masked_array(data > 0, mask=mask)
    np.testing.assert_array_equal(apsp.transitive_closure(B), apsp.transitive_closure((data > 0) & ~mask))
    Wi = np.ma.masked_array(data.astype(np.int32), mask=mask)
    want = apsp.shortest_paths(np.where(mask, np.iinfo(np.int32).max, data).astype(np.int32))
    np.testing.assert_array_equal(apsp.shortest_paths(Wi), want)
    D, P = apsp.shortest_paths(Wm, predecessors=True)
    assert apsp.path(P, 0, 1) == [0, 2, 1]
    assert data[0, 1] == 1.0  # the input is not changed


def test_a_masked_array_of_a_wrong_dtype_is_still_rejected():
    with pytest.raises(SemiringError):
        apsp.shortest_paths(np.ma.masked_array(np.zeros((2, 2), np.int8), mask=False))


# -- integer arguments ------------------------------------------------------------------------------
W3 = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])


@pytest.mark.parametrize("bad", ["x", 1.5, 2.0, None, True, np.float64(3.0), [2]])
def test_block_size_must_be_an_integer(bad):
    if bad is None:
        apsp.shortest_paths(W3, block_size=None)
        return
    with pytest.raises(TypeError, match="block_size must be an integer"):
        apsp.shortest_paths(W3, "blocked-fw", block_size=bad)


@pytest.mark.parametrize("method", METHODS)
def test_block_size_accepts_numpy_integers_and_rejects_non_positive(method):
    want = apsp.shortest_paths(W3)
    np.testing.assert_array_equal(apsp.shortest_paths(W3, method, block_size=np.int64(2)), want)
    with pytest.raises(SemiringError, match="block_size must be at least 1, got 0"):
        apsp.shortest_paths(W3, method, block_size=0)


def test_memory_budget_is_checked_on_every_device():
    with pytest.raises(TypeError, match="memory_budget"):
        apsp.shortest_paths(W3, memory_budget=2.5e9)
    with pytest.raises(SemiringError, match="memory_budget must be at least 1"):
        apsp.shortest_paths(W3, memory_budget=-1)
    with pytest.raises(TypeError, match="n must be an integer"):
        apsp.choose_method(4.0, "cpu", True)


@settings(max_examples=50, deadline=None)
@given(v=st.one_of(st.floats(allow_nan=True), st.text(max_size=3), st.booleans(), st.none(),
                   st.integers(-10**30, -1), st.integers(3, 10**30)))
def test_hypothesis_path_rejects_every_non_vertex(v):
    D, P = apsp.shortest_paths(W3, predecessors=True)
    cases = [(P, v, 0), (P, 0, v), (P[0], v)] + ([(P[0], 0, v)] if v is not None else [])  # path(pred, s, None) is path(pred, s)
    for args in cases:
        with pytest.raises((TypeError, VertexError)) as info:
            apsp.path(*args)
        assert isinstance(info.value, TypeError) or isinstance(info.value, ValueError)
        assert "s" in str(info.value) or "t" in str(info.value)


def test_path_messages_name_the_argument():
    D, P = apsp.shortest_paths(W3, predecessors=True)
    with pytest.raises(TypeError, match="^s must be an integer, got float inf"):
        apsp.path(P, float("inf"), 0)
    with pytest.raises(TypeError, match="^s must be an integer, got float 1.5"):
        apsp.path(P, 1.5, 0)
    with pytest.raises(VertexError, match="^t = 3 is not a vertex"):
        apsp.path(P, 0, 3)
    with pytest.raises(IndexError):  # as before
        apsp.path(P, 0, -1)
    assert apsp.path(P, np.int32(0), np.uint8(2)) == [0, 1, 2]


# -- path(): one helper for 1-D and 2-D predecessors -----------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12))
def test_hypothesis_path_reads_sssp_predecessor_arrays_and_matrices_alike(seed, n):
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 9, (n, n)).astype(np.float64)
    W[rng.random((n, n)) < 0.6] = np.inf
    np.fill_diagonal(W, np.inf)
    D, P = apsp.shortest_paths(W, predecessors=True)
    u, v = np.nonzero(np.isfinite(W))
    G = graphs.Graph.from_edges(u, v, W[u, v], n=n)
    s = int(rng.integers(0, n))
    pred = graphs.sssp(G, s)[1]
    for t in range(n):
        route = apsp.path(pred, s, t)
        assert route == apsp.path(P, s, t) or (route and route[0] == s and route[-1] == t)
        if np.isinf(D[s, t]):
            assert route == []
        else:
            assert route[0] == s and route[-1] == t
            assert sum(W[a, b] for a, b in zip(route, route[1:])) == D[s, t]
            assert apsp.path(pred, t) == route  # from the tree's root, which is s


def test_path_from_a_sssp_result():
    G = graphs.Graph.from_edges([0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0])
    dist, pred = graphs.sssp(G, 0)
    assert apsp.path(pred, 2) == [0, 1, 2]
    assert apsp.path(pred, 0, 2) == [0, 1, 2]
    assert apsp.path(pred, 1, 2) == [1, 2]  # a suffix of a shortest route is one
    assert apsp.path(pred, 0, 0) == [0]


def test_malformed_predecessors_are_named():
    with pytest.raises(PredecessorError, match=r"pred\[1\] = 7 is not a vertex"):
        apsp.path(np.array([-1, 7, 1]), 2)
    with pytest.raises(PredecessorError, match="loops"):
        apsp.path(np.array([-1, 2, 1]), 2)
    with pytest.raises(PredecessorError, match="shape"):
        apsp.path(np.zeros((2, 3), np.int32), 0, 1)
    with pytest.raises(TypeError, match="integers"):
        apsp.path(np.zeros(3), 0, 1)
    with pytest.raises(TypeError, match="both s and t"):
        apsp.path(np.zeros((3, 3), np.int32) - 1, 1)
    with pytest.raises(PredecessorError, match="s = 1 is neither the root"):
        apsp.path(np.array([-1, 0, -1]), 1, 2)
    assert apsp.path(np.array([-1, 0, -1]), 0, 2) == []  # not reached from the source


def test_the_streamed_driver_checks_its_integer_arguments_too():
    from apsp.streaming import NumpyDevice, streamed_closure

    with pytest.raises(TypeError, match="block_size must be an integer"):
        streamed_closure(sr.min_plus, W3, memory_budget=1 << 20, block_size=1.5, device=NumpyDevice())
    with pytest.raises(TypeError, match="memory_budget must be an integer"):
        streamed_closure(sr.min_plus, W3, memory_budget=1e6, device=NumpyDevice())
    np.testing.assert_array_equal(
        streamed_closure(sr.min_plus, W3, memory_budget=np.int64(400), device=NumpyDevice()), apsp.shortest_paths(W3))
