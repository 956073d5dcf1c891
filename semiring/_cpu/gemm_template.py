"""Cache- and register-blocked semiring GEMM on the CPU (Numba): the kernel template.

This module is a *template*: :mod:`.specialize` writes a copy per semiring
family and dtype with the ``# @ADD``, ``# @MUL`` and ``# @NR`` lines replaced, so
that every specialisation is a real file that Numba caches on disk.

``C = C (+) A (x) B`` (``accumulate``) or ``C = A (x) B``, for any semiring
whose scalar ``add`` / ``mul`` are Numba functions (see :mod:`.scalar_ops`).

Blocking follows the usual BLIS/GotoBLAS structure, with the semiring's
``add`` in place of ``+`` and ``mul`` in place of ``*``:

* the columns of ``B`` are cut into panels of ``NC``, the inner dimension into
  slabs of ``KC``; each ``KC x NC`` block of ``B`` is packed once into
  contiguous ``NR``-wide strips (padded with the semiring zero, which is the
  identity of ``add`` and annihilates in ``mul``, so padding never changes a
  result);
* rows of ``A`` are taken ``MR = 4`` at a time and copied into a small
  contiguous buffer;
* the micro-kernel keeps a ``4 x NR`` accumulator in vector registers
  (``NR`` = 256 bytes / itemsize: 16 AVX-512 registers) and streams
  the packed ``B`` strip through it.

Each kernel computes the rows ``r0:r1`` of ``C`` on one thread and releases
the GIL; :mod:`.threads` splits the rows over a thread pool.  (Numba's
``parallel=True`` would do the same but costs seconds of compilation per
specialisation, for every semiring and dtype.)

Inputs may have any strides (transposed, Fortran-ordered, views of a larger
buffer); only the packed copies are contiguous.

The witness variant tracks, for each entry, the smallest ``k`` whose product
changes the running sum (``add(p, acc) != acc``); for a *selective* ``add``
(min, max, or) that is the ``k`` achieving the result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .scalar_ops import _min as add  # @ADD
from .scalar_ops import _plus_float as mul  # @MUL

NR = 64  # @NR
MR = 4
KC = 256
NC = 16 * NR
NRW = NR // 2


@njit(cache=True, nogil=True)
def _pack_b(B, kc, kn, jc, jn, width, zero, out):  # pragma: no cover - jitted
    """Copy ``B[kc:kc+kn, jc:jc+jn]`` into ``width``-wide strips, padding with ``zero``."""
    for jb in range(out.shape[0]):
        for kk in range(kn):
            for jj in range(width):
                j = jb * width + jj
                out[jb, kk, jj] = B[kc + kk, jc + j] if j < jn else zero


@njit(cache=True, nogil=True)
def _pack_a(A, i0, m, kc, kn, zero, out):  # pragma: no cover - jitted
    """Copy rows ``i0:i0+MR`` of ``A[:, kc:kc+kn]``, padding rows past ``m`` with ``zero``."""
    for ii in range(MR):
        for kk in range(kn):
            out[ii, kk] = A[i0 + ii, kc + kk] if i0 + ii < m else zero


@njit(cache=True, nogil=True)
def gemm(A, B, C, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """Rows ``r0:r1`` of ``C (+)= A (x) B`` (``accumulate``) or ``C = A (x) B``."""
    K = A.shape[1]
    n = B.shape[1]
    if not accumulate:
        for i in range(r0, r1):
            for j in range(n):
                C[i, j] = zero
    if r1 <= r0 or n == 0 or K == 0:
        return
    a = np.empty((MR, KC), dtype=C.dtype)
    acc = np.empty((MR, NR), dtype=C.dtype)
    Bp = np.empty(((min(NC, n) + NR - 1) // NR, min(KC, K), NR), dtype=C.dtype)
    for jc in range(0, n, NC):
        jn = min(NC, n - jc)
        nbs = (jn + NR - 1) // NR
        for kc in range(0, K, KC):
            kn = min(KC, K - kc)
            _pack_b(B, kc, kn, jc, jn, NR, zero, Bp[:nbs, :kn])
            for i0 in range(r0, r1, MR):
                _pack_a(A, i0, r1, kc, kn, zero, a)
                for jb in range(nbs):
                    for ii in range(MR):
                        for jj in range(NR):
                            acc[ii, jj] = zero
                    for kk in range(kn):
                        a0 = a[0, kk]
                        a1 = a[1, kk]
                        a2 = a[2, kk]
                        a3 = a[3, kk]
                        for jj in range(NR):
                            b = Bp[jb, kk, jj]
                            acc[0, jj] = add(acc[0, jj], mul(a0, b, lo, hi), lo, hi)
                            acc[1, jj] = add(acc[1, jj], mul(a1, b, lo, hi), lo, hi)
                            acc[2, jj] = add(acc[2, jj], mul(a2, b, lo, hi), lo, hi)
                            acc[3, jj] = add(acc[3, jj], mul(a3, b, lo, hi), lo, hi)
                    jend = min(NR, jn - jb * NR)
                    for ii in range(min(MR, r1 - i0)):
                        for jj in range(jend):
                            j = jc + jb * NR + jj
                            C[i0 + ii, j] = add(C[i0 + ii, j], acc[ii, jj], lo, hi)


@njit(cache=True, nogil=True)
def gemm_witness(A, B, C, W, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """As :func:`gemm`, also writing ``W[i, j]``: the smallest ``k`` that changed ``C[i, j]``, else -1."""
    K = A.shape[1]
    n = B.shape[1]
    for i in range(r0, r1):
        for j in range(n):
            W[i, j] = -1
            if not accumulate:
                C[i, j] = zero
    if r1 <= r0 or n == 0 or K == 0:
        return
    a = np.empty((MR, KC), dtype=C.dtype)
    acc = np.empty((MR, NRW), dtype=C.dtype)
    win = np.empty((MR, NRW), dtype=W.dtype)
    Bp = np.empty(((min(NC, n) + NRW - 1) // NRW, min(KC, K), NRW), dtype=C.dtype)
    for jc in range(0, n, NC):
        jn = min(NC, n - jc)
        nbs = (jn + NRW - 1) // NRW
        for kc in range(0, K, KC):
            kn = min(KC, K - kc)
            _pack_b(B, kc, kn, jc, jn, NRW, zero, Bp[:nbs, :kn])
            for i0 in range(r0, r1, MR):
                _pack_a(A, i0, r1, kc, kn, zero, a)
                for jb in range(nbs):
                    jend = min(NRW, jn - jb * NRW)
                    for ii in range(MR):
                        for jj in range(NRW):
                            if i0 + ii < r1 and jj < jend:
                                acc[ii, jj] = C[i0 + ii, jc + jb * NRW + jj]
                            else:
                                acc[ii, jj] = zero
                            win[ii, jj] = -1
                    for kk in range(kn):
                        kg = kc + kk
                        for ii in range(MR):
                            av = a[ii, kk]
                            for jj in range(NRW):
                                old = acc[ii, jj]
                                new = add(old, mul(av, Bp[jb, kk, jj], lo, hi), lo, hi)
                                acc[ii, jj] = new
                                win[ii, jj] = kg if new != old else win[ii, jj]
                    for ii in range(min(MR, r1 - i0)):
                        for jj in range(jend):
                            if win[ii, jj] >= 0:
                                j = jc + jb * NRW + jj
                                C[i0 + ii, j] = acc[ii, jj]
                                W[i0 + ii, j] = win[ii, jj]
