"""Shared hypothesis strategies and random inputs for semiring tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import semiring as sr

NUMERIC = ("float32", "float64", "int32", "int64")
SEMIRINGS = [sr.min_plus, sr.max_plus, sr.max_min, sr.min_max, sr.lor_land, sr.plus_times, sr.max_times, sr.min_times]
PAIRS = [(S, np.dtype(d)) for S in SEMIRINGS for d in (("bool",) if S.family == "lor_land" else NUMERIC)]


def pair_id(pair) -> str:
    return f"{pair[0].name}-{pair[1]}"


def random_matrix(S, shape, dtype, rng, zero_frac=0.2, low=-20, high=20):
    """Random entries valid for ``S``: small integers (exact in floats), some semiring zeros."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.3
    if S.nonnegative:
        low = 0
    X = rng.integers(low, high, size=shape).astype(dtype)
    if zero_frac:
        X[rng.random(shape) < zero_frac] = S.zero_value(dtype)
    return X


def scalar_values(S, dtype):
    """Hypothesis strategy for one semiring element: small integers, the zero and the one."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    low = 0 if S.nonnegative else -50
    specials = [S.zero_value(dtype), S.one_value(dtype)]
    specials = [v for v in specials if not (S.forbidden_values(dtype) and v in S.forbidden_values(dtype))]
    return st.one_of(st.integers(low, 50).map(lambda v: dtype.type(v)), st.sampled_from(specials))
