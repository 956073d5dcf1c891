"""The block update of a closure in place on the CPU (Numba): the kernel template of :class:`apsp.Closure`.

A *template*: :func:`semiring.kernels.cpu_kernels` writes a copy per semiring
and dtype with the ``# @ADD`` / ``# @MUL`` lines replaced by its saturating
operations (the GEMM engine's, so the block gets the same bits as the
product it stands for), and Numba caches the compiled kernel beside it.

:func:`block_update` computes ``D[i, j] (+)= (+)_t X[i, t] (x) E[t, j]`` for
the rows ``R[r0:r1]`` and the columns ``C`` in place: the rows and columns
that an update can improve, without gathering the block into a copy and
scattering it back (two passes over the block that cost more than the
product of a thin update); :func:`rows_update` the same on whole rows, a
contiguous loop the compiler vectorises, for when most columns can improve.
"""

from __future__ import annotations

from numba import njit

from semiring.cpu_ops import template_add as add  # @ADD
from semiring.cpu_ops import template_mul as mul  # @MUL


@njit(cache=True, nogil=True)
def block_update(D, R, C, X, E, lo, hi, r0, r1):  # pragma: no cover - jitted
    """``D[R[a], C[b]] (+)= (+)_t X[R[a], t] (x) E[t, C[b]]`` for ``a`` in ``r0:r1`` and every ``b``; returns the
    entries that changed."""
    r = X.shape[1]
    changed = 0
    for a in range(r0, r1):
        i = R[a]
        for b in range(C.shape[0]):
            j = C[b]
            old = D[i, j]
            best = old
            for t in range(r):
                best = add(best, mul(X[i, t], E[t, j], lo, hi), lo, hi)
            if best != old:
                D[i, j] = best
                changed += 1
    return changed


@njit(cache=True, nogil=True)
def rows_update(D, R, X, E, lo, hi, r0, r1):  # pragma: no cover - jitted
    """``D[R[a], :] (+)= (+)_t X[R[a], t] (x) E[t, :]`` for ``a`` in ``r0:r1``: whole rows, a contiguous inner loop
    (where the columns that can improve are many, cheaper than reaching each of them)."""
    r = X.shape[1]
    n = D.shape[1]
    for a in range(r0, r1):
        i = R[a]
        for t in range(r):
            x = X[i, t]
            for j in range(n):
                D[i, j] = add(D[i, j], mul(x, E[t, j], lo, hi), lo, hi)
