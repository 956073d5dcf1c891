"""Elementwise semiring ``add`` / ``mul`` on CuPy arrays with the CPU's integer saturation.

The same scalar functions as the GEMM kernels (``scalar_ops.cuh``) in a
``cupy.ElementwiseKernel``, so elementwise and matrix results agree to the bit
with each other and with :mod:`semiring._cpu.elementwise`.  Broadcasting is CuPy's.
"""

from __future__ import annotations

import functools
import hashlib

import cupy as cp
import numpy as np

from ..algebra import Algebra
from .compile import source_of
from .ops import KernelSpec, spec_for

__all__ = ["elementwise"]


@functools.cache
def _kernel(spec: KernelSpec, which: str) -> cp.ElementwiseKernel:
    expr = spec.add if which == "add" else spec.mul
    preamble = source_of("scalar_ops.cuh", {}).replace("#pragma once", "")
    tag = hashlib.sha1(repr((spec, which)).encode()).hexdigest()[:12]
    t = np.dtype(spec.dtype).name  # CuPy's parameter types are NumPy names ("long long" is not one)
    return cp.ElementwiseKernel(
        f"{t} a, {t} b", f"{t} out", f"out = {expr}",
        f"semiring_{which}_{tag}", preamble=preamble,
    )


def elementwise(S: Algebra, which: str, A, B, out):
    """``out = A (+) B`` (``which="add"``) or ``A (x) B`` (``"mul"``), broadcasting, saturating for integers.

    Parameters
    ----------
    S : Semiring
    which : {"add", "mul"}
    A, B : cupy.ndarray (or scalars of the same dtype)
    out : cupy.ndarray of the broadcast shape

    Returns
    -------
    out

    Examples
    --------
    >>> import cupy as cp
    >>> from semiring import min_plus
    >>> x = cp.array([2**31 - 1, 5], cp.int32); y = cp.array([-3, 2**31 - 2], cp.int32)
    >>> elementwise(min_plus, "mul", x, y, cp.empty(2, cp.int32)).tolist()
    [2147483647, 2147483647]
    """
    spec = spec_for(S, out.dtype)
    if spec is None:
        ufunc = S.add_ufunc if which == "add" else S.mul_ufunc
        out[...] = ufunc(A, B)
        return out
    _kernel(spec, which)(A, B, out)
    return out
