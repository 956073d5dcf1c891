"""Small non-negative integer distances on two 16-bit lanes per word (DPX): hop counts past the fp32 ceiling.

When every finite weight of a ``min_plus`` closure is a non-negative integer
and no shortest path can reach ``INF = 0x7FFF`` (``(n - 1) * max_w < INF``;
hop counts of up to 32 767 vertices, weights up to ``32766 / (n - 1)``),
the closure runs in ``uint16`` lanes on the packed kernel of
:func:`semiring.cuda_kernels.packed_matmul_into` (one ``VIADDMNMX.U16x2`` per two pairs on
Hopper: twice the fp32 and int32 min-plus ceilings).  It is exact there: every
walk weight below ``INF`` is represented exactly, a sum at or above ``INF``
stands for ``+inf`` and can never be a shortest distance, so each entry ends at
its true distance (or ``INF`` when there is no path).
:func:`apsp.shortest_paths` picks this route by itself (:func:`packed_applies`),
for distances and for the distances under last-hop predecessors.

The closure is R-Kleene (:mod:`apsp.methods.rkleene`, Buluc, Gilbert & Budak 2010)
over two copies of the matrix: ``P``, the lanes packed two per word (right
operands and outputs), and ``U``, each lane duplicated in a word (left
operands).  Every product writes both (the kernel's epilogue), the leaves of
exactly :data:`LEAF` vertices are closed by Floyd-Warshall in shared memory
(writing both), and the four products whose output overlaps an operand
accumulate into the block from a scratch copy of that operand, as in
:mod:`apsp.methods.rkleene`.  Diagonal blocks of at most :data:`GRAPH_MAX` vertices
are closed through a scratch pair whose closure is captured once per size as
a CUDA graph and replayed (as :mod:`apsp.cuda.graph_replay` does for the
ordinary closure): below that size the recursion is bound by launches.  The matrix is padded to a multiple of 64 vertices with
isolated vertices, so every block boundary falls on a 128-byte boundary of
both copies.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cupy
import numpy as np

from semiring.cuda_kernels import PACKED_INF as INF
from semiring.cuda_kernels import build_module, dpx_native, duplicated, packed_matmul_into
from semiring.errors import InvalidEntryError

from .graph_replay import GraphCache, capture

if TYPE_CHECKING:
    from semiring import Semiring

    from ..progress import Progress

__all__ = ["packed_applies", "packed_closure", "config", "PackedConfig", "LEAF", "GRAPH_MAX", "fits",
           "clear_graphs"]

#: The diagonal blocks closed by the shared-memory kernel: exactly this many vertices (the matrix
#: is padded to a multiple of it, and every split falls on it).
LEAF = 64
#: Diagonal blocks of at most this many vertices are closed by replaying a captured CUDA graph.
GRAPH_MAX = 2048
_GRAPH_ENTRIES = 8
_GRAPHS = GraphCache(_GRAPH_ENTRIES)  # one thread at a time replays a graph (its scratch pair is its own)
_FAILED = object()
_ALIGN = LEAF


@dataclass
class PackedConfig:
    """When :func:`apsp.shortest_paths` takes the packed route.

    mode : ``"auto"`` (on Hopper, for ``n >= min_n``, when exact), ``"on"`` (whenever
        exact, any GPU: the DPX intrinsics are emulated elsewhere) or ``"off"``.
    min_n : below this many vertices ``"auto"`` keeps the ordinary closure.
    """

    mode: str = "auto"
    min_n: int = 1024


config = PackedConfig()

_LEAF_KERNEL = r"""
// Floyd-Warshall closure of one 64 x 64 diagonal block of the lanes L (row stride ldl, uint16)
// in shared memory, 1024 threads: thread (tx, ty) = (tid % 64, tid / 64) owns column tx of rows
// ty, ty + 16, ty + 32, ty + 48 in registers.  Pivot row and column do not change in their own
// step (the diagonal is 0), so each step reads them from shared memory, updates the four
// entries, and publishes them for the next step.  Every value stays <= INF, every sum <= 2 INF.
// Writes L back and each lane, duplicated, into U (row stride ldu).
extern "C" __global__ void __launch_bounds__(1024) packed_leaf(unsigned short* L, long long ldl, unsigned* U,
                                                                long long ldu) {
    __shared__ int s[64][65];
    const int tx = threadIdx.x & 63, ty = threadIdx.x >> 6;
    int d[4];
#pragma unroll
    for (int q = 0; q < 4; q++) {
        d[q] = L[(long long)(ty + 16 * q) * ldl + tx];
        s[ty + 16 * q][tx] = d[q];
    }
    for (int k = 0; k < 64; k++) {
        __syncthreads();
        const int bk = s[k][tx];
        int a[4];
#pragma unroll
        for (int q = 0; q < 4; q++) a[q] = s[ty + 16 * q][k];
        __syncthreads();
#pragma unroll
        for (int q = 0; q < 4; q++) {
            d[q] = min(d[q], a[q] + bk);
            s[ty + 16 * q][tx] = d[q];
        }
    }
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const unsigned v = (unsigned)d[q];
        L[(long long)(ty + 16 * q) * ldl + tx] = (unsigned short)v;
        U[(long long)(ty + 16 * q) * ldu + tx] = v * 0x10001u;
    }
}
"""

#: Reductions over the entries below ``lim`` (the others read as ``fill``): least, greatest, and the
#: number of entries with a fractional part (floats).
_BELOW = {
    "min": cupy.ReductionKernel("T x, T lim, T fill", "T y", "x < lim ? x : fill", "min(a, b)", "y = a", "32767",
                                "packed_below_min"),
    "max": cupy.ReductionKernel("T x, T lim, T fill", "T y", "x < lim ? x : fill", "max(a, b)", "y = a", "-1",
                                "packed_below_max"),
    "frac": cupy.ReductionKernel("T x, T lim, T fill", "float64 y", "(x < lim && x != floor(x)) ? 1.0 : 0.0",
                                 "a + b", "y = a", "0", "packed_below_frac"),
}
_TO_LANES = cupy.ElementwiseKernel("T x", "uint16 y", f"y = x >= (T){INF} ? {INF} : (unsigned short)x",
                                   "packed_to_lanes")
_FROM_LANES = cupy.ElementwiseKernel("uint16 y, T big", "T x", f"x = y >= {INF} ? big : (T)y", "packed_from_lanes")


@functools.cache
def _leaf():
    return build_module(_LEAF_KERNEL, "packed_leaf").get_function("packed_leaf")


def clear_graphs() -> None:
    """Forget the captured sub-closures (frees their scratch blocks).

    >>> clear_graphs(); len(_GRAPHS)
    0
    """
    _GRAPHS.clear()


def fits(n: int, max_weight: int) -> bool:
    """Whether every shortest path of ``n`` vertices with integer weights ``0 .. max_weight`` stays below ``INF``.

    >>> fits(16384, 1), fits(32768, 1), fits(1000, 32), fits(1000, 33)
    (True, False, True, False)
    """
    return (n - 1) * max_weight < INF


def _extremes(D) -> tuple[float, float, bool] | None:
    """``(min, max, integral)`` of the entries of ``D`` below ``INF``, None if there are none.

    Fused reductions along the rows, then over the row results: one read of ``D``
    per quantity and one read-back."""
    t = D.dtype.type
    lim = t(INF)
    lo = _BELOW["min"](D, lim, t(INF), axis=1).min()
    hi = _BELOW["max"](D, lim, t(-1), axis=1).max()
    frac = _BELOW["frac"](D, lim, t(0), axis=1).sum() if D.dtype.kind == "f" else cupy.zeros((), cupy.float64)
    lo, hi, frac = (float(v) for v in cupy.stack((lo.astype(cupy.float64), hi.astype(cupy.float64),
                                                   frac.astype(cupy.float64))).get())
    return None if lo >= INF else (lo, hi, frac == 0)


def packed_applies(S: "Semiring", D) -> bool:
    """Whether the closure of the CuPy matrix ``D`` over ``S`` may run on packed 16-bit lanes, exactly.

    ``S``'s capabilities say ``packable`` (``min_plus``); ``D`` holds non-negative integers (any real or signed
    integer dtype) or values at or above ``INF`` (``+inf``, the integer sentinel,
    the stand-in of :mod:`apsp.paths.exact_integers`), and :func:`fits` holds for its
    largest entry below ``INF``; plus the :data:`config` switches.  Three fused
    reductions over ``D`` and one read-back.

    Examples
    --------
    >>> import cupy as cp
    >>> from semiring import min_plus
    >>> config.mode = "on"
    >>> D = cp.array([[0, 1], [cp.inf, 0]], dtype=cp.float32)
    >>> packed_applies(min_plus, D), packed_applies(min_plus, D - 0.5)
    (True, False)
    >>> config.mode = "auto"
    """
    n = D.shape[0]
    if config.mode == "off" or not S.capabilities.packable or D.dtype.kind not in "fi" or n < 2:
        return False
    if config.mode == "auto" and (n < config.min_n or not dpx_native()):
        return False
    return _violation(D) is None


def _violation(D) -> str | None:
    """Why the lanes cannot hold ``D``'s closure exactly (the entries seen), or None when they can."""
    ext = _extremes(D)
    if ext is None:
        return None
    lo, hi, integral = ext
    if integral and lo >= 0 and fits(D.shape[0], int(hi)):
        return None
    return f"got min {lo}, max {hi}, integral {integral}, n = {D.shape[0]}"


def packed_closure(D, progress: "Progress | None" = None, *, checked: bool = False) -> None:
    """Close the CuPy matrix ``D`` (``min_plus``, diagonal already ``<= 0``) in place on packed lanes.

    Parameters
    ----------
    D : cupy.ndarray (n, n)
        Non-negative integer entries, values at or above ``INF`` meaning no arc
        (see :func:`packed_applies`, which the caller checked).  On return,
        unreachable entries hold the dtype's ``+inf`` (float ``inf``, the
        integer sentinel ``iinfo.max``).
    progress : Progress, optional
        Advanced by the multiply-adds of each product and leaf.
    checked : bool
        The caller has established :func:`packed_applies` (``config`` aside);
        otherwise the entries are checked here.

    Raises
    ------
    TypeError
        ``D`` is not a square CuPy array of a real or signed integer dtype.
    InvalidEntryError
        (a ``ValueError``) An entry below ``INF`` is negative or not an integer,
        or the distances may not fit (:func:`fits`); the message gives the
        least and greatest such entry.

    Examples
    --------
    >>> import cupy as cp
    >>> D = cp.array([[0, 1, cp.inf], [cp.inf, 0, 1], [1, cp.inf, 0]], dtype=cp.float32)
    >>> packed_closure(D); D
    array([[0., 1., 2.],
           [2., 0., 1.],
           [1., 2., 0.]], dtype=float32)
    """
    if not isinstance(D, cupy.ndarray) or D.ndim != 2 or D.shape[0] != D.shape[1] or D.dtype.kind not in "fi":
        raise TypeError(f"packed_closure: D must be a square CuPy array of a real or signed integer dtype, "
                        f"got {type(D).__name__} {getattr(D, 'shape', '')} {getattr(D, 'dtype', '')}")
    n = D.shape[0]
    if n == 0:
        return
    why = None if checked else _violation(D)
    if why is not None:
        raise InvalidEntryError(f"packed_closure: D's entries below {INF} must be non-negative integers whose "
                                f"paths stay below {INF} ((n - 1) * max < {INF}); {why}")
    npad = -(-n // _ALIGN) * _ALIGN
    L = cupy.full((npad, npad), INF, dtype=cupy.uint16)
    L[:n, :n] = _TO_LANES(D)
    idx = cupy.arange(n, npad)
    L[idx, idx] = 0
    _State(L, duplicated(L), progress).close(0, npad)
    big = np.inf if D.dtype.kind == "f" else np.iinfo(D.dtype).max
    _FROM_LANES(L[:n, :n], D.dtype.type(big), D)


class _State:
    """The two copies, their scratch buffers and the recursion (R-Kleene)."""

    def __init__(self, L, U, progress, replay: bool = True) -> None:
        self.L, self.U, self.progress = L, U, progress
        self.Pk = L.view(cupy.uint32)  # the lanes, two per word
        self.replay = replay
        self.scratch: dict[str, object] = {}

    def _close_via_graph(self, r0: int, r1: int) -> None:
        """Close the diagonal block through a scratch pair whose closure is captured once per size and
        then replayed as a CUDA graph (a few hundred launches become three operations)."""
        n = r1 - r0
        key = (n, cupy.cuda.Device().id)
        entry, fresh = _GRAPHS.take(key)
        kept = entry
        try:
            if entry is None or entry is _FAILED:
                Ls = cupy.empty((n, n), dtype=cupy.uint16)
                sub = _State(Ls, cupy.empty((n, n), dtype=cupy.uint32), None, replay=False)
                Ls[...] = self.L[r0:r1, r0:r1]
                sub.U[...] = self.U[r0:r1, r0:r1]
                sub.close(0, n)  # the direct run: compiles, sizes the scratch, gives the answer
                self.L[r0:r1, r0:r1] = Ls
                self.U[r0:r1, r0:r1] = sub.U
                if fresh:
                    graph = capture(lambda: sub.close(0, n))
                    kept = _FAILED if graph is None else (sub, graph)
            else:
                sub, graph = entry
                sub.L[...] = self.L[r0:r1, r0:r1]
                sub.U[...] = self.U[r0:r1, r0:r1]
                graph.launch(stream=cupy.cuda.get_current_stream())
                self.L[r0:r1, r0:r1] = sub.L
                self.U[r0:r1, r0:r1] = sub.U
        finally:
            if entry is not None or fresh:
                _GRAPHS.give(key, kept)
        if self.progress is not None:
            self.progress.update(float(n) ** 3)

    def _copy(self, role: str, X):
        """A copy of the block ``X`` in the scratch buffer ``role`` (grown on demand, then reused)."""
        buf = self.scratch.get(role)
        if buf is None or buf.size < X.size:
            buf = self.scratch[role] = cupy.empty(X.size, dtype=cupy.uint32)
        T = buf[: X.size].reshape(X.shape)
        T[...] = X
        return T

    def product(self, A2, B, rows: tuple[int, int], cols: tuple[int, int]) -> None:
        """Block (rows x cols) (+)= A2 (x) B, both copies."""
        (r0, r1), (c0, c1) = rows, cols
        packed_matmul_into(A2, B, self.Pk[r0:r1, c0 // 2 : c1 // 2], self.U[r0:r1, c0:c1], accumulate=True)
        if self.progress is not None:
            self.progress.update(float(r1 - r0) * A2.shape[1] * (c1 - c0))

    def close(self, r0: int, r1: int) -> None:
        n = r1 - r0
        if LEAF < n <= GRAPH_MAX and self.replay:
            self._close_via_graph(r0, r1)
            return
        if n <= LEAF:
            _leaf()((1,), (1024,), (self.L[r0:r1, r0:r1], np.int64(self.L.shape[1]), self.U[r0:r1, r0:r1],
                                    np.int64(self.U.shape[1])))
            if self.progress is not None:
                self.progress.update(float(n) ** 3)
            return
        m = r0 + (n // _ALIGN + 1) // 2 * _ALIGN  # about half, on the 64-vertex grid
        a, b = (r0, m), (m, r1)
        P, U = self.Pk, self.U
        self.close(*a)
        self.product(U[r0:m, r0:m], self._copy("P", P[r0:m, m // 2 : r1 // 2]), a, b)  # A12 = A11 A12
        self.product(self._copy("U", U[m:r1, r0:m]), P[r0:m, r0 // 2 : m // 2], b, a)  # A21 = A21 A11
        self.product(U[m:r1, r0:m], P[r0:m, m // 2 : r1 // 2], b, b)  # A22 (+)= A21 A12
        self.close(*b)
        self.product(U[m:r1, m:r1], self._copy("P", P[m:r1, r0 // 2 : m // 2]), b, a)  # A21 = A22 A21
        self.product(self._copy("U", U[r0:m, m:r1]), P[m:r1, m // 2 : r1 // 2], a, b)  # A12 = A12 A22
        self.product(U[r0:m, m:r1], P[m:r1, r0 // 2 : m // 2], a, a)  # A11 (+)= A12 A21
