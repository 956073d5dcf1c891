"""CUDA kernels of the APSP package: the diagonal-block closure and the panel pivot step.

Loaded with :class:`cupy.RawModule` from source generated per semiring and
dtype (the semiring's ``add`` / ``mul`` as inline device functions, integer
sums saturating at the infinity sentinels exactly as the CPU kernels of
:mod:`semiring._cpu.scalar_ops`), compiled by NVRTC once per process and
cached by CuPy on disk.

``fw_block``: Floyd-Warshall closure of one diagonal block of at most
``TILE = 128`` vertices in a single thread block of 32 x 32 threads, each
thread holding a 4 x 4 sub-tile of the block (and of the predecessors) in
registers.  Before pivot ``k`` the owners of row ``k`` and column ``k``
publish them in shared memory; every thread then updates its 16 entries.  Row
and column ``k`` do not change during step ``k`` (the diagonal is ``one``), so
this equals the sequential algorithm, including its predecessor rule
(``P[i, j] = P[k, j]`` on strict improvement).  This is the base case of
R-Kleene on the GPU (Buluc, Gilbert & Budak 2010, Sec. 4: the diagonal
closure runs in shared memory), launched once per leaf.

``panel_step``: one Floyd-Warshall pivot over a whole ``b x n`` row panel
(``b`` launches per block): the first step of the predecessor-consistent
blocked Floyd-Warshall (:mod:`apsp.blocked_fw`).
"""

from __future__ import annotations

import functools
import struct
from typing import TYPE_CHECKING

import cupy
import numpy as np

from semiring.dispatch import sentinels

from ..fw import floyd_warshall_inplace, floyd_warshall_panel_inplace

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["TILE", "close_block_gpu", "panel_closure_pred_gpu", "semiring_device_functions"]

TILE = 128

_CTYPE = {"float32": "float", "float64": "double", "int32": "int", "int64": "long long", "bool": "bool"}

_SAT_ADD = {
    "int32": "long long s = (long long)a + (long long)b; return s >= HI ? HI : (s <= LO ? LO : (T)s);",
    "int64": (
        "long long s = (long long)((unsigned long long)a + (unsigned long long)b);"
        " if (((a ^ s) & (b ^ s)) < 0) return a > 0 ? HI : LO;"
        " return s >= HI ? HI : (s <= LO ? LO : s);"
    ),
}
_SAT_MUL_NONNEG = {
    "int32": "long long p = (long long)a * (long long)b; return p >= HI ? HI : (T)p;",
    "int64": "if (a != 0 && b > HI / a) return HI; long long p = a * b; return p >= HI ? HI : p;",
}

_MIN = "return a <= b ? a : b;"
_MAX = "return a >= b ? a : b;"


def _builtin_bodies(family: str, dtype: np.dtype) -> tuple[str, str] | None:
    kind, name = dtype.kind, dtype.name
    if family == "min_plus":
        if kind == "f":
            return _MIN, "return a + b;"
        return _MIN, f"if (a == HI || b == HI) return HI; {_SAT_ADD[name]}"
    if family == "max_plus":
        if kind == "f":
            return _MAX, "return a + b;"
        return _MAX, f"if (a == LO || b == LO) return LO; {_SAT_ADD[name]}"
    if family == "max_min":
        return _MAX, _MIN
    if family == "min_max":
        return _MIN, _MAX
    if family == "lor_land":
        return "return a || b;", "return a && b;"
    if family == "max_times":
        return _MAX, ("return a * b;" if kind == "f" else _SAT_MUL_NONNEG[name])
    return None


def _literal(value, dtype: np.dtype) -> str:
    """An exact C literal (floats by bit pattern)."""
    if dtype.kind == "f":
        if dtype.itemsize == 4:
            (bits,) = struct.unpack("<I", struct.pack("<f", float(value)))
            return f"__int_as_float(0x{bits:08x})"
        (bits,) = struct.unpack("<Q", struct.pack("<d", float(value)))
        return f"__longlong_as_double(0x{bits:016x}LL)"
    if dtype.kind == "b":
        return f"((T){int(bool(value))})"
    suffix = "LL" if dtype.itemsize == 8 else ""
    v = int(value)
    return f"(-{-(v + 1)}{suffix} - 1{suffix})" if v < 0 else f"({v}{suffix})"


def _own_device_functions(S: "Semiring", dtype: np.dtype) -> str | None:
    """The fallback definitions (used only if :mod:`semiring.cuda.ops` is unavailable)."""
    bodies = _builtin_bodies(S.family, dtype) if S.family else None
    if bodies is None and S.cuda_add and S.cuda_mul:
        bodies = (f"return ({S.cuda_add});", f"return ({S.cuda_mul});")
    if bodies is None:
        return None
    lo, hi = sentinels(dtype)
    return (
        f"typedef {_CTYPE[dtype.name]} T;\n"
        f"#define LO {_literal(lo, dtype)}\n#define HI {_literal(hi, dtype)}\n"
        f"#define SR_ZERO {_literal(S.zero_value(dtype), dtype)}\n"
        f"__device__ __forceinline__ T sr_add(T a, T b) {{ {bodies[0]} }}\n"
        f"__device__ __forceinline__ T sr_mul(T a, T b) {{ {bodies[1]} }}\n"
    )


def semiring_device_functions(S: "Semiring", dtype) -> str | None:
    """CUDA C source defining ``T``, ``SR_ZERO``, ``sr_add(a, b)`` and ``sr_mul(a, b)`` for ``S`` in ``dtype``.

    Uses the GEMM engine's own expressions (:func:`semiring.cuda.ops.spec_for`
    and ``scalar_ops.cuh``), so the base kernels and the GEMM agree to the bit;
    ``None`` when ``S`` has neither a built-in family nor CUDA expressions.
    """
    dtype = np.dtype(dtype)
    try:
        from semiring.cuda.compile import source_of, spec_defines
        from semiring.cuda.ops import spec_for
    except ImportError:  # pragma: no cover - the engine is part of the package
        return _own_device_functions(S, dtype)
    spec = spec_for(S, dtype)
    if spec is None:
        return None
    defines = "".join(f"#define {k} {v}\n" for k, v in spec_defines(spec).items())
    return (
        defines
        + source_of("scalar_ops.cuh", {})
        + "\ntypedef SR_T T;\n"
        "__device__ __forceinline__ T sr_add(T a, T b) { return SR_ADD(a, b); }\n"
        "__device__ __forceinline__ T sr_mul(T a, T b) { return SR_MUL(a, b); }\n"
    )


_KERNELS = r"""
#define TILE 128
#define SUB 4  /* TILE / 32 */

template <bool PRED>
__device__ __forceinline__ void fw_block_impl(T* D, long long ldd, int* P, long long ldp, int n) {
    const T zero = SR_ZERO;
    __shared__ T rowk[TILE];
    __shared__ T colk[TILE];
    __shared__ int prow[TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    T d[SUB][SUB];
    int p[SUB][SUB];
#pragma unroll
    for (int a = 0; a < SUB; ++a) {
#pragma unroll
        for (int c = 0; c < SUB; ++c) {
            const int i = ty + 32 * a, j = tx + 32 * c;
            const bool in = i < n && j < n;
            d[a][c] = in ? D[i * ldd + j] : zero;
            if (PRED) p[a][c] = in ? P[i * ldp + j] : -1;
        }
    }
    for (int k = 0; k < n; ++k) {
        const int kb = k >> 5, kr = k & 31;
        if (ty == kr) {
#pragma unroll
            for (int a = 0; a < SUB; ++a) {
                if (a == kb) {
#pragma unroll
                    for (int c = 0; c < SUB; ++c) {
                        rowk[tx + 32 * c] = d[a][c];
                        if (PRED) prow[tx + 32 * c] = p[a][c];
                    }
                }
            }
        }
        if (tx == kr) {
#pragma unroll
            for (int c = 0; c < SUB; ++c) {
                if (c == kb) {
#pragma unroll
                    for (int a = 0; a < SUB; ++a) colk[ty + 32 * a] = d[a][c];
                }
            }
        }
        __syncthreads();
#pragma unroll
        for (int a = 0; a < SUB; ++a) {
            const T aik = colk[ty + 32 * a];
            if (aik == zero) continue;
#pragma unroll
            for (int c = 0; c < SUB; ++c) {
                const T nw = sr_add(d[a][c], sr_mul(aik, rowk[tx + 32 * c]));
                if (PRED) {
                    if (nw != d[a][c]) { d[a][c] = nw; p[a][c] = prow[tx + 32 * c]; }
                } else {
                    d[a][c] = nw;
                }
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < SUB; ++a) {
#pragma unroll
        for (int c = 0; c < SUB; ++c) {
            const int i = ty + 32 * a, j = tx + 32 * c;
            if (i < n && j < n) {
                D[i * ldd + j] = d[a][c];
                if (PRED) P[i * ldp + j] = p[a][c];
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(1024) fw_block(T* D, long long ldd, int n) {
    fw_block_impl<false>(D, ldd, (int*)0, 0, n);
}

extern "C" __global__ void __launch_bounds__(1024) fw_block_pred(T* D, long long ldd, int* P, long long ldp, int n) {
    fw_block_impl<true>(D, ldd, P, ldp, n);
}

extern "C" __global__ void panel_step(T* R, long long ldr, int* P, long long ldp, int b, int n, int kk, int c0) {
    const T zero = SR_ZERO;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y;
    if (j >= n || i == kk) return;
    const T a = R[i * ldr + c0 + kk];
    if (a == zero) return;
    const T old = R[i * ldr + j];
    const T nw = sr_add(old, sr_mul(a, R[kk * ldr + j]));
    if (nw != old) {
        R[i * ldr + j] = nw;
        P[i * ldp + j] = P[kk * ldp + j];
    }
}
"""


class _Kernels:
    """The compiled kernels of one (semiring, dtype), looked up once."""

    def __init__(self, module) -> None:
        self.fw_block = module.get_function("fw_block")
        self.fw_block_pred = module.get_function("fw_block_pred")
        self.panel_step = module.get_function("panel_step")


@functools.cache
def _module(S: "Semiring", dtype_name: str) -> _Kernels | None:
    head = semiring_device_functions(S, np.dtype(dtype_name))
    if head is None:
        return None
    base = ("-std=c++17",)
    try:
        from semiring.cuda.compile import arch_options

        arch = tuple(arch_options())
    except ImportError:  # pragma: no cover
        arch = ()
    try:
        return _Kernels(cupy.RawModule(code=head + _KERNELS, options=base + arch))
    except cupy.cuda.compiler.CompileException:
        if not arch:
            raise
        return _Kernels(cupy.RawModule(code=head + _KERNELS, options=base))  # the architecture flag was refused


def _row_stride(X) -> int | None:
    """Elements between rows of a 2-D view with unit column stride, else ``None``."""
    s = X.dtype.itemsize
    if X.shape[1] > 1 and X.strides[1] != s:
        return None
    if X.strides[0] % s:
        return None
    return X.strides[0] // s


def close_block_gpu(S: "Semiring", D, P=None) -> None:
    """Close the square block ``D`` (a CuPy view, at most :data:`TILE` vertices) in place, with ``P``.

    Blocks larger than the tile, views without unit column stride and custom
    semirings without CUDA expressions use the vectorised reference
    (:func:`apsp.fw.floyd_warshall_inplace`) instead.
    """
    n = D.shape[0]
    mod = _module(S, D.dtype.name)
    ldd = _row_stride(D)
    ldp = None if P is None else _row_stride(P)
    if mod is None or n > TILE or ldd is None or (P is not None and ldp is None):
        floyd_warshall_inplace(S, D, P)
        return
    if P is None:
        mod.fw_block((1,), (32, 32), (D, np.int64(ldd), np.int32(n)))
    else:
        mod.fw_block_pred((1,), (32, 32), (D, np.int64(ldd), P, np.int64(ldp), np.int32(n)))


def panel_closure_pred_gpu(S: "Semiring", R, P, c0: int) -> None:
    """Pivots ``c0 .. c0+b-1`` over the ``b x n`` CuPy row panel ``R`` (and ``P``): ``b`` kernel launches."""
    b, n = R.shape
    mod = _module(S, R.dtype.name)
    ldr, ldp = _row_stride(R), _row_stride(P)
    if mod is None or ldr is None or ldp is None:
        floyd_warshall_panel_inplace(S, R, P, c0)
        return
    step = mod.panel_step
    grid = ((n + 255) // 256, b)
    for kk in range(b):
        step(grid, (256,), (R, np.int64(ldr), P, np.int64(ldp), np.int32(b), np.int32(n), np.int32(kk), np.int32(c0)))
