"""Predecessors at the price of the distances: last hops read off the finished ``min_plus`` closure.

Carrying predecessors through the closure (the Pi update of
:mod:`apsp.paths.predecessors`) needs a witness in every GEMM and the full-row
schedule of :mod:`apsp.methods.blocked_fw`: about three times the work of the
distances on the CPU.  For ``min_plus`` this module instead closes the
distances alone (R-Kleene at full speed) and then reads each predecessor off
``D`` and the arcs ``W``: ``P[i, j]`` is a *last hop*, a ``k`` with an arc
``k -> j`` and ``D[i, k] + W[k, j] <= D[i, j]``.

The rule (what ``P[i, j]`` is, for ``j != i`` reachable from ``i``; sums are
computed in the dtype, as the closure computes them: saturating for integers)

1. ``i`` itself, if the arc ``i -> j`` is a shortest path
   (``D[i, i] + W[i, j] <= D[i, j]``);
2. otherwise the *lightest* arc ``k -> j`` (smallest ``W[k, j]``, then
   smallest ``k``) with ``D[i, k] + W[k, j] <= D[i, j]`` (for floats: at
   most ``D[i, j] + 4 eps |D[i, j]|``, :data:`QUALIFY_ULPS`: the closure
   added the same weights in another order; rules 1 and 2 use the same test);
3. otherwise (floating-point rounding only: in exact arithmetic some arc
   always qualifies) the ``k`` minimising ``D[i, k] + W[k, j]``, ties again
   to the lightest arc, then the smallest ``k``;
4. where the routes of rules 1-3 loop (a zero-weight cycle: both arcs of a
   weight-0 pair qualify and are the lightest), the row is mended in rounds
   (:func:`repair_rows` of the template): following the routes from vertex 0
   upwards, each loop, in the order it is met, is broken at its smallest
   vertex that has a qualifying arc (the rule 2 test) from a vertex whose
   route reaches ``i``, taking the first such arc in rule 2's order
   (lightest, then smallest ``k``); a round that can break no loop gives
   each vertex whose route loops or runs into one, from 0 upwards, such an
   arc where it has one.  A vertex only ever points at a vertex whose route
   already reaches ``i``, so mending makes no new loop.

Why the routes are right.  Write ``p(j) = P[i, j]``.  ``D`` is the closure,
so ``D[i, j] <= D[i, k] + W[k, j]`` for every arc; with rule 1 or 2 the last
hop is therefore *tight*: ``D[i, j] = D[i, p(j)] + W[p(j), j]`` (exactly for
integers, to the rounding of one addition for floats; rule 3 differs from
the minimum by rounding only).  Following ``j, p(j), p(p(j)), ...`` the
distance falls by the weight of each arc walked, so if the walk reaches ``i``
after visiting distinct vertices, the arcs it walked form a simple path whose
weights add up to ``D[i, j] - D[i, i] = D[i, j]``.  It can only fail to
reach ``i`` by looping, and a loop of tight arcs is a cycle of total weight
zero (sum the equalities around it): with integer weights that needs a
zero-weight cycle, with floats also additions that absorb an arc
(``D + w == D``).  Every row is therefore checked (``O(n)`` per row) and,
where a route loops, mended by rule 4: along a shortest path from ``i`` with
the fewest arcs, the first vertex whose route does not reach ``i`` has a
qualifying arc from the vertex before it, so every round mends at least one
vertex.  If a route stops short, or a round mends nothing (floating-point
rounding), :func:`last_hop_predecessors` returns ``None`` and the caller
computes ``P`` by the Pi update instead (whose rule :mod:`apsp.paths.predecessors`
states).  The check makes the result sound whatever the rounding.

The cost.  Rule 1 is one comparison.  For rule 2 the arcs into each ``j``
are sorted once by weight, keeping only those not heavier than
``T[j] = max_i (D[i, j] - min_k D[i, k])`` (no heavier arc can be a last
hop; :func:`thresholds`), and each entry scans them, lightest first, until
one qualifies or ``min_k D[i, k] + W[k, j]`` exceeds the best sum seen.  On
a dense random graph a handful of arcs per entry are looked at (a few
percent of the closure's ``n^3``); a sparse graph costs at most ``n`` times
its arcs.  A row that looks at more than its budget of arcs gives up
(``None``: the Pi update runs), so no input costs more than a bounded
fraction of ``n^3`` here.  Memory: the sorted lists hold at most one
``int32`` and one weight per arc (on a dense random graph a few percent of
the arcs), and a graph input (not a dense array) is rebuilt once as a dense
``W`` for the pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semiring.kernels import (
    PLAIN_DTYPES,
    cpu_kernels,
    cpu_scalar_ops,
    operand_extremes,
    plain_sums_exact,
    run_rows,
    sentinels,
)

from .predecessors import PRED_DTYPE

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["last_hop_predecessors", "applies", "may_loop", "row_budget", "threshold_in", "QUALIFY_ULPS"]

#: Floats: an arc qualifies in rule 2 when its sum is within this many units of rounding
#: (``eps * |D[i, j]|``) of the distance (the closure associated the same sums differently).
QUALIFY_ULPS = 4


def applies(S: "Semiring", D) -> bool:
    """Whether :func:`last_hop_predecessors` handles ``S`` and ``D`` (capability ``has_last_hop``: ``min_plus``; NumPy).

    >>> from semiring import min_plus, max_min
    >>> applies(min_plus, np.zeros((2, 2))), applies(max_min, np.zeros((2, 2)))
    (True, False)
    """
    return (
        isinstance(D, np.ndarray)
        and S.capabilities.has_last_hop
        and D.dtype.kind in "fi"
        and cpu_scalar_ops(S, D.dtype) is not None
    )


def row_budget(n: int, arcs: int) -> int:
    """Arcs one row may look at before :func:`last_hop_predecessors` gives up: ``64 n + arcs / 8``.

    All rows together then look at most ``64 n^2 + n arcs / 8`` arcs (an
    eighth of the closure's ``n^3`` for a complete graph).

    >>> row_budget(1000, 10**6)
    189000
    """
    return 64 * n + arcs // 8


def threshold_in(T: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``T`` (float64) as ``dtype``, rounded up with a margin for the rounding of the sums it bounds."""
    if dtype.kind == "f":
        fin = np.finfo(dtype)
        fin_t = np.isfinite(T)
        up = np.where(fin_t, np.where(fin_t, T, 0.0) * (1 + 64 * float(fin.eps)) + float(fin.tiny), T)
        up = np.where(np.isnan(T), np.inf, np.where(up < 0, T, up))  # T <= 0 needs no margin
        with np.errstate(over="ignore"):
            return up.astype(dtype)
    lo, hi = sentinels(dtype)
    fin_t = np.isfinite(T)
    up = np.ceil(np.where(fin_t, T, 0.0) * (1 + 1e-9)) + 1
    top = (T == np.inf) | np.isnan(T) | (fin_t & ~(up < float(hi)))
    bottom = (T == -np.inf) | (fin_t & (up <= float(lo)))
    mid = np.where(top | bottom, 0.0, up).astype(dtype)
    return np.where(top, hi, np.where(bottom, lo, mid)).astype(dtype)


def may_loop(D: np.ndarray, wt: np.ndarray, top) -> bool:
    """Whether the routes of integer distances ``D`` may loop (rule 4 must check them).

    A loop of last hops is a cycle of tight arcs, so of total weight zero, and
    the arcs are among those a last hop may take (``wt``): with every such arc
    heavier than zero there is none; otherwise two distinct vertices ``u, v`` of
    such a cycle have ``D[u, v] + D[v, u] == 0`` (each distance at most its side
    of the cycle, and no negative cycle), which one pass over ``D`` looks for
    (:func:`apsp.paths._integer_kernels.zero_cycle_rows`).  Integer sums are exact, so
    every reachable entry has its tight arc: checking is only needed for loops.

    >>> inf = np.iinfo(np.int32).max
    >>> D = np.array([[0, 2], [inf, 0]], np.int32)
    >>> may_loop(D, np.array([2], np.int32), inf), may_loop(np.zeros((2, 2), np.int32), np.array([0]), inf)
    (False, True)
    """
    if wt.size == 0 or wt.min() > 0:
        return False
    from ._integer_kernels import zero_cycle_rows

    found: list[bool] = []
    run_rows(lambda r0, r1: found.append(bool(zero_cycle_rows(D, top, r0, r1))), D.shape[0], D.size)
    return any(found)


def last_hop_predecessors(S: "Semiring", D: np.ndarray, W: np.ndarray, out: np.ndarray | None = None) -> np.ndarray | None:
    """The predecessors of the closure ``D`` of ``W`` by the last-hop rule, or ``None`` (use the Pi update).

    Parameters
    ----------
    S : Semiring
        ``min_plus`` (see :func:`applies`).
    D : array (n, n)
        The finished closure (distances) of ``W``, C-contiguous, its diagonal
        checked (no negative cycle).
    W : array (n, n)
        The arcs: ``W[k, j]`` not the semiring zero; the diagonal is ignored.
    out : array (n, n) of int32, optional
        Where to write ``P`` (C-contiguous); its contents are undefined when
        ``None`` is returned.

    Returns
    -------
    P : array (n, n) of int32, or None
        ``None`` when a route loops and rule 4 cannot mend it (absorbed
        float additions), a reachable entry has no arc into it, or a row
        exceeds its :func:`row_budget`.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 1.0, 5.0], [np.inf, 0.0, 1.0], [np.inf, np.inf, 0.0]])
    >>> D = np.array([[0.0, 1.0, 2.0], [np.inf, 0.0, 1.0], [np.inf, np.inf, 0.0]])
    >>> last_hop_predecessors(min_plus, D, W)
    array([[-1,  0,  1],
           [-1, -1,  1],
           [-1, -1, -1]], dtype=int32)
    """
    n = D.shape[0]
    P = np.empty((n, n), dtype=PRED_DTYPE) if out is None else out
    if n == 0:
        return P
    D = np.ascontiguousarray(D)
    W = np.ascontiguousarray(W, dtype=D.dtype)
    mod = cpu_kernels(S, D.dtype, template="apsp.paths._last_hop_template")
    lo, hi = sentinels(D.dtype)
    zero = S.zero_value(D.dtype)
    rel = D.dtype.type(QUALIFY_ULPS * np.finfo(D.dtype).eps if D.dtype.kind == "f" else 0)
    parts = []

    def bound(r0: int, r1: int) -> None:
        T = np.full(n, -np.inf)
        arcs = mod.thresholds(D, W, zero, lo, hi, rel, r0, r1, T)
        parts.append((T, arcs))

    run_rows(bound, n, n * n * 8, align=1)
    T = threshold_in(np.maximum.reduce([p[0] for p in parts]), D.dtype)
    if D.dtype in PLAIN_DTYPES and S.capabilities.plain_sums:
        # no sentinel anywhere and no sum near the range's ends (a complete graph): plain sums are
        # the saturating ones (semiring.int_range), and the scan runs on vpaddd instead
        if plain_sums_exact(*operand_extremes(D), min(int(W.min()), int(T.min())),
                            max(int(W.max()), int(T.max())), D.dtype):
            mod = cpu_kernels(S, D.dtype, template="apsp.paths._last_hop_template", plain=True)
    start = np.zeros(n + 1, dtype=np.int64)
    run_rows(lambda c0, c1: mod.count_arcs(W, T, zero, c0, c1, start), n, n * n * 8, align=64)
    np.cumsum(start, out=start)
    src = np.empty(int(start[n]), dtype=np.int32)
    wt = np.empty(int(start[n]), dtype=D.dtype)
    run_rows(lambda c0, c1: mod.fill_arcs(W, T, zero, c0, c1, start, src, wt), n, n * n * 8, align=64)
    budget = row_budget(n, sum(p[1] for p in parts))
    status: list[int] = []
    check = D.dtype.kind == "f" or may_loop(D, wt, hi)

    def rows(r0: int, r1: int) -> None:
        done = mod.rows_last_hop(D, W, T, start, src, wt, P, r0, r1, zero, lo, hi, rel, budget)
        status.append(done >= 0 and (not check or bool(mod.repair_rows(D, start, src, wt, P, r0, r1, zero, lo,
                                                                          hi, rel))))

    run_rows(rows, n, n * n * 8, align=1)
    return P if all(status) else None
