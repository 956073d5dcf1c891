"""Cache- and register-blocked semiring GEMM on the CPU (Numba): the kernel template.

This module is a *template*: :mod:`.specialize` writes a copy per semiring
family and dtype with the marked lines (``# @ADD``, ``# @MUL``, ``# @VADD``,
``# @VMUL``, ``# @NR``, ``# @VEC``, ``# @VW``, ``# @NV``) replaced, so that every
specialisation is a real file that Numba caches on disk.

``C = C (+) A (x) B`` (``accumulate``) or ``C = A (x) B``, for any semiring
whose scalar ``add`` / ``mul`` are Numba functions (see :mod:`.scalar_ops`).

Blocking follows the usual BLIS/GotoBLAS structure, with the semiring's
``add`` in place of ``+`` and ``mul`` in place of ``*``:

* the columns of ``B`` are cut into panels of ``NC``, the inner dimension into
  slabs of ``KC``; each ``KC x NC`` block of ``B`` is packed once into
  contiguous strips of ``NR`` columns (padded with the semiring zero, which is
  the identity of ``add`` and annihilates in ``mul``, so padding never changes
  a result);
* rows of ``A`` are taken ``MR = 4`` at a time and copied into a small
  contiguous buffer;
* a micro-kernel computes one ``MR x NR`` tile over the slab and adds it into
  ``C`` with the semiring ``add``.

Two micro-kernels exist, and module-level ``gemm`` / ``gemm_witness`` name the
one this specialisation uses:

* ``VEC = 1`` (built-in families whose vector ops exist, see
  :data:`.scalar_ops.VOPS`): the tile is ``MR x NV`` SIMD vectors of ``VW``
  lanes (:mod:`.simd`; ``VW`` fills one register, e.g. 16 float32 with
  AVX-512), held in local variables, i.e. in registers: ``NV = 4`` (16
  accumulators) where there are 32 vector registers (AVX-512), ``NV = 2``
  where there are 16 (AVX2).  Each step of ``k`` loads the ``NV`` vectors of
  the packed ``B`` strip once, broadcasts each of the ``MR`` values of ``A``
  and applies the semiring's vector ``vmul`` / ``vadd`` (``# @VMUL`` /
  ``# @VADD``) to the accumulators;
* ``VEC = 0`` (custom semirings): the same blocking with scalar ``add`` /
  ``mul`` over a ``4 x NR`` array, left to LLVM's auto-vectoriser (which keeps
  that array in memory).

Each kernel computes the rows ``r0:r1`` of ``C`` on one thread and releases
the GIL; :mod:`.threads` splits the rows over a thread pool.  (Numba's
``parallel=True`` would do the same but costs seconds of compilation per
specialisation, for every semiring and dtype.)

Inputs may have any strides (transposed, Fortran-ordered, views of a larger
buffer); only the packed copies are contiguous.  Rows of ``C`` with unit
column stride are updated with vector loads and stores.

The witness variant tracks, for each entry, the smallest ``k`` whose product
changes the running sum (``add(p, acc) != acc``); for a *selective* ``add``
(min, max, or) that is the ``k`` achieving the result.  Its vector micro-kernel
keeps ``MR x NV/2`` accumulators and as many int32 witness vectors, updated with
a compare and a select per step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .scalar_ops import min_ as add  # @ADD
from .scalar_ops import min_v as vadd  # @VADD
from .scalar_ops import plus_float as mul  # @MUL
from .scalar_ops import plus_float_v as vmul  # @VMUL
from .simd import vload, vne, vselect, vsplat, vstore

NR = 64  # @NR
VEC = 0  # @VEC
VW = 16  # @VW
NV = 4  # @NV
MR = 4
KC = 256
NC = 16 * NR
NRW = NR // 2
NRV = NV * VW  # columns of a vector tile: NV vectors per row
NRVW = NRV // 2  # columns of a vector witness tile
NCV = 64 * VW


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
def _gemm_scalar(A, B, C, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
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
def _gemm_witness_scalar(A, B, C, W, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """As :func:`_gemm_scalar`, also writing ``W[i, j]``: the smallest ``k`` that changed ``C[i, j]``, else -1."""
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


# --------------------------------------------------------------------------- SIMD micro-kernels (VEC = 1)


@njit(cache=True, nogil=True)
def _pack_b_strips(B, kc, kn, jc, jn, width, zero, out):  # pragma: no cover - jitted
    """Copy ``B[kc:kc+kn, jc:jc+jn]`` into flat ``width``-wide strips ``out[(jb * kn + kk) * width + jj]``."""
    for jb in range((jn + width - 1) // width):
        j0 = jb * width
        w = min(width, jn - j0)
        for kk in range(kn):
            o = (jb * kn + kk) * width
            for jj in range(w):
                out[o + jj] = B[kc + kk, jc + j0 + jj]
            for jj in range(w, width):
                out[o + jj] = zero


@njit(cache=True, nogil=True)
def _pack_a_kmajor(A, i0, m, kc, kn, zero, out):  # pragma: no cover - jitted
    """Copy rows ``i0:i0+MR`` of ``A[:, kc:kc+kn]`` as ``out[kk * MR + ii]``, rows past ``m`` set to ``zero``."""
    rows = min(MR, m - i0)
    for kk in range(kn):
        for ii in range(rows):
            out[kk * MR + ii] = A[i0 + ii, kc + kk]
        for ii in range(rows, MR):
            out[kk * MR + ii] = zero



@njit(cache=True, nogil=True)
def _tile4(a, Bp, off, kn, zero, lo, hi, out):  # pragma: no cover - jitted
    """``MR x 4`` vectors: the tile ``(+)_kk a[kk, :] (x) Bp[kk, :]`` (strip at ``Bp[off:]``) into ``out``.

    The accumulators ``cIV`` (row ``I``, vector ``V``) are locals of SIMD type,
    so LLVM keeps them in registers for the whole ``k`` loop; ``out`` gets the
    tile row-major (``MR x NRV``).
    """
    z = vsplat(zero, VW)
    c00 = z
    c01 = z
    c02 = z
    c03 = z
    c10 = z
    c11 = z
    c12 = z
    c13 = z
    c20 = z
    c21 = z
    c22 = z
    c23 = z
    c30 = z
    c31 = z
    c32 = z
    c33 = z
    for kk in range(kn):
        b0 = vload(Bp, off, VW)
        b1 = vload(Bp, off + VW, VW)
        b2 = vload(Bp, off + 2 * VW, VW)
        b3 = vload(Bp, off + 3 * VW, VW)
        s = vsplat(a[kk * MR + 0], VW)
        c00 = vadd(c00, vmul(s, b0, lo, hi), lo, hi)
        c01 = vadd(c01, vmul(s, b1, lo, hi), lo, hi)
        c02 = vadd(c02, vmul(s, b2, lo, hi), lo, hi)
        c03 = vadd(c03, vmul(s, b3, lo, hi), lo, hi)
        s = vsplat(a[kk * MR + 1], VW)
        c10 = vadd(c10, vmul(s, b0, lo, hi), lo, hi)
        c11 = vadd(c11, vmul(s, b1, lo, hi), lo, hi)
        c12 = vadd(c12, vmul(s, b2, lo, hi), lo, hi)
        c13 = vadd(c13, vmul(s, b3, lo, hi), lo, hi)
        s = vsplat(a[kk * MR + 2], VW)
        c20 = vadd(c20, vmul(s, b0, lo, hi), lo, hi)
        c21 = vadd(c21, vmul(s, b1, lo, hi), lo, hi)
        c22 = vadd(c22, vmul(s, b2, lo, hi), lo, hi)
        c23 = vadd(c23, vmul(s, b3, lo, hi), lo, hi)
        s = vsplat(a[kk * MR + 3], VW)
        c30 = vadd(c30, vmul(s, b0, lo, hi), lo, hi)
        c31 = vadd(c31, vmul(s, b1, lo, hi), lo, hi)
        c32 = vadd(c32, vmul(s, b2, lo, hi), lo, hi)
        c33 = vadd(c33, vmul(s, b3, lo, hi), lo, hi)
        off += NRV
    vstore(out, 0, c00)
    vstore(out, VW, c01)
    vstore(out, 2 * VW, c02)
    vstore(out, 3 * VW, c03)
    vstore(out, NRV, c10)
    vstore(out, NRV + VW, c11)
    vstore(out, NRV + 2 * VW, c12)
    vstore(out, NRV + 3 * VW, c13)
    vstore(out, 2 * NRV, c20)
    vstore(out, 2 * NRV + VW, c21)
    vstore(out, 2 * NRV + 2 * VW, c22)
    vstore(out, 2 * NRV + 3 * VW, c23)
    vstore(out, 3 * NRV, c30)
    vstore(out, 3 * NRV + VW, c31)
    vstore(out, 3 * NRV + 2 * VW, c32)
    vstore(out, 3 * NRV + 3 * VW, c33)

@njit(cache=True, nogil=True)
def _tile2(a, Bp, off, kn, zero, lo, hi, out):  # pragma: no cover - jitted
    """``MR x 2`` vectors: the tile ``(+)_kk a[kk, :] (x) Bp[kk, :]`` (strip at ``Bp[off:]``) into ``out``.

    The accumulators ``cIV`` (row ``I``, vector ``V``) are locals of SIMD type,
    so LLVM keeps them in registers for the whole ``k`` loop; ``out`` gets the
    tile row-major (``MR x NRV``).
    """
    z = vsplat(zero, VW)
    c00 = z
    c01 = z
    c10 = z
    c11 = z
    c20 = z
    c21 = z
    c30 = z
    c31 = z
    for kk in range(kn):
        b0 = vload(Bp, off, VW)
        b1 = vload(Bp, off + VW, VW)
        s = vsplat(a[kk * MR + 0], VW)
        c00 = vadd(c00, vmul(s, b0, lo, hi), lo, hi)
        c01 = vadd(c01, vmul(s, b1, lo, hi), lo, hi)
        s = vsplat(a[kk * MR + 1], VW)
        c10 = vadd(c10, vmul(s, b0, lo, hi), lo, hi)
        c11 = vadd(c11, vmul(s, b1, lo, hi), lo, hi)
        s = vsplat(a[kk * MR + 2], VW)
        c20 = vadd(c20, vmul(s, b0, lo, hi), lo, hi)
        c21 = vadd(c21, vmul(s, b1, lo, hi), lo, hi)
        s = vsplat(a[kk * MR + 3], VW)
        c30 = vadd(c30, vmul(s, b0, lo, hi), lo, hi)
        c31 = vadd(c31, vmul(s, b1, lo, hi), lo, hi)
        off += NRV
    vstore(out, 0, c00)
    vstore(out, VW, c01)
    vstore(out, NRV, c10)
    vstore(out, NRV + VW, c11)
    vstore(out, 2 * NRV, c20)
    vstore(out, 2 * NRV + VW, c21)
    vstore(out, 3 * NRV, c30)
    vstore(out, 3 * NRV + VW, c31)

@njit(cache=True, nogil=True)
def _tile_witness2(a, Bp, off, kn, kc, lo, hi, acc, win):  # pragma: no cover - jitted
    """Witness micro-kernel, ``MR x 2`` vectors: update the tile ``acc`` in place, ``win`` = last changing ``k``.

    ``win`` lanes stay -1 where no product changed the entry.  Per step and
    vector: ``new = vadd(old, vmul(a, b))``, then ``win = k if new != old``.
    """
    kv = vsplat(np.int32(-1), VW)
    c00 = vload(acc, 0, VW)
    c01 = vload(acc, VW, VW)
    c10 = vload(acc, NRVW, VW)
    c11 = vload(acc, NRVW + VW, VW)
    c20 = vload(acc, 2 * NRVW, VW)
    c21 = vload(acc, 2 * NRVW + VW, VW)
    c30 = vload(acc, 3 * NRVW, VW)
    c31 = vload(acc, 3 * NRVW + VW, VW)
    w00 = kv
    w01 = kv
    w10 = kv
    w11 = kv
    w20 = kv
    w21 = kv
    w30 = kv
    w31 = kv
    for kk in range(kn):
        kv = vsplat(np.int32(kc + kk), VW)
        b0 = vload(Bp, off, VW)
        b1 = vload(Bp, off + VW, VW)
        s = vsplat(a[kk * MR + 0], VW)
        t = vadd(c00, vmul(s, b0, lo, hi), lo, hi)
        w00 = vselect(vne(t, c00), kv, w00)
        c00 = t
        t = vadd(c01, vmul(s, b1, lo, hi), lo, hi)
        w01 = vselect(vne(t, c01), kv, w01)
        c01 = t
        s = vsplat(a[kk * MR + 1], VW)
        t = vadd(c10, vmul(s, b0, lo, hi), lo, hi)
        w10 = vselect(vne(t, c10), kv, w10)
        c10 = t
        t = vadd(c11, vmul(s, b1, lo, hi), lo, hi)
        w11 = vselect(vne(t, c11), kv, w11)
        c11 = t
        s = vsplat(a[kk * MR + 2], VW)
        t = vadd(c20, vmul(s, b0, lo, hi), lo, hi)
        w20 = vselect(vne(t, c20), kv, w20)
        c20 = t
        t = vadd(c21, vmul(s, b1, lo, hi), lo, hi)
        w21 = vselect(vne(t, c21), kv, w21)
        c21 = t
        s = vsplat(a[kk * MR + 3], VW)
        t = vadd(c30, vmul(s, b0, lo, hi), lo, hi)
        w30 = vselect(vne(t, c30), kv, w30)
        c30 = t
        t = vadd(c31, vmul(s, b1, lo, hi), lo, hi)
        w31 = vselect(vne(t, c31), kv, w31)
        c31 = t
        off += NRVW
    vstore(acc, 0, c00)
    vstore(win, 0, w00)
    vstore(acc, VW, c01)
    vstore(win, VW, w01)
    vstore(acc, NRVW, c10)
    vstore(win, NRVW, w10)
    vstore(acc, NRVW + VW, c11)
    vstore(win, NRVW + VW, w11)
    vstore(acc, 2 * NRVW, c20)
    vstore(win, 2 * NRVW, w20)
    vstore(acc, 2 * NRVW + VW, c21)
    vstore(win, 2 * NRVW + VW, w21)
    vstore(acc, 3 * NRVW, c30)
    vstore(win, 3 * NRVW, w30)
    vstore(acc, 3 * NRVW + VW, c31)
    vstore(win, 3 * NRVW + VW, w31)

@njit(cache=True, nogil=True)
def _tile_witness1(a, Bp, off, kn, kc, lo, hi, acc, win):  # pragma: no cover - jitted
    """Witness micro-kernel, ``MR x 1`` vectors: update the tile ``acc`` in place, ``win`` = last changing ``k``.

    ``win`` lanes stay -1 where no product changed the entry.  Per step and
    vector: ``new = vadd(old, vmul(a, b))``, then ``win = k if new != old``.
    """
    kv = vsplat(np.int32(-1), VW)
    c00 = vload(acc, 0, VW)
    c10 = vload(acc, NRVW, VW)
    c20 = vload(acc, 2 * NRVW, VW)
    c30 = vload(acc, 3 * NRVW, VW)
    w00 = kv
    w10 = kv
    w20 = kv
    w30 = kv
    for kk in range(kn):
        kv = vsplat(np.int32(kc + kk), VW)
        b0 = vload(Bp, off, VW)
        s = vsplat(a[kk * MR + 0], VW)
        t = vadd(c00, vmul(s, b0, lo, hi), lo, hi)
        w00 = vselect(vne(t, c00), kv, w00)
        c00 = t
        s = vsplat(a[kk * MR + 1], VW)
        t = vadd(c10, vmul(s, b0, lo, hi), lo, hi)
        w10 = vselect(vne(t, c10), kv, w10)
        c10 = t
        s = vsplat(a[kk * MR + 2], VW)
        t = vadd(c20, vmul(s, b0, lo, hi), lo, hi)
        w20 = vselect(vne(t, c20), kv, w20)
        c20 = t
        s = vsplat(a[kk * MR + 3], VW)
        t = vadd(c30, vmul(s, b0, lo, hi), lo, hi)
        w30 = vselect(vne(t, c30), kv, w30)
        c30 = t
        off += NRVW
    vstore(acc, 0, c00)
    vstore(win, 0, w00)
    vstore(acc, NRVW, c10)
    vstore(win, NRVW, w10)
    vstore(acc, 2 * NRVW, c20)
    vstore(win, 2 * NRVW, w20)
    vstore(acc, 3 * NRVW, c30)
    vstore(win, 3 * NRVW, w30)

@njit(cache=True, nogil=True)
def _gemm_vec(A, B, C, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """Rows ``r0:r1`` of ``C (+)= A (x) B`` (``accumulate``) or ``C = A (x) B``, SIMD micro-kernel."""
    K = A.shape[1]
    n = B.shape[1]
    if not accumulate:
        for i in range(r0, r1):
            for j in range(n):
                C[i, j] = zero
    if r1 <= r0 or n == 0 or K == 0:
        return
    a = np.empty(MR * KC, dtype=C.dtype)
    tile = np.empty(MR * NRV, dtype=C.dtype)
    Bp = np.empty(((min(NCV, n) + NRV - 1) // NRV) * min(KC, K) * NRV, dtype=C.dtype)
    unit = C.strides[1] == C.itemsize
    for jc in range(0, n, NCV):
        jn = min(NCV, n - jc)
        for kc in range(0, K, KC):
            kn = min(KC, K - kc)
            _pack_b_strips(B, kc, kn, jc, jn, NRV, zero, Bp)
            for i0 in range(r0, r1, MR):
                _pack_a_kmajor(A, i0, r1, kc, kn, zero, a)
                for jb in range((jn + NRV - 1) // NRV):
                    _tile(a, Bp, jb * kn * NRV, kn, zero, lo, hi, tile)
                    j0 = jc + jb * NRV
                    jw = min(NRV, jn - jb * NRV)
                    for ii in range(min(MR, r1 - i0)):
                        if unit and jw == NRV:
                            row = C[i0 + ii]
                            for v in range(0, NRV, VW):
                                t = vload(tile, ii * NRV + v, VW)
                                vstore(row, j0 + v, vadd(vload(row, j0 + v, VW), t, lo, hi))
                        else:
                            for jj in range(jw):
                                C[i0 + ii, j0 + jj] = add(C[i0 + ii, j0 + jj], tile[ii * NRV + jj], lo, hi)


@njit(cache=True, nogil=True)
def _gemm_witness_vec(A, B, C, W, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """As :func:`_gemm_vec`, also writing ``W[i, j]``: the smallest ``k`` that changed ``C[i, j]``, else -1."""
    K = A.shape[1]
    n = B.shape[1]
    for i in range(r0, r1):
        for j in range(n):
            W[i, j] = -1
            if not accumulate:
                C[i, j] = zero
    if r1 <= r0 or n == 0 or K == 0:
        return
    a = np.empty(MR * KC, dtype=C.dtype)
    acc = np.empty(MR * NRVW, dtype=C.dtype)
    win = np.empty(MR * NRVW, dtype=np.int32)
    Bp = np.empty(((min(NCV, n) + NRVW - 1) // NRVW) * min(KC, K) * NRVW, dtype=C.dtype)
    for jc in range(0, n, NCV):
        jn = min(NCV, n - jc)
        for kc in range(0, K, KC):
            kn = min(KC, K - kc)
            _pack_b_strips(B, kc, kn, jc, jn, NRVW, zero, Bp)
            for i0 in range(r0, r1, MR):
                _pack_a_kmajor(A, i0, r1, kc, kn, zero, a)
                rows = min(MR, r1 - i0)
                for jb in range((jn + NRVW - 1) // NRVW):
                    j0 = jc + jb * NRVW
                    jw = min(NRVW, jn - jb * NRVW)
                    for ii in range(MR):
                        for jj in range(NRVW):
                            acc[ii * NRVW + jj] = C[i0 + ii, j0 + jj] if ii < rows and jj < jw else zero
                    _tile_witness(a, Bp, jb * kn * NRVW, kn, kc, lo, hi, acc, win)
                    for ii in range(rows):
                        for jj in range(jw):
                            if win[ii * NRVW + jj] >= 0:
                                C[i0 + ii, j0 + jj] = acc[ii * NRVW + jj]
                                W[i0 + ii, j0 + jj] = win[ii * NRVW + jj]


_tile = _tile4 if NV == 4 else _tile2
_tile_witness = _tile_witness2 if NV == 4 else _tile_witness1
gemm = _gemm_vec if VEC else _gemm_scalar
gemm_witness = _gemm_witness_vec if VEC else _gemm_witness_scalar
