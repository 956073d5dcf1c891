"""Semiring laws for every entry of the family table and its dtypes, checked elementwise with hypothesis.

Values are small integers (exact in every dtype) plus the semiring's zero and
one, so float rounding cannot break the exact laws.  The operations under test
are the library's own elementwise ``S.add`` / ``S.mul`` (the Numba scalar ops
shared with the GEMM kernels).  Which laws hold is what the family declares
(:class:`semiring.families.Capabilities`): every family has an associative,
commutative add with identity ``zero``, an associative mul that ``zero``
annihilates; ``one`` is an identity of mul, and mul distributes over add,
where the capabilities say so.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import pair_id, scalar_values

import semiring as sr
from semiring.families import FAMILIES

SET = settings(deadline=None, max_examples=60)

PAIRS = [(sr.BUILTIN[name], dt) for name, f in FAMILIES.items() for dt in f.dtypes]


def _arr(v, dtype):
    return np.array([v], dtype=dtype)


def _add(S, a, b, dt):
    return S.add(_arr(a, dt), _arr(b, dt))[0]


def _mul(S, a, b, dt):
    return S.mul(_arr(a, dt), _arr(b, dt))[0]


def _exact(S, dt) -> bool:
    # plus_times on floats is exact only while sums stay small; the values do (|v| <= 50^3).
    return True


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_laws(pair):
    S, dt = pair
    vals = scalar_values(S, dt)

    @SET
    @given(vals, vals, vals)
    def check(a, b, c):
        zero, one = S.zero_value(dt), S.one_value(dt)
        caps = S.capabilities
        add = lambda x, y: _add(S, x, y, dt)  # noqa: E731
        mul = lambda x, y: _mul(S, x, y, dt)  # noqa: E731
        assert add(a, b) == add(b, a)
        assert add(add(a, b), c) == add(a, add(b, c))
        assert add(a, zero) == a
        assert mul(a, zero) == zero and mul(zero, a) == zero
        if caps.one_is_identity:
            assert mul(a, one) == a and mul(one, a) == a
        if S.idempotent:
            assert add(a, a) == a
        if S.selective:
            assert add(a, b) in (a, b)
        # mul associativity and distributivity hold exactly away from saturation
        assert mul(mul(a, b), c) == mul(a, mul(b, c))
        if caps.distributive:
            assert mul(a, add(b, c)) == add(mul(a, b), mul(a, c))
            assert mul(add(a, b), c) == add(mul(a, c), mul(b, c))

    check()


@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_integer_infinity_saturates(dt):
    dt = np.dtype(dt)
    hi, lo = sr.posinf(dt), sr.neginf(dt)
    A = np.array([hi, hi - 1, lo + 1, 5, hi], dtype=dt)
    B = np.array([-7, 10, -10, hi, lo], dtype=dt)
    got = sr.min_plus.mul(A, B)
    # +inf absorbs; finite sums that leave the range clamp; nothing wraps.
    assert got.tolist() == [hi, hi, lo, hi, hi]
    got = sr.max_plus.mul(np.array([lo, hi - 1, 3], dt), np.array([hi, 10, lo], dt))
    assert got.tolist() == [lo, hi, lo]
    got = sr.plus_times.add(np.array([hi - 1, lo + 1], dt), np.array([9, -9], dt))
    assert got.tolist() == [hi, lo]
    got = sr.plus_times.mul(np.array([hi // 2 + 7, -(hi // 2) - 7, 3], dt), np.array([2, 2, -4], dt))
    assert got.tolist() == [hi, lo, -12]


@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_min_times_integer_products_saturate_and_inf_absorbs(dt):
    dt = np.dtype(dt)
    hi = sr.posinf(dt)
    A = np.array([hi, 0, hi // 2 + 7, hi - 1, 3, 0, 1], dtype=dt)
    B = np.array([0, hi, 2, 1, 4, 0, hi - 1], dtype=dt)
    # +inf absorbs even against 0; products that leave the range clamp at +inf; nothing wraps.
    assert sr.min_times.mul(A, B).tolist() == [hi, hi, hi, hi - 1, 12, 0, hi - 1]
    assert sr.min_times.add(A, B).tolist() == [0, 0, 2, 1, 3, 0, 1]


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_min_times_float_zero_times_inf_is_inf(dt):
    A = np.array([0.0, np.inf, np.inf, 0.0, 2.5, -0.0], dtype=dt)
    B = np.array([np.inf, 0.0, np.inf, 0.0, 4.0, 3.0], dtype=dt)
    got = sr.min_times.mul(A, B)
    np.testing.assert_array_equal(got, np.array([np.inf, np.inf, np.inf, 0.0, 10.0, -0.0], dtype=dt))
    assert not np.isnan(got).any()
    assert sr.min_times.zero_value(dt) == np.inf and sr.min_times.one_value(dt) == 1


def test_abstract_constants():
    assert sr.min_plus.zero_value(np.float32) == np.inf
    assert sr.max_min.one_value(np.int64) == np.iinfo(np.int64).max
    assert sr.lor_land.zero_value(np.bool_) is np.False_
    assert sr.get("tropical") is sr.min_plus
    assert sr.min_plus == sr.tropical and hash(sr.min_plus) == hash(sr.tropical)
    assert sr.min_plus != sr.max_plus
