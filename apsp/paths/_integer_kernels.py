"""CPU kernels of :mod:`apsp.paths.exact_integers`, :mod:`apsp.paths.potentials` and the integer side of
:mod:`apsp.paths.last_hop` (Numba; imported lazily, compiled on first call, cached).

Every kernel works on a range of rows or columns so that :func:`semiring.kernels.run_rows`
can split it over the shared thread pool; all arithmetic is in int64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["masked_extremes_rows", "relax_columns", "reweight_rows", "unreweight_rows", "widen_rows", "narrow_rows",
           "zero_cycle_rows"]


@njit(cache=True, nogil=True)
def masked_extremes_rows(W, e1, e2, r0, r1, out):  # pragma: no cover - jitted
    """``out = [min, max, count]`` over the entries of rows ``r0:r1`` of ``W`` equal to neither ``e1`` nor ``e2``
    (``min`` / ``max`` start at ``out``'s values: a reduction per thread)."""
    lo = out[0]
    hi = out[1]
    count = 0
    for u in range(r0, r1):
        for v in range(W.shape[1]):
            x = np.int64(W[u, v])
            keep = W[u, v] != e1 and W[u, v] != e2
            lo = min(lo, x) if keep else lo
            hi = max(hi, x) if keep else hi
            count += keep
    out[0] = lo
    out[1] = hi
    out[2] = count


@njit(cache=True, nogil=True)
def relax_columns(W, rows, h, top, c0, c1, out):  # pragma: no cover - jitted
    """``out[v] = min(h[v], min over u in rows with W[u, v] != top of h[u] + W[u, v])`` for ``v`` in ``c0:c1``."""
    big = np.int64(9223372036854775807)
    for v in range(c0, c1):
        out[v] = h[v]
    for t in range(rows.shape[0]):
        u = rows[t]
        hu = h[u]
        for v in range(c0, c1):
            w = W[u, v]
            s = hu + np.int64(w) if w != top else big
            out[v] = min(out[v], s)


@njit(cache=True, nogil=True)
def reweight_rows(D, h, top, X, cap, r0, r1):  # pragma: no cover - jitted
    """``X[u, v] = min(D[u, v] + h[u] - h[v], cap)``, and ``cap`` where ``D[u, v] == top``; rows ``r0:r1``.

    ``X`` may be ``D`` itself (each entry is read before it is written)."""
    n = D.shape[1]
    for u in range(r0, r1):
        hu = h[u]
        for v in range(n):
            d = D[u, v]
            x = np.int64(d) + hu - h[v]
            if d == top or x > cap:
                x = cap
            X[u, v] = x


@njit(cache=True, nogil=True)
def unreweight_rows(X, h, limit, D, lo, hi, r0, r1):  # pragma: no cover - jitted
    """``D[u, v] = X[u, v] - h[u] + h[v]`` clamped to ``[lo, hi]``, and ``hi`` where ``X[u, v] >= limit``; rows ``r0:r1``.

    ``D`` may be ``X`` itself."""
    n = X.shape[1]
    for u in range(r0, r1):
        hu = h[u]
        for v in range(n):
            x = X[u, v]
            d = np.int64(x) - hu + h[v]
            if x >= limit or d >= hi:
                d = hi
            elif d <= lo:
                d = lo
            D[u, v] = d


@njit(cache=True, nogil=True)
def widen_rows(W, out, r0, r1):  # pragma: no cover - jitted
    """int32 ``W`` into int64 ``out``, the int32 sentinels mapped to int64's; rows ``r0:r1``."""
    for u in range(r0, r1):
        for v in range(W.shape[1]):
            w = W[u, v]
            x = np.int64(w)
            if w == 2147483647:
                x = np.int64(9223372036854775807)
            elif w == -2147483648:
                x = np.int64(-9223372036854775807) - 1
            out[u, v] = x


@njit(cache=True, nogil=True)
def narrow_rows(D, out, r0, r1):  # pragma: no cover - jitted
    """int64 ``D`` into int32 ``out``, values beyond the int32 range clamped to its sentinels; rows ``r0:r1``."""
    for u in range(r0, r1):
        for v in range(D.shape[1]):
            out[u, v] = np.int32(min(max(D[u, v], -2147483648), 2147483647))


@njit(cache=True, nogil=True)
def zero_cycle_rows(D, top, r0, r1):  # pragma: no cover - jitted
    """Whether some ``u`` in ``r0:r1`` and ``v > u`` have ``D[u, v] + D[v, u] == 0``, both below ``top`` (finite).

    On a closure without negative cycles that is the mark of a cycle of total weight zero
    through ``u`` and ``v``; without one, no two distinct vertices lie on such a cycle.
    Tiles of 64 columns keep the transposed reads in cache.
    """
    n = D.shape[0]
    for v0 in range(r0 + 1, n, 64):
        v1 = min(n, v0 + 64)
        for u in range(r0, r1):
            for v in range(max(v0, u + 1), v1):
                a = D[u, v]
                b = D[v, u]
                if a < top and b < top and np.int64(a) + np.int64(b) == 0:
                    return True
    return False

