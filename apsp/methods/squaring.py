"""Repeated squaring: ``D <- D (+) D (x) D`` until nothing changes.

The matrix method of P. Harish and P. J. Narayanan ("Accelerating large graph
algorithms on the GPU using CUDA", HiPC 2007) and, before it, the
"repeated squaring" APSP of Cormen et al. (Introduction to Algorithms,
Sec. 25.1).  With ``one`` on the diagonal, ``t`` squarings cover every path of
up to ``2^t`` edges, so ``ceil(log2 n)`` of them suffice; the loop stops early
as soon as a squaring changes nothing (then ``D`` is closed).  Each squaring
is one GEMM of ``n^3`` multiply-adds into a second buffer (the output may not
overlap the operands), so the method does ``n^3`` times the number of
squarings: it wins when shortest paths have few edges (dense random graphs),
and loses to R-Kleene on long paths (road networks).  The GPU GEMM engine's
lazy min skips the all-``zero`` tiles of sparse inputs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .closure_state import Job

__all__ = ["repeated_squaring", "most_squarings"]


def most_squarings(n: int) -> int:
    """The squarings that cover every path of ``n`` vertices: ``ceil(log2 n)`` (0 for ``n <= 1``).

    Each costs ``n^3`` multiply-adds, so a progress display sizes the work as
    ``n^3 * max(1, most_squarings(n))``.

    >>> most_squarings(1), most_squarings(2), most_squarings(1000)
    (0, 1, 10)
    """
    return max(1, math.ceil(math.log2(n))) if n > 1 else 0


def repeated_squaring(job: "Job") -> int:
    """Replace ``job.D`` by its closure by squaring; return the number of squarings done.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import min_plus
    >>> from apsp.methods.closure_state import Job
    >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 1.0], [np.inf, np.inf, 0.0]])
    >>> repeated_squaring(Job(min_plus, D, None, D.copy(), base_size=1)); D
    2
    array([[ 0.,  1.,  2.],
           [inf,  0.,  1.],
           [inf, inf,  0.]])
    """
    D, P = job.D, job.P
    xp = job.xp
    n = D.shape[0]
    most = most_squarings(n)
    src = D
    dst = job.temp("square", D.shape, D.dtype)
    psrc, pdst = P, (None if P is None else job.temp("square-pred", P.shape, P.dtype))
    done = 0
    for _ in range(most):
        dst[...] = src
        if P is not None:
            pdst[...] = psrc
        job.gemm(src, src, dst, PB=psrc, PC=pdst)
        done += 1
        changed = not bool(xp.array_equal(dst, src))
        src, dst = dst, src
        psrc, pdst = pdst, psrc
        if not changed:
            break
    if src is not D:
        D[...] = src
        if P is not None:
            P[...] = psrc
    return done
