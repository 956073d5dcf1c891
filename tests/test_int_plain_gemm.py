"""Integer min-plus on plain sums: the range check, the dispatcher's choice, and exactness near the edge.

The plain-sum kernel (``min`` of wrapping ``a + b``) must give exactly what the
saturating, sticky kernel and a slow exact reference give whenever
:func:`semiring.int_range.plain_sums_exact` lets it run, and the dispatcher must
fall back to the saturating kernel whenever a sum could reach a sentinel.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import matmul_reference

from semiring import int_range, max_plus, min_plus
from semiring.dense import dispatch
from semiring.int_range import padding_value, plain_path_applies, plain_sums_exact

INT_DTYPES = [np.int32, np.int64]


@pytest.fixture
def always_check(monkeypatch):
    """Run the range check on every product, however small."""
    monkeypatch.setattr(dispatch, "PLAIN_MIN_WORK", 0)


def saturating_product(A, B, C0=None):
    """The exact saturating kernel, whatever the range check would say."""
    fn, zero, lo, hi = dispatch.numba_plan(min_plus, A.dtype, False, False)
    C = np.empty((A.shape[0], B.shape[1]), A.dtype) if C0 is None else C0.copy()
    fn(A, B, C, 0, A.shape[0], C0 is not None, zero, lo, hi)
    return C


def plain_product(A, B, C0=None):
    """The plain-sum kernel, run unconditionally (only meaningful where the check passes)."""
    fn, zero, lo, hi = dispatch.numba_plan(min_plus, A.dtype, False, True)
    C = np.empty((A.shape[0], B.shape[1]), A.dtype) if C0 is None else C0.copy()
    fn(A, B, C, 0, A.shape[0], C0 is not None, zero, lo, hi)
    return C


def numpy_reference(A, B):
    """The exact min-plus product with sticky sentinels and saturation, in int64 (int32 operands)."""
    info = np.iinfo(A.dtype)
    a, b = A[:, :, None].astype(np.int64), B[None, :, :].astype(np.int64)
    s = np.clip(a + b, info.min, info.max)
    s = np.where((a == info.min) | (b == info.min), info.min, s)
    s = np.where((a == info.max) | (b == info.max), info.max, s)
    return s.min(axis=1).astype(A.dtype)


def counted(fn):
    before = dict(int_range.counts)
    out = fn()
    return out, {k: int_range.counts[k] - before[k] for k in before}


# --------------------------------------------------------------------------- the check itself


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_check_boundary(dtype):
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    h = (hi + 1) // 2  # 2**30 for int32
    assert plain_sums_exact(0, h, 0, h - 2, dtype)  # max sum hi - 1
    assert not plain_sums_exact(0, h, 0, h - 1, dtype)  # max sum == hi (+inf)
    assert not plain_sums_exact(0, h, 0, h, dtype)  # wraps
    assert plain_sums_exact(-h, 0, -h + 1, 0, dtype)  # min sum lo + 1
    assert not plain_sums_exact(-h, 0, -h, 0, dtype)  # min sum == lo (-inf)
    # Sentinels disqualify even where their sums would stay inside the range.
    assert not plain_sums_exact(0, hi, -5, -1, dtype)
    assert not plain_sums_exact(lo, 0, 1, 5, dtype)
    assert not plain_sums_exact(1, 5, lo, 0, dtype)
    assert not plain_sums_exact(-5, -1, 0, hi, dtype)
    # The padding value's double is the largest sum the plain kernel may meet.
    assert 2 * padding_value(dtype) == hi - 1


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2**33), 2**33), st.integers(-(2**33), 2**33), st.integers(-(2**33), 2**33),
       st.integers(-(2**33), 2**33))
def test_check_matches_definition_int32(a1, a2, b1, b2):
    """The check is exactly: no sentinel, and every sum strictly inside the range."""
    lo, hi = -(2**31), 2**31 - 1
    amin, amax = sorted((max(lo, min(hi, a1)), max(lo, min(hi, a2))))
    bmin, bmax = sorted((max(lo, min(hi, b1)), max(lo, min(hi, b2))))
    sums = [amin + bmin, amin + bmax, amax + bmin, amax + bmax]
    want = lo not in (amin, bmin) and hi not in (amax, bmax) and all(lo < s < hi for s in sums)
    assert plain_sums_exact(amin, amax, bmin, bmax, np.int32) == want


# --------------------------------------------------------------------------- the kernels near the edge


def edge_operands(draw_seed, dtype, m, k, n, amax, bmax, amin, bmin):
    """Random operands that reach their bounds exactly (each bound appears at least once)."""
    rng = np.random.default_rng(draw_seed)
    A = rng.integers(amin, amax, (m, k), endpoint=True, dtype=np.int64)
    B = rng.integers(bmin, bmax, (k, n), endpoint=True, dtype=np.int64)
    A.flat[rng.integers(A.size)] = amax
    A.flat[rng.integers(A.size)] = amin
    B.flat[rng.integers(B.size)] = bmax
    B.flat[rng.integers(B.size)] = bmin
    if A.size > 2:  # big entries in the same row / column, so that the extreme sums occur
        A[0, 0], B[0, 0] = amax, bmax
    return A.astype(dtype), B.astype(dtype)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from(INT_DTYPES),
    shape=st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9)),
    slack=st.integers(-2, 3),
    split=st.floats(0.0, 1.0),
    negative=st.booleans(),
    accumulate=st.booleans(),
)
def test_plain_vs_saturating_vs_reference_near_edge(seed, dtype, shape, slack, split, negative, accumulate):
    """amax + bmax = hi - slack (slack <= 0: the sums reach +inf or wrap), and the mirror below."""
    hi = int(np.iinfo(dtype).max)
    lo = int(np.iinfo(dtype).min)
    m, k, n = shape
    top = hi - slack
    amax = min(hi, top * round(split * 1024) // 1024)  # exact integer arithmetic: a float product of an int64 rounds past top
    bmax = min(hi, top - amax)
    if negative:
        amin, bmin = -amax, -bmax
        amin = max(lo, amin)
        bmin = max(lo, bmin - 1)  # min sums reach lo + slack - 1
    else:
        amin, bmin = 0, 0
    A, B = edge_operands(seed, dtype, m, k, n, amax, bmax, amin, bmin)
    rng = np.random.default_rng(seed + 1)
    C0 = rng.integers(-50, 50, (m, n)).astype(dtype) if accumulate else None
    if accumulate:
        C0[rng.random((m, n)) < 0.2] = hi
    want, _ = matmul_reference(min_plus, A, B, C0)
    sat = saturating_product(A, B, C0)
    assert np.array_equal(sat, want)
    ok = plain_sums_exact(int(A.min()), int(A.max()), int(B.min()), int(B.max()), dtype)
    if ok:
        assert np.array_equal(plain_product(A, B, C0), want)
    dispatch_ok = plain_path_applies("min_plus", A, B)
    assert dispatch_ok == ok


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (7, 13, 5), (131, 67, 129), (37, 257, 61), (200, 45, 300)])
def test_dispatched_product_exact_on_awkward_sizes(m, k, n, dtype, always_check):
    """Through the public API, with and without sentinels, against the saturating kernel."""
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    hi = int(np.iinfo(dtype).max)
    h = (hi + 1) // 2
    A = rng.integers(-h + 1, h, (m, k), dtype=np.int64).astype(dtype)
    B = rng.integers(-h + 1, h - 1, (k, n), dtype=np.int64).astype(dtype)
    A.flat[0], B.flat[-1] = h, h - 2  # max sum hi - 1: still plain
    got, c = counted(lambda: min_plus.matmul(A, B))
    assert c == {"plain": 1, "saturating": 0, "proved": 0}
    assert np.array_equal(got, saturating_product(A, B))
    C0 = rng.integers(-h, h, (m, n), dtype=np.int64).astype(dtype)
    C0[rng.random((m, n)) < 0.3] = hi
    got = min_plus.matmul(A, B, out=C0.copy(), accumulate=True)
    assert np.array_equal(got, saturating_product(A, B, C0))
    # One more unit at the top, or any sentinel: the saturating kernel, still exact.
    for poke in (h - 1, hi, int(np.iinfo(dtype).min)):
        B2 = B.copy()
        B2.flat[-1] = poke
        got, c = counted(lambda B2=B2: min_plus.matmul(A, B2))
        assert c == {"plain": 0, "saturating": 1, "proved": 0}
        assert np.array_equal(got, saturating_product(A, B2))


def test_dispatcher_choice():
    """Large enough integer min-plus products are checked; witness, float and other families are not."""
    rng = np.random.default_rng(5)
    n = 128  # 128**3 == PLAIN_MIN_WORK
    A = rng.integers(1, 1000, (n, n)).astype(np.int32)
    _, c = counted(lambda: min_plus.matmul(A, A))
    assert c == {"plain": 1, "saturating": 0, "proved": 0}
    _, c = counted(lambda: min_plus.matmul(A[:64, :64], A[:64, :64]))  # below the threshold
    assert c == {"plain": 0, "saturating": 0, "proved": 0}
    _, c = counted(lambda: min_plus.matmul(A, A, witness=True))
    assert c == {"plain": 0, "saturating": 0, "proved": 0}
    _, c = counted(lambda: min_plus.matmul(A.astype(np.float32), A.astype(np.float32)))
    assert c == {"plain": 0, "saturating": 0, "proved": 0}
    _, c = counted(lambda: max_plus.matmul(A, A))
    assert c == {"plain": 0, "saturating": 0, "proved": 0}
    A[3, 4] = np.iinfo(np.int32).max  # "no edge"
    got, c = counted(lambda: min_plus.matmul(A, A))
    assert c == {"plain": 0, "saturating": 1, "proved": 0}
    assert np.array_equal(got, numpy_reference(A, A))


def test_witness_products_stay_exact(always_check):
    rng = np.random.default_rng(9)
    A = rng.integers(-50, 50, (40, 33)).astype(np.int32)
    B = rng.integers(-50, 50, (33, 41)).astype(np.int32)
    C, W = min_plus.matmul(A, B, witness=True)
    want, want_W = matmul_reference(min_plus, A, B)
    assert np.array_equal(C, want)
    assert np.array_equal(W, want_W)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_apsp_int_matches_float(dtype):
    """A closure whose products take the plain path agrees with SciPy."""
    scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
    import apsp

    rng = np.random.default_rng(3)
    n = 300
    W = rng.integers(1, 100, (n, n)).astype(dtype)
    np.fill_diagonal(W, 0)
    D, c = counted(lambda: apsp.shortest_paths(W))
    assert c["plain"] + c["proved"] >= 1 and c["saturating"] == 0
    want = scipy_csgraph.floyd_warshall(W.astype(np.float64), directed=True)
    assert np.array_equal(np.asarray(D, dtype=np.float64), want)


def test_proved_scope_skips_the_check_and_stays_exact():
    """Inside ``sums_in_range`` the CPU dispatcher takes the plain kernel unread (counted as proved);
    the CPU APSP of a graph with missing arcs runs under it and stays exact."""
    import apsp

    rng = np.random.default_rng(5)
    A = rng.integers(0, int_range.padding_value(np.int32) + 1, (300, 300)).astype(np.int32)
    with int_range.sums_in_range():
        got, c = counted(lambda: min_plus.matmul(A, A))
    assert c == {"plain": 0, "saturating": 0, "proved": 1}
    assert np.array_equal(got[:40], numpy_reference(A[:40], A))
    W = rng.integers(1, 50, (400, 400)).astype(np.int32)
    W[rng.random((400, 400)) < 0.9] = np.iinfo(np.int32).max
    np.fill_diagonal(W, 0)
    got, c = counted(lambda: apsp.shortest_paths(W, device="cpu"))
    assert c["proved"] > 0 and c["saturating"] == 0
    ref = apsp.shortest_paths(W.astype(np.float64), device="cpu")
    assert np.array_equal(got, np.where(np.isinf(ref), np.iinfo(np.int32).max, ref).astype(np.int32))
