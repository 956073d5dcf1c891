"""Dense semiring GEMM on CuPy arrays: ``C = A (x) B`` or ``C (+)= A (x) B``, with the witness.

:func:`matmul_into` is what :func:`semiring.dense.matmul_into` calls for CuPy
arrays.  It launches the register-blocked tiled kernel of ``gemm.cu`` (Volkov &
Demmel, "Benchmarking GPUs to tune dense linear algebra", SC 2008, for the
register blocking; a multistage ``cp.async`` pipeline as in CUTLASS), specialised
by the semiring's add/mul and the dtype, on any row-major views (a leading
dimension, no copy); operands whose columns are not contiguous (transposed views)
are copied first.

*Lazy min* (Harish, Vineet & Narayanan 2009): on large products the operands'
non-zero structure is summarised first (bit ``k`` of a row block of ``A`` / a
column block of ``B`` says "some entry is not the semiring zero"); if the
estimated share of useful ``k`` is small, the lazy kernel visits only those ``k``.
:data:`config` controls it: ``config.lazy = "auto" | "on" | "off"``.

The same probe counts negative entries: a float32 min-plus product of non-negative
operands runs a variant that takes ``min(acc, a0 + b0, a1 + b1)`` as one integer
three-way min on the IEEE bit patterns (which order like int32 for values >= 0),
two k steps per ALU instruction (``config.nonneg``).  Every other float32 min-plus
product without the witness takes the signed path (``config.signed``): a warp whose
running minima are all negative switches to an unsigned three-way max on the bits
(negative floats order like the reverse of their bits read as uint32, and a
non-negative sum can no longer win), and where the probe ran, the k tiles whose block
minima sum to ``>= +0.0`` (``sr_tile_flags``) take the non-negative inner product; the
rest runs the general one.

Integer min-plus products (int32, int64) of at least ``config.plain_int_min_work``
multiply-adds first read the operands' extremes (four CuPy reductions, one read-back);
when :func:`semiring.int_range.plain_sums_exact` proves that no sum can reach a
sentinel or wrap around, they run a specialisation with plain ``min(c, a + b)``
(one ``VIADDMNMX`` per pair on sm_90) instead of the saturating, sticky sum
(``config.plain_int``).  It pads partial tiles with
:func:`semiring.int_range.padding_value`, whose double cannot wrap.

``lor_land`` (bool) products go to the bit-packed kernel (:mod:`.boolean`),
custom semirings without ``cuda_add``/``cuda_mul`` to :func:`semiring.generic.generic_matmul`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cupy as cp
import numpy as np

from ..algebra import Algebra
from ..families import FAMILIES, Family, bitpacked_boolean
from ..generic import generic_matmul
from ..int_range import PLAIN_DTYPES, padding_value, plain_sums_exact, sums_known_in_range
from ..int_range import counts as plain_counts
from .boolean import bool_matmul
from .compile import kernel, tile_for_shape, tile_of
from .layout import is_aligned, out_row_view, row_view
from .ops import KernelSpec, ctype_of, expression, literal, spec_for

__all__ = ["matmul_into", "config", "GemmConfig", "tiled_matmul", "simple_matmul", "nonzero_masks",
           "plain_int_applies", "launch_args", "NULL", "ACCUMULATE", "C_VEC"]

ACCUMULATE, LOAD_W, C_VEC = 1, 2, 4
NULL = np.uint64(0)  # a null device pointer as a kernel argument


@dataclass
class GemmConfig:
    """Run-time switches of the GPU GEMM.

    lazy : ``"auto"`` (zero-skipping when the operands look sparse and the product is
        at least ``lazy_min_work`` multiply-adds), ``"on"`` (always) or ``"off"``.
    lazy_max_fraction : in auto mode, use the lazy kernel when the estimated share of
        useful ``k`` per output block is below this.
    nonneg : ``"auto"``: when the probe of a large product (the one that decides on lazy
        min) finds no negative entry in a float32 min-plus product, use the kernel that
        takes the minimum of two sums with one integer instruction (``"off"``: never).
    signed : ``"auto"``: the other float32 min-plus products without the witness take
        the signed path (each warp switches to the unsigned three-way max once all its
        running minima are negative; probed products also take the non-negative inner
        product over k tiles without a negative sum); ``"off"``: the general kernel
        throughout.
    row_order : ``"auto"`` (the default): a probed signed product whose rows of A sit at
        offsets spread wider than B's entries (rows of both signs mixed in each block, so
        warps keep positive minima while others turn negative) runs on A's rows sorted by
        their (sampled) minimum and writes C's rows back in place: the same sums, so the
        same result bit for bit; the warps then hold rows of one kind.  ``"off"``: A's own
        order.
    plain_int : ``"auto"`` (the default): integer min-plus products of at least
        ``plain_int_min_work`` multiply-adds whose operands pass the range check of
        :mod:`semiring.int_range` run on plain sums (int32: one fused add+min per pair,
        ~90% of the int32 add+min ceiling at n = 8192 on an H200); ``"off"``: always the
        saturating kernel.  Not checked while the stream is being captured into a
        CUDA graph (no read-back there).
    """

    lazy: str = "auto"
    lazy_min_work: int = 1 << 33
    lazy_max_fraction: float = 0.25
    nonneg: str = "auto"
    signed: str = "auto"
    row_order: str = "auto"
    plain_int: str = "auto"
    plain_int_min_work: int = 1 << 30


config = GemmConfig()


def launch_args(A, B, C, W, m, n, k, lda, ldb, ldc, ldw, flags, k_offset):
    """The argument tuple of a GEMM kernel launch (``W`` may be ``None``: a null pointer)."""
    return (
        A, B, C, W if W is not None else NULL,
        np.int32(m), np.int32(n), np.int32(k),
        np.int64(lda), np.int64(ldb), np.int64(ldc), np.int64(ldw),
        np.int32(flags), np.int32(k_offset),
    )


def nonzero_masks(spec: KernelSpec, A, lda: int, B, ldb: int, m: int, n: int, k: int, witness: bool,
                  minima: tuple | None = None):
    """Bit masks of the non-zero columns of A's row blocks and rows of B's column blocks, and their densities.

    Returns ``(nzA, nzB, fA, fB, nonneg)``: ``fA`` is the fraction of set bits of ``nzA``,
    ``nonneg`` whether no entry of A or B is negative (one host synchronisation reads all).
    ``minima``: ``(tminA, tminB)``, arrays of shape ``(row blocks, k)`` and ``(column
    blocks, k)`` of the dtype, which receive the block minima the signed float32
    min-plus path flags its k tiles from (-0.0 below +0.0; ``sr_tile_flags``).
    """
    tile = tile_of(spec, witness)
    kw = (k + 31) // 32
    mb = (m + tile.bm - 1) // tile.bm
    nb = (n + tile.bn - 1) // tile.bn
    nzA = cp.empty((mb, kw), dtype=cp.uint32)
    nzB = cp.empty((nb, kw), dtype=cp.uint32)
    counts = cp.zeros(4, dtype=cp.uint64)  # set bits of nzA, of nzB; words over negatives in A, in B
    tminA, tminB = minima if minima is not None else (NULL, NULL)
    cols = kernel("gemm.cu", "sr_nz_cols", spec, tile)
    rows = kernel("gemm.cu", "sr_nz_rows", spec, tile)
    cols(((k + 255) // 256, mb), (256,),
         (A, nzA, np.int32(m), np.int32(k), np.int64(lda), np.int32(kw), counts, tminA))
    rows((kw, nb), (32,), (B, nzB, np.int32(k), np.int32(n), np.int64(ldb), np.int32(kw), counts[1:], tminB))
    ca, cb, na, nb_ = (int(x) for x in counts.get())
    return nzA, nzB, ca / max(1, mb * k), cb / max(1, nb * k), na + nb_ == 0


def tiled_matmul(spec: KernelSpec, A, B, C, W, accumulate: bool, *, load_w: bool = False, k_offset: int = 0,
                 lazy: str | None = None) -> None:
    """The register-blocked kernel (dense or lazy) on views with contiguous columns; no size-0 handling.

    ``load_w`` keeps ``W`` where nothing improves (streamed k panels); ``k_offset``
    is added to the witness indices.
    """
    m, k = A.shape
    n = B.shape[1]
    itemsize = C.itemsize
    witness = W is not None
    mode = config.lazy if lazy is None else lazy
    tile = tile_of(spec, witness) if mode == "on" else tile_for_shape(spec, witness, m, n)
    A, lda = row_view(A)
    B, ldb = row_view(B)
    Ct, ldc, c_copy = out_row_view(C)
    Wt, ldw, w_copy = (None, 0, False) if W is None else out_row_view(W)
    flags = (ACCUMULATE if accumulate else 0) | (LOAD_W if load_w else 0)
    if is_aligned(Ct, ldc):
        flags |= C_VEC
    grid = ((n + tile.bn - 1) // tile.bn, (m + tile.bm - 1) // tile.bm)
    wit = "true" if witness else "false"
    use_lazy = mode == "on"
    nonneg = False
    minima = None
    order = None
    pending = None
    if mode == "auto" and m * n * k >= config.lazy_min_work:
        if _dense_path(spec, witness, False) == PATH_SIGNED and tile == tile_of(spec, witness):
            minima = (cp.empty((grid[1], k), dtype=C.dtype), cp.empty((grid[0], k), dtype=C.dtype))
            pending = start_row_offsets(spec, tile, A, lda, B, ldb, m, k, n) if config.row_order == "auto" else None
        nzA, nzB, fa, fb, nonneg = nonzero_masks(spec, A, lda, B, ldb, m, n, k, witness, minima)
        use_lazy = fa * fb < config.lazy_max_fraction
        rmin = rows_at_offsets(pending, tile.bm) if minima is not None and not (use_lazy or nonneg) else None
        if rmin is not None:  # A's rows by offset (and their block minima again); C's rows written back below
            order = cp.argsort(rmin)
            A, lda = cp.ascontiguousarray(A[order]), max(k, 1)
            Ct = cp.ascontiguousarray(Ct[order]) if accumulate else cp.empty((m, n), dtype=C.dtype)
            ldc = max(n, 1)
            flags = (flags & ~C_VEC) | (C_VEC if is_aligned(Ct, ldc) else 0)
            row_block_minima(spec, tile, A, lda, m, k, minima[0])
    elif use_lazy:
        nzA, nzB, _, _, _ = nonzero_masks(spec, A, lda, B, ldb, m, n, k, witness)
    if use_lazy:
        tile = tile_of(spec, witness)  # the masks are per default-tile block
        grid = ((n + tile.bn - 1) // tile.bn, (m + tile.bm - 1) // tile.bm)
        smem = tile.smem(itemsize, lazy=True)
        fn = kernel("gemm.cu", f"sr_gemm_lazy<{wit}>", spec, tile, smem)
        args = launch_args(A, B, Ct, Wt, m, n, k, lda, ldb, ldc, ldw, flags, k_offset)
        fn(grid, (tile.threads,), args + (nzA, nzB, np.int32(nzA.shape[1])), shared_mem=smem)
    else:
        vec = 16 // itemsize if (is_aligned(A, lda) and is_aligned(B, ldb)) else 1
        smem = tile.smem(itemsize)
        path = _dense_path(spec, witness, nonneg)
        fn = kernel("gemm.cu", f"sr_gemm<{vec}, {wit}, {path}>", spec, tile, smem)
        signed = minima is not None and path == PATH_SIGNED
        tile_flags = _tile_flags(spec, tile, minima, k, grid) if signed else NULL
        fn(grid, (tile.threads,), launch_args(A, B, Ct, Wt, m, n, k, lda, ldb, ldc, ldw, flags, k_offset)
           + (tile_flags,), shared_mem=smem)
    if order is not None:
        C[order] = Ct
    elif c_copy:
        C[...] = Ct
    if w_copy:
        W[...] = Wt


def start_row_offsets(spec: KernelSpec, tile, A, lda: int, B, ldb: int, m: int, k: int, n: int, width: int = 128):
    """Launch ``sr_row_offsets`` (no wait): ``(rmin, out)`` for :func:`rows_at_offsets`, or ``None`` for too few rows.

    ``rmin``: the minimum of each row of ``A`` over four runs of ``width`` consecutive
    columns spread over its width (+-inf clipped to +-the largest float, so that rows
    without arcs sort to the ends); ``out``: the spread of ``rmin`` in each block of
    ``tile.bm`` rows, then the count, sum and sum of squares of ``B``'s finite entries on
    a grid of at most 128 x 128 of them.  Two small kernels reading a few MB.
    """
    if m // tile.bm < 2 or k < 1 or n < 1:
        return None
    mb = (m + tile.bm - 1) // tile.bm
    width = min(width, k)
    starts = [min(k - width, i * k // 4) for i in range(4)]
    rmin = cp.empty(m, dtype=A.dtype)
    part = cp.empty(16 * 3, dtype=cp.float64)
    out = cp.empty(mb + 3, dtype=cp.float64)
    bstep = max(1, min(k, n) // 128)
    kernel("gemm.cu", "sr_row_offsets", spec, tile)(
        (mb + 1, 16), (256,),
        (A, B, rmin, part, np.int32(m), np.int32(k), np.int32(n), np.int64(lda), np.int64(ldb),
         *(np.int32(s) for s in starts), np.int32(width), np.int32(bstep)))
    kernel("gemm.cu", "sr_row_offsets_spread", spec, tile)((mb + 1,), (tile.bm,), (rmin, part, out, np.int32(m)))
    return rmin, out


def rows_at_offsets(pending, block_rows: int):
    """The row minima of :func:`start_row_offsets` where A's rows sit at offsets, else ``None``.

    Rows sit at offsets when rows at different offsets share row blocks: the spread of
    the row minima inside a block (its median over the whole blocks) is above half of
    the standard deviation of B's finite entries.  Reads a few numbers per row block back.
    """
    if pending is None:
        return None
    rmin, out = pending
    got = out.get()
    mb = got.size - 3
    count, total, squares = got[mb:]
    if count < 2:
        return None
    mean = total / count
    std = float(np.sqrt(max(squares / count - mean * mean, 0.0)))
    return rmin if float(np.median(got[: rmin.size // block_rows])) > 0.5 * std else None


def row_block_minima(spec: KernelSpec, tile, A, lda: int, m: int, k: int, tminA) -> None:
    """``tminA``: the least entry of each block of ``tile.bm`` rows of ``A`` per column (``sr_nz_cols``'s minima)."""
    kw = (k + 31) // 32
    mb = (m + tile.bm - 1) // tile.bm
    nzA = cp.empty((mb, kw), dtype=cp.uint32)
    counts = cp.zeros(3, dtype=cp.uint64)
    kernel("gemm.cu", "sr_nz_cols", spec, tile)(
        ((k + 255) // 256, mb), (256,), (A, nzA, np.int32(m), np.int32(k), np.int64(lda), np.int32(kw), counts, tminA))


def simple_matmul(spec: KernelSpec, A, B, C, W, accumulate: bool, *, load_w: bool = False,
                  k_offset: int = 0) -> None:
    """The one-output-per-thread kernel of ``simple.cu`` (any element type, bool included)."""
    m, k = A.shape
    n = B.shape[1]
    A, lda = row_view(A)
    B, ldb = row_view(B)
    Ct, ldc, c_copy = out_row_view(C)
    Wt, ldw, w_copy = (None, 0, False) if W is None else out_row_view(W)
    flags = (ACCUMULATE if accumulate else 0) | (LOAD_W if load_w else 0)
    wit = "true" if W is not None else "false"
    fn = kernel("simple.cu", f"sr_simple<{wit}>", spec)
    fn(((n + 15) // 16, (m + 15) // 16), (16, 16),
       launch_args(A, B, Ct, Wt, m, n, k, lda, ldb, ldc, ldw, flags, k_offset))
    if c_copy:
        C[...] = Ct
    if w_copy:
        W[...] = Wt


def _tile_flags(spec: KernelSpec, tile, minima: tuple, k: int, grid: tuple):
    """The signed path's flags of the k tiles without a sum below +0.0, per block (``sr_tile_flags``)."""
    words = ((k + tile.bk - 1) // tile.bk + 31) // 32
    flags = cp.empty(grid[0] * grid[1] * words, dtype=cp.uint32)
    kernel("gemm.cu", "sr_tile_flags", spec, tile)(grid, (256,), (*minima, flags, np.int32(k)))
    return flags


#: The ``PATH`` template argument of the dense kernel (``gemm.cu``'s constants of the same names).
PATH_GENERAL, PATH_NONNEG, PATH_SIGNED = 0, 1, 2


def _dense_path(spec: KernelSpec, witness: bool, nonneg: bool) -> int:
    """The dense kernel's ``PATH`` for this product (``nonneg``: the probe found no negative entry)."""
    if witness or spec not in _NONNEG_SPECS:
        return PATH_GENERAL
    if nonneg and config.nonneg == "auto":
        return PATH_NONNEG
    return PATH_SIGNED if config.signed == "auto" else PATH_GENERAL


# Specialisations the non-negative and signed paths are exact for: float32 min-plus.
_NONNEG_SPECS = frozenset(
    {KernelSpec(add="fminf(a, b)", mul="(a + b)", ctype="float", zero="__int_as_float(0x7f800000)", dtype="<f4")}
)


def _plain_int_spec(fam: Family, dtype) -> tuple[KernelSpec, KernelSpec]:
    """``(saturating, plain)`` specialisations of a ``plain_sums`` family in an integer dtype.

    The capability says ``add`` keeps minima and ``mul`` is a sum that ``+inf``
    (the zero, ``iinfo.max``) absorbs, so the plain twin is ``min(a, b)`` over ``a + b``.
    """
    dtype = np.dtype(dtype)
    ctype = ctype_of(dtype)
    zero = literal(np.iinfo(dtype).max, dtype)
    sat = KernelSpec(add=expression(fam.add, dtype), mul=expression(fam.mul, dtype), ctype=ctype, zero=zero,
                     dtype=dtype.str)
    # min(x + y, z): the int32_wrap ceiling's own expression (one VIADDMNMX on sm_90).
    plain = KernelSpec(add="min(a, b)", mul="(a + b)", ctype=ctype, zero=zero, dtype=dtype.str,
                       pad=literal(padding_value(dtype), dtype))
    return sat, plain


# Saturating integer specialisation of each ``plain_sums`` family (min_plus) -> its plain-sum twin
# (exact under the range check).
_PLAIN_INT_SPECS = dict(_plain_int_spec(f, d) for f in FAMILIES.values() if f.capabilities.plain_sums
                        for d in sorted(PLAIN_DTYPES, key=str))


def _extremes(X):
    """``(min, max)`` of a 2-D CuPy array as 0-d arrays, fast for strided views too.

    CuPy reduces a whole non-contiguous view slowly (47 ms for a 4096 x 4096 block
    of an 8192 x 8192 matrix on an H200, ten times the product it guards); along the
    contiguous rows first, then over the row results, it is a plain sweep.
    """
    if X.flags.c_contiguous:
        return X.min(), X.max()
    if X.strides[1] == X.itemsize:  # rows contiguous: reduce each row, then the row results
        return X.min(axis=1).min(), X.max(axis=1).max()
    return X.min(axis=0).min(), X.max(axis=0).max()


def plain_int_applies(spec: KernelSpec, A, B, m: int, n: int, k: int, witness: bool) -> bool:
    """Whether this product runs the plain-sum integer kernel: large enough, and the range check passes.

    The check reads ``min`` / ``max`` of ``A`` and ``B`` (one host synchronisation);
    it is skipped (saturating kernel) for witness products, small products, and
    while the current stream is capturing a CUDA graph.  Inside
    :func:`semiring.int_range.sums_in_range` the caller has proved the range:
    every such product (any size, captured or not) runs plain, unread.  Updates
    :data:`semiring.int_range.counts`.
    """
    if witness or spec not in _PLAIN_INT_SPECS or config.plain_int != "auto":
        return False
    if sums_known_in_range():
        plain_counts["proved"] += 1
        return True
    if m * n * k < config.plain_int_min_work or cp.cuda.get_current_stream().is_capturing():
        return False
    amin, amax, bmin, bmax = (int(x) for x in cp.stack((*_extremes(A), *_extremes(B))).get())
    ok = plain_sums_exact(amin, amax, bmin, bmax, np.dtype(spec.dtype))
    plain_counts["plain" if ok else "saturating"] += 1
    return ok


def empty_product(S: Algebra, A, B, C, W, accumulate: bool) -> bool:
    """Finish a product with an empty dimension and say so; ``False`` (nothing done) when there is none.

    Nothing to write when ``C`` is empty; over an empty inner dimension, C =
    zero (unless accumulating) and W = -1.
    """
    if A.shape[0] == 0 or B.shape[1] == 0:
        return True
    if A.shape[1] == 0:
        if not accumulate:
            C.fill(S.zero_value(C.dtype))
        if W is not None:
            W.fill(-1)
        return True
    return False


def matmul_into(S: Algebra, A, B, C, W=None, accumulate: bool = False) -> None:
    """Unchecked ``C (+)= A (x) B`` on CuPy arrays (views of any strides), witness into ``W``.

    Parameters
    ----------
    S : Semiring
    A, B, C : cupy.ndarray
        ``(m, k)``, ``(k, n)``, ``(m, n)`` of one dtype; ``C`` must not overlap ``A`` or ``B``.
    W : cupy.ndarray of int32, optional
        Witness: the smallest ``k`` achieving ``C[i, j]``; ``-1`` where ``C[i, j]`` is the
        semiring zero, or (with ``accumulate``) where the old value won or tied.
    accumulate : bool
        ``C = C (+) A (x) B`` fused in place.

    Returns
    -------
    None

    Raises
    ------
    Nothing of its own: the caller (:func:`semiring.dense.matmul`) validated the operands.

    Examples
    --------
    >>> import cupy as cp
    >>> from semiring import min_plus
    >>> A = cp.array([[0.0, 1.0], [cp.inf, 0.0]], dtype=cp.float32)
    >>> C = cp.empty_like(A); matmul_into(min_plus, A, A, C); C
    array([[ 0.,  1.],
           [inf,  0.]], dtype=float32)
    """
    if empty_product(S, A, B, C, W, accumulate):
        return
    m, k = A.shape
    n = B.shape[1]
    spec = spec_for(S, C.dtype) if np.dtype(C.dtype) in _SUPPORTED else None
    if spec is None:
        generic_matmul(S, A, B, C, W, accumulate)
        return
    if C.dtype == np.bool_:
        if W is None and bitpacked_boolean(S):
            bool_matmul(A, B, C, accumulate)
        else:
            simple_matmul(spec, A, B, C, W, accumulate)
        return
    if plain_int_applies(spec, A, B, m, n, k, W is not None):
        # No entry is +inf (checked), so the operands hold no semiring zero to skip.
        tiled_matmul(_PLAIN_INT_SPECS[spec], A, B, C, W, accumulate, lazy="off")
        return
    tiled_matmul(spec, A, B, C, W, accumulate)


_SUPPORTED = frozenset(np.dtype(d) for d in (np.float32, np.float64, np.int32, np.int64, np.bool_))
