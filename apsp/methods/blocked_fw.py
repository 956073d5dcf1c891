"""Blocked Floyd-Warshall, in core, in the row-panel ("fused") form.

G. Venkataraman, S. Sahni, S. Mukhopadhyaya, "A blocked all-pairs
shortest-paths algorithm", J. Exp. Algorithmics 8, 2003; on the GPU,
G. J. Katz, J. T. Kider, "All-pairs shortest-paths for large graphs on the
GPU", Graphics Hardware 2008.  For each block ``r`` of ``b`` pivots, in order:

1. *row panel* ``R = D[r, :]`` (``b x n``): close it over the pivots of ``r``.
   Distances only: the classical dependent phase (close ``D_rr`` with the
   ``close_diagonal`` the caller passes: R-Kleene, which closes blocks of up to
   the base size with the base kernel) and the row half of the partially dependent phase
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
``max_min``, ``lor_land``); see :mod:`apsp.paths.predecessors`.

R-Kleene both calls this schedule (with predecessors, and for small blocks when
:data:`apsp.methods.rkleene.FW_BELOW` asks for it) and closes its diagonal blocks, so
the diagonal closure is a parameter here rather than an import: the
:mod:`apsp.methods.rkleene` module sits above this one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from semiring.kernels import cpu_kernels, cpu_scalar_ops, sentinels

from ..fw import floyd_warshall_panel_inplace

if TYPE_CHECKING:
    from .closure_state import Job

#: ``close_diagonal(job, r0, r1)``: replace ``job.D[r0:r1, r0:r1]`` by its closure, in place.
DiagonalClosure = Callable[["Job", int, int], None]

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
        from ..cuda.fw_kernels import panel_closure_pred_gpu

        panel_closure_pred_gpu(S, R, P, c0)
        return
    if cpu_scalar_ops(S, R.dtype) is None:
        floyd_warshall_panel_inplace(S, R, P, c0)
        return
    mod = cpu_kernels(S, R.dtype, template="apsp._fw_template")
    lo, hi = sentinels(R.dtype)
    Rc, Pc = np.ascontiguousarray(R), np.ascontiguousarray(P)
    mod.panel_closure_pred(Rc, Pc, c0, S.zero_value(R.dtype), lo, hi)
    if Rc is not R:
        R[...] = Rc
    if Pc is not P:
        P[...] = Pc


def blocked_floyd_warshall(job: "Job", block: int, close_diagonal: DiagonalClosure) -> None:
    """Replace ``job.D`` (and ``job.P``) by the closure, block size ``block``.

    Parameters
    ----------
    job : Job
        Holds the buffer, the predecessors and the scratch space.
    block : int
        Pivots per round.
    close_diagonal : callable
        ``close_diagonal(job, r0, r1)`` closes the diagonal block ``[r0, r1)``
        in place (distances only; with predecessors the panel is closed by
        :func:`panel_closure_pred`).  Callers pass :func:`apsp.methods.rkleene.rkleene`.

    Examples
    --------
    >>> from semiring import min_plus
    >>> from apsp.methods.closure_state import Job
    >>> from apsp.methods.rkleene import rkleene
    >>> D = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> blocked_floyd_warshall(Job(min_plus, D, None, D.copy(), base_size=1), block=1, close_diagonal=rkleene); D
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
            close_diagonal(job, r0, r1)
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
