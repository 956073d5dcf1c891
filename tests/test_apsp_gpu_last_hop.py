"""Last-hop predecessors on the GPU (apsp.cuda.last_hop) against the CPU rule on the same distances.

For one distance matrix both devices apply the same rule with the same sums, so
``P`` must agree entry for entry: float32, float64, int32 and int64, awkward
sizes, sparse and dense graphs, negative arcs (no negative cycle), unreachable
parts, and weight-0 pairs whose routes loop (rule 4, mended by the host code).
Then through :func:`apsp.shortest_paths`: routes are walks that weigh the
distances, and the Pi update still serves when the last hops give up.
Skips cleanly without CuPy or a GPU.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from reference import check_routes, with_sentinels

import apsp
import semiring as sr
from apsp.paths.last_hop import last_hop_predecessors
from semiring.backend import gpu_available

cp = pytest.importorskip("cupy")
if not gpu_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)

from apsp.cuda import last_hop as gpu_last_hop  # noqa: E402

pytestmark = pytest.mark.gpu

DTYPES = [np.float32, np.float64, np.int32, np.int64]


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed={seed}")
    return np.random.default_rng(seed)


def graph(rng, n: int, dtype, density: float, negative: bool, zero_pairs: int = 0) -> np.ndarray:
    """Integer-valued weights 1..30 (shifted by potentials when ``negative``), missing arcs as the zero."""
    W = rng.integers(1, 31, (n, n)).astype(np.float64)
    if zero_pairs and n > 1:
        pairs = rng.integers(0, n, (zero_pairs, 2))
        W[pairs[:, 0], pairs[:, 1]] = 0.0
        W[pairs[:, 1], pairs[:, 0]] = 0.0
    if negative and n:
        p = rng.integers(0, 20, n).astype(np.float64)
        W = W + p[:, None] - p[None, :]  # same cycle weights: no negative cycle (zero-weight ones stay)
    W[rng.random((n, n)) >= density] = np.inf
    np.fill_diagonal(W, 0.0)
    return with_sentinels(W, dtype)


def both(W: np.ndarray):
    """GPU distances of W, then P from the GPU rule (into a poisoned buffer) and from the CPU rule."""
    dD = apsp.shortest_paths(cp.asarray(W))
    out = cp.full(W.shape, 12345, dtype=cp.int32)
    Pg = gpu_last_hop.last_hop_predecessors_gpu(sr.min_plus, dD, cp.asarray(W), out=out)
    D = cp.asnumpy(dD)
    Pc = last_hop_predecessors(sr.min_plus, D, W)
    return D, None if Pg is None else cp.asnumpy(Pg), Pc


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n, density, negative", [(1, 1.0, False), (2, 1.0, True), (37, 0.2, False),
                                                  (130, 1.0, True), (257, 0.05, False), (515, 1.0, False),
                                                  (700, 0.3, True)])
def test_same_rule_as_the_cpu(dtype, n, density, negative, rng):
    W = graph(rng, n, dtype, density, negative)
    D, Pg, Pc = both(W)
    assert Pg is not None and Pc is not None
    np.testing.assert_array_equal(Pg, Pc)
    if n <= 260:
        check_routes(sr.min_plus, W, D, Pg, exact=True)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_real_weights_match_the_cpu(dtype, rng):
    """Real weights (sums rounded): the same margin and the same rounding on both devices."""
    n = 333
    W = rng.uniform(0.0, 10.0, (n, n))
    W[rng.random((n, n)) < 0.5] = np.inf
    np.fill_diagonal(W, 0.0)
    W = W.astype(np.float32) if dtype == np.float32 else np.where(np.isinf(W), 2**31 - 1, W * 1000).astype(np.int32)
    D, Pg, Pc = both(W)
    np.testing.assert_array_equal(Pg, Pc)


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_zero_weight_cycles_are_mended(dtype, rng):
    """Weight-0 pairs make routes loop; the loops are found on the device and mended by rule 4."""
    n = 301
    W = graph(rng, n, dtype, 1.0, False, zero_pairs=n // 3)
    D, Pg, Pc = both(W)
    assert Pc is not None
    np.testing.assert_array_equal(Pg, Pc)
    check_routes(sr.min_plus, W, D, Pg, exact=True)


def test_disconnected_halves_have_no_route():
    rng = np.random.default_rng(4)
    n = 200
    W = graph(rng, n, np.float32, 0.2, False)
    W[: n // 2, n // 2:] = np.inf
    D, Pg, Pc = both(W)
    np.testing.assert_array_equal(Pg, Pc)
    assert (Pg[: n // 2, n // 2:] == -1).all() and (np.diagonal(Pg) == -1).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_shortest_paths_with_predecessors_on_the_gpu(dtype, rng):
    """The driver reads the predecessors off the distances on the device; distances unchanged."""
    n = 450
    W = graph(rng, n, dtype, 0.1, True, zero_pairs=10)
    dW = cp.asarray(W)
    dD, dP = apsp.shortest_paths(dW, predecessors=True)
    assert isinstance(dP, cp.ndarray)
    D, P = cp.asnumpy(dD), cp.asnumpy(dP)
    np.testing.assert_array_equal(D, cp.asnumpy(apsp.shortest_paths(dW)))
    check_routes(sr.min_plus, W, D, P, exact=True)


def test_over_budget_falls_back_to_the_pi_update(monkeypatch, rng):
    """A row over its budget gives None; apsp then carries the predecessors through the closure."""
    monkeypatch.setattr(gpu_last_hop, "row_budget", lambda n, arcs: 0)
    n = 150
    W = graph(rng, n, np.float64, 0.3, False)
    assert gpu_last_hop.last_hop_predecessors_gpu(sr.min_plus, apsp.shortest_paths(cp.asarray(W)),
                                                  cp.asarray(W)) is None
    dD, dP = apsp.shortest_paths(cp.asarray(W), predecessors=True)
    check_routes(sr.min_plus, W, cp.asnumpy(dD), cp.asnumpy(dP), exact=True)
