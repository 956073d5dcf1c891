"""Batched semiring GEMM on the CPU (Numba): the kernel template.

``C[b] = A[b] (x) B[b]`` for ``b`` in ``b0:b1``, one Numba call for a whole run
of the batch, so that a batch of many small matrices pays no Python overhead
per matrix.  Like :mod:`.gemm_template`, this module is a *template*:
:mod:`.specialize` writes a copy per semiring and dtype with the marked lines
replaced: ``# @ADD`` / ``# @MUL`` by the semiring's scalar operations and
``# @GEMM`` by the single-matrix kernel ``gemm`` of the matching specialisation
of :mod:`.gemm_template` (its blocked, SIMD micro-kernel GEMM).

Each product of at most :data:`DIRECT_WORK` multiply-adds runs a direct triple
loop (no packing buffers to allocate; the ``j`` loop is contiguous in ``B`` and
``C`` for C-ordered operands, which LLVM vectorises); larger ones call ``gemm``
on the views ``A[b]``, ``B[b]``, ``C[b]``.  The caller (:mod:`semiring.dense.batched`)
splits the batch over threads; each call releases the GIL.
"""

from __future__ import annotations

from numba import njit

from .gemm_template import gemm  # @GEMM
from .scalar_ops import min_ as add  # @ADD
from .scalar_ops import plus_float as mul  # @MUL

#: Products up to this many multiply-adds (``m * k * n``) use the direct loop.
DIRECT_WORK = 4096


@njit(cache=True, nogil=True)
def _direct(A, B, C, zero, lo, hi):  # pragma: no cover - jitted
    """``C = A (x) B`` by a plain ``i, k, j`` loop."""
    m = A.shape[0]
    k = A.shape[1]
    n = B.shape[1]
    for i in range(m):
        for j in range(n):
            C[i, j] = zero
        for kk in range(k):
            a = A[i, kk]
            for j in range(n):
                C[i, j] = add(C[i, j], mul(a, B[kk, j], lo, hi), lo, hi)


@njit(cache=True, nogil=True)
def batched_gemm(A, B, C, b0, b1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """``C[b] = A[b] (x) B[b]`` for ``b`` in ``b0:b1`` (``accumulate`` is passed on to ``gemm``; False here)."""
    m = A.shape[1]
    k = A.shape[2]
    n = B.shape[2]
    direct = m * k * n <= DIRECT_WORK
    r0 = 0
    for b in range(b0, b1):
        if direct:
            _direct(A[b], B[b], C[b], zero, lo, hi)
        else:
            gemm(A[b], B[b], C[b], r0, m, accumulate, zero, lo, hi)
