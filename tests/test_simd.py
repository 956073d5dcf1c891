"""The SIMD layer (semiring._cpu.simd) and the vector semiring ops against their scalar meaning."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

import semiring as sr
from semiring._cpu import scalar_ops, simd
from semiring._cpu.simd import (
    vadd,
    vadds,
    vand,
    veq,
    vge,
    vget,
    vgt,
    vle,
    vload,
    vlt,
    vmax,
    vmin,
    vmul,
    vmuls,
    vne,
    vor,
    vselect,
    vsplat,
    vsplat_like,
    vstore,
    vsub,
)
from semiring._cpu.specialize import compile_once
from semiring.dense.dispatch import cpu_kernels, numba_array_type, sentinels

DTYPES = ["float32", "float64", "int32", "int64"]


def _values(dtype, size, rng):
    """Random values of ``dtype`` with the awkward ones (+-inf, -0.0, extremes, 0, +-1) well represented."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        special = np.array([np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 1e30, -1e30, 2.5], dtype=dtype)
        x = (rng.standard_normal(size) * 10.0 ** rng.integers(-3, 4, size)).astype(dtype)
    else:
        info = np.iinfo(dtype)
        special = np.array([info.min, info.max, info.min + 1, info.max - 1, 0, 1, -1, 2, -2], dtype=dtype)
        x = (rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True) >> rng.integers(0, info.bits, size))
        x = x.astype(dtype)
    pick = rng.random(size) < 0.3
    x[pick] = rng.choice(special, int(pick.sum()))
    return x


def _ref_sat(exact, dtype):
    info = np.iinfo(dtype)
    return np.array([min(max(v, info.min), info.max) for v in exact], dtype=dtype)


def _lanewise_kernel(L):
    """One kernel applying every lane-wise operation to ``L``-lane vectors (``L`` is a compile-time constant)."""

    @njit
    def kernel(a, b, out, masks):
        for i in range(0, a.shape[0], L):
            x = vload(a, i, L)
            y = vload(b, i, L)
            vstore(out[0], i, vadd(x, y))
            vstore(out[1], i, vsub(x, y))
            vstore(out[2], i, vmul(x, y))
            vstore(out[3], i, vmin(x, y))
            vstore(out[4], i, vmax(x, y))
            vstore(out[5], i, vadds(x, y))
            vstore(out[6], i, vmuls(x, y))
            one = vsplat_like(x, 1)
            zero = vsplat_like(x, 0)
            vstore(masks[0], i, vselect(veq(x, y), one, zero))
            vstore(masks[1], i, vselect(vne(x, y), one, zero))
            vstore(masks[2], i, vselect(vlt(x, y), one, zero))
            vstore(masks[3], i, vselect(vle(x, y), one, zero))
            vstore(masks[4], i, vselect(vgt(x, y), one, zero))
            vstore(masks[5], i, vselect(vge(x, y), one, zero))
            vstore(masks[6], i, vselect(vand(vle(x, y), vge(x, y)), one, zero))
            vstore(masks[7], i, vselect(vor(vlt(x, y), vgt(x, y)), one, zero))
            vstore(masks[8], i, vsplat_like(x, vget(x, L - 1)))

    return kernel


@pytest.mark.parametrize("lanes", [1, 3, 8, 16])
@pytest.mark.parametrize("dtype", DTYPES)
def test_lanewise_ops_equal_scalar_ops(dtype, lanes):
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(lanes * 7 + dtype.itemsize)
    size = 64 * lanes
    a, b = _values(dtype, size, rng), _values(dtype, size, rng)
    if dtype.kind == "f":  # inf - inf is NaN in both, keep the comparisons NaN-free
        both = np.isinf(a) & np.isinf(b)
        b[both] = 3.0
    out = np.zeros((7, size), dtype)
    masks = np.zeros((9, size), dtype)
    _lanewise_kernel(lanes)(a, b, out, masks)
    with np.errstate(all="ignore"):
        if dtype.kind == "f":
            np.testing.assert_array_equal(out[0], a + b)
            np.testing.assert_array_equal(out[1], a - b)
            np.testing.assert_array_equal(out[2], a * b)
            np.testing.assert_array_equal(out[5], a + b)
            np.testing.assert_array_equal(out[6], a * b)
        else:
            np.testing.assert_array_equal(out[0], a + b)  # wraps, like NumPy
            np.testing.assert_array_equal(out[1], a - b)
            np.testing.assert_array_equal(out[2], a * b)
            big_a, big_b = a.astype(object), b.astype(object)
            np.testing.assert_array_equal(out[5], _ref_sat(big_a + big_b, dtype))
            np.testing.assert_array_equal(out[6], _ref_sat(big_a * big_b, dtype))
    # min / max are exactly `a if a <= b else b` / `a if a >= b else b`, signed zeros included
    want_min = np.where(a <= b, a, b)
    want_max = np.where(a >= b, a, b)
    assert np.array_equal(out[3], want_min) and np.array_equal(np.signbit(out[3]), np.signbit(want_min))
    assert np.array_equal(out[4], want_max) and np.array_equal(np.signbit(out[4]), np.signbit(want_max))
    for row, want in enumerate([a == b, a != b, a < b, a <= b, a > b, a >= b, a == b, a != b]):
        np.testing.assert_array_equal(masks[row], want.astype(dtype))
    np.testing.assert_array_equal(masks[8], np.repeat(a[lanes - 1::lanes], lanes))


def test_load_store_unaligned_and_in_place():
    @njit
    def shift_add(x, start, n):
        vstore(x, start + 1, vadd(vload(x, start, 8), vsplat(np.float32(1), 8)))

    x = np.arange(20, dtype=np.float32)
    shift_add(x, 3, 8)
    want = np.arange(20, dtype=np.float32)
    want[4:12] = np.arange(3, 11) + 1
    np.testing.assert_array_equal(x, want)

    @njit
    def row_copy(M, i, out):  # a row of a 2-D array: the data pointer of the view
        vstore(out, 0, vload(M[i], 1, 4))

    M = np.arange(30.0).reshape(5, 6)
    out = np.zeros(4)
    row_copy(M, 2, out)
    np.testing.assert_array_equal(out, M[2, 1:5])


def test_vsplat_types_and_register_width():
    @njit
    def lane_types(k):
        return vget(vsplat(np.int32(k), 4), 2), vget(vsplat(2.5, 16), 15)

    assert lane_types(7) == (7, 2.5)
    assert simd.register_bytes() in (32, 64)
    assert simd.lanes(np.float32) == 2 * simd.lanes(np.float64)


def test_typing_errors():
    @njit
    def runtime_lanes(x, n):
        return vget(vload(x, 0, n), 0)

    with pytest.raises(TypingError, match="compile-time"):
        runtime_lanes(np.zeros(4), 4)

    @njit
    def mixed(x):
        return vadd(vload(x, 0, 4), vsplat(np.int64(1), 4))

    with pytest.raises(TypingError, match="one type"):
        mixed(np.zeros(4))

    @njit
    def float_bits(x):
        return vor(vload(x, 0, 4), vload(x, 0, 4))

    with pytest.raises(TypingError, match="bitwise"):
        float_bits(np.zeros(4))


def _pair_kernel(vadd_fn, vmul_fn, add_fn, mul_fn, L):
    @njit
    def kernel(a, b, lo, hi, out):
        for i in range(0, a.shape[0], L):
            x = vload(a, i, L)
            y = vload(b, i, L)
            vstore(out[0], i, vadd_fn(x, y, lo, hi))
            vstore(out[1], i, vmul_fn(x, y, lo, hi))
            for j in range(i, i + L):
                out[2, j] = add_fn(a[j], b[j], lo, hi)
                out[3, j] = mul_fn(a[j], b[j], lo, hi)

    return kernel


_CHAR = {"float32": "f", "float64": "d", "int32": "i", "int64": "l"}
_VOPS = [(fam, dt) for fam in ("min_plus", "max_plus", "max_min", "min_max", "plus_times", "max_times", "min_times")
         for dt in DTYPES]


@pytest.mark.parametrize("family,dtype", _VOPS, ids=[f"{f}-{d}" for f, d in _VOPS])
def test_vector_semiring_ops_equal_scalar_ops(family, dtype):
    dtype = np.dtype(dtype)
    vops = scalar_ops.vector_ops_for(family, dtype)
    assert vops is not None and scalar_ops.VOPS[(family, _CHAR[dtype.name])] == vops
    add, mul = scalar_ops.ops_for(family, dtype.kind)
    rng = np.random.default_rng(len(family) * 31 + dtype.itemsize)
    L = simd.lanes(dtype)
    a, b = _values(dtype, 128 * L, rng), _values(dtype, 128 * L, rng)
    if dtype.kind == "f":  # the kernels never see NaN; keep inf - inf and 0 * inf out
        S = getattr(sr, family)
        bad = (np.isinf(a) & ((b == 0) | np.isinf(b))) | (np.isinf(b) & (a == 0))
        b[bad & ~np.isinf(b)] = 2.0
        b[bad & np.isinf(b)] = S.zero_value(dtype) if not np.isnan(S.zero_value(dtype)) else 2.0
        with np.errstate(all="ignore"):
            a[np.isnan(a + b) | np.isnan(a * b)] = 1.0
    lo, hi = sentinels(dtype)
    out = np.empty((4, a.size), dtype)
    _pair_kernel(vops[0], vops[1], add, mul, L)(a, b, lo, hi, out)
    np.testing.assert_array_equal(out[0], out[2])
    np.testing.assert_array_equal(out[1], out[3])


def test_dispatch_picks_vector_kernels():
    assert cpu_kernels(sr.min_plus, np.dtype(np.float32)).VEC == 1
    assert cpu_kernels(sr.max_times, np.dtype(np.int64)).VEC == 1
    assert cpu_kernels(sr.lor_land, np.dtype(bool)).VEC == 0
    assert scalar_ops.vector_ops_for("min_plus", np.float16) is None
    assert scalar_ops.vector_ops_for(None, np.float32) is None


# Edge shapes around MR = 4, the vector tile widths (4 and 2 registers), KC = 256 and the NC panel.
_EDGE = [(1, 1, 1), (4, 1, 1), (5, 3, 2), (3, 257, 5), (9, 33, 63), (6, 2, 65), (2, 5, 1100), (7, 300, 130)]


def _compiled(mod, dtype):
    """The four GEMM kernels of ``mod`` (vector and scalar, plain and witness), each compiled once for any-layout
    arrays (as the dispatch does)."""
    from numba import from_dtype, types

    arr, warr, scalar, i64 = numba_array_type(dtype), numba_array_type(np.int32), from_dtype(dtype), types.int64
    plain = (arr, arr, arr, types.none, i64, i64, types.boolean, scalar, scalar, scalar)
    witness = (arr, arr, arr, warr, i64, i64, types.boolean, scalar, scalar, scalar)
    vec, sca = compile_once(mod._blocked_vec, plain), compile_once(mod._blocked_scalar, plain)
    return (lambda A, B, C, *rest: vec(A, B, C, None, *rest), lambda A, B, C, *rest: sca(A, B, C, None, *rest),
            compile_once(mod._blocked_vec, witness), compile_once(mod._blocked_scalar, witness))


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_vector_gemm_matches_scalar_gemm(dtype):
    dtype = np.dtype(dtype)
    S = sr.min_plus
    mod = cpu_kernels(S, dtype)
    assert mod.VEC == 1 and mod.VW == simd.lanes(dtype) and mod.NRV == mod.NV * mod.VW
    gemm_vec, gemm_scalar, witness_vec, witness_scalar = _compiled(mod, dtype)
    lo, hi = sentinels(dtype)
    zero = S.zero_value(dtype)
    rng = np.random.default_rng(5)
    for m, k, n in _EDGE:
        A = rng.integers(-20, 20, (m, k)).astype(dtype)
        B = rng.integers(-20, 20, (n, k)).astype(dtype).T  # strided B
        A[rng.random(A.shape) < 0.2] = zero
        C0 = rng.integers(-40, 40, (n, m)).astype(dtype).T  # C with non-unit column stride
        for accumulate in (False, True):
            got, want = C0.copy(order="F"), C0.copy(order="F")
            gemm_vec(A, B, got, 0, m, accumulate, zero, lo, hi)
            gemm_scalar(A, B, want, 0, m, accumulate, zero, lo, hi)
            np.testing.assert_array_equal(got, want)
            got, want = np.ascontiguousarray(C0), np.ascontiguousarray(C0)
            gemm_vec(A, B, got, 1, m, accumulate, zero, lo, hi)  # a row range, unit column stride
            gemm_scalar(A, B, want, 1, m, accumulate, zero, lo, hi)
            np.testing.assert_array_equal(got, want)
            Wg, Ww = np.zeros((m, n), np.int32), np.zeros((m, n), np.int32)
            got, want = C0.copy(), C0.copy()
            witness_vec(A, B, got, Wg, 0, m, accumulate, zero, lo, hi)
            witness_scalar(A, B, want, Ww, 0, m, accumulate, zero, lo, hi)
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(Wg, Ww)


@pytest.mark.parametrize("dtype", DTYPES)
def test_times_inf_absorbs_vector_equals_scalar_and_the_rule(dtype):
    """The primitive ``times_inf_absorbs``: +inf absorbs (also against 0), other integer products saturate."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(dtype.itemsize * 7 + (dtype.kind == "f"))
    L = simd.lanes(dtype)
    lo, hi = sentinels(dtype)
    a, b = _values(dtype, 128 * L, rng), _values(dtype, 128 * L, rng)
    a[a < 0], b[b < 0] = hi, hi  # the domain of min_times: >= 0 (-0.0 stays)
    grid = np.array([0, hi, 1, 2], dtype)  # every pair of 0, inf and finite values, in lane-aligned blocks
    a[: 16 * L] = np.resize(np.repeat(grid, 4), 16 * L)
    b[: 16 * L] = np.resize(np.tile(grid, 4), 16 * L)
    scalar = scalar_ops.SCALAR[("times_inf_absorbs", dtype.kind)]
    vector = scalar_ops.VECTOR[("times_inf_absorbs", dtype.kind)]
    out = np.empty((4, a.size), dtype)
    _pair_kernel(vector, vector, scalar, scalar, L)(a, b, lo, hi, out)
    np.testing.assert_array_equal(out[0], out[2])
    if dtype.kind == "f":
        with np.errstate(all="ignore"):
            want = np.where((a == hi) | (b == hi), hi, a * b).astype(dtype)
    else:
        exact = [hi if x == hi or y == hi else int(x) * int(y) for x, y in zip(a.tolist(), b.tolist())]
        want = _ref_sat(exact, dtype)
    np.testing.assert_array_equal(out[2], want)
