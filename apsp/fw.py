"""The reference Floyd-Warshall: ``n`` vectorised rank-1 updates (NumPy or CuPy).

``D = D (+) D[:, k] (x) D[k, :]`` for ``k = 0 .. n-1`` (Floyd, "Algorithm 97:
Shortest path", CACM 5(6), 1962; Warshall, JACM 9(1), 1962), each update one
broadcast over the whole matrix.  It is simple and obviously right, and on the
GPU it is what a CuPy user would write; it is also the base case for custom
semirings that have no Numba scalar functions.  Predecessors follow the
classical rule: ``P[i, j] = P[k, j]`` when the update strictly improves
``D[i, j]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from semiring.backend import array_module

from ._ops import elementwise_ops

if TYPE_CHECKING:
    from semiring import Semiring

    from .progress import Progress

__all__ = ["floyd_warshall_inplace"]


def floyd_warshall_inplace(S: "Semiring", D, P=None, progress: "Progress | None" = None) -> None:
    """Replace the square ``D`` (diagonal already ``add``-ed with ``one``) by its closure, in place.

    Parameters
    ----------
    S : Semiring
        An idempotent semiring.
    D : array (n, n)
        NumPy or CuPy; overwritten with the closure.
    P : array (n, n) of int32, optional
        Predecessors, updated in place.
    progress : Progress, optional
        Updated by ``n^2`` work units per step.

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
