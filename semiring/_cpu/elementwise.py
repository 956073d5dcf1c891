"""Elementwise semiring ``add`` / ``mul`` on the CPU, with integer saturation.

The same scalar functions as the GEMM kernels (:mod:`.scalar_ops`), applied over
two broadcast arrays, so elementwise and matrix results agree to the bit.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

__all__ = ["elementwise_kernel", "apply"]


@functools.cache
def elementwise_kernel(op):
    """Build (once) ``kernel(x, y, out, lo, hi)`` over flat arrays for a scalar op."""

    @njit(cache=True, nogil=True)
    def kernel(x, y, out, lo, hi):  # pragma: no cover - jitted
        for i in range(out.size):
            out[i] = op(x[i], y[i], lo, hi)

    return kernel


def apply(op, X: np.ndarray, Y: np.ndarray, out: np.ndarray, lo, hi) -> np.ndarray:
    """Apply a scalar op over broadcast ``X`` and ``Y`` into ``out``.

    >>> from semiring._cpu.scalar_ops import ops_for
    >>> add, mul = ops_for("min_plus", "i")
    >>> hi = np.int32(2**31 - 1); lo = np.int32(-2**31)
    >>> x = np.array([hi, 5], np.int32); y = np.array([-3, hi - 1], np.int32)
    >>> apply(mul, x, y, np.empty(2, np.int32), lo, hi).tolist()
    [2147483647, 2147483647]
    """
    xb, yb = np.broadcast_arrays(X, Y)
    xf = np.ascontiguousarray(xb).reshape(-1)
    yf = np.ascontiguousarray(yb).reshape(-1)
    flat = np.empty(out.size, dtype=out.dtype)
    elementwise_kernel(op)(xf, yf, flat, lo, hi)
    out[...] = flat.reshape(out.shape)
    return out
