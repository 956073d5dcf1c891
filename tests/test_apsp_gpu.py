"""APSP on the GPU (CuPy): the same answers as on the CPU; the CUDA base kernels; the streamed path.

Run with ``pytest -m gpu tests/test_apsp*.py``; everything here skips without CuPy and a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_apsp_strategies import scipy_distances

import apsp
import semiring as sr
from apsp.methods.base_case import close_block
from apsp.methods.blocked_fw import panel_closure_pred
from semiring.backend import gpu_available

pytestmark = pytest.mark.gpu

cp = pytest.importorskip("cupy")
if not gpu_available():  # pragma: no cover - depends on the machine
    pytest.skip("no usable CUDA GPU", allow_module_level=True)

METHODS = ["rkleene", "blocked-fw", "squaring", "fw", "auto"]


def random_graph(n: int, seed: int, density: float = 0.1, max_w: int = 20, zeros: bool = False):
    rng = np.random.default_rng(seed)
    W = rng.integers(0 if zeros else 1, max_w, (n, n)).astype(np.float64)
    W[rng.random((n, n)) >= density] = np.inf
    p = rng.integers(0, max_w, n)
    return W + p[:, None] - p[None, :]


def as_dtype(X: np.ndarray, dt) -> np.ndarray:
    dt = np.dtype(dt)
    if dt.kind == "f":
        return X.astype(dt)
    out = np.full(X.shape, sr.posinf(dt), dtype=dt)
    out[np.isfinite(X)] = X[np.isfinite(X)].astype(dt)
    return out


def check_paths(W, D, P, pairs=400, seed=0):
    D, P = cp.asnumpy(D), cp.asnumpy(P)
    n = W.shape[0]
    rng = np.random.default_rng(seed)
    for i, j in rng.integers(0, n, (pairs, 2)):
        p = apsp.path(P, i, j)
        if np.isfinite(D[i, j]):
            assert p[0] == i and p[-1] == j
            assert sum(W[a, b] for a, b in zip(p, p[1:])) == D[i, j]
        else:
            assert p == []


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [1, 37, 128, 129, 300, 1000])
def test_gpu_distances_match_scipy(method, n):
    W = random_graph(n, n)
    ref = scipy_distances(W)
    D = apsp.shortest_paths(cp.asarray(W), method)
    assert isinstance(D, cp.ndarray)
    np.testing.assert_array_equal(cp.asnumpy(D), ref)


@pytest.mark.parametrize("dtype", ["float32", "int32", "int64"])
@pytest.mark.parametrize("method", ["rkleene", "blocked-fw", "squaring"])
def test_gpu_dtypes(dtype, method):
    W = random_graph(333, 5)
    D = apsp.shortest_paths(cp.asarray(as_dtype(W, dtype)), method)
    np.testing.assert_array_equal(cp.asnumpy(D), as_dtype(scipy_distances(W), dtype))


@pytest.mark.parametrize("method", METHODS)
def test_gpu_predecessors(method):
    W = random_graph(300, 11, density=0.05, max_w=3, zeros=True)  # zero-weight cycles: ties
    D, P = apsp.shortest_paths(cp.asarray(W), method, predecessors=True)
    np.testing.assert_array_equal(cp.asnumpy(D), scipy_distances(W))
    check_paths(W, D, P)


def test_gpu_negative_cycle():
    W = random_graph(200, 3)
    W[5, 17], W[17, 42], W[42, 5] = -50.0, 1.0, 1.0
    for method in METHODS:
        with pytest.raises(apsp.NegativeCycleError) as info:
            apsp.shortest_paths(cp.asarray(W), method)
        cyc = info.value.cycle
        assert sum(W[u, v] for u, v in zip(cyc, cyc[1:] + cyc[:1])) < 0


def test_device_argument_moves_data_and_returns_the_input_kind():
    W = random_graph(150, 2)
    D = apsp.shortest_paths(W, device="gpu")
    assert isinstance(D, np.ndarray)
    np.testing.assert_array_equal(D, scipy_distances(W))
    D2 = apsp.shortest_paths(cp.asarray(W), device="cpu")
    assert isinstance(D2, cp.ndarray)


@pytest.mark.parametrize("pred", [False, True])
def test_out_of_core_when_the_budget_is_small(pred):
    n = 1500
    W = random_graph(n, 9, density=0.02).astype(np.float32)
    budget = n * n * 4 // 3  # the matrix is 3x the budget
    out = apsp.shortest_paths(W, device="gpu", memory_budget=budget, predecessors=pred)
    D = out[0] if pred else out
    assert isinstance(D, np.ndarray)
    np.testing.assert_array_equal(D, scipy_distances(W.astype(np.float64)).astype(np.float32))
    if pred:
        check_paths(W.astype(np.float64), D.astype(np.float64), out[1])


def test_gpu_transitive_closure():
    rng = np.random.default_rng(4)
    A = rng.random((700, 700)) < 0.003
    R = apsp.transitive_closure(cp.asarray(A))
    np.testing.assert_array_equal(cp.asnumpy(R), apsp.transitive_closure(A))


SEMIRING_CASES = [
    (sr.min_plus, "float32"), (sr.min_plus, "float64"), (sr.min_plus, "int32"), (sr.min_plus, "int64"),
    (sr.max_plus, "float64"), (sr.max_min, "float32"), (sr.min_max, "int32"), (sr.max_times, "float64"),
    (sr.lor_land, "bool"), (sr.min_times, "float32"), (sr.min_times, "int64"),
]


def semiring_block(S, dt, n, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "b":
        X = rng.random((n, n)) < 0.05
    elif S is sr.max_times:
        X = rng.choice([0.0, 0.25, 0.5, 1.0], size=(n, n)).astype(dt)
    elif S is sr.min_times:  # costs >= 1, powers of two: no diverging cycle, products exact or saturated alike
        X = rng.choice([1, 2, 4], size=(n, n)).astype(dt)
        X[rng.random((n, n)) < 0.8] = S.zero_value(dt)
    elif S is sr.max_plus:
        X = np.triu(rng.integers(0, 9, (n, n)), 1).astype(dt)
        X[np.tril_indices(n)] = S.zero_value(dt)
    else:
        X = rng.integers(0, 9, (n, n)).astype(dt)
        X[rng.random((n, n)) < 0.8] = S.zero_value(dt)
    idx = np.arange(n)
    X[idx, idx] = S.one_value(dt)
    return X


@pytest.mark.parametrize("S,dt", SEMIRING_CASES, ids=lambda x: getattr(x, "name", x))
@pytest.mark.parametrize("n", [1, 31, 64, 100, 128])
def test_cuda_base_kernel_equals_the_cpu_kernel(S, dt, n):
    X = semiring_block(S, dt, n, n)
    P = np.where(X != S.zero_value(X.dtype), np.arange(n)[:, None], -1).astype(np.int32)
    Dc, Pc = X.copy(), P.copy()
    close_block(S, Dc, Pc)
    Dg, Pg = cp.asarray(X), cp.asarray(P)
    close_block(S, Dg, Pg)
    np.testing.assert_array_equal(cp.asnumpy(Dg), Dc)
    np.testing.assert_array_equal(cp.asnumpy(Pg), Pc)
    big = cp.asarray(np.pad(X, ((3, 5), (2, 7)), constant_values=S.zero_value(X.dtype)))
    view = big[3 : 3 + n, 2 : 2 + n]  # a strided view of a larger buffer
    close_block(S, view, None)
    np.testing.assert_array_equal(cp.asnumpy(view), Dc)


@pytest.mark.parametrize("S,dt", SEMIRING_CASES[:4], ids=lambda x: getattr(x, "name", x))
def test_cuda_panel_kernel_equals_the_cpu_kernel(S, dt):
    n, b, c0 = 200, 48, 64
    X = semiring_block(S, dt, n, 1)
    P = np.where(X != S.zero_value(X.dtype), np.arange(n)[:, None], -1).astype(np.int32)
    R, RP = X[c0 : c0 + b].copy(), P[c0 : c0 + b].copy()
    panel_closure_pred(S, R, RP, c0)
    Rg, RPg = cp.asarray(X[c0 : c0 + b]), cp.asarray(P[c0 : c0 + b])
    panel_closure_pred(S, Rg, RPg, c0)
    np.testing.assert_array_equal(cp.asnumpy(Rg), R)
    np.testing.assert_array_equal(cp.asnumpy(RPg), RP)


def test_gpu_rkleene_with_blocked_fw_bottom():
    import apsp.methods.rkleene as rk

    W = random_graph(1100, 21)
    saved = rk.FW_BELOW["gpu"]
    rk.FW_BELOW["gpu"] = 512
    try:
        D = apsp.shortest_paths(cp.asarray(W), "rkleene")
    finally:
        rk.FW_BELOW["gpu"] = saved
    np.testing.assert_array_equal(cp.asnumpy(D), scipy_distances(W))


@pytest.mark.parametrize("dt", ["float32", "int32"])
def test_graph_replayed_subclosures_match_scipy(dt):
    """Sub-closures replayed from CUDA graphs (apsp.cuda.graph_replay) give the same answers as direct runs.

    R-Kleene is called on its job directly: the public call may take another exact route for a matrix
    (integer potentials, 16-bit lanes), which is tested elsewhere."""
    from apsp.cuda import graph_replay
    from apsp.methods.closure_state import Job
    from apsp.methods.rkleene import rkleene

    graph_replay.clear()
    for seed in range(3):  # the first run captures, the next ones replay (n = 1100: two 550-blocks)
        W = random_graph(1100, 100 + seed, density=0.02, max_w=10**4)
        W = np.where(np.isfinite(W), np.abs(W), np.inf)  # non-negative: no cycle, any order of sums is exact
        np.fill_diagonal(W, 0)
        D = cp.asarray(as_dtype(W, dt))
        rkleene(Job(sr.min_plus, D, None, D.copy(), base_size=128))
        np.testing.assert_array_equal(cp.asnumpy(D), as_dtype(scipy_distances(W), dt))
    assert any(v is not graph_replay._FAILED for v in graph_replay._CACHE.values()), "no graph was captured"
