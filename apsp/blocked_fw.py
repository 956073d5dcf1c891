"""Blocked Floyd-Warshall, in core, in the row-panel ("fused") form.

G. Venkataraman, S. Sahni, S. Mukhopadhyaya, "A blocked all-pairs
shortest-paths algorithm", J. Exp. Algorithmics 8, 2003; on the GPU,
G. J. Katz, J. T. Kider, "All-pairs shortest-paths for large graphs on the
GPU", Graphics Hardware 2008.  For each block ``r`` of ``b`` pivots, in order:

1. *row panel* ``R = D[r, :]`` (``b x n``): close it over the pivots of ``r``.
   Distances only: the classical dependent phase (close ``D_rr`` with the base
   kernel or R-Kleene) and the row half of the partially dependent phase
   (``D_rj (+)= D_rr (x) D_rj``, one GEMM through a copy of ``D_rj``).  With
   predecessors: ``b`` Floyd-Warshall pivot steps over whole panel rows
   (:func:`panel_closure_pred`).
2. *all other rows at once*: ``D[i, :] (+)= D[i, r] (x) R`` for ``i`` outside
   ``r`` (one GEMM through a copy of the ``n x b`` column panel).  On the
   columns of ``r`` this is the column half of the partially dependent phase
   (``D_ir (x) D_rr*``), on the others the independent phase
   (``D_ir (x) D_rr* (x) D_rj = D_ir (x) R_j``): the classical phases 2b and 3
   fused into one product by associativity.

Every ``(i, j, k)`` update still happens once (``n^3`` multiply-adds in all)
and all but the panel work runs in :func:`semiring.dense.matmul_into`.  Because
every update of a row covers *all* its columns, the Pi update keeps each row of
the predecessor matrix a tree even when paths tie (zero-weight cycles,
``max_min``, ``lor_land``); see :mod:`apsp.predecessors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semiring.backend import array_module
from semiring.dispatch import cpu_kernels, cpu_scalar_ops, sentinels

from ._ops import elementwise_ops
from .rkleene import rkleene

if TYPE_CHECKING:
    from ._job import Job

__all__ = ["blocked_floyd_warshall", "panel_closure_pred"]


def _ranges(n: int, r0: int, r1: int) -> list[tuple[int, int]]:
    return [(a, b) for a, b in ((0, r0), (r1, n)) if b > a]


def panel_closure_pred(S, R, P, c0: int) -> None:
    """Floyd-Warshall over the pivots ``c0 .. c0+b-1`` on the ``b x n`` row panel ``R`` (and ``P``), in place.

    Row ``t`` of ``R`` is row ``c0 + t`` of the matrix.  Strict improvements
    only, pivots in increasing order.

    Examples
    --------
    >>> from semiring import min_plus
    >>> R = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0]])  # rows 0 and 1 of a 3-vertex matrix
    >>> P = np.array([[-1, 0, -1], [-1, -1, 1]], np.int32)
    >>> panel_closure_pred(min_plus, R, P, 0); R, P
    (array([[ 0.,  1.,  3.],
           [inf,  0.,  2.]]), array([[-1,  0,  1],
           [-1, -1,  1]], dtype=int32))
    """
    b = R.shape[0]
    if b == 0:
        return
    if not isinstance(R, np.ndarray):
        from .cuda_fw import panel_closure_pred_gpu

        panel_closure_pred_gpu(S, R, P, c0)
        return
    if cpu_scalar_ops(S, R.dtype) is None:
        _panel_generic(S, R, P, c0)
        return
    mod = cpu_kernels(S, R.dtype, template="apsp._fw_template")
    lo, hi = sentinels(R.dtype)
    Rc, Pc = np.ascontiguousarray(R), np.ascontiguousarray(P)
    mod.panel_closure_pred(Rc, Pc, c0, S.zero_value(R.dtype), lo, hi)
    if Rc is not R:
        R[...] = Rc
    if Pc is not P:
        P[...] = Pc


def _panel_generic(S, R, P, c0: int) -> None:
    """:func:`panel_closure_pred` by vectorised rank-1 steps (custom semirings; either device)."""
    xp = array_module(R)
    add, mul = elementwise_ops(S, xp, R.dtype)
    for kk in range(R.shape[0]):
        new = add(R, mul(R[:, c0 + kk : c0 + kk + 1].copy(), R[kk : kk + 1, :].copy()))
        better = new != R
        better[kk, :] = False
        xp.copyto(P, xp.broadcast_to(P[kk : kk + 1, :], P.shape).copy(), where=better)
        xp.copyto(R, new, where=better)


def blocked_floyd_warshall(job: "Job", block: int) -> None:
    """Replace ``job.D`` (and ``job.P``) by the closure, block size ``block``.

    Examples
    --------
    >>> from semiring import min_plus
    >>> from apsp._job import Job
    >>> D = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> blocked_floyd_warshall(Job(min_plus, D, None, D.copy(), base_size=1), block=1); D
    array([[0., 4., 5.],
           [2., 0., 1.],
           [1., 5., 0.]])
    """
    D, P = job.D, job.P
    n = D.shape[0]
    block = max(1, int(block))
    for r0 in range(0, n, block):
        r1 = min(n, r0 + block)
        b = r1 - r0
        others = _ranges(n, r0, r1)
        R = D[r0:r1, :]
        if P is None:
            rkleene(job, r0, r1)
            Drr = D[r0:r1, r0:r1]
            for c in others:
                C = D[r0:r1, c[0] : c[1]]
                job.gemm(Drr, job.copy("data", C), C)
        else:
            panel_closure_pred(job.S, R, P[r0:r1, :], r0)
            job.progress.update(float(b) * b * n)
        for i in others:
            C = D[i[0] : i[1], :]
            A = job.copy("data", D[i[0] : i[1], r0:r1])
            job.gemm(A, R, C, PB=None if P is None else P[r0:r1, :], PC=None if P is None else P[i[0] : i[1], :])
