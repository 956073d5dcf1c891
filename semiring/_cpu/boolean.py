"""Bit-packed Boolean GEMM (``lor_land``) on the CPU.

``C[i, j] = OR_k A[i, k] AND B[k, j]`` with the inner dimension packed 64 to a
word: rows of ``A`` and columns of ``B`` become ``uint64`` bit strings, and one
``AND`` + ``OR`` of two words covers 64 values of ``k``.  The kernel computes a
4 x 4 block of ``C`` at a time (16 independent OR-reductions that the compiler
vectorises over words) and stops scanning a block early once all 16 entries are
true, since OR saturates.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["pack_rows", "bool_gemm_packed", "bool_matmul"]

_CHUNK = 16  # words scanned between early-exit checks
_JC = 256  # columns of C per cache block


def pack_rows(X: np.ndarray) -> np.ndarray:
    """Pack each row of a Boolean matrix into ``uint64`` words (bit k of word w is column 64 w + k).

    >>> pack_rows(np.array([[True, False, True]])).tolist()
    [[5]]
    """
    m, k = X.shape
    words = max(1, (k + 63) // 64)
    packed8 = np.packbits(X, axis=1, bitorder="little")
    out = np.zeros((m, words * 8), dtype=np.uint8)
    out[:, : packed8.shape[1]] = packed8
    return out.view(np.uint64)


@njit("void(uint64[:, ::1], uint64[:, ::1], boolean[:, :], boolean)", parallel=True, cache=True, nogil=True)
def bool_gemm_packed(Ap, Bp, C, accumulate):  # pragma: no cover - jitted
    """``C (|)= Ap . Bp^T`` over packed rows; ``Ap`` is m x W, ``Bp`` is n x W."""
    m, W = Ap.shape
    n = Bp.shape[0]
    zero = np.uint64(0)
    nib = (m + 3) // 4
    for jc in range(0, n, _JC):
        jn = min(_JC, n - jc)
        for ib in prange(nib):
            i0 = ib * 4
            a0 = Ap[min(i0, m - 1)]
            a1 = Ap[min(i0 + 1, m - 1)]
            a2 = Ap[min(i0 + 2, m - 1)]
            a3 = Ap[min(i0 + 3, m - 1)]
            for jb in range(0, jn, 4):
                j0 = jc + jb
                b0 = Bp[min(j0, n - 1)]
                b1 = Bp[min(j0 + 1, n - 1)]
                b2 = Bp[min(j0 + 2, n - 1)]
                b3 = Bp[min(j0 + 3, n - 1)]
                r00 = r01 = r02 = r03 = zero
                r10 = r11 = r12 = r13 = zero
                r20 = r21 = r22 = r23 = zero
                r30 = r31 = r32 = r33 = zero
                for w0 in range(0, W, _CHUNK):
                    for w in range(w0, min(w0 + _CHUNK, W)):
                        x0 = a0[w]
                        x1 = a1[w]
                        x2 = a2[w]
                        x3 = a3[w]
                        y0 = b0[w]
                        y1 = b1[w]
                        y2 = b2[w]
                        y3 = b3[w]
                        r00 |= x0 & y0
                        r01 |= x0 & y1
                        r02 |= x0 & y2
                        r03 |= x0 & y3
                        r10 |= x1 & y0
                        r11 |= x1 & y1
                        r12 |= x1 & y2
                        r13 |= x1 & y3
                        r20 |= x2 & y0
                        r21 |= x2 & y1
                        r22 |= x2 & y2
                        r23 |= x2 & y3
                        r30 |= x3 & y0
                        r31 |= x3 & y1
                        r32 |= x3 & y2
                        r33 |= x3 & y3
                    if (
                        r00 != 0 and r01 != 0 and r02 != 0 and r03 != 0
                        and r10 != 0 and r11 != 0 and r12 != 0 and r13 != 0
                        and r20 != 0 and r21 != 0 and r22 != 0 and r23 != 0
                        and r30 != 0 and r31 != 0 and r32 != 0 and r33 != 0
                    ):
                        break
                res = (
                    (r00, r01, r02, r03),
                    (r10, r11, r12, r13),
                    (r20, r21, r22, r23),
                    (r30, r31, r32, r33),
                )
                for ii in range(min(4, m - i0)):
                    row = res[ii]
                    for jj in range(min(4, n - j0)):
                        v = row[jj] != 0
                        if accumulate:
                            C[i0 + ii, j0 + jj] = C[i0 + ii, j0 + jj] or v
                        else:
                            C[i0 + ii, j0 + jj] = v


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
    if k == 0:
        if not accumulate:
            C[...] = False
        return
    bool_gemm_packed(pack_rows(A), pack_rows(B.T), C, accumulate)
