"""The reference Floyd-Warshall: ``n`` vectorised rank-1 updates (NumPy or CuPy), on a matrix or a row panel.

``D = D (+) D[:, k] (x) D[k, :]`` for ``k = 0 .. n-1`` (Floyd, "Algorithm 97:
Shortest path", CACM 5(6), 1962; Warshall, JACM 9(1), 1962), each update one
broadcast over the whole matrix.  It is simple and obviously right, and on the
GPU it is what a CuPy user would write; it is also the base case for custom
semirings that have no Numba scalar functions.  Predecessors follow the
classical rule: ``P[i, j] = P[k, j]`` when the update strictly improves
``D[i, j]``.

:func:`floyd_warshall_panel_inplace` runs the same rank-1 steps over the
pivots of a row panel only (the first step of the predecessor-consistent
blocked Floyd-Warshall, :mod:`apsp.methods.blocked_fw`): the fallback of the fast
panel kernels for custom semirings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from semiring.backend import array_module

from .elementwise import elementwise_ops

if TYPE_CHECKING:
    from semiring import Semiring

    from .progress import WorkCounter

__all__ = ["floyd_warshall_inplace", "floyd_warshall_panel_inplace"]


def floyd_warshall_inplace(S: "Semiring", D, P=None, progress: "WorkCounter | None" = None) -> None:
    """Replace the square ``D`` (diagonal already ``add``-ed with ``one``) by its closure, in place.

    Parameters
    ----------
    S : Semiring
        An idempotent semiring.
    D : array (n, n)
        NumPy or CuPy; overwritten with the closure.
    P : array (n, n) of int32, optional
        Predecessors, updated in place.
    progress : WorkCounter, optional
        Updated by ``n^2`` work units per step (a :class:`~apsp.progress.Progress`).

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import min_plus
    >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [np.inf, np.inf, 0.0]])
    >>> floyd_warshall_inplace(min_plus, D); D
    array([[ 0.,  1.,  3.],
           [inf,  0.,  2.],
           [inf, inf,  0.]])
    """
    xp = array_module(D)
    add, mul = elementwise_ops(S, xp, D.dtype)
    n = D.shape[0]
    for k in range(n):
        cand = mul(D[:, k : k + 1].copy(), D[k : k + 1, :].copy())
        new = add(D, cand)
        if P is not None:
            better = new != D
            xp.copyto(P, xp.broadcast_to(P[k : k + 1, :], P.shape).copy(), where=better)
        D[...] = new
        if progress is not None:
            progress.update(float(n) * n)


def floyd_warshall_panel_inplace(S: "Semiring", R, P, c0: int) -> None:
    """Floyd-Warshall over the pivots ``c0 .. c0+b-1`` on the ``b x n`` row panel ``R`` (and ``P``), in place.

    Row ``t`` of ``R`` is row ``c0 + t`` of the matrix.  Vectorised rank-1
    steps (NumPy or CuPy, any semiring); strict improvements only, pivots in
    increasing order.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import min_plus
    >>> R = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0]])  # rows 0 and 1 of a 3-vertex matrix
    >>> P = np.array([[-1, 0, -1], [-1, -1, 1]], np.int32)
    >>> floyd_warshall_panel_inplace(min_plus, R, P, 0); R, P
    (array([[ 0.,  1.,  3.],
           [inf,  0.,  2.]]), array([[-1,  0,  1],
           [-1, -1,  1]], dtype=int32))
    """
    xp = array_module(R)
    add, mul = elementwise_ops(S, xp, R.dtype)
    for kk in range(R.shape[0]):
        new = add(R, mul(R[:, c0 + kk : c0 + kk + 1].copy(), R[kk : kk + 1, :].copy()))
        better = new != R
        better[kk, :] = False
        xp.copyto(P, xp.broadcast_to(P[kk : kk + 1, :], P.shape).copy(), where=better)
        xp.copyto(R, new, where=better)
