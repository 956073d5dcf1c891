"""Min-plus on two 16-bit lanes per 32-bit word: Hopper's DPX ``__viaddmin_u16x2``.

One ``VIADDMNMX.U16x2`` instruction computes ``min(a + b, c)`` in both halves
of a word, so a product of small non-negative integers runs two pairs per
instruction: twice the fp32 (and int32) min-plus ceiling on an H100 / H200.
On other GPUs the intrinsic is emulated (correct, not faster).

Layout (the tiled kernel of ``gemm.cu`` with ``T = unsigned int``):

* the right operand ``B`` and the output ``C`` hold two columns per word: the
  ``uint16`` matrix viewed as ``uint32`` (column ``2c`` in the low half);
* the left operand is read *duplicated*: ``A2[i, k]`` holds ``A[i, k]`` in both
  halves, so one word of ``A2`` meets one word of ``B`` in one instruction;
* the kernel's epilogue also writes each output lane, duplicated, into ``C2``
  (``KernelSpec.dup_out``), so a closure that uses its own blocks as left and
  right operands keeps both layouts current without a second pass.

Values are lanes ``0 .. INF`` with ``INF = 0x7FFF`` standing for ``+inf``.  No
sum wraps (``INF + INF = 0xFFFE``), and the accumulator starts at ``INF``, so
every result is again at most ``INF``: a sum at or above ``INF`` is read as
``+inf``.  That is exact when every true distance of interest is below ``INF``
(the caller's proof, e.g. :mod:`apsp.cuda.packed_closure`); sums that reach
``INF`` are then never shortest.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from .compile import kernel, tile_for_shape, tile_of
from .gemm import ACCUMULATE, C_VEC, NULL, launch_args
from .layout import is_aligned, row_view
from .ops import KernelSpec

__all__ = ["INF", "SPEC", "packed_matmul_into", "duplicated", "dpx_native"]

#: ``+inf`` of a lane.
INF = 0x7FFF
#: Products too small to fill the GPU with the default tile take the small one.
SMALL_TILES = True

#: The packed min-plus specialisation of the tiled kernel.
SPEC = KernelSpec(add="__vminu2(a, b)", mul="__vadd2(a, b)", ctype="unsigned int", zero="0x7FFF7FFFu",
                  dtype="<u4", pad="0x7FFF7FFFu", muladd="__viaddmin_u16x2(a, b, c)", dup_out=True)


def dpx_native() -> bool:
    """Whether the current GPU runs DPX instructions in hardware (compute capability 9.x: Hopper).

    >>> isinstance(dpx_native(), bool)
    True
    """
    return int(cp.cuda.Device().compute_capability) // 10 == 9


def duplicated(X16):
    """``uint32`` words holding each lane of the ``uint16`` array ``X16`` twice (the left-operand layout).

    >>> import cupy as cp
    >>> duplicated(cp.array([[1, 0x7FFF]], dtype=cp.uint16))
    array([[     65537, 2147450879]], dtype=uint32)
    """
    out = X16.astype(cp.uint32)
    out *= np.uint32(0x10001)
    return out


def packed_matmul_into(A2, B, C, C2=None, accumulate: bool = True) -> None:
    """``C (+)= A (x) B`` in packed min-plus, two output columns per word.

    Parameters
    ----------
    A2 : cupy.ndarray (m, k) of uint32
        The left operand, each lane duplicated (:func:`duplicated`).
    B : cupy.ndarray (k, w) of uint32
        The right operand, ``2 w`` columns packed two per word.
    C : cupy.ndarray (m, w) of uint32
        The output, packed like ``B``; must not overlap ``A2`` or ``B``.
    C2 : cupy.ndarray (m, 2 w) of uint32, optional
        Also receives every lane of the new ``C``, duplicated.
    accumulate : bool
        ``C = min(C, A (x) B)`` (else ``C = A (x) B``).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        Shapes that do not chain, or an operand that is not ``uint32``.

    Examples
    --------
    >>> import cupy as cp
    >>> A = cp.array([[0, 3], [0x7FFF, 0]], dtype=cp.uint16)
    >>> C = A.copy().view(cp.uint32); C2 = cp.empty((2, 2), cp.uint32)
    >>> packed_matmul_into(duplicated(A), A.view(cp.uint32), C, C2)
    >>> C.view(cp.uint16)
    array([[    0,     3],
           [32767,     0]], dtype=uint16)
    """
    m, k = A2.shape
    if B.shape[0] != k or C.shape != (m, B.shape[1]) or (C2 is not None and C2.shape != (m, 2 * C.shape[1])):
        raise ValueError(f"packed_matmul_into: shapes {A2.shape}, {B.shape} -> {C.shape} do not chain")
    for name, X in (("A2", A2), ("B", B), ("C", C), ("C2", C2)):
        if X is not None and X.dtype != np.uint32:
            raise ValueError(f"packed_matmul_into: {name} must be uint32, got {X.dtype}")
    w = B.shape[1]
    if m == 0 or w == 0:
        return
    if k == 0:
        if not accumulate:
            C.fill(np.uint32(0x7FFF7FFF))
        if C2 is not None:
            C2[...] = duplicated(C.view(cp.uint16))
        return
    A2, lda = row_view(A2)
    B, ldb = row_view(B)
    Ct, ldc = row_view(C, output=True)
    if Ct is not C or (C2 is not None and row_view(C2, output=True)[0] is not C2):
        raise ValueError("packed_matmul_into: C and C2 must be row-major views")
    ldw = row_view(C2, output=True)[1] if C2 is not None else 0
    tile = tile_for_shape(SPEC, False, m, w) if SMALL_TILES else tile_of(SPEC, False)
    flags = (ACCUMULATE if accumulate else 0) | (C_VEC if is_aligned(C, ldc) else 0)
    vec = 4 if (is_aligned(A2, lda) and is_aligned(B, ldb)) else 1
    smem = tile.smem(4)
    fn = kernel("gemm.cu", f"sr_gemm<{vec}, false>", SPEC, tile, smem)
    grid = ((w + tile.bn - 1) // tile.bn, (m + tile.bm - 1) // tile.bm)
    fn(grid, (tile.threads,), launch_args(A2, B, C, C2, m, w, k, lda, ldb, ldc, ldw, flags, 0) + (NULL,),
       shared_mem=smem)
