"""GPU sparse semiring kernels (CuPy + CUDA C): SpMV gather / scatter, SpMM, and frontier kernels.

:func:`kernels` returns, per semiring and dtype, the object that
:mod:`semiring.sparse` calls with the raw CSR arrays of a ``cupyx.scipy.sparse``
matrix (``gather``, ``scatter``, ``merge``, ``spmm``: the same methods and
semantics as the CPU kernels).  :func:`module` exposes the compiled module to the
graph algorithms of :mod:`graphs.cuda_traversal` (BFS push / pull / small-frontier
levels, near-far SSSP, components), whose kernels live in the same file,
``sparse_kernels.cu``.

Kernels are specialised with the semiring's CUDA expressions
(:func:`semiring.cuda.ops.spec_for`), compiled once by NVRTC per specialisation
(``sm_90`` on Hopper) and cached in memory here and on disk by CuPy.

The gather SpMV gives each row a group of 4 to 32 lanes (by the average row
length, CSR-vector as in Bell & Garland, SC 2009); rows longer than 32 steps of
their group are deferred, through a device-side list, to a second kernel that
gives each a whole block, so a power-law hub never holds up the grid.  Neither
kernel needs a host synchronisation.

>>> import cupy as cp, cupyx.scipy.sparse as csp
>>> from semiring import min_plus
>>> A = csp.csr_matrix(cp.array([[0.0, 2.0], [1.0, 0.0]]))
>>> min_plus.mxv(A, cp.array([0.0, 5.0]))
array([7., 1.])
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import cupy as cp
import numpy as np

from .compile import arch_options, source_of, spec_defines
from .ops import KernelSpec, spec_for

if TYPE_CHECKING:
    from ..core import Semiring

__all__ = ["kernels", "module", "module_for", "launch_grid", "group_size", "BLOCK", "NULL"]

FILE = "sparse_kernels.cu"
BLOCK = 256
SP_XFLAG, SP_MASK, SP_ACCUM, SP_XFIRST = 1, 2, 4, 8


@functools.cache
def _sm_count() -> int:
    return int(cp.cuda.Device().attributes["MultiProcessorCount"])


def group_size(avg_row: float) -> int:
    """Lanes per row of the gather SpMV for an average row length (rows over 32 groups go to blocks).

    >>> group_size(3.0), group_size(32.0), group_size(1000.0)
    (4, 8, 32)
    """
    for group, limit in ((4, 8), (8, 32), (16, 128)):
        if avg_row <= limit:
            return group
    return 32


def launch_grid(work: int, per_thread: int = 1, block: int = BLOCK) -> int:
    """Blocks for ``work`` items: enough to fill the GPU a few times over, never more than needed."""
    need = -(-max(int(work), 1) // (block * per_thread))
    return max(1, min(need, 32 * _sm_count()))


@functools.cache
def module(spec: KernelSpec | None, float_kind: bool = True) -> cp.RawModule:
    """The compiled ``sparse_kernels.cu`` for a semiring specialisation (``None``: the BFS-only build)."""
    defines = spec_defines(spec) if spec is not None else {}
    defines["SP_FLOAT"] = 1 if float_kind else 0
    code = source_of(FILE, defines)
    base = ("-std=c++17",)
    try:
        mod = cp.RawModule(code=code, options=base + arch_options())
        mod.get_function("sp_gather")
        return mod
    except cp.cuda.compiler.CompileException as e:
        if not arch_options() or "arch" not in str(e).lower():
            raise
    mod = cp.RawModule(code=code, options=base)
    mod.get_function("sp_gather")
    return mod


def module_for(S: "Semiring", dtype) -> cp.RawModule:
    """The compiled module of semiring ``S`` in ``dtype``."""
    dtype = np.dtype(dtype)
    spec = spec_for(S, dtype)
    if spec is None:
        from ..errors import UnsupportedOperationError

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

    def __init__(self, S: "Semiring", dtype) -> None:
        self.dtype = np.dtype(dtype)
        self.mod = module_for(S, self.dtype)
        self.zero = S.zero_value(self.dtype)
        self._heavy = cp.zeros(1, dtype=cp.int32)

    def _flags(self, xflag, allow, accumulate, xfirst) -> int:
        return (SP_XFLAG if xflag is not None else 0) | (SP_MASK if allow is not None else 0) | \
            (SP_ACCUM if accumulate else 0) | (SP_XFIRST if xfirst else 0)

    def gather(self, ptr, idx, val, x, xflag, y, hit, allow, accumulate, xfirst):
        n = ptr.shape[0] - 1
        if n == 0:
            return
        nnz = int(idx.shape[0])
        group = group_size(nnz / n)
        heavy_min = 32 * group
        flags = self._flags(xflag, allow, accumulate, xfirst)
        heavy_list = cp.empty(max(1, min(n, nnz // heavy_min + 1)), dtype=cp.int32)
        self._heavy.fill(0)
        rows_per_block = BLOCK // group
        grid = max(1, min(-(-n // rows_per_block), 32 * _sm_count()))
        args = (ptr, idx, val, x, NULL if xflag is None else _u8(xflag), y, _u8(hit),
                NULL if allow is None else _u8(allow), np.int64(n), np.int32(flags), np.int32(group),
                np.int64(heavy_min), heavy_list, self._heavy)
        self.mod.get_function("sp_gather")((grid,), (BLOCK,), args)
        if nnz > heavy_min:
            grid_h = max(1, min(heavy_list.shape[0], 8 * _sm_count()))
            self.mod.get_function("sp_gather_heavy")(
                (grid_h,), (BLOCK,),
                (ptr, idx, val, x, NULL if xflag is None else _u8(xflag), y, _u8(hit), np.int32(flags),
                 heavy_list, self._heavy),
            )

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
def kernels(S: "Semiring", dtype) -> _GpuKernels:
    """The GPU sparse kernel set of ``S`` in ``dtype`` (compiled on first use)."""
    return _GpuKernels(S, np.dtype(dtype))
