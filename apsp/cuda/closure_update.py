"""The endpoint-block update of a closure on the GPU, fused: only the block that can improve is read and written.

For better arcs between the endpoints ``E`` (``k`` of them) of a batch, with
``M*`` the closure of their block (:class:`apsp.Closure` computes it), the
new closure is ``D' = D (+) X (x) D[E, :]`` with ``X = D[:, E] (x) M*``.  A
row ``i`` can improve only if ``X[i, b]`` beats ``D[i, E[b]]`` for some ``b``
(every old ``D[i, j]`` is at least as good as ``D[i, E[b]] (x) D[E[b], j]``),
and a column ``j`` only if ``(M* (x) D[E, :])[a, j]`` beats ``D[E[a], j]`` for
some ``a``.  Three launches and one read of two counts:

1. ``cu_rows``: one thread per row: ``X[i, :]`` and whether the row can improve
   (the rows that can are listed through an atomic counter);
2. ``cu_cols``: one thread per column: whether it can improve (listed alike);
3. ``cu_block``: one thread per pair of a listed row and a listed column,
   ``D[i, j] (+)= X[i, :] (x) D[E, j]`` read from a copy of the endpoint rows
   taken before (those rows may themselves improve), written only where better.

Each thread of the first two does ``k**2`` operations and each of the third
``k``: for batches of more than :data:`FUSED_ENDS` endpoints the caller runs
the tiled products on the block instead.

Every pair's value is the same ``add`` over ``b`` of the same products as the
unfused products compute (``add`` is ``min`` or ``max``: exact, order-free).
The semiring's expressions are the GEMM engine's (:func:`apsp.cuda.fw_kernels.semiring_device_functions`),
so integer sums saturate as there.
"""

from __future__ import annotations

import functools

import cupy
import numpy as np

from semiring.cuda_kernels import BLOCK

from .fw_kernels import semiring_module

__all__ = ["improve_block_gpu", "fused_update_applies", "FUSED_ENDS"]

#: Endpoints up to which the fused kernels run (measured on an H100, ``road_network(16384)``: one arc, 2 endpoints,
#: 2.0 ms against 5.5 ms for the tiled products; 64 arcs, 128 endpoints, 33 ms against 11 ms).
FUSED_ENDS = 16

#: The CUDA source of this module's kernels (compiled after the semiring's device functions,
#: :func:`apsp.cuda.fw_kernels.semiring_device_functions`).
CUDA_SOURCE = r"""
extern "C" __global__ void cu_rows(const T* __restrict__ D, long long ld, int n, const int* __restrict__ ends, int k,
                                   const T* __restrict__ M, T* X, int* rows, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const T* Di = D + (long long)i * ld;
    bool better = false;
    for (int b = 0; b < k; ++b) {
        T x = SR_ZERO;
        for (int a = 0; a < k; ++a) x = sr_add(x, sr_mul(Di[ends[a]], M[a * k + b]));
        X[(long long)i * k + b] = x;
        T d = Di[ends[b]];
        if (sr_add(x, d) != d) better = true;
    }
    if (better) rows[atomicAdd(count, 1)] = i;
}

extern "C" __global__ void cu_cols(const T* __restrict__ ER, int n, int k, const T* __restrict__ M, int* cols,
                                   int* count) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    bool better = false;
    for (int a = 0; a < k && !better; ++a) {
        T y = SR_ZERO;
        for (int b = 0; b < k; ++b) y = sr_add(y, sr_mul(M[a * k + b], ER[(long long)b * n + j]));
        T d = ER[(long long)a * n + j];
        if (sr_add(y, d) != d) better = true;
    }
    if (better) cols[atomicAdd(count, 1)] = j;
}

extern "C" __global__ void cu_block(T* D, long long ld, int n, int k, const T* __restrict__ X,
                                    const T* __restrict__ ER, const int* __restrict__ rows, int nr,
                                    const int* __restrict__ cols, int nc) {
    long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= (long long)nr * nc) return;
    int i = rows[t / nc], j = cols[t % nc];
    T* p = D + (long long)i * ld + j;
    T best = *p, old = best;
    const T* Xi = X + (long long)i * k;
    for (int b = 0; b < k; ++b) best = sr_add(best, sr_mul(Xi[b], ER[(long long)b * n + j]));
    if (best != old) *p = best;
}
"""


@functools.cache
def _module_on(device: int, S, dtype_name: str):
    return semiring_module(S, np.dtype(dtype_name), CUDA_SOURCE, "cu_block")


def fused_update_applies(S, D, k: int) -> bool:
    """Whether ``D`` (a CuPy array) can take :func:`improve_block_gpu` for ``k`` endpoints: at most
    :data:`FUSED_ENDS` of them, and a C-ordered square matrix of a semiring and dtype with CUDA expressions."""
    return (k <= FUSED_ENDS and isinstance(D, cupy.ndarray) and D.flags.c_contiguous
            and _module_on(cupy.cuda.runtime.getDevice(), S, D.dtype.name) is not None)


def improve_block_gpu(S, D, ends, Mstar) -> int:
    """``D (+)= D[:, ends] (x) Mstar (x) D[ends, :]`` in place, on the rows and columns that can improve.

    ``D``: the closure (C-ordered CuPy, ``n x n``); ``ends``: the ``k``
    endpoints (host ids); ``Mstar``: the closure of their block (CuPy
    ``k x k``, ``D``'s dtype).  Returns the number of pairs examined (rows
    that can improve times columns that can).
    """
    mod = _module_on(cupy.cuda.runtime.getDevice(), S, D.dtype.name)
    n, k = D.shape[0], int(ends.shape[0])
    ends = cupy.asarray(np.asarray(ends, dtype=np.int32))  # (host ids)
    M = cupy.ascontiguousarray(Mstar, dtype=D.dtype)
    ER = D[ends]  # a copy: the endpoint rows as they were
    X = cupy.empty((n, k), dtype=D.dtype)
    rows = cupy.empty(n, dtype=cupy.int32)
    cols = cupy.empty(n, dtype=cupy.int32)
    counts = cupy.zeros(2, dtype=cupy.int32)
    grid = (-(-n // BLOCK),)
    ld, n32, k32 = np.int64(D.shape[1]), np.int32(n), np.int32(k)
    mod.get_function("cu_rows")(grid, (BLOCK,), (D, ld, n32, ends, k32, M, X, rows, counts[0:1]))
    mod.get_function("cu_cols")(grid, (BLOCK,), (ER, n32, k32, M, cols, counts[1:2]))
    nr, nc = (int(c) for c in counts.get())
    pairs = nr * nc
    if pairs:
        mod.get_function("cu_block")((-(-pairs // BLOCK),), (BLOCK,),
                                     (D, ld, n32, k32, X, ER, rows, np.int32(nr), cols, np.int32(nc)))
    return pairs
