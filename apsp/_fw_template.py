"""Floyd-Warshall closure of one small dense block (Numba): the kernel template.

A *template*: :func:`semiring.kernels.cpu_kernels` writes a copy per semiring family and
dtype with the ``# @ADD`` and ``# @MUL`` lines replaced, and Numba caches the
compiled kernels beside that copy.  This is the base case of R-Kleene and the
diagonal phase of blocked Floyd-Warshall; the O(n^3) work of those algorithms
runs in the GEMM kernels, these kernels only close blocks of ~100 vertices.

``closure(D, zero, lo, hi)`` replaces ``D`` (square, C-contiguous, diagonal
already ``add``-ed with ``one``) by its closure ``D*`` in place, by the
Floyd-Warshall recurrence ``D[i, j] = D[i, j] (+) D[i, k] (x) D[k, j]`` for
``k = 0 .. n-1`` (Floyd 1962; Warshall 1962).  Rows whose ``D[i, k]`` is the
semiring zero are skipped: zero annihilates in ``mul`` and is the identity of
``add``, so skipping them changes nothing.

``closure_pred`` also maintains the predecessor matrix ``P`` (int32):
``P[i, j] = P[k, j]`` exactly when the update *strictly* changes ``D[i, j]``
(ties keep the older path), the rule of the classical predecessor-matrix
Floyd-Warshall (Cormen et al., Introduction to Algorithms, Sec. 25.2).
``panel_closure_pred`` runs the same pivots over a whole row panel: the first
step of the predecessor-consistent blocked Floyd-Warshall
(:mod:`apsp.methods.blocked_fw`).
"""

from __future__ import annotations

from numba import njit

from semiring.cpu_ops import template_add as add  # @ADD
from semiring.cpu_ops import template_mul as mul  # @MUL


@njit(inline="always")
def _relax_row(R, P, i, k, a, lo, hi):  # pragma: no cover - jitted
    """Row ``i`` of ``R`` (+)= ``a (x)`` row ``k``; ``P[i, j] = P[k, j]`` where the entry strictly improves."""
    for j in range(R.shape[1]):  # branch-free, so that it vectorises
        old = R[i, j]
        new = add(old, mul(a, R[k, j], lo, hi), lo, hi)
        R[i, j] = new
        P[i, j] = P[k, j] if new != old else P[i, j]


@njit(cache=True, nogil=True)
def _closure(D, P, zero, lo, hi):  # pragma: no cover - jitted
    """In-place Floyd-Warshall closure of the square block ``D``, and of the predecessors ``P`` unless ``None``.

    ``P is None`` is known when Numba compiles (its type), so the version
    without predecessors keeps only its own branch.
    """
    n = D.shape[0]
    for k in range(n):
        for i in range(n):
            a = D[i, k]
            if a == zero:
                continue
            if P is None:
                for j in range(n):
                    D[i, j] = add(D[i, j], mul(a, D[k, j], lo, hi), lo, hi)
            else:
                _relax_row(D, P, i, k, a, lo, hi)


@njit(cache=True, nogil=True)
def closure(D, zero, lo, hi):  # pragma: no cover - jitted
    """In-place Floyd-Warshall closure of the square block ``D``."""
    _closure(D, None, zero, lo, hi)


@njit(cache=True, nogil=True)
def closure_pred(D, P, zero, lo, hi):  # pragma: no cover - jitted
    """As :func:`closure`, updating the predecessors ``P`` on strict improvements."""
    _closure(D, P, zero, lo, hi)


@njit(cache=True, nogil=True)
def panel_closure_pred(R, P, c0, zero, lo, hi):  # pragma: no cover - jitted
    """Floyd-Warshall over the ``b`` pivots ``k = c0 .. c0+b-1`` on the ``b x n`` row panel ``R``.

    ``R`` holds rows ``c0 .. c0+b-1`` of the matrix, so pivot ``k`` is row
    ``k - c0`` of the panel; every step updates whole rows (all ``n``
    columns), which keeps each row's predecessors a tree (see
    :mod:`apsp.paths.predecessors`).
    """
    b = R.shape[0]
    for kk in range(b):
        for i in range(b):
            a = R[i, c0 + kk]
            if a == zero or i == kk:
                continue
            _relax_row(R, P, i, kk, a, lo, hi)
