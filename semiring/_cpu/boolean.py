"""Bit-packed Boolean GEMM (``lor_land``) on the CPU.

``C[i, :] = OR over k with A[i, k] of B[k, :]``: the rows of ``B`` and ``C`` are
packed 64 columns to a ``uint64`` word, so one word ``OR`` combines 64 entries
of ``C`` and the compiler vectorises it further.  The rows of ``B`` are taken
8 at a time through the tables of the Four Russians (see :func:`bool_rows`),
so one table OR stands for up to 8 values of ``k``; all-false bytes of ``A``
are skipped.

Each call computes a range of rows on one thread (the GIL is released);
:mod:`.threads` splits the rows over the pool.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .simd import lanes, vload, vor, vsplat, vstore
from .threads import run_rows

__all__ = ["pack_rows", "unpack_rows", "bool_rows", "bool_matmul"]

_TABLE_BYTES = 1 << 20  # Four-Russians tables in use at once (fits L2)
_CHUNK_WORDS = 64  # columns of C per pass, in 64-bit words
_LW = lanes(np.uint64)  # words per vector register
_PAD = 2 * _LW  # packed rows of B and C are padded to a multiple of this many words
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def pack_rows(X: np.ndarray, multiple: int = 1) -> np.ndarray:
    """Pack each row of a Boolean matrix into ``uint64`` words (bit b of word w is column 64 w + b).

    The word count is rounded up to a ``multiple`` (zero words pad the rows).

    >>> pack_rows(np.array([[True, False, True]])).tolist()
    [[5]]
    """
    m, k = X.shape
    words = -(-max(1, (k + 63) // 64) // multiple) * multiple
    packed8 = np.packbits(X, axis=1, bitorder="little")
    out = np.zeros((m, words * 8), dtype=np.uint8)
    out[:, : packed8.shape[1]] = packed8
    return out.view(np.uint64)


def unpack_rows(P: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`pack_rows` for ``n`` columns.

    >>> unpack_rows(np.array([[5]], dtype=np.uint64), 3).tolist()
    [[True, False, True]]
    """
    return np.unpackbits(P.view(np.uint8), axis=1, count=n, bitorder="little").astype(bool)


@njit("void(uint8[:, ::1], uint64[:, ::1], uint64[:, ::1], int64, int64)", cache=True, nogil=True)
def bool_rows(Ab, Bp, Cp, r0, r1):  # pragma: no cover - jitted
    """``Cp[i] |= OR_{k in A[i]} Bp[k]`` for rows ``r0:r1`` by the method of the Four Russians.

    ``Ab`` is ``A`` packed to bytes (bit ``b`` of byte ``g`` is column ``8 g + b``),
    ``Bp`` and ``Cp`` are packed to ``uint64`` words.  For each group of 8 rows
    of ``B`` a table of all 256 ORs of them is built once; each row of ``C``
    then takes one table row per byte of ``A`` instead of up to 8 rows of
    ``B`` (Arlazarov, Dinic, Kronrod & Faradzev 1970).  Columns are processed
    in chunks of ``_CHUNK_WORDS`` words and groups in panels, so the tables in
    use fit in the L2 cache.  A row chunk of ``C`` whose bits are all set after
    a panel skips the later panels (OR saturates), which makes dense random
    operands cheap; products that stay sparse pay for every panel.
    """
    nbytes = Ab.shape[1]
    K = Bp.shape[0]
    words_c = Cp.shape[1]
    wchunk = min(words_c, _CHUNK_WORDS)
    groups = max(1, _TABLE_BYTES // (256 * 8 * wchunk))
    T = np.zeros((groups, 256, wchunk), dtype=np.uint64)
    Tf = T.reshape(-1)
    Cf = Cp.reshape(-1)
    Bf = Bp.reshape(-1)
    full = np.zeros((max(0, r1 - r0), words_c // (2 * _LW)), dtype=np.bool_)
    for w0 in range(0, words_c, wchunk):
        wn = min(wchunk, words_c - w0)
        for g0 in range(0, nbytes, groups):
            g1 = min(nbytes, g0 + groups)
            for g in range(g0, g1):
                tg = (g - g0) * 256 * wchunk
                for w in range(0, wn, _LW):
                    vstore(Tf, tg + w, vsplat(np.uint64(0), _LW))
                for b in range(8):
                    k = 8 * g + b
                    top = 1 << b
                    for x in range(top):
                        src = tg + x * wchunk
                        dst = tg + (top + x) * wchunk
                        if k < K:
                            b0 = k * words_c + w0
                            for w in range(0, wn, _LW):
                                vstore(Tf, dst + w, vor(vload(Tf, src + w, _LW), vload(Bf, b0 + w, _LW)))
                        else:
                            for w in range(0, wn, _LW):
                                vstore(Tf, dst + w, vload(Tf, src + w, _LW))
            for i in range(r0, r1):
                c0 = i * words_c + w0
                for w in range(0, wn, 2 * _LW):  # two registers of C stay live over the panel
                    if full[i - r0, (w0 + w) // (2 * _LW)]:
                        continue  # OR saturates: these columns of C are all true already
                    acc0 = vload(Cf, c0 + w, _LW)
                    acc1 = vload(Cf, c0 + w + _LW, _LW)
                    for g in range(g0, g1):
                        byte = Ab[i, g]
                        if byte:
                            t0 = ((g - g0) * 256 + byte) * wchunk + w
                            acc0 = vor(acc0, vload(Tf, t0, _LW))
                            acc1 = vor(acc1, vload(Tf, t0 + _LW, _LW))
                    vstore(Cf, c0 + w, acc0)
                    vstore(Cf, c0 + w + _LW, acc1)
                    all_set = True
                    for x in range(2 * _LW):
                        if Cf[c0 + w + x] != _ONES:
                            all_set = False
                            break
                    full[i - r0, (w0 + w) // (2 * _LW)] = all_set


@njit("void(boolean[:, :], uint64[:, ::1], int64, int64)", cache=True, nogil=True)
def _pack_kernel(X, out, r0, r1):  # pragma: no cover - jitted
    """Rows ``r0:r1`` of :func:`pack_rows` (``out`` zero-initialised, wide enough)."""
    k = X.shape[1]
    for i in range(r0, r1):
        for w in range(out.shape[1]):
            word = np.uint64(0)
            for b in range(min(64, k - 64 * w)):
                if X[i, 64 * w + b]:
                    word |= np.uint64(1) << np.uint64(b)
            out[i, w] = word


@njit("void(uint64[:, ::1], boolean[:, :], int64, int64)", cache=True, nogil=True)
def _unpack_kernel(P, C, r0, r1):  # pragma: no cover - jitted
    """Rows ``r0:r1`` of :func:`unpack_rows`, written straight into ``C`` (any strides)."""
    n = C.shape[1]
    for i in range(r0, r1):
        for j in range(n):
            C[i, j] = (P[i, j >> 6] >> np.uint64(j & 63)) & np.uint64(1) != 0


def _pack(X: np.ndarray, multiple: int) -> np.ndarray:
    """:func:`pack_rows` on the thread pool (any layout of ``X``)."""
    m, k = X.shape
    words = -(-max(1, (k + 63) // 64) // multiple) * multiple
    out = np.zeros((m, words), dtype=np.uint64)
    run_rows(lambda r0, r1: _pack_kernel(X, out, r0, r1), m, work=m * k, align=1)
    return out


def bool_matmul(A: np.ndarray, B: np.ndarray, C: np.ndarray, accumulate: bool) -> None:
    """``C = A (x) B`` (or ``C |= ...``) over ``lor_land`` through the packed kernel.

    >>> A = np.array([[True, False], [False, False]]); B = np.array([[False, True], [True, True]])
    >>> C = np.empty((2, 2), bool); bool_matmul(A, B, C, False); C.tolist()
    [[False, True], [False, False]]
    """
    m, k = A.shape
    n = B.shape[1]
    if m == 0 or n == 0:
        return
    words = -(-max(1, (n + 63) // 64) // _PAD) * _PAD
    Cp = _pack(C, _PAD) if accumulate else np.zeros((m, words), dtype=np.uint64)
    if k:
        Ab, Bp = _pack(A, 1).view(np.uint8), _pack(B, _PAD)
        run_rows(lambda r0, r1: bool_rows(Ab, Bp, Cp, r0, r1), m, work=m * k * n // 64, align=1)
    run_rows(lambda r0, r1: _unpack_kernel(Cp, C, r0, r1), m, work=m * n, align=1)
