"""Sparse semiring products (mxv, vxm, SpMSpV, mxm) against a slow dense reference."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import matmul_reference, scalar_add
from strategies import random_matrix

import semiring as sr
from semiring.errors import DTypeError, InvalidEntryError, SemiringError, ShapeError, UnsupportedOperationError
from semiring.sparse import SparseVector

# Every built-in semiring in float64 (bool for lor_land), plus integer dtypes where saturation matters.
CASES = [(S, np.dtype(bool if S.family == "lor_land" else np.float64)) for S in
         (sr.min_plus, sr.max_plus, sr.max_min, sr.min_max, sr.lor_land, sr.plus_times, sr.max_times, sr.min_times)]
CASES += [(sr.min_plus, np.dtype(np.int32)), (sr.min_plus, np.dtype(np.int64)), (sr.plus_times, np.dtype(np.int32)),
          (sr.min_plus, np.dtype(np.float32)), (sr.min_times, np.dtype(np.int32)), (sr.min_times, np.dtype(np.float32))]


def case_id(case) -> str:
    return f"{case[0].name}-{case[1]}"


def random_sparse(S, dtype, m, n, k, rng, fmt="csr"):
    """A non-canonical sparse matrix (duplicates, explicit zeros, stored semiring zeros) and its dense value."""
    rows = rng.integers(0, max(m, 1), size=k) if m else np.zeros(0, np.int64)
    cols = rng.integers(0, max(n, 1), size=k) if n else np.zeros(0, np.int64)
    if m == 0 or n == 0:
        rows, cols = rows[:0], cols[:0]
    vals = random_matrix(S, (rows.size,), dtype, rng, zero_frac=0.1)
    if dtype.kind != "b" and vals.size:
        vals[rng.random(vals.size) < 0.15] = 0  # explicit zeros are entries
    dense = np.full((m, n), S.zero_value(dtype), dtype=dtype)
    for r, c, v in zip(rows.tolist(), cols.tolist(), vals.tolist()):
        dense[r, c] = scalar_add(S, dense[r, c].item(), v, dtype)
    major, minor, size = (rows, cols, m) if fmt == "csr" else (cols, rows, n)
    order = np.argsort(major, kind="stable")
    ptr = np.concatenate(([0], np.cumsum(np.bincount(major, minlength=size)))).astype(np.int32)
    cls = sp.csr_array if fmt == "csr" else sp.csc_array
    A = cls((vals[order], minor[order].astype(np.int32), ptr), shape=(m, n))
    return A, dense


def masked_reference(S, dtype, result, out, allow, accumulate):
    """What a masked (accumulating) write of ``result`` into ``out`` (or a zero vector) gives."""
    base = np.full(result.shape, S.zero_value(dtype), dtype=dtype) if out is None else out.copy()
    ok = np.ones(result.shape, bool) if allow is None else allow
    for idx in zip(*np.nonzero(ok)):
        base[idx] = scalar_add(S, base[idx].item(), result[idx].item(), dtype) if accumulate else result[idx]
    return base


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("op", ["mxv", "vxm"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_vector_products_match_reference(case, op, fmt):
    S, dt = case
    rng = np.random.default_rng(sum(map(ord, case_id(case) + op + fmt)))
    for m, n, k in [(0, 0, 0), (1, 1, 1), (3, 5, 0), (7, 4, 20), (13, 17, 60)]:
        A, M = random_sparse(S, dt, m, n, k, rng, fmt)
        length = n if op == "mxv" else m
        x = random_matrix(S, (length,), dt, rng)
        if op == "mxv":
            want = matmul_reference(S, M, x[:, None])[0][:, 0]
            got = S.mxv(A, x)
        else:
            want = matmul_reference(S, x[None, :], M)[0][0]
            got = S.vxm(x, A)
        assert got.dtype == dt and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        # Mask, complement and accumulate.
        mask = rng.random(want.shape) < 0.5
        out = random_matrix(S, want.shape, dt, rng)
        for complement in (False, True):
            allow = ~mask if complement else mask
            for accumulate in (False, True):
                o = out.copy()
                res = (S.mxv(A, x, out=o, mask=mask, complement=complement, accumulate=accumulate) if op == "mxv"
                       else S.vxm(x, A, out=o, mask=mask, complement=complement, accumulate=accumulate))
                assert res is o
                np.testing.assert_array_equal(o, masked_reference(S, dt, want, out, allow, accumulate))
            res = S.mxv(A, x, mask=mask, complement=complement) if op == "mxv" else \
                S.vxm(x, A, mask=mask, complement=complement)
            np.testing.assert_array_equal(res, masked_reference(S, dt, want, None, allow, False))


@pytest.mark.parametrize("case", CASES[:7], ids=case_id)
@pytest.mark.parametrize("op", ["mxv", "vxm"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_vector_products(case, op, fmt):
    """SpMSpV: the pattern is what some product reached; the values are the dense product's."""
    S, dt = case
    rng = np.random.default_rng(7 + len(op) + len(fmt))
    for m, n, k in [(1, 1, 1), (6, 9, 15), (20, 20, 40)]:
        A, M = random_sparse(S, dt, m, n, k, rng, fmt)
        length = n if op == "mxv" else m
        idx = np.flatnonzero(rng.random(length) < 0.4)
        xs = SparseVector(idx, random_matrix(S, (idx.size,), dt, rng, zero_frac=0), length)
        xd = xs.to_dense(S)
        reach = (M != S.zero_value(dt)) | _stored(A)
        if op == "mxv":
            want = matmul_reference(S, M, xd[:, None])[0][:, 0]
            pattern = reach[:, idx].any(axis=1)
            got = S.mxv(A, xs)
        else:
            want = matmul_reference(S, xd[None, :], M)[0][0]
            pattern = reach[idx, :].any(axis=0)
            got = S.vxm(xs, A)
        assert isinstance(got, SparseVector)
        np.testing.assert_array_equal(got.indices, np.flatnonzero(pattern))
        np.testing.assert_array_equal(got.to_dense(S), np.where(pattern, want, S.zero_value(dt)))
        visited = rng.random(want.shape[0]) < 0.5
        masked = S.mxv(A, xs, mask=visited, complement=True) if op == "mxv" else \
            S.vxm(xs, A, mask=visited, complement=True)
        np.testing.assert_array_equal(masked.indices, np.flatnonzero(pattern & ~visited))


def _stored(A):
    """Where A has a stored entry (duplicates and explicit zeros included)."""
    C = A.tocoo()
    S = np.zeros(A.shape, dtype=bool)
    S[C.row, C.col] = True
    return S


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_mxm_sparse_dense_both_ways(case):
    S, dt = case
    rng = np.random.default_rng(len(case_id(case)))
    for m, k, s, nnz in [(0, 3, 2, 0), (1, 1, 1, 1), (9, 7, 3, 25), (12, 15, 5, 50)]:
        A, M = random_sparse(S, dt, m, k, nnz, rng)
        B = random_matrix(S, (k, s), dt, rng)
        want = matmul_reference(S, M, B)[0]
        np.testing.assert_array_equal(S.mxm(A, B), want)
        X = random_matrix(S, (s, m), dt, rng)
        np.testing.assert_array_equal(S.mxm(X, A), matmul_reference(S, X, M)[0])
        mask = rng.random(want.shape) < 0.5
        out = random_matrix(S, want.shape, dt, rng)
        o = out.copy()
        S.mxm(A, B, out=o, mask=mask, accumulate=True)
        np.testing.assert_array_equal(o, masked_reference(S, dt, want, out, mask, True))
        o = out.copy()
        S.mxm(A, B, out=o, mask=mask, complement=True)
        np.testing.assert_array_equal(o, masked_reference(S, dt, want, out, ~mask, False))


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 30), st.integers(0, 2**31 - 1), st.booleans())
def test_min_plus_mxv_property(m, n, k, seed, csc):
    """Hypothesis: sizes 0..9, duplicates, explicit zeros, inf entries."""
    S, dt = sr.min_plus, np.dtype(np.float64)
    rng = np.random.default_rng(seed)
    A, M = random_sparse(S, dt, m, n, k, rng, "csc" if csc else "csr")
    x = random_matrix(S, (n,), dt, rng)
    with np.errstate(invalid="ignore"):
        want = np.min(M + x[None, :], axis=1, initial=np.inf)
    np.testing.assert_array_equal(S.mxv(A, x), want)


def test_large_products_use_threads_and_match_scipy():
    rng = np.random.default_rng(3)
    n = 3000
    A = sp.random_array((n, n), density=0.03, format="csr", rng=rng)
    x = rng.random(n)
    np.testing.assert_allclose(sr.plus_times.mxv(A, x), A @ x, rtol=1e-12)
    np.testing.assert_allclose(sr.plus_times.vxm(x, A), x @ A, rtol=1e-12)
    B = rng.random((n, 8))
    np.testing.assert_allclose(sr.plus_times.mxm(A, B), A @ B, rtol=1e-12)
    # min_plus on the same pattern: every stored entry counts, zeros elsewhere are "no edge".
    M = np.full((n, n), np.inf)
    C = A.tocoo()
    M[C.row, C.col] = C.data
    want = np.min(M + x[None, :], axis=1)
    np.testing.assert_array_equal(sr.min_plus.mxv(A, x), want)


def test_custom_semiring_generic_path():
    S = sr.Semiring("min_times", np.minimum, np.multiply, zero=np.inf, one=1.0, idempotent=True, selective=True,
                    nonnegative=True)
    rng = np.random.default_rng(0)
    A, _ = random_sparse(sr.min_plus, np.dtype(np.float64), 6, 5, 14, rng)
    A.data = np.abs(A.data)
    C = A.tocoo()
    M = np.full(A.shape, np.inf)
    np.minimum.at(M, (C.row, C.col), C.data)
    x = np.abs(rng.integers(0, 9, 5).astype(float))
    with np.errstate(invalid="ignore"):
        want = np.min(np.where(np.isinf(M), np.inf, M * x[None, :]), axis=1, initial=np.inf)
    np.testing.assert_array_equal(S.mxv(A, x), want)
    xs = SparseVector(np.array([1, 3]), np.array([2.0, 5.0]), 6)
    got = S.vxm(xs, A)
    dense = S.vxm(xs.to_dense(S), A)
    np.testing.assert_array_equal(got.to_dense(S), dense)
    B = np.abs(rng.integers(0, 9, (5, 3)).astype(float))
    with np.errstate(invalid="ignore"):
        wantB = np.min(np.where(np.isinf(M[:, :, None]), np.inf, M[:, :, None] * B[None, :, :]), axis=1)
    np.testing.assert_array_equal(S.mxm(A, B), wantB)


def test_integer_saturation():
    A = sp.csr_array((np.array([2**31 - 10], np.int32), np.array([0], np.int32), np.array([0, 1], np.int32)),
                     shape=(1, 1))
    x = np.array([100], np.int32)
    assert sr.min_plus.mxv(A, x)[0] == np.iinfo(np.int32).max
    assert sr.plus_times.mxv(A, x)[0] == np.iinfo(np.int32).max


def test_sparse_vector_validation():
    with pytest.raises(ShapeError, match="sorted and unique"):
        SparseVector(np.array([2, 1]), np.array([1.0, 2.0]), 4)
    with pytest.raises(ShapeError, match=r"indices\[0\] = 9"):
        SparseVector(np.array([9]), np.array([1.0]), 4)
    with pytest.raises(ShapeError):
        SparseVector(np.array([1]), np.array([1.0, 2.0]), 4)
    with pytest.raises(DTypeError):
        SparseVector(np.array([1.0]), np.array([1.0]), 4)
    v = SparseVector.from_dense(np.array([np.inf, 3.0, np.inf, 0.0]), sr.min_plus)
    assert v.nnz == 2 and v.indices.tolist() == [1, 3]


def test_errors_name_the_operand():
    A = sp.csr_array(np.eye(3))
    x = np.ones(3)
    with pytest.raises(DTypeError, match="x has dtype float32"):
        sr.min_plus.mxv(A, x.astype(np.float32))
    with pytest.raises(ShapeError, match="x has length 2"):
        sr.min_plus.mxv(A, np.ones(2))
    with pytest.raises(DTypeError, match="coo format"):
        sr.min_plus.mxv(A.tocoo(), x)
    with pytest.raises(DTypeError, match="scipy.sparse"):
        sr.min_plus.mxv(np.eye(3), x)
    with pytest.raises(SemiringError, match="pass out="):
        sr.min_plus.mxv(A, x, accumulate=True)
    with pytest.raises(SemiringError, match="pass mask="):
        sr.min_plus.mxv(A, x, complement=True)
    with pytest.raises(DTypeError, match="mask must be a bool"):
        sr.min_plus.mxv(A, x, mask=np.ones(3))
    with pytest.raises(ShapeError, match="mask has shape"):
        sr.min_plus.mxv(A, x, mask=np.ones(2, bool))
    with pytest.raises(InvalidEntryError, match=r"x\[1\] is NaN"):
        sr.min_plus.mxv(A, np.array([0.0, np.nan, 0.0]))
    with pytest.raises(InvalidEntryError, match="A.data"):
        sr.min_plus.mxv(sp.csr_array(np.array([[-np.inf]])), np.zeros(1))
    with pytest.raises(DTypeError, match="lor_land does not support"):
        sr.lor_land.mxv(A, x)
    with pytest.raises(UnsupportedOperationError):
        sr.min_plus.mxm(A, A)
    with pytest.raises(UnsupportedOperationError):
        sr.min_plus.mxm(np.eye(3), np.eye(3))
    with pytest.raises(ShapeError, match="out has shape"):
        sr.min_plus.mxv(A, x, out=np.zeros(4))
    from semiring import sparse

    assert sparse.mxv(sr.min_plus, A, np.array([0.0, np.nan, 0.0]), check=False).shape == (3,)  # no entry check
    masked = sr.min_plus.mxv(A, x, mask=SparseVector(np.array([1]), np.array([True]), 3))
    np.testing.assert_array_equal(masked, [np.inf, 2.0, np.inf])
