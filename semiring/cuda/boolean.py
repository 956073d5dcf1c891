"""Bit-packed Boolean GEMM (``lor_land``) on CuPy arrays.

``C[i, j] = OR_k A[i, k] AND B[k, j]``: rows of ``A`` and columns of ``B`` are
packed 32 values of ``k`` to a ``uint32`` word (two small packing kernels), and
the tiled kernel of ``bool_gemm.cu`` does one ``acc |= a & b`` (a single LOP3)
per 32 values of ``k``.  The witness of a Boolean product goes through the
generic tiled kernel instead (:func:`semiring.cuda.gemm.simple_matmul`).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from .compile import kernel
from .layout import out_row_view, row_view

__all__ = ["bool_matmul", "pack"]

BM = BN = 128
BKW = 16  # words of k per tile


def _round(x: int, to: int) -> int:
    return (x + to - 1) // to * to


def pack(A, B):
    """Pack ``A`` (m x k) by rows and ``B`` (k x n) by columns: ``(Ap, Bp, mp, np_, kwp)``.

    ``Ap[w * mp + i]`` holds bit ``b`` = ``A[i, 32 w + b]``; ``Bp[w * np_ + j]`` holds
    bit ``b`` = ``B[32 w + b, j]``; padding is zero.
    """
    m, k = A.shape
    n = B.shape[1]
    A, lda = row_view(A)
    B, ldb = row_view(B)
    kwp = _round(max(1, (k + 31) // 32), BKW)
    mp, np_ = _round(m, BM), _round(n, BN)
    Ap = cp.empty(kwp * mp, dtype=cp.uint32)
    Bp = cp.empty(kwp * np_, dtype=cp.uint32)
    rows = kernel("bool_gemm.cu", "sr_pack_rows")
    cols = kernel("bool_gemm.cu", "sr_pack_cols")
    nthreads = 32 * mp * kwp
    rows(((nthreads + 255) // 256,), (256,),
         (A, Ap, np.int32(m), np.int32(k), np.int64(lda), np.int32(mp), np.int32(kwp)))
    nthreads = np_ * kwp
    cols(((nthreads + 255) // 256,), (256,),
         (B, Bp, np.int32(k), np.int32(n), np.int64(ldb), np.int32(np_), np.int32(kwp)))
    return Ap, Bp, mp, np_, kwp


def bool_matmul(A, B, C, accumulate: bool) -> None:
    """``C = A (x) B`` (or ``C |= A (x) B``) over ``lor_land`` through the bit-packed kernel.

    >>> import cupy as cp
    >>> A = cp.array([[True, False], [False, False]]); B = cp.array([[False, True], [True, True]])
    >>> C = cp.empty((2, 2), bool); bool_matmul(A, B, C, False); C.tolist()
    [[False, True], [False, False]]
    """
    m, k = A.shape
    n = B.shape[1]
    if m == 0 or n == 0:
        return
    if k == 0:
        if not accumulate:
            C.fill(False)
        return
    Ap, Bp, mp, np_, kwp = pack(A, B)
    Ct, ldc, copy_back = out_row_view(C)
    fn = kernel("bool_gemm.cu", "sr_bool_gemm")
    fn((np_ // BN, mp // BM), (256,),
       (Ap, Bp, Ct, np.int32(m), np.int32(n), np.int32(mp), np.int32(np_), np.int32(kwp), np.int64(ldc),
        np.int32(1 if accumulate else 0)))
    if copy_back:
        C[...] = Ct
