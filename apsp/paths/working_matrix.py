"""The working matrix of a closure: a copy of the input with ``one`` added on the diagonal, and its predecessors.

Every driver (the in-core one of :mod:`apsp.api`, the out-of-core one of
:mod:`apsp.streaming`) starts from the same two buffers: ``D``, the input with
each diagonal entry ``W[i, i] (+) one`` (staying put is a path; for
``min_plus`` a negative self loop stays negative and is reported as a negative
cycle), and the initial predecessors ``P`` (each edge's tail).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..elementwise import elementwise_ops
from .predecessors import initial_predecessors

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["working_matrix"]


def working_matrix(S: "Semiring", W, xp, predecessors: bool, copy: bool = True):
    """The working matrix ``D`` (diagonal ``(+) one``) and the initial predecessors, on ``xp``.

    Parameters
    ----------
    S : Semiring
    W : array (n, n)
        The input, in module ``xp``; validated by the caller.
    xp : module
        NumPy or CuPy.
    predecessors : bool
        Also build the initial predecessor matrix.
    copy : bool
        ``D`` is a C-ordered copy of ``W``; with ``copy=False`` it is ``W``
        itself when that is already C-contiguous (the caller owns it: a fresh
        transfer), and ``W`` is then modified.

    Returns
    -------
    D : array (n, n)
    P : array (n, n) of int32, or None without ``predecessors``

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import min_plus
    >>> W = np.array([[5.0, 1.0], [-2.0, np.inf]])
    >>> working_matrix(min_plus, W, np, predecessors=True)
    (array([[ 0.,  1.],
           [-2.,  0.]]), array([[-1,  0],
           [ 1, -1]], dtype=int32))
    """
    if copy or not W.flags.c_contiguous:
        D = xp.array(W, copy=True, order="C")
    else:
        D = W
    n = D.shape[0]
    add, _ = elementwise_ops(S, xp, D.dtype)
    idx = xp.arange(n)
    values = S.in_dtype(D.dtype)
    D[idx, idx] = add(D[idx, idx], xp.full(n, values.one, dtype=D.dtype))
    P = initial_predecessors(D, values.zero) if predecessors else None
    return D, P
