"""Last-hop predecessors on the GPU: the rule of :mod:`apsp.paths.last_hop`, read off a CuPy closure.

The same rule as the CPU (rules 1-3 of :mod:`apsp.paths.last_hop`, the same
sums in the dtype, the same qualifying margin for floats, the same order of
the arc lists), so that for one distance matrix both devices give the same
``P``.  The passes, all on the device:

1. ``lh_thresholds``: the bound ``T[j]`` on the weight of a last hop into
   ``j`` (one thread per column, a slab of rows per block, one ``atomicMax``
   per thread and slab on an order-preserving integer image of the double);
2. the arcs ``k -> j`` with ``W[k, j] <= T[j]`` listed per column, lightest
   first, then by ``k`` (CuPy: a mask, ``nonzero`` and two stable sorts);
3. ``lh_rows``: one thread per entry ``(i, j)``; rule 1, then the list of
   ``j`` lightest first until an arc qualifies or no later one can, then
   (float rounding only) rule 3; the arcs looked at are summed per row;
4. ``lh_route_*``: every route is followed back by pointer jumping
   (``ceil(log2 n) + 1`` rounds of ``R[i, j] = R[i, R[i, j]]``); a route that
   does not end at ``i`` loops (a zero-weight cycle).

When a row looked at more than :func:`apsp.paths.last_hop.row_budget` arcs or a
reachable entry has no arc into it, :func:`last_hop_predecessors_gpu` returns
``None`` (the caller runs the Pi update).  When a route loops, rule 4 (the
mending of :func:`apsp.paths.last_hop.last_hop_predecessors`) runs on the host over
copies of ``D`` and ``W``: loops need zero-weight cycles, rare in practice, and
the host code is the reference for them.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import cupy
import numpy as np

from semiring.kernels import sentinels

from ..paths.last_hop import QUALIFY_ULPS, last_hop_predecessors, row_budget, threshold_in
from ..paths.predecessors import PRED_DTYPE
from .fw_kernels import semiring_device_functions, semiring_module

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["last_hop_predecessors_gpu", "gpu_applies"]

#: Rows per block of the threshold pass (one atomic per thread and slab).
THRESHOLD_ROWS = 64
_BLOCK = 256

#: The CUDA source of this module's kernels (compiled after the semiring's device functions,
#: :func:`apsp.cuda.fw_kernels.semiring_device_functions`).
CUDA_SOURCE = r"""
// The qualifying bound x + |x| rel of apsp.paths.last_hop, rounded as the CPU rounds it (no FMA).
__device__ __forceinline__ float lh_bound(float x, float ax, float rel) { return __fadd_rn(x, __fmul_rn(ax, rel)); }
__device__ __forceinline__ double lh_bound(double x, double ax, double rel) { return __dadd_rn(x, __dmul_rn(ax, rel)); }
__device__ __forceinline__ int lh_bound(int x, int, int) { return x; }
__device__ __forceinline__ long long lh_bound(long long x, long long, long long) { return x; }
template <typename U> __device__ __forceinline__ U lh_abs(U x) { return x < (U)0 ? (U)0 - x : x; }

// A double as an unsigned integer of the same order (for atomicMax).
__device__ __forceinline__ unsigned long long lh_order(double x) {
    unsigned long long b = (unsigned long long)__double_as_longlong(x);
    return (b >> 63) ? ~b : (b | 0x8000000000000000ULL);
}

extern "C" __global__ void lh_thresholds(const T* __restrict__ D, const T* __restrict__ W, const T* __restrict__ m,
                                         int n, int rows, double rel, unsigned long long* Tbits) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    const T zero = SR_ZERO;
    const int i0 = blockIdx.y * rows, i1 = min(n, i0 + rows);
    bool any = false;
    double best = 0.0;
    for (int i = i0; i < i1; i++) {
        const long long row = (long long)i * n;
        const T d = D[row + j];
        if (j == i || d == zero) continue;
        const T wd = W[row + j];
        if (wd != zero && sr_mul(D[row + i], wd) <= d) continue;
        const double fd = (double)d;
        double t = fd + 2.0 * fabs(fd) * rel - (double)m[i];
        if (t != t) t = __longlong_as_double(0x7ff0000000000000LL);  // NaN (-inf - -inf) counts as +inf
        if (!any || t > best) best = t;
        any = true;
    }
    if (any) atomicMax(Tbits + j, lh_order(best));
}

extern "C" __global__ void lh_mask(const T* __restrict__ W, const T* __restrict__ Td, int n, bool* mask) {
    const T zero = SR_ZERO;
    const long long total = (long long)n * n;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total;
         q += (long long)gridDim.x * blockDim.x) {
        const int k = (int)(q / n), j = (int)(q % n);
        const T w = W[q];
        mask[q] = w != zero && k != j && w <= Td[j];
    }
}

// Rule 3 of apsp.paths.last_hop for the entry (i, j): the k minimising D[i, k] + W[k, j] (lightest arc,
// then smallest k, among ties); -1 if no arc into j comes from a vertex reachable from i.
__device__ int lh_least_sum(const T* __restrict__ Di, const T* __restrict__ W, const T* __restrict__ Td,
                            const long long* __restrict__ start, const int* __restrict__ src,
                            const T* __restrict__ wt, int n, int j, T mi, unsigned long long& work) {
    const T zero = SR_ZERO;
    T best = zero;
    int bk = -1;
    for (long long t = start[j]; t < start[j + 1]; t++) {
        const T w = wt[t];
        if (bk >= 0 && sr_mul(mi, w) > best) return bk;  // every later arc gives at least mi + w
        work++;
        const T a = Di[src[t]];
        if (a == zero) continue;
        const T v = sr_mul(a, w);
        if (v < best) { best = v; bk = src[t]; }
    }
    if (bk >= 0 && sr_mul(mi, Td[j]) > best) return bk;  // the arcs left out are all heavier than T[j]
    bk = -1;
    for (int k = 0; k < n; k++) {  // every arc into j
        work++;
        const T w = W[(long long)k * n + j];
        const T a = Di[k];
        if (k == j || w == zero || a == zero) continue;
        const T v = sr_mul(a, w);
        if (bk < 0 || v < best) { best = v; bk = k; continue; }
        if (v == best) {
            const T wb = W[(long long)bk * n + j];
            if (w < wb || (w == wb && k < bk)) { best = v; bk = k; }
        }
    }
    return bk;
}

extern "C" __global__ void lh_rows(const T* __restrict__ D, const T* __restrict__ W, const T* __restrict__ Td,
                                   const long long* __restrict__ start, const int* __restrict__ src,
                                   const T* __restrict__ wt, const T* __restrict__ m, int* P, int n, T rel, T hi,
                                   unsigned long long* work_rows, int* missing) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const T zero = SR_ZERO;
    for (int i = blockIdx.y; i < n; i += gridDim.y) {
        unsigned long long work = 0;
        if (j < n) {
            const T* Di = D + (long long)i * n;
            const T x = Di[j];
            int pk = -1;
            if (j != i && x != zero) {
                const T ax = lh_abs(x);
                const T dq = ax < hi ? lh_bound(x, ax, rel) : x;  // no margin at +-inf
                const T wd = W[(long long)i * n + j];
                if (wd != zero && sr_mul(Di[i], wd) <= dq) {
                    pk = i;  // rule 1
                } else {
                    const T mi = m[i];
                    pk = -2;
                    for (long long t = start[j]; t < start[j + 1]; t++) {  // rule 2, lightest first
                        const T w = wt[t];
                        if (sr_mul(mi, w) > dq) break;  // no later arc can qualify
                        work++;
                        const int k = src[t];
                        if (sr_mul(Di[k], w) <= dq) { pk = k; break; }
                    }
                    if (pk == -2) {
                        pk = lh_least_sum(Di, W, Td, start, src, wt, n, j, mi, work);
                        if (pk < 0) atomicExch(missing, 1);
                    }
                }
            }
            P[(long long)i * n + j] = pk;
        }
        for (int o = 16; o > 0; o >>= 1) work += __shfl_down_sync(0xffffffffu, work, o);
        if ((threadIdx.x & 31) == 0 && work) atomicAdd(work_rows + i, work);
    }
}

// Routes: R[i, j] starts at P[i, j] (R[i, i] = i) and jumps R[i, j] = R[i, R[i, j]]; in place is
// fine, since every value read is a vertex further along the same route.
extern "C" __global__ void lh_route_init(const int* __restrict__ P, int* R, int n) {
    const long long total = (long long)n * n;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total;
         q += (long long)gridDim.x * blockDim.x) {
        const int i = (int)(q / n), j = (int)(q % n);
        R[q] = i == j ? i : P[q];
    }
}

extern "C" __global__ void lh_route_jump(int* R, int n) {
    const long long total = (long long)n * n;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total;
         q += (long long)gridDim.x * blockDim.x) {
        const int r = R[q];
        if (r >= 0) R[q] = R[(q / n) * n + r];
    }
}

extern "C" __global__ void lh_route_loops(const int* __restrict__ R, const int* __restrict__ P, int n,
                                          unsigned long long* loops) {
    const long long total = (long long)n * n;
    unsigned long long c = 0;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total;
         q += (long long)gridDim.x * blockDim.x) {
        c += P[q] >= 0 && R[q] != (int)(q / n);
    }
    for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(loops, c);
}
"""


class _Kernels:
    def __init__(self, module) -> None:
        for name in ("lh_thresholds", "lh_mask", "lh_rows", "lh_route_init", "lh_route_jump", "lh_route_loops"):
            setattr(self, name, module.get_function(name))


@functools.cache
def _module(S: "Semiring", dtype_name: str) -> _Kernels | None:
    mod = semiring_module(S, np.dtype(dtype_name), CUDA_SOURCE, "lh_rows")
    return None if mod is None else _Kernels(mod)


def gpu_applies(S: "Semiring", D) -> bool:
    """Whether :func:`last_hop_predecessors_gpu` handles ``S`` and the CuPy matrix ``D``.

    A semiring whose capabilities say ``has_last_hop`` (``min_plus``), in a float or
    signed integer dtype with CUDA expressions.

    >>> import cupy as cp
    >>> from semiring import min_plus, max_plus
    >>> gpu_applies(min_plus, cp.zeros((2, 2))), gpu_applies(max_plus, cp.zeros((2, 2)))
    (True, False)
    """
    return (isinstance(D, cupy.ndarray) and S.capabilities.has_last_hop and D.dtype.kind in "fi"
            and semiring_device_functions(S, D.dtype) is not None)


def _grid_stride(total: int) -> int:
    return max(1, min(-(-total // _BLOCK), 65536))


def _decode(bits: np.ndarray) -> np.ndarray:
    """The doubles behind :c:func:`lh_order` images."""
    top = np.uint64(1 << 63)
    raw = np.where((bits & top) != 0, bits & ~top, ~bits)
    return raw.view(np.float64)


def _arc_lists(k: _Kernels, W, Td, n: int):
    """``(start, src, wt)``: per column ``j`` the arcs ``k -> j`` with ``W[k, j] <= Td[j]``, lightest
    first, then by ``k`` (a mask in row-major order, then two stable sorts)."""
    mask = cupy.empty((n, n), dtype=cupy.bool_)
    k.lh_mask((_grid_stride(n * n),), (_BLOCK,), (W, Td, np.int32(n), mask))
    ks, js = cupy.nonzero(mask)  # row-major: k ascending
    del mask
    wts = W[ks, js]
    order = cupy.argsort(wts)  # stable: equal weights keep k ascending
    order = order[cupy.argsort(js[order])]  # stable: by column, then weight, then k
    src = ks[order].astype(cupy.int32)
    wt = wts[order]
    start = cupy.zeros(n + 1, dtype=cupy.int64)
    if js.size:
        start[1:] = cupy.cumsum(cupy.bincount(js, minlength=n))
    return start, src, wt


def last_hop_predecessors_gpu(S: "Semiring", D, W, out=None):
    """The predecessors of the CuPy closure ``D`` of ``W`` by the rule of :mod:`apsp.paths.last_hop`, or ``None``.

    Parameters
    ----------
    S : Semiring
        ``min_plus`` (see :func:`gpu_applies`).
    D : cupy.ndarray (n, n)
        The finished closure, C-contiguous, its diagonal checked (no negative cycle).
    W : array (n, n)
        The arcs (NumPy or CuPy; cast to ``D``'s dtype on the device).
    out : cupy.ndarray (n, n) of int32, optional
        Where to write ``P`` (C-contiguous).

    Returns
    -------
    P : cupy.ndarray (n, n) of int32, or None
        ``None`` when a row looks at more than :func:`apsp.paths.last_hop.row_budget`
        arcs, a reachable entry has no arc into it, or a looping route cannot
        be mended (see :func:`apsp.paths.last_hop.last_hop_predecessors`).

    Examples
    --------
    >>> import cupy as cp
    >>> from semiring import min_plus
    >>> W = cp.array([[0.0, 1.0, 5.0], [cp.inf, 0.0, 1.0], [cp.inf, cp.inf, 0.0]])
    >>> D = cp.array([[0.0, 1.0, 2.0], [cp.inf, 0.0, 1.0], [cp.inf, cp.inf, 0.0]])
    >>> last_hop_predecessors_gpu(min_plus, D, W)
    array([[-1,  0,  1],
           [-1, -1,  1],
           [-1, -1, -1]], dtype=int32)
    """
    n = D.shape[0]
    P = cupy.empty((n, n), dtype=PRED_DTYPE) if out is None else out
    if n == 0:
        return P
    k = _module(S, D.dtype.name)
    D = cupy.ascontiguousarray(D)
    W = cupy.ascontiguousarray(cupy.asarray(W), dtype=D.dtype)
    dtype = np.dtype(D.dtype)
    zero = S.zero_value(dtype)
    _, hi = sentinels(dtype)
    rel = float(QUALIFY_ULPS * np.finfo(dtype).eps) if dtype.kind == "f" else 0.0
    m = D.min(axis=1)
    # 1. thresholds
    bits = cupy.full(n, np.uint64(0x000FFFFFFFFFFFFF), dtype=cupy.uint64)  # the image of -inf
    grid = (-(-n // _BLOCK), -(-n // THRESHOLD_ROWS))
    k.lh_thresholds(grid, (_BLOCK,), (D, W, m, np.int32(n), np.int32(THRESHOLD_ROWS), np.float64(rel), bits))
    Td = cupy.asarray(threshold_in(_decode(cupy.asnumpy(bits)), dtype))
    # 2. the sorted arc lists
    start, src, wt = _arc_lists(k, W, Td, n)
    # 3. rules 1-3
    work = cupy.zeros(n, dtype=cupy.uint64)
    missing = cupy.zeros(1, dtype=cupy.int32)
    k.lh_rows((-(-n // _BLOCK), min(n, 65535)), (_BLOCK,),
              (D, W, Td, start, src, wt, m, P, np.int32(n), dtype.type(rel), dtype.type(hi), work, missing))
    arcs = int(cupy.count_nonzero(W != zero)) - int(cupy.count_nonzero(cupy.diagonal(W) != zero))
    if int(missing.get()[0]) or int(work.max()) > row_budget(n, arcs):
        return None
    del start, src, wt, work
    # 4. routes that loop (zero-weight cycles) are mended by the host rule
    R = cupy.empty((n, n), dtype=cupy.int32)
    g = (_grid_stride(n * n),)
    k.lh_route_init(g, (_BLOCK,), (P, R, np.int32(n)))
    for _ in range(math.ceil(math.log2(max(n, 2))) + 1):
        k.lh_route_jump(g, (_BLOCK,), (R, np.int32(n)))
    loops = cupy.zeros(1, dtype=cupy.uint64)
    k.lh_route_loops(g, (_BLOCK,), (R, P, np.int32(n), loops))
    del R
    if int(loops.get()[0]):
        Ph = last_hop_predecessors(S, cupy.asnumpy(D), cupy.asnumpy(W))
        if Ph is None:
            return None
        P.set(Ph)
    return P
