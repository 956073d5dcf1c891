"""Supported dtypes and the infinities (semiring zeros) of each.

Floating dtypes use IEEE ``+inf`` / ``-inf``.  Integer dtypes have no infinity,
so the library uses *saturating sentinels*: ``np.iinfo(dtype).max`` stands for
``+inf`` and ``np.iinfo(dtype).min`` for ``-inf``.

The policy, the same on every backend (Numba scalar and SIMD, CUDA):

* Both sentinels stick through the sums of ``min_plus`` and ``max_plus``:
  ``inf + x == inf`` and ``-inf + x == -inf`` for every finite ``x``.
* Where they meet, the family's zero ("no path") wins: ``inf + -inf`` is
  ``+inf`` in ``min_plus`` and ``-inf`` in ``max_plus`` (floats: IEEE's NaN,
  which every kernel's ``min`` / ``max`` skips, with the same effect).
* A sum or product whose exact value leaves the range saturates at the
  sentinel and then sticks; it never wraps around.  A finite result at or
  beyond ``iinfo.max`` therefore reads as ``+inf`` (in ``min_plus``: no path)
  and one at or below ``iinfo.min`` as ``-inf``, as a float sum that overflows
  reads as ``+-inf``.
* Saturated sums are exact while no partial sum reaches a sentinel (with
  weights of one sign, the saturated result is always the exact one clamped).
  :func:`apsp.shortest_paths` forms int32 closures whose sums could get there
  in int64, so they are exact, then clamped (:mod:`apsp.paths.exact_integers`).

>>> from semiring import min_plus
>>> lo, hi = neginf(np.int32), posinf(np.int32)
>>> min_plus.mul(np.array([lo, lo, hi, 2**30], np.int32), np.array([5, hi, -5, 2**30], np.int32))
array([-2147483648,  2147483647,  2147483647,  2147483647], dtype=int32)
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
