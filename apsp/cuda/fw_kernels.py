"""CUDA kernels of the APSP package: the diagonal-block closure and the panel pivot step.

Loaded with :class:`cupy.RawModule` from source generated per semiring and
dtype (the semiring's ``add`` / ``mul`` as the inline device functions of the
GEMM engine, :func:`semiring.cuda_kernels.spec_for` and ``scalar_ops.cuh``:
integer sums saturate at the infinity sentinels exactly as the CPU kernels of
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
blocked Floyd-Warshall (:mod:`apsp.methods.blocked_fw`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import cupy
import numpy as np

from semiring.cuda_kernels import build_module, source_of, spec_defines, spec_for

from ..fw import floyd_warshall_inplace, floyd_warshall_panel_inplace

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["TILE", "close_block_gpu", "panel_closure_pred_gpu", "semiring_device_functions", "semiring_module"]

TILE = 128


def semiring_device_functions(S: "Semiring", dtype) -> str | None:
    """CUDA C source defining ``T``, ``SR_ZERO``, ``sr_add(a, b)`` and ``sr_mul(a, b)`` for ``S`` in ``dtype``.

    Uses the GEMM engine's own expressions (:func:`semiring.cuda_kernels.spec_for`
    and ``scalar_ops.cuh``), so the base kernels and the GEMM agree to the bit;
    ``None`` when ``S`` has neither a built-in family nor CUDA expressions.
    """
    dtype = np.dtype(dtype)
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


#: The CUDA source of this module's kernels (compiled after the semiring's device functions,
#: :func:`apsp.cuda.fw_kernels.semiring_device_functions`).
CUDA_SOURCE = r"""
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


def semiring_module(S: "Semiring", dtype, code: str, name: str) -> "cupy.RawModule | None":
    """``code`` compiled after the device functions of ``S`` in ``dtype`` (checked by loading kernel ``name``).

    ``None`` when ``S`` has no CUDA expressions (:func:`semiring_device_functions`).
    """
    head = semiring_device_functions(S, dtype)
    return None if head is None else build_module(head + code, name)


def _module(S: "Semiring", dtype_name: str) -> _Kernels | None:
    """The base-case kernels of ``S`` in ``dtype_name`` on the current GPU (loaded kernels belong to one GPU)."""
    return _module_on(cupy.cuda.runtime.getDevice(), S, dtype_name)


@functools.cache
def _module_on(device: int, S: "Semiring", dtype_name: str) -> _Kernels | None:
    mod = semiring_module(S, np.dtype(dtype_name), CUDA_SOURCE, "fw_block")
    return None if mod is None else _Kernels(mod)


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
