"""Rows of a closure settled again on the GPU by relaxation over their own sparse arcs, column tile by column tile.

When arcs get worse (or go), the rows ``Q`` whose best routes may have used
them are computed again from the other rows, which stay right:
``D'[Q, J] = A* (x) B`` with ``A = W[Q, Q]`` and ``B = W[Q, C] (x) D[C, J]``
(``C`` the other vertices, ``J`` the columns that can change).  On a sparse
graph (a road network: ``|Q|`` in the thousands, three or four arcs a row)
the dense closure ``A*`` costs ``|Q|**3``; here instead ``D'[Q, J]`` is the
least fixed point of ``X = B (+) A (x) X`` (each column on its own: the
Bellman equations of the routes that stay in ``Q`` and then leave it), found
by relaxation, which costs the arcs of ``Q`` times the columns per sweep and
needs as many sweeps as the routes have hops inside ``Q``.

One launch: a block per tile of columns; its threads first write ``B`` (and
``one`` where a column is the row's own vertex: staying put) into
``D[Q, tile]``, then sweep ``D[Q[i], j] (+)= W[Q[i], x] (x) D[x, j]`` over the
arcs inside ``Q`` until a sweep changes nothing (``__syncthreads_or``), in
place (a value read during a sweep is old or new, both bounds of the fixed
point: the sweep still converges to it).  Blocks touch disjoint columns and
read other rows only outside ``Q``, which no block writes.  A block that has
not converged after ``|Q| + 1`` sweeps (an improving cycle, impossible after
worsening arcs of a closure that existed) raises a flag and the caller
recomputes instead.

Every value is a ``add`` of ``mul`` along routes, as the dense route's
(``add`` is ``min`` or ``max``: exact for integers; float sums are associated
along the route from its far end, within the rounding of one path sum of the
dense product's).  Integer sums saturate (the GEMM engine's expressions,
:func:`apsp.cuda.fw_kernels.semiring_device_functions`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import cupy
import numpy as np

from .fw_kernels import semiring_module

__all__ = ["settle_rows_gpu", "settle_applies", "row_arcs_gpu", "RowArcs", "SETTLE_MAX_DEGREE"]

#: Mean arcs per row of ``Q`` up to which the relaxation runs (denser rows: the dense closure and product).
SETTLE_MAX_DEGREE = 32

#: The CUDA source of this module's kernels (compiled after the semiring's device functions,
#: :func:`apsp.cuda.fw_kernels.semiring_device_functions`).
CUDA_SOURCE = r"""
extern "C" __global__ void settle_tile(T* D, long long rs, long long cs, const long long* __restrict__ Q, int nq,
                                       const long long* __restrict__ cols, int nc,
                                       const long long* __restrict__ ptr, const long long* __restrict__ tgt,
                                       const int* __restrict__ pos, const T* __restrict__ w, T one, int* failed) {
    // threadIdx.x: a column of the tile (tile width blockDim.x), threadIdx.y: rows of Q in steps of blockDim.y
    int jj = blockIdx.x * blockDim.x + threadIdx.x;
    bool col_ok = jj < nc;
    long long col = col_ok ? cols[jj] : 0;
    for (int i = threadIdx.y; i < nq && col_ok; i += blockDim.y) {  // B: leave Q by one arc, then an old row
        long long qi = Q[i];
        T best = (qi == col) ? one : SR_ZERO;
        for (long long e = ptr[i]; e < ptr[i + 1]; ++e) {
            if (pos[e] >= 0) continue;
            best = sr_add(best, sr_mul(w[e], D[tgt[e] * rs + col * cs]));
        }
        D[qi * rs + col * cs] = best;
    }
    __syncthreads();
    int sweeps = 0;
    int changed = 1;
    while (changed) {
        if (++sweeps > nq + 1) {
            if (threadIdx.x == 0 && threadIdx.y == 0) atomicExch(failed, 1);
            return;
        }
        int mine = 0;
        for (int i = threadIdx.y; i < nq && col_ok; i += blockDim.y) {  // inside Q: X (+)= A (x) X
            T* p = D + Q[i] * rs + col * cs;
            T cur = *((volatile T*)p);
            T best = cur;
            for (long long e = ptr[i]; e < ptr[i + 1]; ++e) {
                int k = pos[e];
                if (k < 0) continue;
                T x = *((volatile T*)(D + Q[k] * rs + col * cs));
                best = sr_add(best, sr_mul(w[e], x));
            }
            if (best != cur) {
                *p = best;
                mine = 1;
            }
        }
        changed = __syncthreads_or(mine);
    }
}
"""


@functools.cache
def _module_on(device: int, S, dtype_name: str):
    return semiring_module(S, np.dtype(dtype_name), CUDA_SOURCE, "settle_tile")


class RowArcs(NamedTuple):
    """The arcs of the rows ``Q`` of a dense arc matrix, row by row (CSR over ``Q``), on the GPU."""

    Q: "cupy.ndarray"  #: the rows (int64 ids)
    ptr: "cupy.ndarray"  #: arcs of row ``Q[i]`` at ``ptr[i]:ptr[i + 1]`` (int64)
    tgt: "cupy.ndarray"  #: their heads (int64 ids)
    pos: "cupy.ndarray"  #: where a head lies in ``Q`` (int32; -1 outside)
    w: "cupy.ndarray"  #: their weights
    nnz: int


def row_arcs_gpu(W, Q: np.ndarray, zero) -> RowArcs:
    """The arcs (entries other than ``zero``) of the rows ``Q`` (sorted host ids) of ``W`` (CuPy ``n x n``, any
    strides)."""
    qd = cupy.asarray(Q.astype(np.int64))
    r, tgt = cupy.nonzero(W[qd] != zero)  # row-major: each row's arcs in column order
    ptr = cupy.searchsorted(r, cupy.arange(Q.size + 1)).astype(cupy.int64)
    where = cupy.full(W.shape[0], -1, dtype=cupy.int32)
    where[qd] = cupy.arange(Q.size, dtype=cupy.int32)
    return RowArcs(qd, ptr, tgt.astype(cupy.int64), where[tgt], cupy.ascontiguousarray(W[qd[r], tgt]), int(r.size))


def settle_applies(S, D, arcs: RowArcs) -> bool:
    """Whether the relaxation settles the rows of ``arcs`` in ``D`` (a CuPy array of a numeric dtype whose
    semiring has CUDA expressions): rows sparse enough (:data:`SETTLE_MAX_DEGREE` arcs each on average)."""
    return (isinstance(D, cupy.ndarray) and D.dtype.kind in "iuf"
            and arcs.nnz <= SETTLE_MAX_DEGREE * max(int(arcs.Q.size), 1)
            and _module_on(cupy.cuda.runtime.getDevice(), S, D.dtype.name) is not None)


def settle_rows_gpu(S, D, arcs: RowArcs, cols: np.ndarray, one) -> bool:
    """``D[Q, cols]`` computed again in place from the arcs of the rows ``Q`` (``arcs``) and the rows outside ``Q``.

    ``D``: CuPy ``n x n`` (a view of any whole-element strides); ``cols``:
    sorted host ids; ``one``: the semiring's one.  Returns ``False``
    (``D[Q, cols]`` then undefined) when some tile did not converge, for the
    caller to recompute.
    """
    mod = _module_on(cupy.cuda.runtime.getDevice(), S, D.dtype.name)
    item = D.dtype.itemsize
    rs, cs = D.strides[0] // item, D.strides[1] // item
    cd = cupy.asarray(cols.astype(np.int64))
    failed = cupy.zeros(1, dtype=cupy.int32)
    nc = int(cols.size)
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    width = 32 if nc >= 32 * sms else (16 if nc >= 16 * sms else 8)
    mod.get_function("settle_tile")(
        (-(-nc // width),), (width, 1024 // width),
        (D, np.int64(rs), np.int64(cs), arcs.Q, np.int32(arcs.Q.size), cd, np.int32(nc), arcs.ptr, arcs.tgt,
         arcs.pos, arcs.w, np.asarray(one, dtype=D.dtype)[()], failed))
    return not bool(failed.get()[0])
