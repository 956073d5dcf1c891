"""Integer infinities at the edge of the dtype: both sentinels stick, the zero wins where they meet, nothing wraps.

The primitives ``plus_inf_absorbs`` (the mul of ``min_plus``) and
``plus_neginf_absorbs`` (``max_plus``) on every CPU path (Numba scalar, SIMD
vector, elementwise ``S.mul``, the GEMM) against the rule written in exact
Python arithmetic; and the float rule that goes with it: ``min`` / ``max``
skip a NaN candidate (``inf + -inf``), as the SIMD kernels always did.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import semiring as sr
from semiring._cpu import scalar_ops, simd
from semiring._cpu.simd import vload, vstore
from semiring.dense.dispatch import sentinels
from semiring.families import PRIMITIVES

INTS = [np.dtype(np.int32), np.dtype(np.int64)]


def rule(family: str, a: int, b: int, dtype) -> int:
    """The documented rule, in exact Python integers."""
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    first, second = (hi, lo) if family == "min_plus" else (lo, hi)
    if first in (a, b):
        return first
    if second in (a, b):
        return second
    return max(lo, min(hi, a + b))


def edge_values(dtype) -> list[int]:
    """Sentinels, their neighbours, half-range values and small ones: every kind of pair."""
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    half = 2 ** (info.bits - 2)
    return [lo, lo + 1, lo + 5, -half - 1, -half, -5, -1, 0, 1, 5, half, half + 1, hi - 5, hi - 1, hi]


def ints(dtype):
    info = np.iinfo(dtype)
    half = 2 ** (info.bits - 2)
    near = st.sampled_from([int(info.min), int(info.max), -half, half]).flatmap(
        lambda c: st.integers(max(int(info.min), c - 8), min(int(info.max), c + 8)))
    return st.one_of(near, st.integers(int(info.min), int(info.max)), st.integers(-8, 8))


def _pairs_kernel(vop, sop, L):
    @njit
    def kernel(a, b, lo, hi, out):
        for i in range(0, a.shape[0], L):
            vstore(out[0], i, vop(vload(a, i, L), vload(b, i, L), lo, hi))
            for j in range(i, i + L):
                out[1, j] = sop(a[j], b[j], lo, hi)

    return kernel


@pytest.mark.parametrize("family", ["min_plus", "max_plus"])
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_every_pair_of_edge_values_follows_the_rule_scalar_vector_elementwise(family, dtype):
    vals = edge_values(dtype)
    a = np.array([x for x in vals for _ in vals], dtype)
    b = np.array([y for _ in vals for y in vals], dtype)
    L = simd.lanes(dtype)
    pad = (-a.size) % L
    a, b = np.concatenate([a, a[:pad]]), np.concatenate([b, b[:pad]])
    want = np.array([rule(family, int(x), int(y), dtype) for x, y in zip(a, b)], dtype)
    add, mul = scalar_ops.ops_for(family, "i")
    vadd, vmul = scalar_ops.vector_ops_for(family, dtype)
    lo, hi = sentinels(dtype)
    out = np.empty((2, a.size), dtype)
    _pairs_kernel(vmul, mul, L)(a, b, lo, hi, out)
    np.testing.assert_array_equal(out[1], want)  # Numba scalar
    np.testing.assert_array_equal(out[0], want)  # SIMD vector
    S = getattr(sr, family)
    np.testing.assert_array_equal(S.mul(a, b), want)  # the elementwise operation


@settings(max_examples=200, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("family", ["min_plus", "max_plus"])
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_hypothesis_the_mul_rule_near_the_limits(family, dtype, data):
    a = data.draw(st.lists(ints(dtype), min_size=1, max_size=40))
    b = data.draw(st.lists(ints(dtype), min_size=len(a), max_size=len(a)))
    A, B = np.array(a, dtype), np.array(b, dtype)
    want = np.array([rule(family, x, y, dtype) for x, y in zip(a, b)], dtype)
    np.testing.assert_array_equal(getattr(sr, family).mul(A, B), want)


@pytest.mark.parametrize("family", ["min_plus", "max_plus"])
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_gemm_sticks_at_both_infinities(family, dtype):
    """A GEMM over edge values (vector tiles and scalar fringes) equals the rule, product by product."""
    S = getattr(sr, family)
    vals = edge_values(dtype)
    rng = np.random.default_rng(3)
    m, k, n = 9, 13, 37  # not multiples of any tile
    A = rng.choice(np.array(vals, dtype), (m, k))
    B = rng.choice(np.array(vals, dtype), (k, n))
    pick = min if family == "min_plus" else max
    want = np.array([[pick(rule(family, int(A[i, t]), int(B[t, j]), dtype) for t in range(k))
                      for j in range(n)] for i in range(m)], dtype)
    np.testing.assert_array_equal(S.matmul(A, B), want)
    C, K = S.matmul(A, B, witness=True)
    np.testing.assert_array_equal(C, want)


def test_saturated_minus_inf_plus_a_weight_stays_minus_inf():
    for dtype in INTS:
        lo, hi = sentinels(dtype)
        x = np.array([lo, lo, lo, 5], dtype)
        y = np.array([5, -5, hi, hi], dtype)
        np.testing.assert_array_equal(sr.min_plus.mul(x, y), np.array([lo, lo, hi, hi], dtype))
        np.testing.assert_array_equal(sr.max_plus.mul(x, y), np.array([lo, lo, lo, hi], dtype))


def test_the_table_states_the_rule():
    assert "both" in PRIMITIVES["plus_inf_absorbs"].rule and "-inf" in PRIMITIVES["plus_inf_absorbs"].rule
    assert "+inf" in PRIMITIVES["plus_neginf_absorbs"].rule


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_min_and_max_skip_a_nan_candidate_and_are_unchanged_otherwise(dtype):
    """``add(old, candidate)``: a NaN candidate (inf + -inf) leaves ``old``; other inputs as ``a if a <= b else b``."""
    add_min = scalar_ops.SCALAR[("min", "f")]
    add_max = scalar_ops.SCALAR[("max", "f")]

    @njit
    def run(a, b, out):
        for i in range(a.size):
            out[0, i] = add_min(a[i], b[i], 0.0, 0.0)
            out[1, i] = add_max(a[i], b[i], 0.0, 0.0)

    special = np.array([np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5], dtype)
    a = np.repeat(special, special.size)
    b = np.tile(special, special.size)
    out = np.empty((2, a.size), dtype)
    run(a, b, out)
    for got, want in ((out[0], np.where(a <= b, a, b)), (out[1], np.where(a >= b, a, b))):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    old = np.array([3.0, np.inf, -1.0], dtype)
    nan = np.full(3, np.nan, dtype)
    run(old, nan, out[:, :3])
    np.testing.assert_array_equal(out[0, :3], old)
    np.testing.assert_array_equal(out[1, :3], old)
