"""Batched dense semiring products ``C[b] = A[b] (x) B[b]``, unchecked, on the library's GEMM kernels.

:func:`semiring.dense.matmul` takes 2-D operands only.  A batch is run here in
one of two ways, chosen per call:

* **large products** (at least :data:`LOOP_WORK` multiply-adds per matrix), a
  batch of one, semirings without Numba scalar operations, and CuPy arrays: a
  Python loop of :func:`semiring.dense.matmul_into` over the batch; each product
  is big enough to use every core (CPU) or the whole GPU, so the loop costs
  nothing that matters;
* **many small products** on the CPU: one call of a Numba kernel per thread for
  a run of the batch (:mod:`semiring._cpu.batched_template`), which calls the
  blocked SIMD GEMM of :mod:`semiring._cpu.gemm_template` per matrix (or a
  direct loop for tiny ones), so no Python runs per matrix; the batch is split
  over the threads of :mod:`semiring._cpu.threads`.

Neither path broadcasts: nothing of size ``m * k * n`` is ever built.
"""

from __future__ import annotations

import functools

import numpy as np

from .._cpu.specialize import compile_once, specialize
from .._cpu.threads import run_rows
from ..algebra import Algebra
from ..backend import array_module, is_cupy_array
from . import matmul_into
from .dispatch import cpu_scalar_ops, numba_array_type, numba_plan

__all__ = ["batched_matmul", "LOOP_WORK"]

#: Products of at least this many multiply-adds per matrix run one threaded GEMM each.
LOOP_WORK = 1 << 22


@functools.cache
def _batched_kernel(S: Algebra, dtype: np.dtype):
    """The batched Numba kernel of ``S`` in ``dtype`` (specialised and compiled once)."""
    from numba import from_dtype, types


    gemm, _, _, _ = numba_plan(S, dtype, False)  # compiles the single-matrix kernel it calls
    ops = {**cpu_scalar_ops(S, dtype), "gemm": (gemm, 4)}
    mod = specialize("semiring._cpu.batched_template", ops)
    arr, scalar, i64 = numba_array_type(dtype, 3), from_dtype(dtype), types.int64
    return compile_once(mod.batched_gemm, (arr, arr, arr, i64, i64, types.boolean, scalar, scalar, scalar))


def batched_matmul(S: Algebra, A, B):
    """``C[b] = A[b] (x) B[b]`` for 3-D operands ``A (nb, m, k)``, ``B (nb, k, n)``; unchecked.

    The caller guarantees one dtype that ``S`` accepts, valid entries, one
    device and matching shapes (as for :func:`semiring.dense.matmul_into`).
    ``k = 0`` gives the semiring zero everywhere.

    Parameters
    ----------
    S : Semiring
    A, B : NumPy or CuPy arrays, 3-D, any strides

    Returns
    -------
    C : array ``(nb, m, n)`` of the operands' dtype, on their device

    Examples
    --------
    >>> from semiring import min_plus
    >>> A = np.array([[[0.0, 1.0]], [[2.0, 3.0]]])          # 2 matrices, 1 x 2
    >>> B = np.array([[[1.0], [1.0]], [[0.0], [-5.0]]])     # 2 matrices, 2 x 1
    >>> batched_matmul(min_plus, A, B)
    array([[[ 1.]],
    <BLANKLINE>
           [[-2.]]])
    """
    xp = array_module(A)
    nb, m, k = A.shape
    n = B.shape[2]
    C = xp.empty((nb, m, n), dtype=A.dtype)
    if C.size == 0:
        return C
    if k == 0:
        C[...] = S.zero_value(C.dtype)
        return C
    work = m * k * n
    if nb == 1 or work >= LOOP_WORK or is_cupy_array(A) or cpu_scalar_ops(S, A.dtype) is None:
        for b in range(nb):
            matmul_into(S, A[b], B[b], C[b])
        return C
    fn = _batched_kernel(S, np.dtype(A.dtype))
    _, zero, lo, hi = numba_plan(S, np.dtype(A.dtype), False)
    run_rows(lambda b0, b1: fn(A, B, C, b0, b1, False, zero, lo, hi), nb, nb * work, align=1)
    return C
