"""The edges on the GPU: integer sentinels stick in the CUDA primitives, the GEMM and every APSP method, as on the CPU.

Run with ``pytest -m gpu tests/test_apsp_gpu_edges.py``; everything here skips without CuPy and a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_saturation import edge_values, rule

import apsp
import semiring as sr
from semiring.backend import gpu_available

pytestmark = pytest.mark.gpu

cp = pytest.importorskip("cupy")
if not gpu_available():  # pragma: no cover - depends on the machine
    pytest.skip("no usable CUDA GPU", allow_module_level=True)

INTS = [np.dtype(np.int32), np.dtype(np.int64)]
METHODS = ["rkleene", "blocked-fw", "squaring", "fw"]


@pytest.mark.parametrize("family", ["min_plus", "max_plus"])
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_cuda_mul_follows_the_rule_on_every_pair_of_edge_values(family, dtype):
    vals = edge_values(dtype)
    a = np.array([x for x in vals for _ in vals], dtype)
    b = np.array([y for _ in vals for y in vals], dtype)
    want = np.array([rule(family, int(x), int(y), dtype) for x, y in zip(a, b)], dtype)
    S = getattr(sr, family)
    np.testing.assert_array_equal(cp.asnumpy(S.mul(cp.asarray(a), cp.asarray(b))), want)


@pytest.mark.parametrize("family", ["min_plus", "max_plus"])
@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("shape", [(9, 13, 37), (130, 70, 260)])
def test_cuda_gemm_on_edge_values_equals_the_cpu(family, dtype, shape):
    S = getattr(sr, family)
    m, k, n = shape
    rng = np.random.default_rng(7)
    vals = np.array(edge_values(dtype), dtype)
    A, B = rng.choice(vals, (m, k)), rng.choice(vals, (k, n))
    want = S.matmul(A, B)
    got = S.matmul(cp.asarray(A), cp.asarray(B))
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    C, K = S.matmul(cp.asarray(A), cp.asarray(B), witness=True)
    Cw, Kw = S.matmul(A, B, witness=True)
    np.testing.assert_array_equal(cp.asnumpy(C), Cw)
    np.testing.assert_array_equal(cp.asnumpy(K), Kw)


def _chain(n: int, dtype, w):
    """0 -> 1 -> ... -> n-1 with weight ``w`` each, then one more arc of weight 5."""
    dtype = np.dtype(dtype)
    zero = sr.posinf(dtype)
    W = np.full((n + 1, n + 1), zero, dtype)
    for i in range(n - 1):
        W[i, i + 1] = w
    W[n - 1, n] = 5
    return W


@pytest.mark.parametrize("dtype,w", [(np.int32, -2**30 + 1), (np.int64, -2**62 + 1), (np.float64, -1e308),
                                     (np.float32, -3e38)])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("pred", [False, True])
def test_gpu_apsp_saturates_like_the_cpu(dtype, w, method, pred):
    for n in (4, 300):  # one base block; many GEMMs and the CUDA base kernels
        W = _chain(n, dtype, w)
        want = apsp.shortest_paths(W, method, predecessors=pred)
        got = apsp.shortest_paths(cp.asarray(W), method, predecessors=pred, block_size=64)
        if pred:
            np.testing.assert_array_equal(cp.asnumpy(got[0]), want[0])
            np.testing.assert_array_equal(cp.asnumpy(got[1]), want[1])
        else:
            np.testing.assert_array_equal(cp.asnumpy(got), want)
        D = cp.asnumpy(got[0] if pred else got)
        assert D[0, n] == sr.neginf(np.dtype(dtype))


@pytest.mark.parametrize("method", METHODS)
def test_gpu_int32_mixed_signs_near_the_limits_equal_the_cpu(method):
    rng = np.random.default_rng(11)
    n = 150
    W = np.full((n, n), sr.posinf(np.dtype(np.int32)), np.int32)
    mask = (rng.random((n, n)) < 0.05) & np.triu(np.ones((n, n), bool), 1)  # a DAG: no cycle
    W[mask] = rng.integers(-2**30, 2**30, int(mask.sum()))
    np.fill_diagonal(W, 0)
    want = apsp.shortest_paths(W, method)
    np.testing.assert_array_equal(cp.asnumpy(apsp.shortest_paths(cp.asarray(W), method)), want)


def test_gpu_a_real_negative_cycle_is_still_reported():
    W = np.array([[0, -1e308, np.inf], [np.inf, 0, -1e308], [-1e308, np.inf, 0]])
    for method in METHODS:
        with pytest.raises(apsp.NegativeCycleError):
            apsp.shortest_paths(cp.asarray(W), method)
