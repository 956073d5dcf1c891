"""GPU semiring GEMM (semiring.cuda) against the CPU kernels, on fresh random inputs.

Every built-in family x dtype x (plain, accumulate, witness) is compared with
``S.matmul`` on host copies (the Numba kernels), for awkward sizes (1, primes,
non-multiples of every tile), views with a leading dimension, transposed and
misaligned views, integer saturation at the sentinels, the lazy (zero-skipping)
kernel, the bit-packed Boolean kernel and the streamed (out-of-core) path.
Outputs are poisoned before each run; inputs are never all zero.  Skips cleanly
without CuPy or a GPU.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from semiring import BUILTIN, Semiring, lor_land, max_min, min_plus, plus_times
from semiring.backend import gpu_available

cp = pytest.importorskip("cupy")
if not gpu_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)

from semiring.cuda import config, elementwise, matmul_into, streamed_matmul  # noqa: E402

pytestmark = pytest.mark.gpu

FAMILIES = ["min_plus", "max_plus", "max_min", "min_max", "plus_times", "max_times", "min_times"]
DTYPES = [np.float32, np.float64, np.int32, np.int64]
SHAPES = [(1, 1, 1), (7, 13, 5), (131, 67, 129), (37, 257, 61), (200, 45, 300)]


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed={seed}")
    return np.random.default_rng(seed)


def random_matrix(S: Semiring, dtype, shape, rng, zero_frac=0.2):
    """Entries valid for S: small values, a share of semiring zeros, infinities where allowed."""
    dtype = np.dtype(dtype)
    if S.family == "plus_times":
        X = rng.integers(-3, 4, shape).astype(dtype)  # exact in every dtype (FMA included)
    elif S.nonnegative:
        X = (rng.integers(0, 40, shape) / (4 if dtype.kind == "f" else 1)).astype(dtype)
    elif dtype.kind == "f":
        X = rng.standard_normal(shape) * 8
        X = np.where(rng.random(shape) < 0.5, np.round(X), X).astype(dtype)  # integers: ties between k
    else:
        X = rng.integers(-1000, 1000, shape).astype(dtype)
    X[rng.random(shape) < zero_frac] = S.zero_value(dtype)
    if S.family in ("max_min", "min_max"):
        X[rng.random(shape) < 0.05] = S.one_value(dtype)  # the other infinity
    if X.size and np.all(X == S.zero_value(dtype)):
        X.flat[0] = S.one_value(dtype)
    return X


def poison(shape, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return cp.full(shape, np.nan, dtype=dtype)
    if dtype.kind == "b":
        return cp.asarray(rng.random(shape) < 0.5)
    return cp.asarray(rng.integers(-5, 5, shape).astype(dtype))


def cpu_reference(S, A, B, C0, accumulate, witness):
    out = C0.copy() if accumulate else np.empty((A.shape[0], B.shape[1]), A.dtype)
    res = S.matmul(A, B, out=out, accumulate=accumulate, witness=witness)
    return res if witness else (res, None)


def assert_same(got, want, what):
    got = cp.asnumpy(got) if isinstance(got, cp.ndarray) else got
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        assert np.array_equal(got, want), f"{what}: {np.argwhere(got != want)[:5].tolist()} differ"


def run_gpu(S, A, B, C0, accumulate, witness, rng):
    dA, dB = cp.asarray(A), cp.asarray(B)
    m, n = A.shape[0], B.shape[1]
    dC = cp.asarray(C0) if accumulate else poison((m, n), A.dtype, rng)
    dW = cp.full((m, n), -7, dtype=cp.int32) if witness else None
    matmul_into(S, dA, dB, dC, dW, accumulate)
    return dC, dW


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("family", FAMILIES)
def test_matches_cpu_kernels(family, dtype, rng):
    S = BUILTIN[family]
    modes = [(False, False), (True, False)] + ([(False, True), (True, True)] if S.selective else [])
    for m, k, n in SHAPES:
        A = random_matrix(S, dtype, (m, k), rng)
        B = random_matrix(S, dtype, (k, n), rng)
        C0 = random_matrix(S, dtype, (m, n), rng)
        for accumulate, witness in modes:
            what = f"{family} {np.dtype(dtype).name} {m}x{k}x{n} acc={accumulate} wit={witness}"
            want_C, want_W = cpu_reference(S, A, B, C0, accumulate, witness)
            dC, dW = run_gpu(S, A, B, C0, accumulate, witness, rng)
            assert_same(dC, want_C, what)
            if witness:
                assert_same(dW, want_W, what + " (witness)")


@pytest.mark.parametrize("m,k,n", [(0, 5, 3), (4, 0, 3), (4, 5, 0), (0, 0, 0)])
def test_empty_dimensions(m, k, n, rng):
    A = cp.ones((m, k), cp.float32)
    B = cp.ones((k, n), cp.float32)
    C = poison((m, n), np.float32, rng)
    W = cp.full((m, n), -7, cp.int32)
    matmul_into(min_plus, A, B, C, W, False)
    if m and n:
        assert bool(cp.all(C == cp.inf)) and bool(cp.all(W == -1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32], ids=lambda d: np.dtype(d).name)
def test_views_of_a_larger_buffer(dtype, rng):
    """Blocks of one buffer (leading dimension), written in place; the rest untouched."""
    S = min_plus
    D = random_matrix(S, dtype, (700, 900), rng)
    dD = cp.asarray(D)
    A, B = dD[0:300, 0:260], dD[300:560, 260:777]
    C = dD[0:300, 260:777]  # overlaps neither A nor B
    want_C, want_W = cpu_reference(S, D[0:300, 0:260], D[300:560, 260:777], D[0:300, 260:777].copy(), True, True)
    W = cp.full((300, 517), -7, cp.int32)
    before = cp.asnumpy(dD)
    matmul_into(S, A, B, C, W, True)
    after = cp.asnumpy(dD)
    assert_same(after[0:300, 260:777], want_C, "C block")
    assert_same(W, want_W, "witness")
    after[0:300, 260:777] = before[0:300, 260:777]
    assert_same(after, before, "outside the C block")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=lambda d: np.dtype(d).name)
def test_transposed_and_misaligned_views(dtype, rng):
    S = max_min
    A0 = random_matrix(S, dtype, (133, 91), rng)
    B0 = random_matrix(S, dtype, (91, 77), rng)
    for A, B in [(A0, B0), (np.ascontiguousarray(A0.T).T, B0), (A0, np.ascontiguousarray(B0.T).T)]:
        want_C, want_W = cpu_reference(S, A, B, None, False, True)
        for off in (0, 1, 3):  # 1 and 3 elements off: not 16-byte aligned -> element copies
            bigA = cp.asarray(random_matrix(S, dtype, (A.shape[0] + 1, A.shape[1] + off + 2), rng))
            bigA[1:, off:off + A.shape[1]] = cp.asarray(A)
            dA = bigA[1:, off:off + A.shape[1]]
            if A.flags.f_contiguous and not A.flags.c_contiguous:
                dA = cp.asfortranarray(cp.asarray(A))
            dB = cp.asarray(B) if off == 0 else cp.asfortranarray(cp.asarray(B))
            C = poison((A.shape[0], B.shape[1]), dtype, rng)
            W = cp.full(C.shape, -7, cp.int32)
            matmul_into(S, dA, dB, C, W, False)
            assert_same(C, want_C, f"off={off}")
            assert_same(W, want_W, f"off={off} witness")
    # a transposed output view
    CT = poison((B0.shape[1], A0.shape[0]), dtype, rng)
    matmul_into(S, cp.asarray(A0), cp.asarray(B0), CT.T, None, False)
    assert_same(CT.T, cpu_reference(S, A0, B0, None, False, False)[0], "transposed C")


@pytest.mark.parametrize("dtype", [np.int32, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("family", ["min_plus", "max_plus", "plus_times", "max_times", "min_times"])
def test_integer_saturation(family, dtype, rng):
    """Entries near the sentinels: sums and products saturate exactly as on the CPU."""
    S = BUILTIN[family]
    info = np.iinfo(dtype)
    big = [info.max, info.max - 1, info.max // 2 + 3, info.min + 1, info.min // 2 - 3, -1, 0, 1, 2]
    if S.nonnegative:
        big = [v for v in big if v >= 0]
    if family == "min_plus":
        big.remove(info.min + 1)  # keep -inf-ish values from dominating; still reached by saturation
    vals = np.array(big, dtype=dtype)
    A = rng.choice(vals, (67, 45))
    B = rng.choice(vals, (45, 71))
    if family == "plus_times":
        B = np.abs(B).astype(dtype)  # all products one sign: saturation is order-independent
        A = np.abs(A).astype(dtype)
    C0 = rng.choice(vals, (67, 71))
    if family == "plus_times":
        C0 = np.abs(C0).astype(dtype)
    modes = [(False, False), (True, False)] + ([(False, True), (True, True)] if S.selective else [])
    for accumulate, witness in modes:
        want_C, want_W = cpu_reference(S, A, B, C0, accumulate, witness)
        dC, dW = run_gpu(S, A, B, C0, accumulate, witness, rng)
        assert_same(dC, want_C, f"{family} acc={accumulate} wit={witness}")
        if witness:
            assert_same(dW, want_W, "witness")


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_lazy_kernel_on_operands_with_zero_tiles(dtype, rng, monkeypatch):
    S = min_plus
    m, k, n = 300, 1100, 270
    A = random_matrix(S, dtype, (m, k), rng, zero_frac=0.995)  # ~degree 5
    B = random_matrix(S, dtype, (k, n), rng, zero_frac=0.995)
    A[:128, 300:700] = S.zero_value(dtype)  # whole zero tiles too
    B[500:1000, :] = S.zero_value(dtype)
    C0 = random_matrix(S, dtype, (m, n), rng)
    for mode in ("on", "off"):
        monkeypatch.setattr(config, "lazy", mode)
        for accumulate, witness in [(False, False), (True, False), (False, True), (True, True)]:
            want_C, want_W = cpu_reference(S, A, B, C0, accumulate, witness)
            dC, dW = run_gpu(S, A, B, C0, accumulate, witness, rng)
            assert_same(dC, want_C, f"lazy={mode} acc={accumulate} wit={witness}")
            if witness:
                assert_same(dW, want_W, f"lazy={mode} witness")


def test_lazy_auto_picks_lazy_on_sparse_input(rng, monkeypatch):
    from semiring.cuda import gemm

    monkeypatch.setattr(config, "lazy_min_work", 1)
    calls = []
    real = gemm.kernel

    def spy(file, name, *a, **kw):
        calls.append(name)
        return real(file, name, *a, **kw)

    monkeypatch.setattr(gemm, "kernel", spy)
    S = min_plus
    A = random_matrix(S, np.float32, (256, 512), rng, zero_frac=0.999)
    dense = random_matrix(S, np.float32, (256, 512), rng, zero_frac=0.0)
    for X, lazy in [(A, True), (dense, False)]:
        calls.clear()
        want_C, _ = cpu_reference(S, X, X.T.copy(), None, False, False)
        dC, _ = run_gpu(S, X, X.T.copy(), None, False, False, rng)
        assert_same(dC, want_C, f"auto lazy={lazy}")
        assert any("lazy" in c for c in calls) == lazy, calls


@pytest.mark.parametrize("signed", [False, True])
def test_nonnegative_minplus_path(signed, rng, monkeypatch):
    """float32 min-plus on inputs >= 0 (with +inf and -0.0) takes the integer three-way-min kernel."""
    from semiring.cuda import gemm

    monkeypatch.setattr(config, "lazy_min_work", 1)
    calls = []
    real = gemm.kernel
    monkeypatch.setattr(gemm, "kernel", lambda f, name, *a, **kw: calls.append(name) or real(f, name, *a, **kw))
    S = min_plus
    for m, k, n in [(131, 300, 257), (64, 64, 64), (7, 1000, 9)]:
        A = np.abs(random_matrix(S, np.float32, (m, k), rng))
        B = np.abs(random_matrix(S, np.float32, (k, n), rng))
        A[rng.random(A.shape) < 0.05] = -0.0
        B[rng.random(B.shape) < 0.05] = -0.0
        if signed:
            A[rng.integers(0, m), rng.integers(0, k)] = -1.5
        C0 = np.abs(random_matrix(S, np.float32, (m, n), rng))
        for accumulate in (False, True):
            calls.clear()
            want, _ = cpu_reference(S, A, B, C0, accumulate, False)
            dC, _ = run_gpu(S, A, B, C0, accumulate, False, rng)
            assert_same(dC, want, f"{m}x{k}x{n} signed={signed} acc={accumulate}")
            path = {c[-2] for c in calls if c.startswith("sr_gemm<")}
            assert path == ({"2"} if signed else {"1"}), calls


def _signed_case(case: str, m: int, k: int, n: int, rng):
    """float32 min-plus operands with negative entries whose running minima turn negative early
    (``negative``), never (``positive``: every sum > 0), in half of the rows (``mixed``), from
    the first k tiles on in half of the rows with no negative sum after them (``early``:
    later k tiles take the non-negative inner product over negative and positive minima;
    -0.0 in B and in the first half of A's columns), or at the extremes of float32 (-0.0, subnormals, +-max, sums
    that overflow to -inf)."""
    S = min_plus
    A = random_matrix(S, np.float32, (m, k), rng)
    B = random_matrix(S, np.float32, (k, n), rng)
    if case == "positive":
        B = np.abs(B) + np.float32(200.0)  # sums >= 200 - max|A| > 0; +inf stays +inf
    elif case == "mixed":
        A[rng.random(m) < 0.5] += np.float32(120.0)  # those rows' minima mostly stay positive
    elif case == "early":
        A, B = np.abs(A), np.abs(B)
        rows = rng.random(m) < 0.5
        A[np.ix_(rows, np.arange(min(k, 40)))] -= np.float32(300.0)
        B[rng.random(B.shape) < 0.05] = -0.0
        head = A[:, : k // 2]  # -0.0 + -0.0 = -0.0: the tiles of the first half of k stay general
        head[rng.random(head.shape) < 0.05] = -0.0
    elif case == "extremes":
        big = np.finfo(np.float32).max
        special = np.array([-0.0, 0.0, -1e-45, 1e-45, -big, big, -1.0, 1.0], np.float32)
        for X in (A, B):
            hit = rng.random(X.shape) < 0.1
            X[hit] = rng.choice(special, size=int(hit.sum()))
    A[rng.integers(0, m), rng.integers(0, k)] = -2.5  # A always holds a negative entry
    return A, B


@pytest.mark.parametrize("probe", [False, True], ids=["in-kernel", "block-minima"])
@pytest.mark.parametrize("case", ["negative", "positive", "mixed", "early", "extremes"])
def test_signed_minplus_path(case, probe, rng, monkeypatch):
    """float32 min-plus on signed inputs: the signed path (warps switch to the unsigned three-way
    max once all running minima are negative; k tiles whose block minima sum to >= +0.0 take
    the non-negative inner product) gives exactly the CPU's result and the general kernel's."""
    from semiring.cuda import gemm

    calls = []
    real = gemm.kernel
    monkeypatch.setattr(gemm, "kernel", lambda f, name, *a, **kw: calls.append(name) or real(f, name, *a, **kw))
    if probe:  # the probe that reads the block minima runs on every product
        monkeypatch.setattr(config, "lazy_min_work", 1)
        monkeypatch.setattr(config, "lazy_max_fraction", 0.0)
    S = min_plus
    for m, k, n in [(131, 300, 257), (64, 64, 64), (7, 1000, 9), (260, 777, 129), (129, 2049, 130)]:
        A, B = _signed_case(case, m, k, n, rng)
        C0 = random_matrix(S, np.float32, (m, n), rng)
        for accumulate in (False, True):
            what = f"{case} {m}x{k}x{n} acc={accumulate}"
            calls.clear()
            want, _ = cpu_reference(S, A, B, C0, accumulate, False)
            dC, _ = run_gpu(S, A, B, C0, accumulate, False, rng)
            assert_same(dC, want, what)
            assert {c[-2] for c in calls if c.startswith("sr_gemm<")} == {"2"}, calls
            assert any(c == "sr_nz_cols" for c in calls) == probe, calls
            monkeypatch.setattr(config, "signed", "off")
            dG, _ = run_gpu(S, A, B, C0, accumulate, False, rng)
            monkeypatch.setattr(config, "signed", "auto")
            assert_same(dG, want, what + " (general kernel)")


@pytest.mark.parametrize("case", ["offsets", "mixed", "negative", "extremes"])
def test_rows_by_offset_give_the_same_product(case, rng, monkeypatch):
    """config.row_order = "auto": A's rows sorted by their minimum, C's rows written back in place (on views and
    with accumulation too): the same result bit for bit as the CPU; taken for rows at offsets ("extremes":
    forced, rows holding -0.0, subnormals, +-max, +inf and sums that overflow to -inf)."""
    from semiring.cuda import compile as compile_module
    from semiring.cuda import gemm

    monkeypatch.setattr(config, "lazy_min_work", 1)  # the probe (and with it the order) on every product
    monkeypatch.setattr(config, "lazy_max_fraction", 0.0)
    monkeypatch.setattr(config, "row_order", "auto")
    monkeypatch.setattr(compile_module, "multiprocessors", lambda: 1)  # the default tile on small products too
    taken = []
    real = gemm.rows_at_offsets

    def spy(pending, block_rows):
        got = real(pending, block_rows)
        if got is None and case == "extremes" and pending is not None:
            got = pending[0]  # sorted whatever the spread
        taken.append(got)
        return got

    monkeypatch.setattr(gemm, "rows_at_offsets", spy)
    S = min_plus
    for m, k, n in [(517, 300, 257), (260, 777, 129), (1031, 64, 70)]:
        if case == "offsets":
            A = (0.1 * rng.standard_normal((m, k)) + rng.uniform(-3, 3, (m, 1))).astype(np.float32)
            B = rng.standard_normal((k, n)).astype(np.float32)
        else:
            A, B = _signed_case(case, m, k, n, rng)
        C0 = random_matrix(S, np.float32, (m + 3, n + 5), rng)[1 : m + 1, 2 : n + 2]  # a view
        for accumulate in (False, True):
            want, _ = cpu_reference(S, A, B, C0, accumulate, False)
            dA, dB = cp.asarray(A), cp.asarray(B)
            big = cp.asarray(random_matrix(S, np.float32, (m + 3, n + 5), rng))
            dC = big[1 : m + 1, 2 : n + 2]
            if accumulate:
                dC[...] = cp.asarray(C0)
            outside = big.copy()
            matmul_into(S, dA, dB, dC, None, accumulate)
            assert_same(dC, want, f"{case} {m}x{k}x{n} acc={accumulate}")
            mask = cp.ones(big.shape, dtype=bool)
            mask[1 : m + 1, 2 : n + 2] = False
            assert bool(cp.all(big[mask] == outside[mask])), "written outside the view"
    if case in ("offsets", "mixed", "extremes"):  # rows at two or more offsets: sorted
        assert any(o is not None for o in taken), taken


def test_row_offsets_reads_the_row_minima_and_the_scale(rng):
    """sr_row_offsets: each row's least entry over its four sampled runs of columns (+-inf clipped, NaN passed
    over) and the decision from the spread per row block against B's standard deviation."""
    from semiring.cuda import gemm
    from semiring.cuda.compile import tile_of
    from semiring.cuda.ops import spec_for

    spec = spec_for(min_plus, np.float32)
    tile = tile_of(spec, False)
    m, k, n = 3 * tile.bm + 17, 1000, 300
    B = cp.asarray(rng.standard_normal((k, n)).astype(np.float32))
    offsets = rng.uniform(-3, 3, (m, 1))
    A = (0.1 * rng.standard_normal((m, k)) + offsets).astype(np.float32)
    A[5] = np.inf  # a row without arcs
    A[6, ::7] = -np.inf
    A[7, 3] = np.nan
    width = 128
    starts = [min(k - width, i * k // 4) for i in range(4)]
    cols = np.concatenate([np.arange(s, s + width) for s in starts])
    big = np.finfo(np.float32).max
    want = np.clip(np.nanmin(A[:, cols], axis=1), -big, big)
    dA = cp.asarray(A)
    got = gemm.rows_at_offsets(gemm.start_row_offsets(spec, tile, dA, k, B, n, m, k, n), tile.bm)
    assert got is not None, "rows at offsets -3..3 against B of scale 1"
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    flat = cp.asarray((0.1 * rng.standard_normal((m, k))).astype(np.float32))
    pending = gemm.start_row_offsets(spec, tile, flat, k, B, n, m, k, n)
    assert gemm.rows_at_offsets(pending, tile.bm) is None, "one offset: nothing to sort"
    assert gemm.start_row_offsets(spec, tile, dA[: 2 * tile.bm - 1], k, B, n, 2 * tile.bm - 1, k, n) is None


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (5, 31, 7), (129, 33, 130), (64, 1000, 200), (300, 517, 129)])
def test_bool_bitpacked(m, k, n, rng):
    for density in (0.02, 0.5):
        A = rng.random((m, k)) < density
        B = rng.random((k, n)) < density
        A[0, -1] = B[-1, 0] = True  # never all false
        C0 = rng.random((m, n)) < 0.1
        for accumulate in (False, True):
            want, _ = cpu_reference(lor_land, A, B, C0, accumulate, False)
            dC, _ = run_gpu(lor_land, A, B, C0, accumulate, False, rng)
            assert_same(dC, want, f"bool {m}x{k}x{n} d={density} acc={accumulate}")
        want, want_W = cpu_reference(lor_land, A, B, C0, False, True)
        dC, dW = run_gpu(lor_land, A, B, C0, False, True, rng)
        assert_same(dC, want, "bool witness C")
        assert_same(dW, want_W, "bool witness W")


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64, np.bool_], ids=lambda d: np.dtype(d).name)
def test_streamed_equals_in_core_with_tiny_budget(dtype, rng):
    S = lor_land if dtype == np.bool_ else min_plus
    m, k, n = 301, 257, 190
    if dtype == np.bool_:
        A, B, C0 = rng.random((m, k)) < 0.02, rng.random((k, n)) < 0.02, rng.random((m, n)) < 0.1
    else:
        A, B, C0 = (random_matrix(S, dtype, s, rng) for s in [(m, k), (k, n), (m, n)])
    budget = 96 * 1024  # far below the operands: many blocks and panels
    modes = [(False, False), (True, False), (False, True), (True, True)]
    for accumulate, witness in modes:
        want_C, want_W = cpu_reference(S, A, B, C0, accumulate, witness)
        C = C0.copy() if accumulate else np.full((m, n), S.one_value(dtype), dtype)
        W = np.full((m, n), -7, np.int32) if witness else None
        streamed_matmul(S, A, B, C, W, accumulate, memory_budget=budget)
        assert_same(C, want_C, f"streamed acc={accumulate} wit={witness}")
        if witness:
            assert_same(W, want_W, "streamed witness")


def test_dense_matmul_front_end_routes_to_gpu(rng):
    """semiring.dense.matmul: CuPy in -> CuPy out; NumPy with device='gpu' -> NumPy via streaming."""
    A = random_matrix(min_plus, np.float32, (70, 90), rng)
    B = random_matrix(min_plus, np.float32, (90, 50), rng)
    want = min_plus.matmul(A, B)
    got = min_plus.matmul(cp.asarray(A), cp.asarray(B))
    assert isinstance(got, cp.ndarray)
    assert_same(got, want, "cupy in")
    got = min_plus.matmul(A, B, device="gpu", memory_budget=8192)
    assert isinstance(got, np.ndarray)
    assert_same(got, want, "numpy in, streamed")


@pytest.mark.parametrize("dtype", [np.int32, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("family", FAMILIES)
def test_elementwise_saturates_like_cpu(family, dtype, rng):
    S = BUILTIN[family]
    info = np.iinfo(dtype)
    vals = np.array([info.max, info.max - 2, info.min, info.min + 2, -5, 0, 3, info.max // 3], dtype=dtype)
    if S.nonnegative:
        vals = vals[vals >= 0]
    x = rng.choice(vals, 400)
    y = rng.choice(vals, 400)
    for which in ("add", "mul"):
        want = S.add(x, y) if which == "add" else S.mul(x, y)
        got = elementwise(S, which, cp.asarray(x), cp.asarray(y), cp.empty(400, dtype))
        assert_same(got, want, f"{family} {which}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_min_times_zero_times_inf(dtype, rng):
    """min_times: 0 * inf is inf (not NaN) in the GEMM, the witness GEMM and the elementwise mul."""
    S = BUILTIN["min_times"]
    m, k, n = 67, 45, 71
    A = rng.choice(np.array([0, np.inf, 1, 2.5], dtype), (m, k))
    B = rng.choice(np.array([0, np.inf, 1, 4], dtype), (k, n))
    C0 = rng.choice(np.array([0, np.inf, 3], dtype), (m, n))
    for accumulate, witness in [(False, False), (True, False), (False, True), (True, True)]:
        want_C, want_W = cpu_reference(S, A, B, C0, accumulate, witness)
        dC, dW = run_gpu(S, A, B, C0, accumulate, witness, rng)
        assert_same(dC, want_C, f"acc={accumulate} wit={witness}")
        if witness:
            assert_same(dW, want_W, "witness")
    x = np.array([0, np.inf, np.inf, 0, 2.5, 3], dtype)
    y = np.array([np.inf, 0, np.inf, 0, 4, 1], dtype)
    got = S.mul(cp.asarray(x), cp.asarray(y))
    assert_same(got, np.array([np.inf, np.inf, np.inf, 0, 10, 3], dtype), "elementwise mul")
    assert_same(elementwise(S, "mul", cp.asarray(x), cp.asarray(y), cp.empty(6, dtype)), S.mul(x, y), "kernel")


def test_custom_semirings(rng):
    """cuda_add/cuda_mul specialise the tiled kernel; without them the generic path runs."""
    with_cuda = Semiring("min_times_custom", np.minimum, np.multiply, zero=np.inf, one=1.0, idempotent=True,
                         selective=True, nonnegative=True, cuda_add="fmin(a, b)", cuda_mul="a * b")
    without = Semiring("max_plus_custom", np.maximum, np.add, zero=-np.inf, one=0.0, idempotent=True,
                       selective=True)
    A = rng.random((75, 60)) * 4
    B = rng.random((60, 33)) * 4
    for S in (with_cuda, without):
        want = S.matmul(A, B)
        got = cp.empty((75, 33))
        matmul_into(S, cp.asarray(A), cp.asarray(B), got, None, False)
        assert_same(got, want, S.name)


def test_plus_times_float_is_close_on_general_values(rng):
    A = rng.standard_normal((150, 400)).astype(np.float32)
    B = rng.standard_normal((400, 90)).astype(np.float32)
    got = cp.empty((150, 90), cp.float32)
    matmul_into(plus_times, cp.asarray(A), cp.asarray(B), got, None, False)
    np.testing.assert_allclose(cp.asnumpy(got), A.astype(np.float64) @ B, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("m,n", [(1500, 1537), (700, 333)])  # default tile (enough blocks) and the small tile
def test_default_and_small_tiles(m, n, dtype, rng):
    from semiring.cuda.compile import tile_for_shape, tile_of
    from semiring.cuda.ops import spec_for

    spec = spec_for(min_plus, np.dtype(dtype))
    small = tile_for_shape(spec, False, m, n) != tile_of(spec, False)
    assert small == (m < 1000)
    A = random_matrix(min_plus, dtype, (m, 129), rng)
    B = random_matrix(min_plus, dtype, (129, n), rng)
    C0 = random_matrix(min_plus, dtype, (m, n), rng)
    for accumulate in (False, True):
        want, _ = cpu_reference(min_plus, A, B, C0, accumulate, False)
        got, _ = run_gpu(min_plus, A, B, C0, accumulate, False, rng)
        assert_same(got, want, f"{m}x129x{n} acc={accumulate} small tile={small}")
