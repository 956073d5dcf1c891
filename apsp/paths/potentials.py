"""Johnson potentials: integer weights of both signs made non-negative, exactly.

Johnson (1977, "Efficient algorithms for shortest paths in sparse networks",
J. ACM 24(1), Sec. 3) adds a virtual source ``s`` joined to every vertex by an
arc of weight 0 and takes ``h(v) = dist(s, v) <= 0``.  Then every reweighted
arc ``w'(u, v) = w(u, v) + h(u) - h(v)`` is at least 0 (the triangle
inequality of ``h``), every path from ``u`` to ``v`` changes by the same
``h(u) - h(v)``, so shortest paths stay shortest, and

    ``d(u, v) = d'(u, v) - h(u) + h(v)``.

In integers all three steps are exact (int64 on the way), so a closure of
signed integer weights can run on the fast non-negative route
(:mod:`apsp.paths.exact_integers`: ``+inf`` lowered to a stand-in, plain sums) and
be mapped back, bit for bit the distances of the general route.

``h`` is found by Bellman-Ford-Moore rounds from the virtual source (Bellman
1958; Ford 1956; Moore 1959): the first round relaxes every arc (``h(v)`` is
the smallest weight into ``v``, or 0), each later round only the arcs out of
the vertices whose ``h`` fell in the round before.  With few negative arcs
(the usual case) that is one pass over the matrix and a handful of rows.  The
rounds stop, and :func:`johnson_potentials` returns ``None``, when they exceed
a budget of relaxed rows (a long chain of negative arcs: the closure would be
cheaper on the general route) or ``n`` rounds (a negative cycle, which the
general route then reports).  CPU rounds run in Numba over column blocks;
on the GPU (and as the reference, ``generic=True``) they are CuPy / NumPy
expressions over row slabs.
"""

from __future__ import annotations

import numpy as np

from semiring.kernels import array_module, run_rows

__all__ = ["johnson_potentials", "default_row_budget", "reweight", "unreweight"]

_I64 = np.iinfo(np.int64)
_ROWS = 1024  # rows of a slab in the array-module expressions: bounded temporaries
_ALIGN = 64  # columns per block are a multiple of this (threads never share a cache line of h)


def default_row_budget(n: int) -> int:
    """The rows Bellman-Ford may relax in all (``max(4 n, n**2 // 64)``) before the general route is cheaper.

    One row costs ``n`` sums, the closure about ``n**3``; the plain-sum
    closure saves a fixed fraction of that, so ``n / 64`` full passes are
    always a small part of the saving.

    >>> default_row_budget(2048)
    65536
    """
    return max(4 * n, n * n // 64)


def johnson_potentials(W, max_rows: int | None = None, *, generic: bool = False):
    """Potentials ``h`` (int64, ``h <= 0``) with ``W[u, v] + h[u] - h[v] >= 0`` on every arc, or ``None``.

    Parameters
    ----------
    W : array (n, n) of int32 or int64
        NumPy or CuPy; ``iinfo.max`` is "no arc".  No entry may be
        ``iinfo.min`` (the ``-inf`` sentinel), and ``(n + 1) max |w|`` must stay
        below ``iinfo(int64).max`` (so no sum here can overflow); the caller
        checks both.
    max_rows : int, optional
        How many rows all rounds may relax together (default
        :func:`default_row_budget`).
    generic : bool
        Use the array-module expressions on the CPU too (the GPU always does).

    Returns
    -------
    h : array (n,) of int64, in ``W``'s module, or None
        ``None`` when the budget or ``n`` rounds run out: a negative cycle, or
        negative paths of many arcs.

    Examples
    --------
    >>> inf = 2**31 - 1
    >>> W = np.array([[0, -3, inf], [inf, 0, 2], [1, inf, 0]], np.int32)
    >>> h = johnson_potentials(W); h
    array([ 0, -3, -1])
    >>> W[2, 0] = 0; johnson_potentials(W) is None  # 0 -> 1 -> 2 -> 0 weighs -1
    True
    """
    xp = array_module(W)
    n = W.shape[0]
    budget = default_row_budget(n) if max_rows is None else int(max_rows)
    top = int(np.iinfo(W.dtype).max)
    h = xp.zeros(n, dtype=np.int64)
    rows = xp.arange(n, dtype=np.int64)  # the virtual source: every vertex reached with 0
    spent = 0
    for _ in range(n):  # a shortest path from the source has at most n arcs (the first one of weight 0)
        spent += int(rows.shape[0])
        if spent > budget:
            return None
        new = _relax(W, rows, h, top, generic)
        changed = new < h
        rows = xp.nonzero(changed)[0].astype(np.int64)
        h = new
        if not rows.shape[0]:
            return h
    return None  # still falling after n rounds: a negative cycle


def _relax(W, rows, h, top: int, generic: bool):
    """One Bellman-Ford round: ``min(h[v], h[u] + W[u, v])`` over the arcs out of ``rows``."""
    xp = array_module(W)
    n = W.shape[0]
    if xp is np and not generic:
        from ._integer_kernels import relax_columns

        out = np.empty(n, dtype=np.int64)
        t = W.dtype.type(top)
        run_rows(lambda c0, c1: relax_columns(W, rows, h, t, c0, c1, out), n, int(rows.shape[0]) * n, align=_ALIGN)
        return out
    out = h.copy()
    for r in range(0, int(rows.shape[0]), _ROWS):
        idx = rows[r : r + _ROWS]
        R = W[idx]
        cand = xp.where(R != top, R.astype(np.int64) + h[idx][:, None], _I64.max).min(axis=0)
        out = xp.minimum(out, cand)
    return out


def reweight(D, h, X, cap: int, *, generic: bool = False) -> None:
    """``X = min(D + h[:, None] - h[None, :], cap)`` over the arcs of ``D``, ``cap`` where ``D`` is ``+inf``; in place.

    ``X`` (int32 or int64, same module as ``D``) may be ``D`` itself.  With
    Johnson potentials every reweighted arc is at least 0; ``cap`` (at most
    ``iinfo(X.dtype).max``) clamps the large ones, and stands in for ``+inf``.

    >>> inf = 2**31 - 1
    >>> D = np.array([[0, -3, inf], [inf, 0, 2], [1, inf, 0]], np.int32)
    >>> X = np.empty_like(D); reweight(D, np.array([0, -3, -1]), X, 100); X
    array([[  0,   0, 100],
           [100,   0,   0],
           [  0, 100,   0]], dtype=int32)
    """
    xp = array_module(D)
    n = D.shape[0]
    top = int(np.iinfo(D.dtype).max)
    if xp is np and not generic:
        from ._integer_kernels import reweight_rows

        t, c = D.dtype.type(top), np.int64(cap)
        run_rows(lambda r0, r1: reweight_rows(D, h, t, X, c, r0, r1), n, n * n)
        return
    for r in range(0, n, _ROWS):
        Y = D[r : r + _ROWS]
        Z = Y.astype(np.int64) + h[r : r + _ROWS, None] - h[None, :]
        X[r : r + _ROWS] = xp.where(Y == top, cap, xp.minimum(Z, cap))


def unreweight(X, h, limit: int, D, *, generic: bool = False) -> None:
    """``D = X - h[:, None] + h[None, :]`` clamped to ``D``'s range, ``+inf`` where ``X >= limit``; in place.

    The way back from :func:`reweight`: ``X`` is the closure of the
    reweighted matrix, ``limit`` its stand-in for ``+inf``.  A distance
    beyond the range of ``D``'s dtype becomes its sentinel (``iinfo.max`` or
    ``iinfo.min``), as an exact sum that saturates would.  ``D`` may be ``X``.

    >>> X = np.array([[0, 0, 100], [100, 0, 0], [0, 100, 0]], np.int32)
    >>> D = np.empty_like(X); unreweight(X, np.array([0, -3, -1]), 100, D); D
    array([[         0,         -3, 2147483647],
           [2147483647,          0,          2],
           [         1, 2147483647,          0]], dtype=int32)
    """
    xp = array_module(X)
    n = X.shape[0]
    info = np.iinfo(D.dtype)
    if xp is np and not generic:
        from ._integer_kernels import unreweight_rows

        lim, lo, hi = np.int64(limit), np.int64(info.min), np.int64(info.max)
        run_rows(lambda r0, r1: unreweight_rows(X, h, lim, D, lo, hi, r0, r1), n, n * n)
        return
    for r in range(0, n, _ROWS):
        Y = X[r : r + _ROWS]
        Z = Y.astype(np.int64) - h[r : r + _ROWS, None] + h[None, :]
        D[r : r + _ROWS] = xp.where(Y >= limit, int(info.max), xp.clip(Z, int(info.min), int(info.max)))
