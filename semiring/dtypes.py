"""Supported dtypes and the infinities (semiring zeros) of each.

Floating dtypes use IEEE ``+inf`` / ``-inf``.  Integer dtypes have no infinity,
so the library uses *saturating sentinels*: ``np.iinfo(dtype).max`` stands for
``+inf`` and ``np.iinfo(dtype).min`` for ``-inf``.  Every integer kernel treats
these values as absorbing (``inf + x == inf``) and an addition or product whose
exact result would leave the representable range saturates at the sentinel; it
never wraps around.  A finite result that lands exactly on a sentinel therefore
*becomes* infinite, which is the documented price of exact integer arithmetic.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "FLOAT_DTYPES",
    "INT_DTYPES",
    "NUMERIC_DTYPES",
    "BOOL_DTYPES",
    "posinf",
    "neginf",
    "is_float",
    "is_int",
]

FLOAT_DTYPES: tuple[np.dtype, ...] = (np.dtype(np.float32), np.dtype(np.float64))
INT_DTYPES: tuple[np.dtype, ...] = (np.dtype(np.int32), np.dtype(np.int64))
NUMERIC_DTYPES: tuple[np.dtype, ...] = FLOAT_DTYPES + INT_DTYPES
BOOL_DTYPES: tuple[np.dtype, ...] = (np.dtype(np.bool_),)


def is_float(dtype: np.dtype) -> bool:
    """Return True for the floating dtypes the kernels support.

    >>> is_float(np.dtype("float32"))
    True
    """
    return np.dtype(dtype).kind == "f"


def is_int(dtype: np.dtype) -> bool:
    """Return True for signed integer dtypes.

    >>> is_int(np.dtype("int64"))
    True
    """
    return np.dtype(dtype).kind == "i"


def posinf(dtype: np.dtype) -> np.generic:
    """The value that stands for ``+inf`` in ``dtype``.

    >>> posinf(np.dtype("int32"))
    np.int32(2147483647)
    >>> posinf(np.dtype("float64"))
    np.float64(inf)
    """
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.type(np.inf)
    if dtype.kind == "i":
        return dtype.type(np.iinfo(dtype).max)
    if dtype.kind == "b":
        return dtype.type(True)
    raise TypeError(f"no infinity for dtype {dtype}")


def neginf(dtype: np.dtype) -> np.generic:
    """The value that stands for ``-inf`` in ``dtype``.

    >>> neginf(np.dtype("int64"))
    np.int64(-9223372036854775808)
    """
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.type(-np.inf)
    if dtype.kind == "i":
        return dtype.type(np.iinfo(dtype).min)
    if dtype.kind == "b":
        return dtype.type(False)
    raise TypeError(f"no infinity for dtype {dtype}")
