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

Two micro-kernels exist, and module-level ``gemm`` / ``gemm_witness`` run the
one this specialisation uses (one blocked driver each, ``_blocked_vec`` /
``_blocked_scalar``, serves both, the witness branches chosen at compile time
by the type of ``W``):

* ``VEC = 1`` (built-in families whose vector ops exist, see
  :data:`.scalar_ops.VOPS`): the tile is ``MR x NV`` SIMD vectors of ``VW``
  lanes (:mod:`.simd`; ``VW`` fills one register, e.g. 16 float32 with
  AVX-512), held in local variables, i.e. in registers: ``NV = 4`` (16
  accumulators) where there are 32 vector registers (AVX-512), ``NV = 2``
  where there are 16 (AVX2).  Each step of ``k`` loads the ``NV`` vectors of
  the packed ``B`` strip once, broadcasts each of the ``MR`` values of ``A``
  and applies the semiring's vector ``vmul`` / ``vadd`` (``# @VMUL`` /
  ``# @VADD``) to the accumulators.  These micro-kernels are written out one
  line per accumulator (:func:`generated_source`, put in place of the line
  marked ``# @GENERATED``);
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
from .scalar_ops import plus_float_v as vmul  # noqa: F401 (used by the generated micro-kernels)  # @VMUL
from .simd import vload, vne, vselect, vsplat, vstore  # noqa: F401 - vne, vselect, vsplat: likewise

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
def _begin(A, B, C, W, r0, r1, accumulate, zero):  # pragma: no cover - jitted
    """Clear rows ``r0:r1`` of ``C`` (unless ``accumulate``) and of ``W`` (if given); True if no product is left."""
    if W is not None:
        W[r0:r1] = -1
    if not accumulate:
        C[r0:r1] = zero
    return r1 <= r0 or B.shape[1] == 0 or A.shape[1] == 0


@njit(cache=True, nogil=True)
def _blocked_scalar(A, B, C, W, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """Rows ``r0:r1`` of ``C (+)= A (x) B``, with the witness into ``W`` unless it is ``None``, scalar micro-kernel.

    ``W is None`` is known when Numba compiles (the type of ``W``), so each
    version keeps only its own branches: ``NR``-wide tiles added into ``C``, or
    ``NRW``-wide ones started from ``C`` with a witness per entry.
    """
    if _begin(A, B, C, W, r0, r1, accumulate, zero):
        return
    K = A.shape[1]
    n = B.shape[1]
    width = NR if W is None else NRW
    a = np.empty((MR, KC), dtype=C.dtype)
    acc = np.empty((MR, width), dtype=C.dtype)
    win = np.empty((MR, width), dtype=np.int32)
    Bp = np.empty(((min(NC, n) + width - 1) // width, min(KC, K), width), dtype=C.dtype)
    for jc in range(0, n, NC):
        jn = min(NC, n - jc)
        nbs = (jn + width - 1) // width
        for kc in range(0, K, KC):
            kn = min(KC, K - kc)
            _pack_b(B, kc, kn, jc, jn, width, zero, Bp[:nbs, :kn])
            for i0 in range(r0, r1, MR):
                _pack_a(A, i0, r1, kc, kn, zero, a)
                for jb in range(nbs):
                    if W is None:
                        _tile_scalar(a, Bp, jb, kn, zero, lo, hi, acc)
                        jend = min(NR, jn - jb * NR)
                        for ii in range(min(MR, r1 - i0)):
                            for jj in range(jend):
                                j = jc + jb * NR + jj
                                C[i0 + ii, j] = add(C[i0 + ii, j], acc[ii, jj], lo, hi)
                    else:
                        _tile_witness_scalar(a, Bp, jb, kn, kc, zero, lo, hi, C, W, i0, r1, jc + jb * NRW,
                                             min(NRW, jn - jb * NRW), acc, win)


@njit(inline="always")
def _tile_scalar(a, Bp, jb, kn, zero, lo, hi, acc):  # pragma: no cover - jitted
    """``acc`` = the ``MR x NR`` tile ``(+)_kk a[:, kk] (x) Bp[jb, kk, :]``, rows unrolled."""
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


@njit(inline="always")
def _tile_witness_scalar(a, Bp, jb, kn, kc, zero, lo, hi, C, W, i0, r1, j0, jend, acc, win):  # pragma: no cover - jitted
    """The ``MR x NRW`` tile of ``C`` at ``(i0, j0)`` (``jend`` columns) updated over the slab, witness into ``W``."""
    for ii in range(MR):
        for jj in range(NRW):
            if i0 + ii < r1 and jj < jend:
                acc[ii, jj] = C[i0 + ii, j0 + jj]
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
                C[i0 + ii, j0 + jj] = acc[ii, jj]
                W[i0 + ii, j0 + jj] = win[ii, jj]


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



# The unrolled micro-kernels: specialize() writes generated_source()'s text in place of this line.
_tile = _tile_witness = None  # @GENERATED


@njit(cache=True, nogil=True)
def _blocked_vec(A, B, C, W, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """As :func:`_blocked_scalar`, with the SIMD micro-kernels ``_tile`` / ``_tile_witness`` (``NRV`` / ``NRVW`` wide)."""
    if _begin(A, B, C, W, r0, r1, accumulate, zero):
        return
    K = A.shape[1]
    n = B.shape[1]
    width = NRV if W is None else NRVW
    a = np.empty(MR * KC, dtype=C.dtype)
    acc = np.empty(MR * width, dtype=C.dtype)
    win = np.empty(MR * width, dtype=np.int32)
    Bp = np.empty(((min(NCV, n) + width - 1) // width) * min(KC, K) * width, dtype=C.dtype)
    unit = C.strides[1] == C.itemsize
    for jc in range(0, n, NCV):
        jn = min(NCV, n - jc)
        for kc in range(0, K, KC):
            kn = min(KC, K - kc)
            _pack_b_strips(B, kc, kn, jc, jn, width, zero, Bp)
            for i0 in range(r0, r1, MR):
                _pack_a_kmajor(A, i0, r1, kc, kn, zero, a)
                rows = min(MR, r1 - i0)
                for jb in range((jn + width - 1) // width):
                    j0 = jc + jb * width
                    jw = min(width, jn - jb * width)
                    if W is None:
                        _tile(a, Bp, jb * kn * NRV, kn, zero, lo, hi, acc)
                        for ii in range(rows):
                            if unit and jw == NRV:
                                row = C[i0 + ii]
                                for v in range(0, NRV, VW):
                                    t = vload(acc, ii * NRV + v, VW)
                                    vstore(row, j0 + v, vadd(vload(row, j0 + v, VW), t, lo, hi))
                            else:
                                for jj in range(jw):
                                    C[i0 + ii, j0 + jj] = add(C[i0 + ii, j0 + jj], acc[ii * NRV + jj], lo, hi)
                    else:
                        for ii in range(MR):
                            for jj in range(NRVW):
                                acc[ii * NRVW + jj] = C[i0 + ii, j0 + jj] if ii < rows and jj < jw else zero
                        _tile_witness(a, Bp, jb * kn * NRVW, kn, kc, lo, hi, acc, win)
                        for ii in range(rows):
                            for jj in range(jw):
                                if win[ii * NRVW + jj] >= 0:
                                    C[i0 + ii, j0 + jj] = acc[ii * NRVW + jj]
                                    W[i0 + ii, j0 + jj] = win[ii * NRVW + jj]


_blocked = _blocked_vec if VEC else _blocked_scalar


@njit(cache=True, nogil=True)
def gemm(A, B, C, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """Rows ``r0:r1`` of ``C (+)= A (x) B`` (``accumulate``) or ``C = A (x) B``."""
    _blocked(A, B, C, None, r0, r1, accumulate, zero, lo, hi)


@njit(cache=True, nogil=True)
def gemm_witness(A, B, C, W, r0, r1, accumulate, zero, lo, hi):  # pragma: no cover - jitted
    """As :func:`gemm`, also writing ``W[i, j]``: the smallest ``k`` that changed ``C[i, j]``, else -1."""
    _blocked(A, B, C, W, r0, r1, accumulate, zero, lo, hi)


# --------------------------------------------------------------------------- the unrolled SIMD micro-kernels


def _offset(i: int, unit: str, base: str = "") -> str:
    """``base + i * unit`` as source text, without the terms that are zero or one."""
    term = "" if i == 0 else unit if i == 1 else f"{i} * {unit}"
    return " + ".join(t for t in (base, term) if t) or "0"


def _at(i: int, v: int, row: str) -> str:
    """The offset of vector ``v`` of row ``i`` in a row-major tile of rows ``row`` elements wide."""
    return " + ".join(t for t in (_offset(i, row, ""), _offset(v, "VW", "")) if t != "0") or "0"


def generated_source(consts: dict) -> str:
    """The source of ``_tile`` and ``_tile_witness`` for ``NV`` vectors a row (the line marked ``# @GENERATED``).

    The accumulators must be separate local variables for LLVM to keep them
    in registers, so the micro-kernels are written out, one line per
    accumulator, from this one description: ``_tile`` holds ``MR x NV``
    accumulators ``cIV`` (row ``I``, vector ``V``), ``_tile_witness``
    ``MR x NV/2`` and as many witness vectors ``wIV``.

    >>> print(generated_source({"NV": 2}).splitlines()[21])
            c00 = vadd(c00, vmul(s, b0, lo, hi), lo, hi)
    """
    nv = int(consts.get("NV", NV))
    rows, cols, wcols = range(MR), range(nv), range(max(1, nv // 2))
    tile = [
        "@njit(cache=True, nogil=True)",
        "def _tile(a, Bp, off, kn, zero, lo, hi, out):  # pragma: no cover - jitted",
        f'    """``MR x {nv}`` vectors: the tile ``(+)_kk a[kk, :] (x) Bp[kk, :]`` (strip at ``Bp[off:]``) into ``out``.',
        "",
        "    The accumulators ``cIV`` (row ``I``, vector ``V``) are locals of SIMD type,",
        "    so LLVM keeps them in registers for the whole ``k`` loop; ``out`` gets the",
        "    tile row-major (``MR x NRV``).",
        '    """',
        "    z = vsplat(zero, VW)",
        *(f"    c{i}{v} = z" for i in rows for v in cols),
        "    for kk in range(kn):",
        *(f"        b{v} = vload(Bp, {_offset(v, 'VW', 'off')}, VW)" for v in cols),
    ]
    for i in rows:
        tile.append(f"        s = vsplat(a[kk * MR + {i}], VW)")
        tile += [f"        c{i}{v} = vadd(c{i}{v}, vmul(s, b{v}, lo, hi), lo, hi)" for v in cols]
    tile += ["        off += NRV", *(f"    vstore(out, {_at(i, v, 'NRV')}, c{i}{v})" for i in rows for v in cols)]
    witness = [
        "@njit(cache=True, nogil=True)",
        "def _tile_witness(a, Bp, off, kn, kc, lo, hi, acc, win):  # pragma: no cover - jitted",
        f'    """Witness micro-kernel, ``MR x {len(wcols)}`` vectors: update the tile ``acc`` in place, '
        '``win`` = last changing ``k``.',
        "",
        "    ``win`` lanes stay -1 where no product changed the entry.  Per step and",
        "    vector: ``new = vadd(old, vmul(a, b))``, then ``win = k if new != old``.",
        '    """',
        "    kv = vsplat(np.int32(-1), VW)",
        *(f"    c{i}{v} = vload(acc, {_at(i, v, 'NRVW')}, VW)" for i in rows for v in wcols),
        *(f"    w{i}{v} = kv" for i in rows for v in wcols),
        "    for kk in range(kn):",
        "        kv = vsplat(np.int32(kc + kk), VW)",
        *(f"        b{v} = vload(Bp, {_offset(v, 'VW', 'off')}, VW)" for v in wcols),
    ]
    for i in rows:
        witness.append(f"        s = vsplat(a[kk * MR + {i}], VW)")
        for v in wcols:
            witness += [f"        t = vadd(c{i}{v}, vmul(s, b{v}, lo, hi), lo, hi)",
                        f"        w{i}{v} = vselect(vne(t, c{i}{v}), kv, w{i}{v})",
                        f"        c{i}{v} = t"]
    witness.append("        off += NRVW")
    for i in rows:
        for v in wcols:
            witness += [f"    vstore(acc, {_at(i, v, 'NRVW')}, c{i}{v})", f"    vstore(win, {_at(i, v, 'NRVW')}, w{i}{v})"]
    return "\n".join(tile) + "\n\n\n" + "\n".join(witness) + "\n"
