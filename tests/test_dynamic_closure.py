"""apsp.Closure: every update agrees with recomputing the closure from the current arcs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apsp
import semiring as sr
from apsp import Closure, NegativeCycleError
from semiring.errors import DTypeError, InvalidEntryError

FAMILIES = ("min_plus", "max_min", "min_max", "lor_land")


def _random_arcs(rng, n, dtype, family, density=0.35, negative=False):
    """A random arc matrix with no improving cycle (negative arcs through potentials)."""
    S = sr.get(family)
    zero = S.zero_value(dtype)
    if family == "lor_land":
        W = rng.random((n, n)) < density
        return W
    if np.dtype(dtype).kind == "f":
        W = rng.random((n, n)) * 10
        if negative:
            p = rng.random(n) * 5
            W = W + p[:, None] - p[None, :]
    else:
        W = rng.integers(0, 20, (n, n))
        if negative:
            p = rng.integers(0, 8, n)
            W = W + p[:, None] - p[None, :]
    W = W.astype(dtype)
    W[rng.random((n, n)) > density] = zero
    return W


def _recomputed(C: Closure, predecessors=False):
    return apsp.shortest_paths(np.array(C.arcs), semiring=C.semiring, predecessors=predecessors)


def _assert_matches(C: Closure):
    D = _recomputed(C)
    got = np.array(C.distances)
    if got.dtype.kind == "f":
        rtol = 1e-5 if got.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, D, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(got, D)
    if C._P is not None:
        _assert_routes(C, got)


def _assert_routes(C: Closure, D):
    """Every kept route is a walk over arcs from i to j that weighs D[i, j]; none where D is zero."""
    S = C.semiring
    W = np.array(C.arcs)
    zero, one = S.zero_value(D.dtype), S.one_value(D.dtype)
    n = C.n
    for i in range(n):
        for j in range(n):
            route = C.path(i, j)
            if D[i, j] == zero and i != j:
                assert route == [], (i, j, route)
                continue
            assert route[0] == i and route[-1] == j, (i, j, route)
            assert len(set(route)) == len(route), route
            value = one
            for a, b in zip(route, route[1:]):
                assert W[a, b] != zero, (i, j, route)
                value = S.mul(np.array([value]), np.array([W[a, b]]))[0]
            if D.dtype.kind == "f":
                assert np.isclose(value, D[i, j], rtol=1e-4 if D.dtype == np.float32 else 1e-10, atol=1e-4)
            else:
                assert value == D[i, j], (i, j, route, value, D[i, j])


def _random_batch(rng, C: Closure, family, negative):
    n = C.n
    k = int(rng.integers(1, min(6, n * n) + 1))
    flat = rng.choice(n * n, size=k, replace=False)
    us, vs = flat // n, flat % n
    dtype = C.dtype
    S = C.semiring
    if family == "lor_land":
        ws = rng.random(k) < 0.5
    elif dtype.kind == "f":
        ws = (rng.random(k) * 10).astype(dtype)
        if negative:
            ws = (ws - 3).astype(dtype)
    else:
        ws = rng.integers(-3 if negative else 0, 20, k).astype(dtype)
    ws[rng.random(k) < 0.3] = S.zero_value(dtype)
    return us, vs, ws


def _run_sequence(seed: int, family: str, dtype, predecessors: bool, steps: int = 8):
    rng = np.random.default_rng(seed)
    predecessors = predecessors and family == "min_plus"
    negative = family == "min_plus" and bool(rng.random() < 0.4)
    n = int(rng.integers(1, 11))
    C = Closure(_random_arcs(rng, n, dtype, family, negative=negative), predecessors=predecessors, semiring=family)
    _assert_matches(C)
    for _ in range(steps):
        op = rng.random()
        before = (np.array(C.arcs), np.array(C.distances), None if C._P is None else np.array(C.predecessors))
        if op < 0.7:
            us, vs, ws = _random_batch(rng, C, family, negative)
            W2 = np.array(C.arcs)
            W2[us, vs] = ws
            try:
                apsp.shortest_paths(W2, semiring=C.semiring)
                expect_cycle = False
            except NegativeCycleError:
                expect_cycle = True
            if expect_cycle:
                with pytest.raises(NegativeCycleError) as err:
                    C.update(us, vs, ws)
                cycle = err.value.cycle
                assert cycle and all(W2[a, b] != C.semiring.zero_value(C.dtype)
                                     for a, b in zip(cycle, cycle[1:] + cycle[:1]))
                np.testing.assert_array_equal(np.array(C.arcs), before[0])
                np.testing.assert_array_equal(np.array(C.distances), before[1])
                if before[2] is not None:
                    np.testing.assert_array_equal(np.array(C.predecessors), before[2])
                continue
            C.update(us, vs, ws)
        elif op < 0.8:
            C.remove(*(lambda f: (f // C.n, f % C.n))(rng.choice(C.n * C.n, size=min(3, C.n * C.n), replace=False)))
        elif op < 0.9:
            C.add_vertices(int(rng.integers(0, 3)))
        elif C.n > 1:
            C.remove_vertices(rng.choice(C.n, size=int(rng.integers(1, min(3, C.n - 1) + 1)), replace=False))
        _assert_matches(C)


CASES = [(f, d) for f in FAMILIES for d in sr.get(f).dtypes]
PRED_CASES = [(f, d, p) for f, d in CASES for p in (False, True) if f == "min_plus" or not p]


@pytest.mark.parametrize("family,dtype,predecessors", PRED_CASES,
                         ids=[f"{f}-{np.dtype(d)}-{'pred' if p else 'dist'}" for f, d, p in PRED_CASES])
def test_updates_equal_recomputation(family, dtype, predecessors):
    for seed in range(12):
        _run_sequence(seed, family, dtype, predecessors)


def test_predecessors_only_for_min_plus():
    with pytest.raises(NotImplementedError, match="max_min"):
        Closure(np.zeros((2, 2)), semiring="max_min", predecessors=True)


@pytest.mark.slow
@pytest.mark.parametrize("predecessors", [False, True], ids=["distances", "predecessors"])
def test_a_thousand_sequences(predecessors):
    for seed in range(1000):
        family, dtype = CASES[seed % len(CASES)]
        _run_sequence(10_000 + seed, family, dtype, predecessors, steps=10)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 24))
def test_one_arc_decreased_then_restored(seed, n):
    rng = np.random.default_rng(seed)
    W = _random_arcs(rng, n, np.int64, "min_plus", density=0.2)
    C = Closure(W, predecessors=True)
    start = np.array(C.distances)
    u, v = (int(x) for x in rng.integers(0, n, 2))
    w = W[u, v]
    C.update([u], [v], [0])
    _assert_matches(C)
    C.update([u], [v], [w])
    np.testing.assert_array_equal(np.array(C.distances), start)
    _assert_routes(C, start)


def test_larger_graph_mixed_batches_against_scipy():
    from scipy.sparse.csgraph import shortest_path

    rng = np.random.default_rng(7)
    n = 300
    W = _random_arcs(rng, n, np.float64, "min_plus", density=0.02)
    C = Closure(W, predecessors=True)
    for _ in range(6):
        k = 40
        flat = rng.choice(n * n, size=k, replace=False)
        us, vs = flat // n, flat % n
        ws = rng.random(k) * 10
        ws[rng.random(k) < 0.4] = np.inf
        C.update(us, vs, ws)
        A = np.array(C.arcs)
        np.fill_diagonal(A, np.inf)
        ref = shortest_path(np.where(np.isinf(A), 0, A), method="D", directed=True)
        np.testing.assert_allclose(np.array(C.distances), ref, rtol=1e-12)
    for i, j in rng.integers(0, n, (50, 2)):
        route = C.path(int(i), int(j))
        if route:
            assert np.isclose(sum(A[a, b] for a, b in zip(route, route[1:])), C.distances[i, j])


@pytest.mark.parametrize("predecessors", [False, True])
def test_road_closure_updates_touch_only_the_block_that_can_improve(predecessors, monkeypatch):
    """Single arcs decreased, inserted and removed on a sparse road closure with integer weights: bit-equal to
    recomputation after every step, routes weighing their distances; the decreases ran their product on a
    block smaller than the matrix, and the removals left the changed rows arc by arc."""
    import graphs
    from apsp import dynamic_closure as DC

    G = graphs.generators.road_network(400, seed=3)
    W = np.full((G.n, G.n), np.iinfo(np.int64).max, dtype=np.int64)
    r, c, w = G.edges()
    W[r, c] = np.maximum(1, np.round(w)).astype(np.int64)
    np.fill_diagonal(W, 0)
    shapes, by_arcs = [], []
    real, real_leave = DC.matmul_into, DC.Closure._leave_by_arcs
    monkeypatch.setattr(DC, "matmul_into", lambda S, A, B, C, *a: shapes.append(C.shape) or real(S, A, B, C, *a))
    monkeypatch.setattr(DC.Closure, "_leave_by_arcs", lambda self, *a: by_arcs.append(1) or real_leave(self, *a))
    C = Closure(W, predecessors=predecessors)
    rng = np.random.default_rng(4)
    for step in range(24):
        i = int(rng.integers(0, r.shape[0]))
        u, v = int(r[i]), int(c[i])
        if step % 3 == 0:
            C.update([u], [v], [max(1, int(C.arcs[u, v]) // 3)])
        elif step % 3 == 1:
            C.update([int(rng.integers(0, G.n))], [int(rng.integers(0, G.n))], [int(rng.integers(1, 30))])
        else:
            C.remove([u], [v])
        D = np.array(C.distances)
        np.testing.assert_array_equal(D, _recomputed(C))
        for a, b in rng.integers(0, G.n, (60, 2)) if predecessors else ():
            route, A = C.path(int(a), int(b)), np.array(C.arcs)
            assert route[0] == a and route[-1] == b and sum(int(A[x, y]) for x, y in zip(route, route[1:])) == D[a, b]
    assert any(0 < a * b < G.n * G.n for a, b in shapes), shapes
    if predecessors:
        assert by_arcs


def test_bad_input_leaves_the_closure_unchanged():
    W = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [3.0, np.inf, 0.0]])
    C = Closure(W)
    D = np.array(C.distances)
    with pytest.raises(apsp.errors.VertexError, match=r"dst\[1\] = 3"):
        C.update([0, 1], [1, 3], [1.0, 1.0])
    with pytest.raises(InvalidEntryError, match="NaN|nan"):
        C.update([0], [2], [np.nan])
    with pytest.raises(InvalidEntryError, match="given twice"):
        C.update([0, 0], [2, 2], [1.0, 2.0])
    with pytest.raises(TypeError, match="integers"):
        C.update([0.0], [1], [1.0])
    with pytest.raises(NegativeCycleError) as err:
        C.update([2], [0], [-3.5])
    assert err.value.cycle == [0, 1, 2]
    np.testing.assert_array_equal(np.array(C.distances), D)
    np.testing.assert_array_equal(np.array(C.arcs), W)
    Ci = Closure(np.array([[0, 1], [1, 0]], dtype=np.int32))
    with pytest.raises(DTypeError, match=r"weights\[0\] = 2.5"):
        Ci.update([0], [1], [2.5])
    with pytest.raises(DTypeError, match=r"weights\[0\]"):
        Ci.update([0], [1], [2**40])
    with pytest.raises(NotImplementedError, match="max_plus"):
        Closure(np.zeros((2, 2)), semiring="max_plus")
    with pytest.raises(ValueError, match="k must be >= 0"):
        C.add_vertices(-1)
    np.testing.assert_array_equal(np.array(C.distances), D)


def test_integers_saturate_never_wrap():
    big = np.iinfo(np.int32).max - 5
    W = np.array([[0, big, np.iinfo(np.int32).max], [np.iinfo(np.int32).max, 0, 10], [0, 0, 0]], dtype=np.int32)
    W[2, :2] = np.iinfo(np.int32).max
    C = Closure(W)
    _assert_matches(C)
    C.update([1], [2], [3])
    _assert_matches(C)
    assert C.distances[0, 2] == apsp.shortest_paths(np.array(C.arcs))[0, 2]


def test_views_are_read_only_and_copy_is_independent():
    C = Closure(np.array([[0.0, 1.0], [np.inf, 0.0]]), predecessors=True)
    with pytest.raises(ValueError):
        C.distances[0, 0] = 5
    D2 = C.copy()
    D2.update([1], [0], [1.0])
    assert C.distances[1, 0] == np.inf and D2.distances[1, 0] == 1.0
    assert "Closure(n=2" in repr(C)


@pytest.mark.parametrize("negative", [False, True])
def test_device_branches_run_with_numpy_standing_in_for_cupy(negative, monkeypatch):
    """The host-side steps of the GPU route (stored values read once, an endpoint block built on the host, tiny
    blocks closed by an elementwise Floyd-Warshall, an improving cycle named by the full closure) run here with
    NumPy standing in for CuPy and the fused kernels declined: equal to recomputation, bit for bit (integers)."""
    import sys
    import types

    from apsp import dynamic_closure as DC

    shim = types.SimpleNamespace(**{name: getattr(np, name) for name in dir(np) if not name.startswith("__")})
    fused = types.ModuleType("apsp.cuda.closure_update")
    fused.fused_update_applies = lambda S, D, k: False
    fused.improve_block_gpu = None
    monkeypatch.setitem(sys.modules, "apsp.cuda.closure_update", fused)
    settle = types.ModuleType("apsp.cuda.closure_settle")  # the relaxation kernel declined too
    settle.row_arcs_gpu = lambda W, Q, zero: None
    settle.settle_applies = lambda S, D, arcs: False
    settle.settle_rows_gpu = None
    monkeypatch.setitem(sys.modules, "apsp.cuda.closure_settle", settle)
    calls, cycles = [], []
    real = DC.shortest_paths
    monkeypatch.setattr(DC, "shortest_paths", lambda *a, **kw: calls.append(a[0].shape) or real(*a, **kw))
    rng = np.random.default_rng(21)
    for seed in range(8):
        W = _random_arcs(np.random.default_rng(seed), 30, np.int64, "min_plus", density=0.15, negative=negative)
        C = Closure(W)
        C._xp = shim  # the device branches, on host arrays
        for step in range(10):
            u, v = (int(x) for x in rng.integers(0, 30, 2))
            if u == v:
                continue
            before = np.array(C.distances)
            w = int(rng.integers(-3 if negative else 1, 20))
            if negative and step % 3 == 2 and before[v, u] < 10**6:
                w = -int(before[v, u]) - 1  # closes a cycle of weight -1
            W2 = np.array(C.arcs)
            W2[u, v] = w
            try:
                ref = apsp.shortest_paths(W2)
            except NegativeCycleError:
                cycles.append((u, v))
                with pytest.raises(NegativeCycleError):
                    C.update([u], [v], [w])
                np.testing.assert_array_equal(np.array(C.distances), before)
                continue
            C.update([u], [v], [w])
            np.testing.assert_array_equal(np.array(C.distances), ref)
    assert not negative or (cycles and calls.count((2, 2)) == len(cycles))  # only improving 2-blocks went there


@pytest.mark.parametrize("scattered", [1, 10**9], ids=["columns-one-by-one", "whole-rows"])
@pytest.mark.parametrize(("family", "dtype"), [("min_plus", np.int64), ("min_plus", np.float64),
                                               ("max_min", np.float32)])
def test_cpu_block_update_in_place_on_a_road_closure(family, dtype, scattered, monkeypatch):
    """Better arcs on the CPU update the block of rows and columns that can improve in place (the columns one by
    one, or whole rows): equal to recomputation after every batch (bit-equal for integers), and the kernel ran."""
    import graphs
    from apsp import dynamic_closure as DC

    monkeypatch.setattr(DC, "SCATTERED_COLUMNS", scattered)
    calls = []
    real = DC.Closure._block_update
    monkeypatch.setattr(DC.Closure, "_block_update", lambda self, *a: calls.append(a[2].size) or real(self, *a))
    G = graphs.generators.road_network(300, seed=4)
    r, c, w = G.edges()
    S = sr.get(family)
    W = np.full((G.n, G.n), S.zero_value(dtype), dtype=dtype)
    W[r, c] = np.maximum(1, np.round(w)).astype(dtype)
    np.fill_diagonal(W, S.one_value(dtype))
    C = Closure(W, semiring=family)
    rng = np.random.default_rng(17)
    for step in range(16):
        size = 1 if step % 2 == 0 else 12
        i = rng.integers(0, r.size, size)
        us, vs = r[i], c[i]
        keep = np.unique(us * G.n + vs, return_index=True)[1]
        us, vs = us[keep], vs[keep]
        old = np.array(C.arcs)[us, vs]
        ws = (old // 3 + 1 if family == "min_plus" else old * 3).astype(dtype)  # better: shorter, or wider
        C.update(us, vs, ws)
        _assert_matches(C)
    assert calls  # the in-place block kernel ran
