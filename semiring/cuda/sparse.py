"""GPU sparse semiring kernels (CuPy + CUDA C): SpMV gather / scatter and SpMM.

:func:`kernels` returns, per semiring and dtype, the object that
:mod:`semiring.sparse` calls with the raw CSR arrays of a ``cupyx.scipy.sparse``
matrix (``gather``, ``scatter``, ``merge``, ``spmm``: the same methods and
semantics as the CPU kernels); their source is ``sparse_kernels.cu``, whose
warp-level helpers (``sparse_device.cuh``: shuffles, appends, chunk lists) the
graph kernels of ``graphs/cuda`` include too.  :data:`BLOCK`, :data:`NULL` and
:func:`launch_grid` are the launch conventions those graph drivers share.

Kernels are specialised with the semiring's CUDA expressions
(:func:`semiring.cuda.ops.spec_for`), compiled once by NVRTC per specialisation
(``sm_90`` on Hopper) and cached in memory here and on disk by CuPy.

The gather SpMV gives each row a group of 4 to 32 lanes (by the average row
length, CSR-vector as in Bell & Garland, SC 2009); rows longer than 32 steps of
their group are cut into chunks of :data:`GATHER_CHUNK` arcs, listed on the
device, and a second kernel gives each chunk a warp, so a power-law hub is
spread over the whole GPU; a third combines the chunks of each long row in a
fixed order.  None of them needs a host synchronisation.

>>> import cupy as cp, cupyx.scipy.sparse as csp
>>> from semiring import min_plus
>>> A = csp.csr_matrix(cp.array([[0.0, 2.0], [1.0, 0.0]]))
>>> min_plus.mxv(A, cp.array([0.0, 5.0]))
array([7., 1.])
"""

from __future__ import annotations

import functools

import cupy as cp
import numpy as np

from ..algebra import Algebra
from ..errors import UnsupportedOperationError
from .compile import build_module, source_of, spec_defines
from .ops import KernelSpec, spec_for

__all__ = ["kernels", "module", "module_for", "launch_grid", "group_size", "gather_plan", "BLOCK", "NULL"]

FILE = "sparse_kernels.cu"
BLOCK = 256
SP_XFLAG, SP_MASK, SP_ACCUM, SP_XFIRST = 1, 2, 4, 8


@functools.cache
def _sm_count() -> int:
    return int(cp.cuda.Device().attributes["MultiProcessorCount"])


def group_size(avg_row: float) -> int:
    """Lanes per row of the gather SpMV for an average row length (rows over 32 groups go to blocks).

    Rows over ``32 * group`` arcs are cut into chunks for a warp each, so the
    group only has to suit the short rows (4 lanes measured best on R-MAT
    scale 22, average row 31, whose long rows hold 72% of the arcs).

    >>> group_size(3.0), group_size(32.0), group_size(1000.0)
    (4, 4, 32)
    """
    for group, limit in ((4, 32), (8, 128), (16, 512)):
        if avg_row <= limit:
            return group
    return 32


GATHER_CHUNK = 512  # arcs per warp in the long-row pass of the gather SpMV


def gather_plan(n_rows: int, nnz: int) -> tuple[int, int, int]:
    """``(group, heavy_min, chunk)`` of the gather SpMV: lanes per row, the row length above
    which a row is cut into chunks of ``chunk`` arcs, one warp each.

    >>> gather_plan(1000, 30000)
    (4, 128, 512)
    """
    group = group_size(nnz / max(n_rows, 1))
    return group, 32 * group, GATHER_CHUNK


def launch_grid(work: int, per_thread: int = 1, block: int = BLOCK) -> int:
    """Blocks for ``work`` items: enough to fill the GPU a few times over, never more than needed."""
    need = -(-max(int(work), 1) // (block * per_thread))
    return max(1, min(need, 32 * _sm_count()))


@functools.cache
def module(spec: KernelSpec | None, float_kind: bool = True) -> cp.RawModule:
    """The compiled ``sparse_kernels.cu`` for a semiring specialisation (``None``: min-plus float32, the default)."""
    defines = spec_defines(spec) if spec is not None else {}
    defines["SP_FLOAT"] = 1 if float_kind else 0
    return build_module(source_of(FILE, defines), "sp_gather")


def module_for(S: Algebra, dtype) -> cp.RawModule:
    """The compiled module of semiring ``S`` in ``dtype``."""
    dtype = np.dtype(dtype)
    spec = spec_for(S, dtype)
    if spec is None:
        raise UnsupportedOperationError(
            f"{S.name} has no CUDA expressions (cuda_add / cuda_mul); its sparse products run on the CPU only"
        )
    return module(spec, dtype.kind == "f")


def _scalar(value, dtype):
    """A kernel argument of C type ``dtype`` (bool travels as unsigned char)."""
    dtype = np.dtype(dtype)
    return np.uint8(bool(value)) if dtype == np.bool_ else dtype.type(value)


def _u8(a):
    """A bool/uint8 CuPy array as uint8 (a view)."""
    return a.view(cp.uint8) if a.dtype == cp.bool_ else a


NULL = np.uint64(0)


class _GpuKernels:
    """The CUDA sparse kernels of one semiring and dtype (same interface as the CPU kernels)."""

    def __init__(self, S: Algebra, dtype) -> None:
        self.dtype = np.dtype(dtype)
        self.mod = module_for(S, self.dtype)
        self.zero = S.zero_value(self.dtype)

    def _flags(self, xflag, allow, accumulate, xfirst) -> int:
        return (SP_XFLAG if xflag is not None else 0) | (SP_MASK if allow is not None else 0) | \
            (SP_ACCUM if accumulate else 0) | (SP_XFIRST if xfirst else 0)

    def gather(self, ptr, idx, val, x, xflag, y, hit, allow, accumulate, xfirst, entry_check=None):
        """The gather SpMV; ``entry_check=(S, flag)`` also sets ``flag[0]`` if a value read is invalid for ``S``."""
        n = ptr.shape[0] - 1
        if n == 0:
            return
        nnz = int(idx.shape[0])
        group, heavy_min, chunk = gather_plan(n, nnz)
        flags = self._flags(xflag, allow, accumulate, xfirst)
        # At most nnz / chunk full chunks plus one partial chunk per long row.
        cap = max(1, nnz // chunk + nnz // (heavy_min + 1) + 1)
        crow = cp.empty(cap, dtype=cp.int32)
        cnum = cp.empty(cap, dtype=cp.int32)
        heavy = cp.zeros(1, dtype=cp.int32)  # per call: this kernel set is shared by every thread
        rows_per_block = BLOCK // group
        grid = max(1, min(-(-n // rows_per_block), 32 * _sm_count()))
        xf = NULL if xflag is None else _u8(xflag)
        chk = self._check_args(entry_check)
        suffix = "_checked" if chk else ""
        self.mod.get_function("sp_gather" + suffix)(
            (grid,), (BLOCK,),
            (ptr, idx, val, x, xf, y, _u8(hit), NULL if allow is None else _u8(allow), np.int64(n), np.int32(flags),
             np.int32(group), np.int64(heavy_min), np.int32(chunk), crow, cnum, heavy) + chk)
        if nnz <= heavy_min:
            return
        part = cp.empty(cap, dtype=y.dtype)
        pgot = cp.empty(cap, dtype=cp.uint8)
        grid_c = max(1, min(-(-cap // (BLOCK // 32)), 16 * _sm_count()))
        self.mod.get_function("sp_gather_chunks" + suffix)(
            (grid_c,), (BLOCK,),
            (ptr, idx, val, x, xf, y, _u8(hit), np.int32(flags), np.int32(chunk), crow, cnum, heavy, part,
             pgot) + chk)
        if nnz > chunk:
            self.mod.get_function("sp_gather_fixup")(
                (launch_grid(cap),), (BLOCK,),
                (ptr, y, _u8(hit), np.int32(flags), np.int32(chunk), crow, cnum, heavy, part, pgot))

    def _check_args(self, entry_check) -> tuple:
        """``(bad0, bad1, nbad, nonneg, flag)`` arguments of the ``_checked`` kernels; ``()`` without checks."""
        if entry_check is None:
            return ()
        t = self.dtype.type if self.dtype != np.bool_ else np.uint8
        S, flag = entry_check
        bad = [t(v) for v in S.forbidden_values(self.dtype)]  # at most two (semiring.sparse checks)
        padded = bad + [t(0)] * (2 - len(bad))
        nonneg = bool(S.nonnegative and self.dtype.kind in "fi")
        return (padded[0], padded[1], np.int32(len(bad)), np.int32(nonneg), flag)

    def scatter(self, ptr, idx, val, rows, xv, t, hit, order, allow, xfirst) -> int:
        t.fill(self.zero)
        hitw = cp.zeros(t.shape[0], dtype=cp.int32)
        count = cp.zeros(1, dtype=cp.int32)
        nrows = int(rows.shape[0])
        if nrows:
            flags = self._flags(None, allow, False, xfirst)
            self.mod.get_function("sp_scatter")(
                (launch_grid(nrows),), (BLOCK,),
                (ptr, idx, val, cp.ascontiguousarray(rows, dtype=cp.int64), xv, np.int64(nrows), t, hitw,
                 order, count, NULL if allow is None else _u8(allow), np.int32(flags)),
            )
        hit[...] = (hitw != 0).astype(hit.dtype)
        return int(count[0])

    def merge(self, t, hit, y, allow, accumulate):
        n = y.shape[0]
        if n == 0:
            return
        flags = self._flags(None, allow, accumulate, False)
        self.mod.get_function("sp_merge")(
            (launch_grid(n),), (BLOCK,),
            (t, _u8(hit), y, NULL if allow is None else _u8(allow), np.int64(n), np.int32(flags)),
        )

    def spmm(self, ptr, idx, val, B, C, allow, accumulate, xfirst):
        m = ptr.shape[0] - 1
        s = C.shape[1]
        if m == 0 or s == 0:
            return
        flags = self._flags(None, allow, accumulate, xfirst)
        warps_per_block = BLOCK // 32
        grid = max(1, min(-(-m // warps_per_block), 32 * _sm_count()))
        self.mod.get_function("sp_spmm")(
            (grid,), (BLOCK,),
            (ptr, idx, val, B, C, NULL if allow is None else _u8(allow), np.int64(m), np.int64(s), np.int32(flags)),
        )


@functools.cache
def kernels(S: Algebra, dtype) -> _GpuKernels:
    """The GPU sparse kernel set of ``S`` in ``dtype`` (compiled on first use)."""
    return _GpuKernels(S, np.dtype(dtype))
