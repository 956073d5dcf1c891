"""Integer closures of both signs through Johnson potentials (apsp.paths.potentials, apsp.paths.exact_integers.exact_closure).

Graphs built to defeat the route: reweighted paths just below, at and above the stand-in, chains whose true
distance is int32 max - 1, max, min + 1, min and beyond, negative arcs, negative cycles, unreachable pairs, the
sentinels in the input; each against an exact reference (Floyd-Warshall in Python integers) and SciPy, through the
dispatch itself and through apsp.shortest_paths (as it is, and with its distances routed through exact_closure, the
change this module's dispatch is for).  Every route must give the general route's bits.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apsp
import semiring as sr
from apsp.errors import NegativeCycleError
from apsp.methods import TABLE
from apsp.methods.base_case import CPU_BASE
from apsp.methods.closure_state import Job
from apsp.negative_cycle import raise_if_diverged
from apsp.paths import exact_integers as ei
from apsp.paths import potentials as pot
from apsp.paths.working_matrix import working_matrix

I32, I64 = np.iinfo(np.int32), np.iinfo(np.int64)
P32 = (int(I32.max) - 1) // 2
METHODS = ["rkleene", "blocked-fw", "squaring"]


# -- references ---------------------------------------------------------------------------------------------------
def exact_distances(W: np.ndarray) -> np.ndarray:
    """Floyd-Warshall in Python integers (object array; ``None`` is no path); raises NegativeCycleError."""
    top = int(np.iinfo(W.dtype).max)
    n = W.shape[0]
    big = 1 << 400  # beyond any sum of n weights: "no path"
    D = np.array([[big if int(w) == top else int(w) for w in row] for row in W], dtype=object).reshape(n, n)
    for i in range(n):
        D[i, i] = min(D[i, i], 0)
    for k in range(n):
        D = np.minimum(D, D[:, k : k + 1] + D[k : k + 1, :])
    if n and min(D[i, i] for i in range(n)) < 0:
        raise NegativeCycleError(0, None, None, "negative cycle")
    return np.where(D >= big // 2, None, D)


def clamped(E: np.ndarray, dtype) -> np.ndarray:
    """Exact distances in ``dtype``: the sentinels where they leave its range (the library's policy)."""
    info = np.iinfo(dtype)
    f = np.vectorize(lambda d: info.max if d is None or d >= info.max else (info.min if d <= info.min else d),
                     otypes=[object])
    return f(E).astype(dtype) if E.size else np.empty(E.shape, dtype)


def scipy_distances(W: np.ndarray, dtype) -> np.ndarray:
    """SciPy's Floyd-Warshall in float64 (exact: every distance here is below 2**53), clamped like ``clamped``."""
    top = np.iinfo(W.dtype).max
    F = np.where(W == top, np.inf, W.astype(np.float64))
    R = csgraph.floyd_warshall(csgraph.csgraph_from_dense(F, null_value=np.inf))
    info = np.iinfo(dtype)
    return np.where(np.isinf(R) | (R >= info.max), info.max, np.where(R <= info.min, info.min, R)).astype(dtype)


# -- the dispatch, driven directly --------------------------------------------------------------------------------
def closer(method: str):
    def close(X):
        TABLE[method].run(Job(sr.min_plus, X, None, None, base_size=CPU_BASE), None)

    return close


def dispatch(W: np.ndarray, method: str = "rkleene", widen: bool = False):
    """``(route, D)``: the working matrix of ``W`` closed by :func:`exact_closure` (int64 first if ``widen``, as the
    api does for int32 whose sums may leave the range), in ``W``'s dtype."""
    X = ei.widen(W) if widen else W
    D = working_matrix(sr.min_plus, X, np, False)[0]
    route = ei.exact_closure(sr.min_plus, D, X, closer(method))
    raise_if_diverged(sr.min_plus, D, X, whole=True)  # as the api does after every closure
    return route, (ei.narrow(D) if widen else D)


def general(W: np.ndarray, method: str = "rkleene") -> np.ndarray:
    """The general route, as today: int32 whose sums may leave the range in int64, then clamped back."""
    wide = ei.sums_may_leave_int32(W, sr.min_plus)
    X = ei.widen(W) if wide else W
    D = working_matrix(sr.min_plus, X, np, False)[0]
    closer(method)(D)
    raise_if_diverged(sr.min_plus, D, X, whole=True)
    return ei.narrow(D) if wide else D


@pytest.fixture
def small_potentials(monkeypatch):
    """The potentials route for every size (it starts at POTENTIALS_MIN_N vertices)."""
    monkeypatch.setattr(ei, "POTENTIALS_MIN_N", 2)


# -- apsp.shortest_paths with exact_closure as its distances route --------------------------------------------------
def _engine():
    """The module whose ``_distances`` closes integer matrices without predecessors."""
    for name in ("apsp.driver", "apsp.api"):
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, "_distances") and hasattr(mod, "_closure"):
            return mod
    raise AssertionError("no module defines _distances")


@pytest.fixture(params=["as-is", "exact_closure"])
def shortest_paths(request, monkeypatch):
    """apsp.shortest_paths as it is, and with its distances routed through exact_closure (the proposed change of
    ``_distances``: one call, ``exact_closure(S, D, W, lambda X: _closure(S, X, None, W, ...))``)."""
    routes: list[str] = []  # the routes exact_closure took

    def run(*args, **kwargs):
        return apsp.shortest_paths(*args, **kwargs)

    run.routes = routes if request.param == "exact_closure" else None
    if request.param == "exact_closure":
        mod = _engine()
        closure = mod._closure

        def _distances(S, D, *args):
            tail = args[1:] if len(args) == 8 else args  # (P, W, ...) or (W, ...)
            route = ei.exact_closure(S, D, tail[0], lambda X: closure(S, X, None, *tail))
            routes.append(route)
            return route

        monkeypatch.setattr(mod, "_distances", _distances)
    return run


# -- graphs built to defeat the route ---------------------------------------------------------------------------
def graph(n: int, arcs: dict, dtype=np.int32) -> np.ndarray:
    W = np.full((n, n), np.iinfo(dtype).max, dtype=dtype)
    for (i, j), w in arcs.items():
        W[i, j] = w
    return W


def chain_through_potentials(total: int, n: int = 6) -> np.ndarray:
    """0 -> 1 -> 2 -> 3 of true weight ``total`` (> 0), and 4 -> 0 of weight -1: the potentials are h(0) = -1 and
    0 elsewhere, so the reweighted 0 -> 3 weighs ``total - 1``."""
    a = total // 3
    return graph(n, {(0, 1): a, (1, 2): a, (2, 3): total - 2 * a, (4, 0): -1})


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("reweighted", [P32 - 1, P32, P32 + 1])
def test_a_reweighted_path_just_below_at_and_above_the_stand_in(small_potentials, method, reweighted):
    W = chain_through_potentials(reweighted + 1)
    route = ei.integer_route(working_matrix(sr.min_plus, W, np, False)[0], sr.min_plus, W)
    assert route.name == "potentials" and not route.proved
    assert list(route.potentials) == [-1, 0, 0, 0, 0, 0]
    taken, D = dispatch(W, method)
    assert taken == ("potentials" if reweighted < P32 else "potentials, then general")  # at P: the check sees it
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int32))
    np.testing.assert_array_equal(D, general(W, method))
    assert D[4, 3] == reweighted  # -1 + total
    np.testing.assert_array_equal(D, scipy_distances(W, np.int32))


@pytest.mark.parametrize("widen", [False, True])
@pytest.mark.parametrize("total", [int(I32.max) - 1, int(I32.max), int(I32.max) + 5,
                                   int(I32.min) + 1, int(I32.min), int(I32.min) - 5])
def test_chains_to_the_edges_of_int32(small_potentials, total, widen):
    """True distances at int32 max - 1 (exact), max and beyond (+inf), min + 1 (exact), min and below (-inf)."""
    if total > 0:
        a = total // 3 + 10
        W = graph(6, {(0, 1): a, (1, 2): -10, (2, 3): a, (3, 4): total - 2 * a + 10, (5, 0): 4})
    else:
        a = total // 3
        W = graph(6, {(0, 1): a, (1, 2): 7, (2, 3): a, (3, 4): total - 2 * a - 7, (5, 0): 4})
    taken, D = dispatch(W, widen=widen)
    expected = clamped(exact_distances(W), np.int32)
    np.testing.assert_array_equal(D, expected)
    np.testing.assert_array_equal(D, general(W))
    np.testing.assert_array_equal(D, scipy_distances(W, np.int32))
    edge = I32.max if total >= I32.max else (I32.min if total <= I32.min else total)
    assert D[0, 4] == edge
    if total > 0:  # one small negative arc: potentials, but the reweighted distance is beyond the stand-in
        assert taken == "potentials, then general"
    else:  # potentials of about -2**31: reweighted arcs beyond int32, the general route
        assert taken == ("general" if widen else "int64")


def test_int32_max_minus_one_through_a_long_chain(small_potentials):
    n = 40
    step = (int(I32.max) - 1) // (n - 1)
    arcs = {(i, i + 1): step for i in range(n - 1)}
    arcs[(n - 2, n - 1)] = int(I32.max) - 1 - step * (n - 2) + 3
    arcs[(5, 6)] = step - 3  # the chain's total stays max - 1, with a negative arc to a side vertex
    W = graph(n + 1, {**arcs, (6, n): -2})
    taken, D = dispatch(W)
    assert taken.startswith("potentials")
    assert D[0, n - 1] == I32.max - 1
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int32))
    np.testing.assert_array_equal(D, general(W))


@pytest.mark.parametrize("widen", [False, True])
def test_unreachable_pairs_and_negative_arcs(small_potentials, widen):
    # two components; in the second only negative arcs, and a vertex reached by nothing
    W = graph(9, {(0, 1): 5, (1, 2): -3, (2, 0): 4, (3, 4): -2**28, (4, 5): -2**27, (5, 6): 2**28 + 7,
                  (7, 3): 2**28})
    taken, D = dispatch(W, widen=widen)
    assert taken == "potentials"
    E = clamped(exact_distances(W), np.int32)
    np.testing.assert_array_equal(D, E)
    assert D[0, 3] == I32.max and D[3, 0] == I32.max and (D[8, :8] == I32.max).all()
    np.testing.assert_array_equal(D, scipy_distances(W, np.int32))


@pytest.mark.parametrize("weight", [-1, -2**31 + 1])
def test_negative_cycles_keep_the_general_routes_report(small_potentials, weight):
    W = graph(5, {(0, 1): 3, (1, 2): weight, (2, 0): -3 if weight == -1 else 10, (3, 4): -7})
    D = working_matrix(sr.min_plus, W, np, False)[0]
    assert ei.integer_route(D, sr.min_plus, W).name in ("general", "int64")
    with pytest.raises(NegativeCycleError) as mine:
        dispatch(W)
    with pytest.raises(NegativeCycleError) as today:
        general(W)
    assert str(mine.value) == str(today.value)


def test_a_negative_self_loop_is_a_negative_cycle(small_potentials):
    W = graph(3, {(0, 1): 2, (1, 1): -1})
    assert ei.integer_route(working_matrix(sr.min_plus, W, np, False)[0], sr.min_plus, W).name == "general"
    with pytest.raises(NegativeCycleError):
        dispatch(W)


def test_minus_inf_entries_take_the_general_route(small_potentials):
    W = graph(4, {(0, 1): int(I32.min), (1, 2): 5, (2, 3): -4})
    taken, D = dispatch(W)
    assert taken == "general"
    np.testing.assert_array_equal(D, general(W))
    assert D[0, 3] == I32.min


def test_int64_weights_beyond_int32_fall_back(small_potentials):
    W = graph(4, {(0, 1): 2**40, (1, 2): -5, (2, 3): 2**40}, dtype=np.int64)
    taken, D = dispatch(W)
    assert taken == "general"  # reweighted arcs beyond int32
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int64))
    W = graph(4, {(0, 1): 2**20, (1, 2): -5, (2, 3): 2**20}, dtype=np.int64)
    taken, D = dispatch(W)
    assert taken == "potentials"
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int64))


def test_the_route_needs_the_size_and_a_budget():
    W = graph(4, {(0, 1): 2, (1, 2): -1})
    assert ei.integer_route(working_matrix(sr.min_plus, W, np, False)[0], sr.min_plus, W).name == "general"
    n = 40  # a chain of negative arcs: n rounds of Bellman-Ford relaxing n, n - 1, n - 2, ... rows
    C = graph(n, {(i, i + 1): -1 for i in range(n - 1)})
    assert list(pot.johnson_potentials(C, max_rows=n * (n + 1) // 2)) == [-i for i in range(n)]
    assert pot.johnson_potentials(C, max_rows=n * (n + 1) // 2 - 1) is None
    assert pot.johnson_potentials(C) is None  # the default budget: the general route is cheaper


def test_in_place_without_the_original_only_when_proved(small_potentials):
    W = chain_through_potentials(P32 + 5)
    D = working_matrix(sr.min_plus, W, np, False)[0]
    assert ei.integer_route(D, sr.min_plus, None).name != "potentials"  # not proved, nothing to start again from
    W = chain_through_potentials(1000)
    D = working_matrix(sr.min_plus, W, np, False)[0]
    route = ei.integer_route(D, sr.min_plus, None)
    assert route.name == "potentials" and route.proved
    assert ei.exact_closure(sr.min_plus, D, None, closer("rkleene")) == "potentials"
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int32))


# -- the potentials themselves --------------------------------------------------------------------------------------
def bellman_ford_reference(W: np.ndarray):
    """Distances from a virtual source joined to every vertex by 0, in Python integers; None on a negative cycle."""
    top = int(np.iinfo(W.dtype).max)
    n = W.shape[0]
    h = [0] * n
    arcs = [(u, v, int(W[u, v])) for u in range(n) for v in range(n) if int(W[u, v]) != top]
    for _ in range(n + 1):
        changed = False
        for u, v, w in arcs:
            if h[u] + w < h[v]:
                h[v], changed = h[u] + w, True
        if not changed:
            return h
    return None


def signed_graph(draw, n_max=14, dtype=np.int32):
    n = draw(st.integers(2, n_max))
    info = np.iinfo(dtype)
    weight = st.one_of(st.integers(-1000, 1000), st.integers(int(info.min) + 1, int(info.max) - 1),
                       st.sampled_from([int(info.max) - 1, int(info.max) - 2, int(info.min) + 1, int(info.min) + 2,
                                        P32 - 1, P32, P32 + 1, -P32, 0, 1, -1]))
    entries = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), weight), max_size=3 * n))
    W = np.full((n, n), info.max, dtype=dtype)
    for i, j, w in entries:
        W[i, j] = w
    return W


@st.composite
def signed_graphs(draw):
    return signed_graph(draw)


@st.composite
def graphs_without_negative_cycles(draw):
    """``w(u, v) = r(u, v) - p(u) + p(v)`` with ``r >= 0``: every cycle weighs ``sum r >= 0``.  Potentials and
    reduced weights across the int32 range and at its edges; an arc whose weight leaves the range is left out."""
    n = draw(st.integers(2, 14))
    edge = [0, 1, P32 - 1, P32, P32 + 1, int(I32.max) - 2, int(I32.max) - 1]
    p = draw(st.lists(st.one_of(st.integers(-1000, 0), st.integers(int(I32.min) + 1, 0),
                                st.sampled_from([-v for v in edge])), min_size=n, max_size=n))
    r = st.one_of(st.integers(0, 1000), st.integers(0, int(I32.max) - 1), st.sampled_from(edge))
    entries = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), r), max_size=3 * n))
    W = np.full((n, n), I32.max, dtype=np.int32)
    for i, j, x in entries:
        w = x - p[i] + p[j]
        if I32.min < w < I32.max:
            W[i, j] = w
    return W


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(W=graphs_without_negative_cycles(), generic=st.booleans())
def test_potentials_match_bellman_ford_and_make_every_arc_non_negative(W, generic):
    h = pot.johnson_potentials(W, W.shape[0] ** 3, generic=generic)
    assert list(h) == bellman_ford_reference(W)
    top = I32.max
    u, v = np.nonzero(W != top)
    assert all(int(W[a, b]) + int(h[a]) - int(h[b]) >= 0 for a, b in zip(u, v))


@settings(max_examples=40, deadline=None)
@given(W=signed_graphs())
def test_potentials_are_none_exactly_on_a_negative_cycle(W):
    for generic in (False, True):
        assert (pot.johnson_potentials(W, W.shape[0] ** 3, generic=generic) is None) == \
            (bellman_ford_reference(W) is None)


@settings(max_examples=60, deadline=None)
@given(W=graphs_without_negative_cycles(), cap=st.sampled_from([P32, int(I32.max)]), data=st.data())
def test_reweighting_there_and_back_is_exact(W, cap, data):
    h = pot.johnson_potentials(W, W.shape[0] ** 3)
    X = np.empty_like(W)
    Xg = np.empty_like(W)
    span = int(np.where(W != I32.max, W, 0).max()) + int(h.max()) - int(h.min())
    if span >= cap:
        return
    pot.reweight(W, h, X, cap)
    pot.reweight(W, h, Xg, cap, generic=True)
    np.testing.assert_array_equal(X, Xg)
    assert ((X >= 0) & (X <= cap)).all()
    back, back_g = np.empty_like(W), np.empty_like(W)
    pot.unreweight(X, h, cap, back)
    pot.unreweight(X, h, cap, back_g, generic=True)
    np.testing.assert_array_equal(back, back_g)
    np.testing.assert_array_equal(back, W)  # the arcs themselves come back, +inf too
    wide = np.empty(W.shape, np.int64)
    pot.unreweight(X, h, cap, wide)
    np.testing.assert_array_equal(wide, ei.widen(W))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(W=signed_graphs(), widen=st.booleans(), method=st.sampled_from(METHODS))
def test_random_signed_graphs_across_the_int32_range(W, widen, method):
    """The dispatch against Python integers and SciPy, and bit for bit against the general route."""
    ei_min = ei.POTENTIALS_MIN_N
    ei.POTENTIALS_MIN_N = 2  # (not a fixture: hypothesis reuses the test function's fixtures)
    try:
        try:
            E = exact_distances(W)
        except NegativeCycleError:
            with pytest.raises(NegativeCycleError):
                dispatch(W, method, widen)
            return
        if (W == I32.min).any():  # -inf arcs: no reference here, the general route's bits
            taken, D = dispatch(W, method, widen)
            np.testing.assert_array_equal(D, general(W, method))
            return
        taken, D = dispatch(W, method, widen)
    finally:
        ei.POTENTIALS_MIN_N = ei_min
    np.testing.assert_array_equal(D, clamped(E, np.int32))
    np.testing.assert_array_equal(D, general(W, method))
    np.testing.assert_array_equal(D, scipy_distances(W, np.int32))


# -- sizes where the plain-sum GEMMs run ----------------------------------------------------------------------------
def large_signed(n: int, seed: int, top: int, fraction: float, depth: int) -> np.ndarray:
    """20% of the arcs, ``w(u, v) = r(u, v) - p(u) + p(v)`` with ``r`` in ``1..top`` and ``p(v)`` in ``-depth..0`` on
    a ``fraction`` of the vertices (0 elsewhere): negative arcs, and no negative cycle."""
    rng = np.random.default_rng(seed)
    p = np.where(rng.random(n) < fraction, -rng.integers(0, depth + 1, n), 0)
    W = rng.integers(1, top + 1, (n, n)) - p[:, None] + p[None, :]
    keep = (rng.random((n, n)) < 0.2) & (W > I32.min) & (W < I32.max)
    return np.where(keep, W, I32.max).astype(np.int32)


def int64_floyd_warshall(W: np.ndarray) -> np.ndarray:
    """Exact for int32 input (every sum below 2**62), clamped to int32's sentinels."""
    big = np.int64(1) << 61  # big + big does not overflow
    D = np.where(W == I32.max, big, W.astype(np.int64))
    np.fill_diagonal(D, np.minimum(np.diagonal(D), 0))
    for k in range(D.shape[0]):
        np.minimum(D, np.minimum(D[:, k : k + 1] + D[k : k + 1, :], big), out=D)
    assert (np.diagonal(D) == 0).all()
    return np.where(D >= I32.max, I32.max, np.where(D <= I32.min, I32.min, D)).astype(np.int32)


@pytest.mark.parametrize("seed,top,fraction,depth", [(0, 10**6, 0.05, 10**4), (1, 2**29, 0.3, 2**20),
                                                     (2, 2**28, 0.5, 2**29)])
@pytest.mark.parametrize("widen", [False, True])
def test_realistic_sizes(seed, top, fraction, depth, widen):
    W = large_signed(ei.POTENTIALS_MIN_N + 44, seed, top, fraction, depth)
    assert (W < 0).any()
    taken, D = dispatch(W, widen=widen)
    assert taken.startswith("potentials")
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))
    np.testing.assert_array_equal(D, general(W))


def test_weights_above_the_stand_in_never_wrap():
    """Non-negative weights above the stand-in (up to int32 max - 1) in plain-sum products: each such entry is lowered
    to the stand-in first (a plain sum of two of them wrapped, and a graph without negative arcs read as a negative
    cycle); the check then sends the closure to the saturating kernels."""
    rng = np.random.default_rng(3)
    n = 300
    W = rng.integers(2**30, 2**31 - 2, (n, n)).astype(np.int32)
    small = rng.random((n, n)) < 0.004
    W[small] = rng.integers(1, 100, int(small.sum()))
    W[rng.random((n, n)) < 0.3] = I32.max
    np.fill_diagonal(W, 0)
    taken, D = dispatch(W)
    assert taken == "stand-in, then general"
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))


# -- through apsp.shortest_paths ------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_shortest_paths_on_signed_large_weights(shortest_paths, method):
    W = large_signed(ei.POTENTIALS_MIN_N + 44, 5, 10**7, 0.05, 10**6)
    assert ei.sums_may_leave_int32(W, sr.min_plus)  # the api widens it to int64 first
    D = shortest_paths(W, method)
    assert D.dtype == np.int32
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))
    assert shortest_paths.routes in (None, ["potentials"])


def test_shortest_paths_at_the_edges(shortest_paths):
    total = int(I32.max) - 1
    a = total // 3 + 10
    W = graph(ei.POTENTIALS_MIN_N, {(0, 1): a, (1, 2): -10, (2, 3): a, (3, 4): total - 2 * a + 10, (5, 0): 4,
                                    (6, 7): int(I32.max) - 2, (7, 8): 5})
    D = shortest_paths(W)
    assert D[0, 4] == I32.max - 1 and D[6, 8] == I32.max and D[5, 4] == I32.max
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))


def test_shortest_paths_with_predecessors(shortest_paths):
    W = large_signed(ei.POTENTIALS_MIN_N + 10, 7, 2**29, 0.3, 2**20)
    D, P = shortest_paths(W, predecessors=True)
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))
    assert shortest_paths.routes in (None, ["potentials"])  # distances first, then the last hops
    rng = np.random.default_rng(0)
    for i, j in rng.integers(0, W.shape[0], (200, 2)):
        if i == j or D[i, j] == I32.max:
            continue
        p = apsp.path(P, int(i), int(j))
        assert p[0] == i and p[-1] == j
        assert sum(int(W[a, b]) for a, b in zip(p, p[1:])) == int(D[i, j])


def _as_int64(W: np.ndarray) -> np.ndarray:
    """An int32 matrix in int64, its +inf sentinel moved to int64's."""
    wide = W.astype(np.int64)
    wide[W == I32.max] = np.iinfo(np.int64).max
    return wide


@pytest.mark.parametrize("case", ["stand-in", "potentials", "clamped"])
def test_int32_predecessors_equal_those_of_the_int64_closure(case, shortest_paths):
    """Predecessors of int32 weights are read off the int32 distances where the closure is exact in int32 (the
    stand-in and the potentials), and off the int64 closure where a distance leaves the range ("clamped"): either
    way the same D (clamped to the sentinels) and the same P as the int64 closure of the same weights."""
    n = ei.POTENTIALS_MIN_N + 10
    if case == "stand-in":
        rng = np.random.default_rng(3)
        W = np.where(rng.random((n, n)) < 0.2, rng.integers(1, 10**6, (n, n)), I32.max).astype(np.int32)
    elif case == "potentials":
        W = large_signed(n, 7, 2**29, 0.3, 2**20)
    else:
        total = int(I32.max) - 1
        a = total // 3 + 10
        W = graph(n, {(0, 1): a, (1, 2): -10, (2, 3): a, (3, 4): total - 2 * a + 10, (5, 0): 4,
                      (6, 7): int(I32.max) - 2, (7, 8): 5, (9, 10): 3, (10, 11): 4})
    D, P = shortest_paths(W, predecessors=True)
    D64, P64 = apsp.shortest_paths(_as_int64(W), predecessors=True)
    np.testing.assert_array_equal(D, ei.narrow(D64))
    np.testing.assert_array_equal(P, P64)
    if case == "clamped":  # the path 5 -> 4 is longer than int32 holds: its distance is clamped, its route kept
        assert D[5, 4] == I32.max and apsp.path(P, 5, 4) == [5, 0, 1, 2, 3, 4]


def test_shortest_paths_reports_negative_cycles_as_before(shortest_paths):
    W = large_signed(ei.POTENTIALS_MIN_N, 9, 10**6, 0.05, 10**4)
    W[3, 200], W[200, 3] = -5, 2
    with pytest.raises(NegativeCycleError) as err:
        shortest_paths(W)
    assert set(err.value.cycle) == {3, 200}
