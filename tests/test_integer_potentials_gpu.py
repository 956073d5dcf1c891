"""The GPU twin of tests/test_integer_potentials.py: Johnson potentials, the reweighting and exact_closure on CuPy
matrices, each against the same exact references and bit for bit against the CPU (marked gpu; skipped without one)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_integer_potentials import (  # the graphs and references of the CPU suite
    I32,
    METHODS,
    P32,
    chain_through_potentials,
    clamped,
    exact_distances,
    graph,
    graphs_without_negative_cycles,
    int64_floyd_warshall,
    large_signed,
    shortest_paths,  # noqa: F401 - the fixture
    signed_graphs,
    small_potentials,  # noqa: F401 - the fixture
)
from test_integer_potentials import dispatch as cpu_dispatch

import apsp
import semiring as sr
from apsp.errors import NegativeCycleError
from apsp.methods import TABLE
from apsp.methods.base_case import GPU_BASE
from apsp.methods.closure_state import Job
from apsp.negative_cycle import raise_if_diverged
from apsp.paths import exact_integers as ei
from apsp.paths import potentials as pot
from apsp.paths.working_matrix import working_matrix
from semiring.backend import gpu_available

pytestmark = pytest.mark.gpu

cp = pytest.importorskip("cupy")
if not gpu_available():  # pragma: no cover - depends on the machine
    pytest.skip("no usable CUDA GPU", allow_module_level=True)


def closer(method: str):
    def close(X):
        TABLE[method].run(Job(sr.min_plus, X, None, None, base_size=GPU_BASE), None)

    return close


def dispatch(W: np.ndarray, method: str = "rkleene", widen: bool = False):
    """``(route, D)`` as in the CPU suite, with the matrix on the GPU; ``D`` comes back as NumPy."""
    X = cp.asarray(ei.widen(W) if widen else W)
    D = working_matrix(sr.min_plus, X, cp, False)[0]
    route = ei.exact_closure(sr.min_plus, D, X, closer(method))
    raise_if_diverged(sr.min_plus, D, X, whole=True)
    return route, cp.asnumpy(ei.narrow(D) if widen else D)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("reweighted", [P32 - 1, P32, P32 + 1])
def test_a_reweighted_path_just_below_at_and_above_the_stand_in(small_potentials, method, reweighted):  # noqa: F811
    W = chain_through_potentials(reweighted + 1)
    taken, D = dispatch(W, method)
    assert taken == ("potentials" if reweighted < P32 else "potentials, then general")
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int32))
    np.testing.assert_array_equal(D, cpu_dispatch(W, method)[1])


@pytest.mark.parametrize("widen", [False, True])
@pytest.mark.parametrize("total", [int(I32.max) - 1, int(I32.max), int(I32.max) + 5,
                                   int(I32.min) + 1, int(I32.min), int(I32.min) - 5])
def test_chains_to_the_edges_of_int32(small_potentials, total, widen):  # noqa: F811
    if total > 0:
        a = total // 3 + 10
        W = graph(6, {(0, 1): a, (1, 2): -10, (2, 3): a, (3, 4): total - 2 * a + 10, (5, 0): 4})
    else:
        a = total // 3
        W = graph(6, {(0, 1): a, (1, 2): 7, (2, 3): a, (3, 4): total - 2 * a - 7, (5, 0): 4})
    taken, D = dispatch(W, widen=widen)
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int32))
    assert (taken, D.tolist()) == (lambda r: (r[0], r[1].tolist()))(cpu_dispatch(W, widen=widen))


def test_unreachable_pairs_negative_cycles_and_sentinels(small_potentials):  # noqa: F811
    W = graph(9, {(0, 1): 5, (1, 2): -3, (2, 0): 4, (3, 4): -2**28, (4, 5): -2**27, (5, 6): 2**28 + 7,
                  (7, 3): 2**28})
    taken, D = dispatch(W)
    assert taken == "potentials"
    np.testing.assert_array_equal(D, clamped(exact_distances(W), np.int32))
    C = graph(5, {(0, 1): 3, (1, 2): -1, (2, 0): -3, (3, 4): -7})
    with pytest.raises(NegativeCycleError):
        dispatch(C)
    M = graph(4, {(0, 1): int(I32.min), (1, 2): 5, (2, 3): -4})
    taken, D = dispatch(M)
    assert taken == "general" and D[0, 3] == I32.min


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(W=graphs_without_negative_cycles())
def test_potentials_and_reweighting_equal_the_cpu(W):
    n = W.shape[0]
    h = pot.johnson_potentials(W, n**3)
    hg = pot.johnson_potentials(cp.asarray(W), n**3)
    np.testing.assert_array_equal(cp.asnumpy(hg), h)
    X, Xg = np.empty_like(W), cp.empty(W.shape, cp.int32)
    span = int(np.where(W != I32.max, W, 0).max()) + int(h.max()) - int(h.min())
    if span >= P32:
        return
    pot.reweight(W, h, X, P32)
    pot.reweight(cp.asarray(W), hg, Xg, P32)
    np.testing.assert_array_equal(cp.asnumpy(Xg), X)
    back = cp.empty(W.shape, cp.int64)
    pot.unreweight(Xg, hg, P32, back)
    np.testing.assert_array_equal(cp.asnumpy(back), ei.widen(W))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(W=signed_graphs(), method=st.sampled_from(METHODS))
def test_random_signed_graphs_across_the_int32_range(W, method):
    saved = ei.POTENTIALS_MIN_N
    ei.POTENTIALS_MIN_N = 2
    try:
        try:
            E = exact_distances(W)
        except NegativeCycleError:
            with pytest.raises(NegativeCycleError):
                dispatch(W, method)
            return
        taken, D = dispatch(W, method)
        assert taken == cpu_dispatch(W, method)[0]
    finally:
        ei.POTENTIALS_MIN_N = saved
    np.testing.assert_array_equal(D, clamped(E, np.int32))


def test_masked_extremes_and_the_stand_in_clamp():
    rng = np.random.default_rng(1)
    W = rng.integers(-2**31 + 1, 2**31 - 1, (700, 900)).astype(np.int32)
    W[rng.random(W.shape) < 0.3] = I32.max
    W[5, 7] = I32.min
    assert ei.masked_extremes(cp.asarray(W), (int(I32.max), int(I32.min))) == ei.masked_extremes(
        W, (int(I32.max), int(I32.min)))
    D = cp.asarray(np.array([[0, 2**31 - 1], [3, 2**31 - 2]], np.int32))
    ei.lower_infinity(D, P32)
    assert D.tolist() == [[0, P32], [3, P32]]


@pytest.mark.parametrize("seed,top,fraction,depth", [(0, 10**6, 0.05, 10**4), (1, 2**29, 0.3, 2**20),
                                                     (2, 2**28, 0.5, 2**29)])
@pytest.mark.parametrize("widen", [False, True])
def test_sizes_where_the_plain_kernels_run(seed, top, fraction, depth, widen):
    W = large_signed(1000, seed, top, fraction, depth)
    taken, D = dispatch(W, widen=widen)
    assert taken.startswith("potentials")
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))


def test_weights_above_the_stand_in_never_wrap():
    rng = np.random.default_rng(3)
    n = 600
    W = rng.integers(2**30, 2**31 - 2, (n, n)).astype(np.int32)
    small = rng.random((n, n)) < 0.004
    W[small] = rng.integers(1, 100, int(small.sum()))
    W[rng.random((n, n)) < 0.3] = I32.max
    np.fill_diagonal(W, 0)
    taken, D = dispatch(W)
    assert taken == "stand-in, then general"
    np.testing.assert_array_equal(D, int64_floyd_warshall(W))


@pytest.mark.parametrize("method", ["rkleene", "blocked-fw"])
def test_shortest_paths_on_the_gpu(shortest_paths, method):  # noqa: F811
    W = large_signed(1000, 5, 10**6, 0.05, 10**4)
    D = shortest_paths(cp.asarray(W), method)
    assert D.dtype == cp.int32
    assert shortest_paths.routes in (None, ["potentials"])
    np.testing.assert_array_equal(cp.asnumpy(D), int64_floyd_warshall(W))
    Dp, P = shortest_paths(cp.asarray(W), method, predecessors=True)
    np.testing.assert_array_equal(cp.asnumpy(Dp), cp.asnumpy(D))
    Dh, Ph = cp.asnumpy(D), cp.asnumpy(P)
    for i, j in np.random.default_rng(0).integers(0, W.shape[0], (200, 2)):
        if i == j or Dh[i, j] == I32.max:
            continue
        p = apsp.path(Ph, int(i), int(j))
        assert sum(int(W[a, b]) for a, b in zip(p, p[1:])) == int(Dh[i, j])
