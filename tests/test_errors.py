"""Bad input raises clear ValueError subclasses naming the operand and entry; nothing is coerced."""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.errors import DTypeError, InvalidEntryError, SemiringError, ShapeError, UnsupportedOperationError


def test_errors_are_value_errors():
    for E in (SemiringError, ShapeError, DTypeError, InvalidEntryError, UnsupportedOperationError):
        assert issubclass(E, ValueError)


def test_shape_errors():
    A = np.zeros((3, 4))
    with pytest.raises(ShapeError, match=r"inner dimensions differ: A is 3x4, B is 5x2"):
        sr.min_plus.matmul(A, np.zeros((5, 2)))
    with pytest.raises(ShapeError, match=r"B must be 2-D, got shape \(4,\)"):
        sr.min_plus.matmul(A, np.zeros(4))
    with pytest.raises(ShapeError, match=r"out has shape \(3, 3\), expected \(3, 2\)"):
        sr.min_plus.matmul(A, np.zeros((4, 2)), out=np.zeros((3, 3)))


def test_nan_is_named():
    B = np.zeros((4, 2))
    B[2, 1] = np.nan
    with pytest.raises(InvalidEntryError, match=r"B\[2, 1\] is NaN"):
        sr.min_plus.matmul(np.zeros((3, 4)), B)


def test_wrong_infinity_is_named():
    A = np.zeros((2, 2))
    A[1, 0] = -np.inf
    with pytest.raises(InvalidEntryError, match=r"A\[1, 0\] is .*-inf.*min_plus"):
        sr.min_plus.matmul(A, A.T.copy())
    with pytest.raises(InvalidEntryError, match=r"A\[0, 1\] is negative; max_times"):
        sr.max_times.matmul(np.array([[0.5, -0.1]]), np.ones((2, 1)))


def test_dtypes_not_coerced():
    with pytest.raises(DTypeError, match="A is float32, B is float64"):
        sr.min_plus.matmul(np.zeros((2, 2), np.float32), np.zeros((2, 2)))
    with pytest.raises(DTypeError, match="lor_land does not support dtype float32 of A"):
        sr.lor_land.matmul(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32))
    with pytest.raises(DTypeError, match="min_plus does not support dtype bool of A"):
        sr.min_plus.matmul(np.zeros((2, 2), bool), np.zeros((2, 2), bool))
    with pytest.raises(DTypeError, match="does not support dtype int16"):
        sr.min_plus.matmul(np.zeros((2, 2), np.int16), np.zeros((2, 2), np.int16))
    with pytest.raises(DTypeError, match="out has dtype float32, expected float64"):
        sr.min_plus.matmul(np.zeros((2, 2)), np.zeros((2, 2)), out=np.zeros((2, 2), np.float32))
    with pytest.raises(DTypeError, match="must be a numpy or cupy ndarray, got list"):
        sr.min_plus.matmul([[1.0]], np.zeros((1, 1)))


def test_operation_errors():
    with pytest.raises(UnsupportedOperationError, match="witness=True needs a selective add"):
        sr.plus_times.matmul(np.ones((2, 2)), np.ones((2, 2)), witness=True)
    with pytest.raises(SemiringError, match="accumulate=True .* pass out="):
        sr.min_plus.matmul(np.ones((2, 2)), np.ones((2, 2)), accumulate=True)
    with pytest.raises(SemiringError, match="exponent must be non-negative"):
        sr.min_plus.power(np.ones((2, 2)), -1)
    with pytest.raises(ShapeError, match="power needs a square matrix"):
        sr.min_plus.power(np.ones((2, 3)), 2)
    with pytest.raises(SemiringError, match="cannot combine a min_plus array with a max_plus array"):
        sr.min_plus.array(np.ones((2, 2))) @ sr.max_plus.array(np.ones((2, 2)))


def test_bad_custom_semirings():
    with pytest.raises(SemiringError, match="add must be a binary numpy ufunc"):
        sr.Semiring("bad", min, np.add, zero=np.inf, one=0)
    with pytest.raises(SemiringError, match="selective add is idempotent"):
        sr.Semiring("bad", np.minimum, np.add, zero=np.inf, one=0, selective=True)
    with pytest.raises(SemiringError, match="unknown semiring 'min_min'"):
        sr.get("min_min")
