"""Elementwise semiring ``add`` / ``mul`` on the CPU, with integer saturation.

The same scalar functions as the GEMM kernels (:mod:`.scalar_ops`), applied over
two broadcast arrays, so elementwise and matrix results agree to the bit.

Broadcasting is done by index arithmetic, never by a broadcast view: the kernel
(:mod:`.elementwise_template`) reads each operand's own (contiguous) entries
through per-axis element strides that are ``0`` along the axes it is broadcast
over.  So a scalar or a row is never copied out to the result's size, and no
stride-0 view of NumPy's ``broadcast_arrays`` (whose write flag NumPy warns
about when Numba reads it) reaches Numba.  Axes the operands traverse alike
are merged first, so the common cases (equal shapes, a scalar, a row or a
column) run as one or two flat loops.
"""

from __future__ import annotations

import functools

import numpy as np

from .specialize import specialize

__all__ = ["elementwise_kernel", "apply"]


@functools.cache
def elementwise_kernel(op):
    """The Numba kernel ``kernel(x, xs, y, ys, shape, out, lo, hi)`` of :mod:`.elementwise_template` for a scalar op.

    Specialised once per op (a real file, so Numba's disk cache keeps the
    compiled code between processes); its arguments are documented there.
    """
    return specialize("semiring._cpu.elementwise_template", {"op": (op, 4)}).kernel


def _operand(A, nd: int):
    """``A``'s own entries, flat, C-ordered and read-only, and their element strides over ``nd`` axes (0: broadcast).

    Axes along which ``A`` is itself a stride-0 view (a broadcast array
    passed in) are read at index 0, so only distinct entries are copied.
    """
    A = np.asarray(A)
    if any(st == 0 and n > 1 for st, n in zip(A.strides, A.shape)):
        A = A[tuple(slice(0, 1) if st == 0 and n > 1 else slice(None) for st, n in zip(A.strides, A.shape))]
    flat = np.ascontiguousarray(A).reshape(-1).view()
    flat.flags.writeable = False  # one Numba type for every operand (and never a view NumPy warns about)
    shape = (1,) * (nd - A.ndim) + A.shape
    strides = np.zeros(nd, np.int64)
    step = 1
    for d in range(nd - 1, -1, -1):
        if shape[d] != 1:
            strides[d] = step
            step *= shape[d]
    return flat, strides


def _merged(shape: tuple, xs: np.ndarray, ys: np.ndarray):
    """The same loop over fewer axes: length-1 axes dropped, neighbours both operands traverse contiguously merged."""
    dims, sx, sy = [], [], []
    for n, a, b in zip(shape, xs.tolist(), ys.tolist()):
        if n == 1:
            continue
        if dims and sx[-1] == a * n and sy[-1] == b * n:
            dims[-1] *= n
            sx[-1], sy[-1] = a, b
        else:
            dims.append(n)
            sx.append(a)
            sy.append(b)
    if not dims:
        dims, sx, sy = [1], [0], [0]
    return np.array(dims, np.int64), np.array(sx, np.int64), np.array(sy, np.int64)


def _writes_safely(out: np.ndarray, *operands) -> bool:
    """Whether the kernel may write into ``out`` directly: C-contiguous, and sharing memory with no operand
    except one laid out exactly as ``out`` (each entry is read before it is written)."""
    if not out.flags.c_contiguous:
        return False
    where = out.__array_interface__["data"][0]
    for A in operands:
        if isinstance(A, np.ndarray) and np.may_share_memory(out, A) and not (
                A.shape == out.shape and A.strides == out.strides and A.__array_interface__["data"][0] == where):
            return False
    return True


def apply(op, X: np.ndarray, Y: np.ndarray, out: np.ndarray, lo, hi) -> np.ndarray:
    """Apply a scalar op over broadcast ``X`` and ``Y`` into ``out`` (whose shape is their broadcast shape).

    Any shapes that broadcast to ``out.shape`` (0-d arrays, rows, columns,
    size 0), any strides (a broadcast view too), and ``out`` may be ``X`` or
    ``Y``; an ``out`` that overlaps an operand otherwise gets its values
    through a temporary.

    >>> from semiring._cpu.scalar_ops import ops_for
    >>> add, mul = ops_for("min_plus", "i")
    >>> hi = np.int32(2**31 - 1); lo = np.int32(-2**31)
    >>> x = np.array([hi, 5], np.int32); y = np.array([-3, hi - 1], np.int32)
    >>> apply(mul, x, y, np.empty(2, np.int32), lo, hi).tolist()
    [2147483647, 2147483647]
    >>> apply(mul, np.array([[1], [2]], np.int32), np.int32(3), np.empty((2, 3), np.int32), lo, hi).tolist()
    [[4, 4, 4], [5, 5, 5]]
    """
    if out.size == 0:
        return out
    nd = max(out.ndim, 1)
    xf, xs = _operand(X, nd)
    yf, ys = _operand(Y, nd)
    shape, xs, ys = _merged(out.shape or (1,), xs, ys)
    if _writes_safely(out, X, Y):
        elementwise_kernel(op)(xf, xs, yf, ys, shape, out.reshape(-1), lo, hi)
        return out
    flat = np.empty(out.size, dtype=out.dtype)
    elementwise_kernel(op)(xf, xs, yf, ys, shape, flat, lo, hi)
    out[...] = flat.reshape(out.shape)
    return out
