"""Integer closures with +inf lowered to a stand-in P and checked afterwards (apsp.paths.exact_integers.stand_in_is_exact):
graphs built to defeat the check (true distances just below, at and above P and the int32 range), negative arcs, and
random weights of realistic size, against an exact Python-integer Floyd-Warshall; on the CPU and, marked gpu, the GPU."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apsp
import semiring as sr
from apsp.paths.exact_integers import stand_in_route
from semiring.backend import gpu_available

I32 = np.iinfo(np.int32)
I64 = np.iinfo(np.int64)
P32 = (int(I32.max) - 1) // 2


def exact_reference(W: np.ndarray) -> np.ndarray:
    """Floyd-Warshall in Python integers (object arrays), clamped to the dtype's sentinels as the library's policy says."""
    info = np.iinfo(W.dtype)
    n = W.shape[0]
    D = np.empty((n, n), dtype=object)
    for i in range(n):
        for j in range(n):
            w = int(W[i, j])
            D[i, j] = None if w == info.max else w
        D[i, i] = 0 if D[i, i] is None else min(D[i, i], 0)
    for k in range(n):
        for i in range(n):
            if D[i, k] is None:
                continue
            for j in range(n):
                if D[k, j] is not None and (D[i, j] is None or D[i, k] + D[k, j] < D[i, j]):
                    D[i, j] = D[i, k] + D[k, j]
    out = np.empty((n, n), dtype=W.dtype)
    for i in range(n):
        for j in range(n):
            d = D[i, j]
            out[i, j] = info.max if d is None or d >= info.max else (info.min if d <= info.min else d)
    return out


def chain(weights, dtype=np.int32, extra=None) -> np.ndarray:
    n = len(weights) + 1
    W = np.full((n, n), np.iinfo(dtype).max, dtype=dtype)
    for i, w in enumerate(weights):
        W[i, i + 1] = w
    for (i, j), w in (extra or {}).items():
        W[i, j] = w
    return W


@pytest.mark.parametrize("total", [P32 - 1, P32, P32 + 1, int(I32.max) - 1, int(I32.max), int(I32.max) + 5])
@pytest.mark.parametrize("method", ["rkleene", "blocked-fw", "squaring"])
def test_a_path_near_the_stand_in_and_the_range(total, method):
    parts = [total // 3, total // 3, total - 2 * (total // 3)]
    W = chain(parts)
    route = stand_in_route(W, sr.min_plus)
    assert route is not None and route[1] is False  # the static bound cannot prove it: the check decides
    D = apsp.shortest_paths(W, method)
    np.testing.assert_array_equal(D, exact_reference(W))
    expected = total if total < I32.max else I32.max  # beyond the range: +inf, as a saturating sum
    assert D[0, 3] == expected


def test_the_stand_in_route_is_not_used_for_negative_arcs():
    W = chain([2**29, 2**29, 2**29], extra={(3, 0): -5})
    assert stand_in_route(W, sr.min_plus) is None
    np.testing.assert_array_equal(apsp.shortest_paths(W), exact_reference(W))


def test_int64_near_its_stand_in():
    big = (int(I64.max) - 1) // 2
    W = chain([big // 2 + 7, big // 2 + 7], dtype=np.int64)  # true 0 -> 2 just above int64's stand-in
    D = apsp.shortest_paths(W)
    assert int(D[0, 2]) == 2 * (big // 2 + 7)
    np.testing.assert_array_equal(D, exact_reference(W))


def test_with_last_hop_predecessors():
    W = chain([P32 // 2, P32 // 2, 9], extra={(0, 3): 2**31 - 2})
    D, Pm = apsp.shortest_paths(W, predecessors=True)
    np.testing.assert_array_equal(D, exact_reference(W))
    assert apsp.path(Pm, 0, 3) == [0, 1, 2, 3]  # P32 + 8 < 2**31 - 2: through the chain


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 24), top=st.sampled_from([10**6, 10**8, 2**28, 2**29, 2**30]),
       density=st.floats(0.05, 0.6), seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from([np.int32, np.int64]))
def test_random_realistic_weights(n, top, density, seed, dtype):
    rng = np.random.default_rng(seed)
    W = rng.integers(0, top, (n, n)).astype(dtype)
    W[rng.random((n, n)) > density] = np.iinfo(dtype).max
    np.testing.assert_array_equal(apsp.shortest_paths(W), exact_reference(W))


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a CUDA GPU")
@pytest.mark.parametrize("total", [P32 - 1, P32 + 1, int(I32.max) + 5])
def test_on_the_gpu(total):
    import cupy as cp

    W = chain([total // 3, total // 3, total - 2 * (total // 3)])
    np.testing.assert_array_equal(apsp.shortest_paths(cp.asarray(W)).get(), exact_reference(W))
    rng = np.random.default_rng(total % 1000)
    n = 1000  # large enough for the GPU's plain int32 kernels; weights of realistic size
    R = rng.integers(1, 10**6, (n, n)).astype(np.int32)
    R[rng.random((n, n)) > 0.2] = I32.max
    R[:3, :3], R[3:6, :3] = I32.max, I32.max
    R[:4, :4] = W  # the chain inside: the GPU check must see it too
    np.testing.assert_array_equal(apsp.shortest_paths(cp.asarray(R)).get(), apsp.shortest_paths(R))
