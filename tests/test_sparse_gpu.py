"""GPU sparse semiring products (cupyx.scipy.sparse operands) against the CPU kernels."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

cp = pytest.importorskip("cupy")
csp = pytest.importorskip("cupyx.scipy.sparse")

import semiring as sr  # noqa: E402
from semiring.backend import gpu_available  # noqa: E402
from semiring.sparse import SparseVector  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")]

# cupyx.scipy.sparse holds bool, float32 and float64 data only.
CASES = [(sr.min_plus, np.float32), (sr.min_plus, np.float64), (sr.max_min, np.float32), (sr.plus_times, np.float64),
         (sr.lor_land, np.bool_), (sr.max_times, np.float32), (sr.max_plus, np.float64), (sr.min_times, np.float32),
         (sr.min_times, np.float64)]
SPMM_CASES = CASES[:5] + [(sr.min_times, np.float64)]


def random_pair(S, dtype, m, n, density, rng, fmt="csr"):
    dtype = np.dtype(dtype)
    A = sp.random_array((m, n), density=density, format="coo", rng=rng)
    if dtype == np.bool_:
        data = rng.random(A.nnz) < 0.7
    else:
        data = rng.integers(0 if S.nonnegative else -9, 10, A.nnz).astype(dtype)
    # Duplicates and explicit zeros: repeat some entries, zero some values.
    k = A.nnz // 5
    rows = np.concatenate((A.row, A.row[:k]))
    cols = np.concatenate((A.col, A.col[:k]))
    data = np.concatenate((data, data[:k][::-1]))
    order = np.lexsort((cols, rows)) if fmt == "csr" else np.lexsort((rows, cols))
    rows, cols, data = rows[order], cols[order], data[order]
    if fmt == "csr":
        ptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=m)))).astype(np.int32)
        H = sp.csr_array((data, cols.astype(np.int32), ptr), shape=(m, n))
        D = csp.csr_matrix((cp.asarray(data), cp.asarray(cols.astype(np.int32)), cp.asarray(ptr)), shape=(m, n))
    else:
        ptr = np.concatenate(([0], np.cumsum(np.bincount(cols, minlength=n)))).astype(np.int32)
        H = sp.csc_array((data, rows.astype(np.int32), ptr), shape=(m, n))
        D = csp.csc_matrix((cp.asarray(data), cp.asarray(rows.astype(np.int32)), cp.asarray(ptr)), shape=(m, n))
    return H, D


def vec(S, dtype, n, rng):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    x = rng.integers(0 if S.nonnegative else -9, 10, n).astype(dtype)
    x[rng.random(n) < 0.2] = S.zero_value(dtype)
    return x


@pytest.mark.parametrize("S,dtype", CASES, ids=[f"{S.name}-{np.dtype(d)}" for S, d in CASES])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_vector_products_match_cpu(S, dtype, fmt):
    rng = np.random.default_rng(0)
    for m, n, density in [(1, 1, 1.0), (50, 70, 0.1), (3000, 2000, 0.01), (200, 300, 0.5)]:
        H, D = random_pair(S, dtype, m, n, density, rng, fmt)
        x = vec(S, dtype, n, rng)
        xv = vec(S, dtype, m, rng)
        np.testing.assert_array_equal(S.mxv(D, cp.asarray(x)).get(), S.mxv(H, x))
        np.testing.assert_array_equal(S.vxm(cp.asarray(xv), D).get(), S.vxm(xv, H))
        mask = rng.random(m) < 0.5
        out = vec(S, dtype, m, rng)
        o_gpu = cp.asarray(out)
        S.mxv(D, cp.asarray(x), out=o_gpu, mask=cp.asarray(mask), complement=True, accumulate=True)
        o_cpu = out.copy()
        S.mxv(H, x, out=o_cpu, mask=mask, complement=True, accumulate=True)
        np.testing.assert_array_equal(o_gpu.get(), o_cpu)
        idx = np.flatnonzero(rng.random(m) < 0.3)
        vals = vec(S, dtype, idx.size, rng)
        got = S.vxm(SparseVector(cp.asarray(idx), cp.asarray(vals), m), D)
        want = S.vxm(SparseVector(idx, vals, m), H)
        np.testing.assert_array_equal(got.indices.get(), want.indices)
        np.testing.assert_array_equal(got.values.get(), want.values)


@pytest.mark.parametrize("S,dtype", SPMM_CASES, ids=[f"{S.name}-{np.dtype(d)}" for S, d in SPMM_CASES])
def test_spmm_matches_cpu(S, dtype):
    rng = np.random.default_rng(1)
    for m, k, s in [(1, 1, 1), (40, 30, 3), (500, 400, 40), (2000, 1500, 7)]:
        H, D = random_pair(S, dtype, m, k, 0.05, rng)
        B = np.stack([vec(S, dtype, k, rng) for _ in range(s)], axis=1)
        np.testing.assert_array_equal(S.mxm(D, cp.asarray(B)).get(), S.mxm(H, B))
        X = np.stack([vec(S, dtype, m, rng) for _ in range(s)], axis=0)
        np.testing.assert_array_equal(S.mxm(cp.asarray(X), D).get(), S.mxm(X, H))


def test_power_law_rows_take_the_heavy_path():
    """Rows far longer than a lane group go to the block-per-row kernel; results must not change."""
    rng = np.random.default_rng(2)
    n = 20000
    rows = np.concatenate((np.zeros(50000, np.int64), rng.integers(0, n, 200000)))
    cols = rng.integers(0, n, rows.size)
    data = rng.random(rows.size).astype(np.float32)
    H = sp.csr_array((data, (rows, cols)), shape=(n, n))
    H.sum_duplicates()
    D = csp.csr_matrix(H)
    x = rng.random(n).astype(np.float32)
    np.testing.assert_allclose(sr.plus_times.mxv(D, cp.asarray(x)).get(), H @ x, rtol=1e-4)
    np.testing.assert_array_equal(sr.min_plus.mxv(D, cp.asarray(x)).get(), sr.min_plus.mxv(H, x))


BAD_ENTRIES = [(np.nan, sr.min_plus, "is NaN"),
               (-np.inf, sr.min_plus, r"is -inf, which min_plus cannot combine \(it would meet inf"),
               (-1.0, sr.max_times, "is negative")]


@pytest.mark.parametrize("bad,S,msg", BAD_ENTRIES, ids=["nan", "-inf", "negative"])
@pytest.mark.parametrize("shape,density", [((300, 200), 0.1), ((40, 3000), 0.5)], ids=["short-rows", "chunked-rows"])
def test_invalid_entries_on_the_device_are_named(bad, S, msg, shape, density):
    """The fused check (fresh result) and the separate pass (out=) both name the entry; nothing is written."""
    from semiring.errors import InvalidEntryError

    H = sp.random_array(shape, density=density, format="csr", rng=np.random.default_rng(3), dtype=np.float32)
    H.data[57] = bad
    D = csp.csr_matrix(H)
    x = cp.ones(shape[1], dtype=cp.float32)
    with pytest.raises(InvalidEntryError, match=r"A\.data\[57\] " + msg):
        S.mxv(D, x)
    out = cp.full(shape[0], 7.0, dtype=cp.float32)
    with pytest.raises(InvalidEntryError, match=r"A\.data\[57\] " + msg):
        S.mxv(D, x, out=out)
    assert bool((out == 7.0).all())
    H.data[57] = 1.0
    np.testing.assert_array_equal(S.mxv(csp.csr_matrix(H), x).get(), S.mxv(H, np.ones(shape[1], dtype=np.float32)))
