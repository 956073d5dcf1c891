"""CPU GEMM kernels (blocked Numba, witness, bit-packed Boolean, generic) against slow references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import matmul_broadcast, matmul_reference
from strategies import PAIRS, pair_id, random_matrix
from tiers import tiered

import semiring as sr

SHAPES = [(0, 3, 2), (1, 1, 1), (3, 0, 4), (2, 5, 0), (7, 13, 5), (17, 31, 67), (65, 70, 130)]


def _close(S, got, want):
    if S.family == "plus_times" and got.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("pair", tiered(PAIRS, lambda p: (p[0].family, p[1]), pair_id))
def test_matmul_matches_reference(pair):
    S, dt = pair
    rng = np.random.default_rng(abs(hash(pair_id(pair))) % 2**32)
    for m, k, n in SHAPES:
        A = random_matrix(S, (m, k), dt, rng)
        B = random_matrix(S, (k, n), dt, rng)
        want, wk = matmul_reference(S, A, B) if m * k * n < 5000 else (None, None)
        if want is None:
            want = matmul_broadcast(S, A, B) if dt.kind == "f" or S.family in ("min_max", "max_min") else None
            if want is None:
                want, wk = matmul_reference(S, A, B)
        got = S.matmul(A, B)
        assert got.dtype == dt and got.shape == (m, n)
        _close(S, got, want)
        if S.selective:
            C, K = S.matmul(A, B, witness=True)
            _close(S, C, want)
            if wk is not None:
                np.testing.assert_array_equal(K, wk)
            _check_witness(S, A, B, C, K)


def _check_witness(S, A, B, C, K):
    """Every recorded k reproduces its entry; -1 exactly where the entry is the zero."""
    zero = S.zero_value(C.dtype)
    i, j = np.nonzero(K >= 0)
    prod = S.mul(A[i, K[i, j]], B[K[i, j], j])
    np.testing.assert_array_equal(prod, C[i, j])
    assert np.all((K < 0) == (C == zero))


@pytest.mark.parametrize("pair", tiered(PAIRS, lambda p: (p[0].family, p[1]), pair_id))
def test_accumulate_and_witness_accumulate(pair):
    S, dt = pair
    rng = np.random.default_rng(7)
    m, k, n = 33, 29, 70
    A = random_matrix(S, (m, k), dt, rng)
    B = random_matrix(S, (k, n), dt, rng)
    C0 = random_matrix(S, (m, n), dt, rng)
    want, wk = matmul_reference(S, A, B, C0)
    C = C0.copy()
    out = S.matmul(A, B, out=C, accumulate=True)
    assert out is C
    _close(S, C, want)
    if S.selective:
        C = C0.copy()
        _, K = S.matmul(A, B, out=C, accumulate=True, witness=True)
        _close(S, C, want)
        np.testing.assert_array_equal(K, wk)


@pytest.mark.parametrize("layout", ["F", "transposed", "strided", "view"])
@pytest.mark.parametrize("dt", ["float32", "int64"])
def test_layouts(layout, dt):
    S = sr.min_plus
    rng = np.random.default_rng(3)
    big = random_matrix(S, (110, 140), dt, rng)
    A, B = big[:37, :53], big[37:90, 60:131]
    if layout == "F":
        A, B = np.asfortranarray(A), np.asfortranarray(B)
    elif layout == "transposed":
        A, B = np.ascontiguousarray(A.T).T, np.ascontiguousarray(B.T).T
    elif layout == "strided":
        A, B = big[:74:2, :106:2], big[:106:2, 1:140:2]
    want, _ = matmul_reference(S, A, B)
    out = np.full((A.shape[0], B.shape[1] * 2), -5, dtype=dt)[:, ::2]
    S.matmul(A, B, out=out)
    np.testing.assert_array_equal(out, want)


def test_out_overlapping_operand_is_safe():
    S = sr.min_plus
    rng = np.random.default_rng(5)
    D = random_matrix(S, (40, 40), "float64", rng, zero_frac=0.5)
    want = matmul_broadcast(S, D[:20, :20], D[:20, 20:])
    S.matmul(D[:20, :20], D[:20, 20:], out=D[:20, 20:])
    np.testing.assert_array_equal(D[:20, 20:], want)


@settings(deadline=None, max_examples=25)
@given(m=st.integers(0, 40), k=st.integers(0, 300), n=st.integers(0, 140), seed=st.integers(0, 2**32 - 1),
       density=st.floats(0.0, 0.3))
def test_boolean_packed_matches_integer_product(m, k, n, seed, density):
    rng = np.random.default_rng(seed)
    A = rng.random((m, k)) < density
    B = rng.random((k, n)) < density
    want = (A.astype(np.int64) @ B.astype(np.int64)) > 0
    np.testing.assert_array_equal(sr.lor_land.matmul(A, B), want)
    C0 = rng.random((m, n)) < 0.1
    C = C0.copy()
    sr.lor_land.matmul(A, B, out=C, accumulate=True)
    np.testing.assert_array_equal(C, want | C0)


@settings(deadline=None, max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 12), k=st.integers(1, 12), n=st.integers(1, 12),
       p=st.integers(1, 12))
def test_matmul_associative(seed, m, k, n, p):
    S = sr.min_plus
    rng = np.random.default_rng(seed)
    A, B, C = (random_matrix(S, s, "int64", rng) for s in ((m, k), (k, n), (n, p)))
    np.testing.assert_array_equal(S.matmul(S.matmul(A, B), C), S.matmul(A, S.matmul(B, C)))


def test_integer_gemm_saturates_near_the_edges():
    dt = np.dtype(np.int32)
    hi = int(sr.posinf(dt))
    A = np.array([[hi - 3, 2], [hi, -hi]], dt)
    B = np.array([[5, hi], [-(hi - 1), 7]], dt)
    want, _ = matmul_reference(sr.min_plus, A, B)
    np.testing.assert_array_equal(sr.min_plus.matmul(A, B), want)
    assert sr.min_plus.matmul(A, B)[0, 0] == -hi + 3  # min(hi+2 -> saturated, 2-(hi-1))


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64"])
def test_min_times_zero_and_inf_entries(dt):
    """0 * inf is inf (the zero annihilates); 0 entries give 0 products; the witness names the k."""
    S = sr.min_times
    inf = S.zero_value(dt)
    A = np.array([[0, inf, 3], [inf, inf, inf], [0, 2, 0]], dtype=dt)
    B = np.array([[inf, 5], [0, inf], [inf, inf]], dtype=dt)
    want = np.array([[inf, 0], [inf, inf], [0, 0]], dtype=dt)
    np.testing.assert_array_equal(S.matmul(A, B), want)
    C, K = S.matmul(A, B, witness=True)
    np.testing.assert_array_equal(C, want)
    np.testing.assert_array_equal(K, [[-1, 0], [-1, -1], [1, 0]])
    ref, wk = matmul_reference(S, A, B)
    np.testing.assert_array_equal(ref, want)
    np.testing.assert_array_equal(wk, K)


@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_min_times_integer_gemm_saturates_at_the_edges(dt):
    dt = np.dtype(dt)
    hi = int(sr.posinf(dt))
    rng = np.random.default_rng(17)
    vals = np.array([hi, hi - 1, hi // 2 + 3, hi // 3, 0, 1, 2, 3], dtype=dt)
    A, B, C0 = rng.choice(vals, (37, 45)), rng.choice(vals, (45, 70)), rng.choice(vals, (37, 70))
    want, wk = matmul_reference(sr.min_times, A, B)
    np.testing.assert_array_equal(sr.min_times.matmul(A, B), want)
    C, K = sr.min_times.matmul(A, B, witness=True)
    np.testing.assert_array_equal(C, want)
    np.testing.assert_array_equal(K, wk)
    want, _ = matmul_reference(sr.min_times, A, B, C0)
    C = C0.copy()
    sr.min_times.matmul(A, B, out=C, accumulate=True)
    np.testing.assert_array_equal(C, want)
    assert sr.min_times.matmul(np.array([[hi // 2 + 3]], dt), np.array([[2]], dt))[0, 0] == hi


def test_power_and_identity():
    S = sr.min_plus
    rng = np.random.default_rng(11)
    A = random_matrix(S, (9, 9), "float64", rng, zero_frac=0.6, low=0)
    P = S.identity(9, np.float64)
    for k in range(6):
        np.testing.assert_array_equal(S.power(A, k), P)
        P = S.matmul(P, A)


def test_custom_semiring_generic_and_numba_paths():
    from numba import njit

    generic = sr.Semiring("min_times", np.minimum, np.multiply, zero=np.inf, one=1.0, idempotent=True,
                          selective=True, dtypes=("float64",), nonnegative=True)
    fast = sr.Semiring("min_times_fast", np.minimum, np.multiply, zero=np.inf, one=1.0, idempotent=True,
                       selective=True, dtypes=("float64",), nonnegative=True,
                       numba_add=njit(lambda a, b: min(a, b)), numba_mul=njit(lambda a, b: a * b))
    rng = np.random.default_rng(2)
    A, B = rng.random((23, 19)), rng.random((19, 31))
    want = np.min(A[:, :, None] * B[None], axis=1)
    np.testing.assert_allclose(generic.matmul(A, B), want)
    np.testing.assert_allclose(fast.matmul(A, B), want)
    C, K = generic.matmul(A, B, witness=True)
    np.testing.assert_array_equal(K, np.argmin(A[:, :, None] * B[None], axis=1))


@pytest.mark.parametrize("density", [0.05, 0.6, 1.0])
def test_boolean_dense_operands_saturate_correctly(density):
    """Dense operands fill rows of C early (the kernel then skips later panels); the answer must not change."""
    rng = np.random.default_rng(int(density * 100))
    A = rng.random((37, 3000)) < density
    B = rng.random((3000, 2100)) < 0.3
    B[:, 2050:] = False  # columns no product can reach stay false next to saturated ones
    want = (A.astype(np.int64) @ B.astype(np.int64)) > 0
    np.testing.assert_array_equal(sr.lor_land.matmul(A, B), want)
    C = rng.random((37, 2100)) < 0.5
    want |= C
    sr.lor_land.matmul(A, B, out=C, accumulate=True)
    np.testing.assert_array_equal(C, want)
