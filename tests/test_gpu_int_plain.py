"""GPU integer min-plus on plain sums (semiring.cuda.gemm) against the CPU kernels.

The plain-sum specialisation (``min(c, a + b)``, one VIADDMNMX per pair on sm_90)
runs when the range check of :mod:`semiring.int_range` proves that no sum can
reach a sentinel or wrap around; otherwise the saturating kernel runs.  Both are
compared with the CPU (``S.matmul`` on host copies) on awkward sizes (partial
tiles in every dimension, padded ``k``), views, accumulation, operands at the edge
of the check (largest sum ``iinfo.max - 1``: plain; ``iinfo.max`` or a wrap:
saturating) and sentinels.  Skips cleanly without CuPy or a GPU.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from semiring import int_range, min_plus
from semiring.backend import gpu_available

cp = pytest.importorskip("cupy")
if not gpu_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)

from semiring.cuda import config, matmul_into  # noqa: E402

pytestmark = pytest.mark.gpu

INT_DTYPES = [np.int32, np.int64]
SHAPES = [(1, 1, 1), (7, 13, 5), (131, 67, 129), (37, 257, 61), (200, 45, 300), (129, 1000, 257)]


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed={seed}")
    return np.random.default_rng(seed)


@pytest.fixture
def kernels(monkeypatch):
    """Check every product, and record the specialisations the tiled GEMM is launched with.

    Captured closures are forgotten first: a CUDA graph replayed from an earlier test of the same size
    launches its kernels without calling the GEMM's Python entry (and was captured under that test's
    configuration)."""
    from apsp.cuda import graph_replay
    from semiring.cuda import gemm

    graph_replay.clear()
    monkeypatch.setattr(config, "plain_int_min_work", 1)
    monkeypatch.setattr(config, "plain_int", "auto")
    specs = []
    real = gemm.tiled_matmul
    monkeypatch.setattr(gemm, "tiled_matmul", lambda spec, *a, **kw: specs.append(spec) or real(spec, *a, **kw))
    yield specs
    graph_replay.clear()  # graphs captured under this fixture's configuration


def cpu_product(A, B, C0=None):
    out = np.empty((A.shape[0], B.shape[1]), A.dtype) if C0 is None else C0.copy()
    return min_plus.matmul(A, B, out=out, accumulate=C0 is not None)


def gpu_product(A, B, C0=None):
    dA, dB = cp.asarray(A), cp.asarray(B)
    dC = cp.full((A.shape[0], B.shape[1]), 7, A.dtype) if C0 is None else cp.asarray(C0)
    matmul_into(min_plus, dA, dB, dC, None, C0 is not None)
    return cp.asnumpy(dC)


def plain_was_used(specs) -> bool:
    assert specs, "no tiled launch"
    return specs[-1].pad is not None and specs[-1].mul == "(a + b)"


def operands(rng, dtype, m, k, n, top_slack):
    """Operands whose largest sum is iinfo.max - top_slack (reached at [0, 0]), smallest >= -(iinfo.max // 2)."""
    hi = int(np.iinfo(dtype).max)
    h = (hi + 1) // 2
    A = rng.integers(-h + 1, h, (m, k), dtype=np.int64)
    B = rng.integers(-h + 1, h - 2, (k, n), dtype=np.int64)
    A[0, 0] = h
    B[0, 0] = hi - top_slack - h
    return A.astype(dtype), B.astype(dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("m,k,n", SHAPES)
def test_plain_path_matches_cpu_on_awkward_sizes(m, k, n, dtype, rng, kernels):
    for small in (True, False):
        if small:
            A = rng.integers(1, 1000, (m, k)).astype(dtype)
            B = rng.integers(-1000, 1000, (k, n)).astype(dtype)
        else:
            A, B = operands(rng, dtype, m, k, n, top_slack=1)  # largest sum iinfo.max - 1
        C0 = rng.integers(-5000, 5000, (m, n)).astype(dtype)
        C0[rng.random((m, n)) < 0.3] = np.iinfo(dtype).max
        for acc in (None, C0):
            kernels.clear()
            got = gpu_product(A, B, acc)
            assert plain_was_used(kernels)
            assert np.array_equal(got, cpu_product(A, B, acc)), f"{m}x{k}x{n} small={small} acc={acc is not None}"


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_sum_at_the_largest_allowed_value(dtype, kernels):
    """All sums equal iinfo.max - 1, which is also what two padding values add up to."""
    hi = int(np.iinfo(dtype).max)
    h = (hi + 1) // 2
    A = np.full((37, 45), h, dtype)
    B = np.full((45, 29), h - 2, dtype)
    got = gpu_product(A, B)
    assert plain_was_used(kernels)
    assert np.all(got == hi - 1)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("top_slack", [2, 1, 0, -1])
def test_edge_of_the_range_check(top_slack, dtype, rng, kernels):
    """Largest sum iinfo.max - 2, - 1 (plain), iinfo.max (+inf: saturating) and past it (wraps: saturating)."""
    for m, k, n in [(131, 67, 129), (5, 300, 7)]:
        A, B = operands(rng, dtype, m, k, n, top_slack)
        kernels.clear()
        got = gpu_product(A, B)
        assert plain_was_used(kernels) == (top_slack >= 1)
        assert np.array_equal(got, cpu_product(A, B))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_smallest_sum_at_the_edge(dtype, rng, kernels):
    lo = int(np.iinfo(dtype).min)
    h = -(lo // 2)
    for bmin, plain in [(-h + 1, True), (-h, False)]:
        A = rng.integers(-h, 100, (70, 90), dtype=np.int64)
        B = rng.integers(bmin, 100, (90, 33), dtype=np.int64)
        A[0, 0], B[0, 0] = -h, bmin  # smallest sum lo + 1, then lo (-inf)
        A, B = A.astype(dtype), B.astype(dtype)
        kernels.clear()
        got = gpu_product(A, B)
        assert plain_was_used(kernels) == plain
        assert np.array_equal(got, cpu_product(A, B))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("sentinel", ["max", "min"])
def test_sentinels_take_the_saturating_kernel(sentinel, dtype, rng, kernels):
    info = np.iinfo(dtype)
    A = rng.integers(1, 1000, (131, 67)).astype(dtype)
    B = rng.integers(1, 1000, (67, 129)).astype(dtype)
    mask = rng.random(B.shape) < 0.1
    B[mask] = info.max if sentinel == "max" else info.min
    got = gpu_product(A, B)
    assert not plain_was_used(kernels)
    assert np.array_equal(got, cpu_product(A, B))


def test_views_and_transposes(rng, kernels):
    A0 = rng.integers(-1000, 1000, (140, 90)).astype(np.int32)
    B0 = rng.integers(-1000, 1000, (90, 150)).astype(np.int32)
    dA0, dB0 = cp.asarray(A0), cp.asarray(B0)
    for a_sl, b_sl in [((slice(3, 140), slice(1, 88)), (slice(1, 88), slice(5, 150))),  # misaligned rows
                       ((slice(0, 128), slice(0, 64)), (slice(0, 64), slice(0, 128)))]:
        A, B = A0[a_sl], B0[b_sl]
        dC = cp.empty((A.shape[0], B.shape[1]), cp.int32)
        kernels.clear()
        matmul_into(min_plus, dA0[a_sl], dB0[b_sl], dC)
        assert plain_was_used(kernels)
        assert np.array_equal(cp.asnumpy(dC), cpu_product(np.ascontiguousarray(A), np.ascontiguousarray(B)))
    At = rng.integers(-1000, 1000, (90, 140)).astype(np.int32)
    dC = cp.empty((140, 150), cp.int32)
    matmul_into(min_plus, cp.asarray(At).T, dB0[:, :150], dC)
    assert np.array_equal(cp.asnumpy(dC), cpu_product(np.ascontiguousarray(At.T), B0[:, :150]))


def test_default_threshold_and_counts(rng, monkeypatch):
    """With the default threshold a 1024^3 product is checked and runs plain; a smaller one is not checked."""
    monkeypatch.setattr(config, "plain_int", "auto")
    A = rng.integers(1, 1000, (1024, 1024)).astype(np.int32)
    before = dict(int_range.counts)
    got = gpu_product(A, A)
    assert int_range.counts["plain"] == before["plain"] + 1
    assert np.array_equal(got, cpu_product(A, A))
    before = dict(int_range.counts)
    gpu_product(A[:512], A[:, :512])
    assert int_range.counts == before


def test_witness_products_stay_saturating(rng, kernels):
    A = rng.integers(-100, 100, (131, 67)).astype(np.int32)
    B = rng.integers(-100, 100, (67, 129)).astype(np.int32)
    dC = cp.empty((131, 129), cp.int32)
    dW = cp.empty((131, 129), cp.int32)
    matmul_into(min_plus, cp.asarray(A), cp.asarray(B), dC, dW)
    assert not plain_was_used(kernels)
    C, W = min_plus.matmul(A, B, witness=True)
    assert np.array_equal(cp.asnumpy(dC), C) and np.array_equal(cp.asnumpy(dW), W)


def test_off_switch(rng, kernels, monkeypatch):
    monkeypatch.setattr(config, "plain_int", "off")
    A = rng.integers(1, 1000, (64, 64)).astype(np.int32)
    got = gpu_product(A, A)
    assert not plain_was_used(kernels)
    assert np.array_equal(got, cpu_product(A, A))


def test_apsp_int32_agrees_with_float32_on_gpu(rng, monkeypatch):
    import apsp

    monkeypatch.setattr(config, "plain_int", "auto")
    n = 1500
    W = rng.integers(1, 101, (n, n)).astype(np.int32)
    np.fill_diagonal(W, 0)
    Di = apsp.shortest_paths(cp.asarray(W))
    Df = apsp.shortest_paths(cp.asarray(W.astype(np.float32)))
    assert np.array_equal(cp.asnumpy(Di).astype(np.float32), cp.asnumpy(Df))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_apsp_with_missing_arcs_runs_plain_and_exact(dtype, rng, kernels):
    """+inf entries (missing arcs) are lowered to a stand-in so the products run on plain sums; exact."""
    from scipy.sparse.csgraph import shortest_path

    import apsp

    n = 700
    W = rng.integers(1, 1000, (n, n)).astype(dtype)  # no 0: SciPy's dense input reads 0 as no arc
    W[rng.random((n, n)) < 0.97] = np.iinfo(dtype).max
    np.fill_diagonal(W, 0)
    got = cp.asnumpy(apsp.shortest_paths(cp.asarray(W)))
    # the products run plain (the range is proved by the stand-in)
    assert any(spec.pad is not None and spec.mul == "(a + b)" for spec in kernels)
    ref = shortest_path(np.where(W == np.iinfo(dtype).max, np.inf, W.astype(np.float64)), method="FW")
    want = np.where(np.isinf(ref), 0, ref).astype(dtype)
    want[np.isinf(ref)] = np.iinfo(dtype).max
    assert np.array_equal(got, want)


def test_apsp_at_the_edge_of_the_stand_in(kernels):
    """A chain whose longest path is just below the stand-in (plain sums) and one just past it (saturating)."""
    import apsp
    from apsp.paths.exact_integers import plain_infinity
    from semiring import min_plus as mp

    n = 300
    P = (2**31 - 2) // 2
    for w, plain in ((P // (n - 1), True), (P // (n - 1) + 1, False)):
        W = np.full((n, n), np.iinfo(np.int32).max, np.int32)
        np.fill_diagonal(W, 0)
        W[np.arange(n - 1), np.arange(1, n)] = w
        assert (plain_infinity(W, mp) is not None) == plain
        got = cp.asnumpy(apsp.shortest_paths(cp.asarray(W)))
        steps = np.arange(n)[None, :] - np.arange(n)[:, None]
        want = np.where(steps >= 0, steps.astype(np.int64) * w, 2**31 - 1)
        assert np.array_equal(got, np.minimum(want, 2**31 - 1).astype(np.int32))


def test_apsp_stand_in_runs_every_product_plain_also_in_replayed_graphs(rng, kernels, monkeypatch):
    """Under the stand-in the range is proved once: every tiled product (also those recorded into and
    replayed from CUDA graphs) runs plain, none is read back, and the result is exact."""
    import apsp
    from apsp.cuda import graph_replay

    monkeypatch.setattr(config, "plain_int_min_work", 1 << 40)  # nothing may pass by the checked route
    graph_replay.clear()
    n = 2600  # two sub-closures of 1344 / 1256 vertices, each replayed on the second call
    W = rng.integers(1, 101, (n, n)).astype(np.int32)
    W[rng.random((n, n)) < 0.5] = np.iinfo(np.int32).max
    np.fill_diagonal(W, 0)
    want = apsp.shortest_paths(W.astype(np.float32), device="cpu")
    want = np.where(np.isinf(want), np.iinfo(np.int32).max, want).astype(np.int32)
    for _ in range(2):
        kernels.clear()
        before = dict(int_range.counts)
        got = cp.asnumpy(apsp.shortest_paths(cp.asarray(W)))
        assert np.array_equal(got, want)
        assert kernels and all(plain_was_used([spec]) for spec in kernels)
        assert int_range.counts["saturating"] == before["saturating"]
        assert int_range.counts["plain"] == before["plain"]
        assert int_range.counts["proved"] > before["proved"]
    assert any(key[-1] for key in graph_replay._CACHE), "no captured graph keyed as proved"
    graph_replay.clear()
