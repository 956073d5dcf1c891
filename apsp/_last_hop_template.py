"""Predecessors from finished ``min_plus`` distances, by last hops (Numba): the kernel template.

A *template* in the sense of :mod:`semiring._cpu.specialize`:
:func:`semiring.dispatch.cpu_kernels` writes a copy per dtype with the
``# @MUL`` line replaced by the semiring's saturating ``mul`` (so that every sum
here is computed exactly as the closure computes it), and Numba caches the
compiled kernels beside that copy.  :mod:`apsp.last_hop` drives these
kernels and states the rule and its proof.

* :func:`thresholds` bounds the weight of a last hop into each ``j`` (``T``);
* :func:`count_arcs` and :func:`fill_arcs` list, for every column ``j``, the
  arcs ``k -> j`` with ``W[k, j] <= T[j]`` (``k != j``), ordered by weight,
  then by ``k`` (a CSC-like layout: ``start``, ``src``, ``wt``);
* :func:`rows_last_hop` picks ``P[i, j]`` for the rows ``r0:r1`` and returns
  the number of arcs it looked at, or ``-1`` when a row went over its budget
  or a reachable entry found no arc (the caller then falls back);
* :func:`rows_are_trees` checks that every route of rows ``r0:r1`` leads back
  to ``i`` without a repeated vertex.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from semiring._cpu.scalar_ops import _min as add  # @ADD  # noqa: F401
from semiring._cpu.scalar_ops import _plus_float as mul  # @MUL


@njit(cache=True, nogil=True)
def thresholds(D, W, zero, lo, hi, rel, r0, r1, T):  # pragma: no cover - jitted
    """Raise ``T[j]`` (float64) to the largest ``D[i, j] - min(D[i, :])`` over the rows ``i`` of
    ``r0:r1`` whose arc ``i -> j`` is not itself a shortest path: no other arc heavier than that
    can be a last hop (with room for the qualifying margin ``rel``); return the arcs of those rows."""
    n = D.shape[0]
    arcs = 0
    for i in range(r0, r1):
        m = D[i, 0]
        for k in range(1, n):
            if D[i, k] < m:
                m = D[i, k]
        Dii = D[i, i]
        fm = float(m)
        for j in range(n):
            wd = W[i, j]
            arcs += np.int64((wd != zero) & (j != i))
            d = D[i, j]
            if j == i or d == zero:
                continue
            if wd != zero and mul(Dii, wd, lo, hi) <= d:
                continue
            t = float(d) + 2.0 * abs(float(d)) * float(rel) - fm
            if not t <= T[j]:  # NaN (-inf - -inf) counts as +inf
                T[j] = t if t == t else np.inf
    return arcs


@njit(cache=True, nogil=True)
def count_arcs(W, T, zero, c0, c1, count):  # pragma: no cover - jitted
    """``count[j + 1]``: the arcs ``k -> j`` (``k != j``, ``W[k, j] <= T[j]``) for ``j`` in ``c0:c1``."""
    n = W.shape[0]
    for k in range(n):
        for j in range(c0, c1):
            w = W[k, j]
            if w != zero and k != j and w <= T[j]:
                count[j + 1] += 1


@njit(cache=True, nogil=True)
def fill_arcs(W, T, zero, c0, c1, start, src, wt):  # pragma: no cover - jitted
    """The arcs counted by :func:`count_arcs` for ``j`` in ``c0:c1``, each column's lightest first
    (then smallest ``k``): ``src[start[j]:start[j + 1]]`` and their weights ``wt``."""
    n = W.shape[0]
    fill = start[c0:c1].copy()
    for k in range(n):  # increasing k: a stable sort by weight then orders ties by k
        for j in range(c0, c1):
            w = W[k, j]
            if w != zero and k != j and w <= T[j]:
                src[fill[j - c0]] = k
                wt[fill[j - c0]] = w
                fill[j - c0] += 1
    for j in range(c0, c1):
        a, b = start[j], start[j + 1]
        if b - a > 1:
            order = np.argsort(wt[a:b], kind="mergesort")
            src[a:b] = src[a:b][order]
            wt[a:b] = wt[a:b][order]


#: Rows handled together by :func:`rows_last_hop` (its lanes) ...
RB = 64
#: ... until no more than this many are still looking for their arc: those go on one by one.
SWITCH = 8


@njit(cache=True, nogil=True)
def _least_sum(D, W, T, start, src, wt, i, j, m, zero, lo, hi):  # pragma: no cover - jitted
    """Rule 3 for the entry ``(i, j)``: the ``k`` minimising ``D[i, k] + W[k, j]`` (lightest arc, then
    smallest ``k`` among ties), and the arcs looked at; ``k = -1`` if no arc into ``j`` comes from a
    vertex reachable from ``i``."""
    best = zero
    bk = -1
    work = 0
    for t in range(start[j], start[j + 1]):
        w = wt[t]
        if bk >= 0 and mul(m, w, lo, hi) > best:
            return bk, work  # every later arc gives at least mul(m, w): nothing better follows
        work += 1
        a = D[i, src[t]]
        if a == zero:
            continue
        v = mul(a, w, lo, hi)
        if v < best:
            best = v
            bk = src[t]
    if bk >= 0 and mul(m, T[j], lo, hi) > best:
        return bk, work  # the arcs left out of the list are all heavier than T[j]
    n = D.shape[0]
    bk = -1
    for k in range(n):  # every arc into j
        work += 1
        w = W[k, j]
        a = D[i, k]
        if k == j or w == zero or a == zero:
            continue
        v = mul(a, w, lo, hi)
        if bk < 0 or v < best or (v == best and (w < W[bk, j] or (w == W[bk, j] and k < bk))):
            best = v
            bk = k
    return bk, work


@njit(cache=True, nogil=True)
def rows_last_hop(D, W, T, start, src, wt, P, r0, r1, zero, lo, hi, rel, budget):  # pragma: no cover - jitted
    """``P[i, :]`` for ``i`` in ``r0:r1`` by the rule of :mod:`apsp.last_hop`; arcs looked at, or -1.

    An arc qualifies when ``D[i, k] + W[k, j] <= D[i, j] + rel * |D[i, j]|``
    (``rel``: a few units of rounding for floats, 0 for integers).

    Rows go :data:`RB` at a time, one lane each: the block's columns of ``D``
    and ``W`` are transposed once, and for each ``j`` the sorted arcs into
    ``j`` are tried against all lanes still open (compare and select, no
    branch per lane) until at most :data:`SWITCH` lanes are still open; those
    go on one by one (rules 1 and 2).  Lanes still open at the end of the
    list take rule 3, one by one.
    """
    n = D.shape[0]
    Dt = np.empty((n, RB), dtype=D.dtype)
    Wt = np.empty((n, RB), dtype=W.dtype)
    m = np.empty(RB, dtype=D.dtype)
    dii = np.empty(RB, dtype=D.dtype)
    pk = np.empty(RB, dtype=np.int32)
    dq = np.empty(RB, dtype=D.dtype)
    live = np.empty(RB, dtype=np.bool_)
    total = 0
    for i0 in range(r0, r1, RB):
        rb = min(RB, r1 - i0)
        for ii in range(RB):
            m[ii] = zero
        for ii in range(rb):
            for k in range(n):
                x = D[i0 + ii, k]
                Dt[k, ii] = x
                Wt[k, ii] = W[i0 + ii, k]
                m[ii] = x if x < m[ii] else m[ii]
        for ii in range(rb, RB):
            for k in range(n):
                Dt[k, ii] = zero
                Wt[k, ii] = zero
        for ii in range(RB):
            dii[ii] = D[i0 + ii, i0 + ii] if ii < rb else zero
        work = 0
        for j in range(n):
            dj = Dt[j]
            wj = Wt[j]
            for ii in range(RB):
                x = dj[ii]
                ax = abs(x)
                dq[ii] = x + ax * rel if ax < hi else x  # the qualifying bound (no margin at +-inf)
            left = 0
            for ii in range(RB):  # rule 1 (branch-free; lanes past the block are closed)
                i = i0 + ii
                wd = wj[ii]
                direct = (wd != zero) & (mul(dii[ii], wd, lo, hi) <= dq[ii]) & (i != j)
                open_ = (ii < rb) & (i != j) & (dj[ii] != zero) & ~direct
                pk[ii] = np.int32(i) if direct else (np.int32(-2) if open_ else np.int32(-1))
                left += np.int64(open_)
            t = start[j]
            end = start[j + 1]
            while left > SWITCH and t < end:
                k = src[t]
                w = wt[t]
                dk = Dt[k]
                hit = np.int32(0)
                for ii in range(RB):  # branch-free: vectorised over the lanes
                    q = (mul(dk[ii], w, lo, hi) <= dq[ii]) & (pk[ii] == -2)
                    pk[ii] = np.int32(k) if q else pk[ii]
                    hit += np.int32(q)
                left -= hit
                work += RB
                t += 1
            for ii in range(RB):
                live[ii] = pk[ii] == -2
            for ii in range(rb if left > 0 else 0):  # the last few lanes one by one, from arc t on
                if live[ii]:
                    d = dq[ii]
                    mi = m[ii]
                    for tt in range(t, end):
                        w = wt[tt]
                        if mul(mi, w, lo, hi) > d:
                            break  # no later arc can qualify
                        work += 1
                        if mul(Dt[src[tt], ii], w, lo, hi) <= d:
                            pk[ii] = src[tt]
                            live[ii] = False
                            break
            for ii in range(rb if left > 0 else 0):
                if live[ii]:
                    k, w2 = _least_sum(D, W, T, start, src, wt, i0 + ii, j, m[ii], zero, lo, hi)
                    work += w2
                    if k < 0:
                        return -1  # a reachable entry without an arc into it: not a closure of W
                    pk[ii] = k
            for ii in range(rb):
                P[i0 + ii, j] = pk[ii]
        if work > budget * rb:
            return -1
        total += work
    return total


@njit(cache=True, nogil=True)
def rows_are_trees(P, r0, r1):  # pragma: no cover - jitted
    """True if, in every row ``i`` of ``r0:r1``, every route ``j <- P[i, j] <- ...`` reaches ``i`` without a loop."""
    n = P.shape[0]
    state = np.zeros(n, dtype=np.int8)  # 0 unseen, 1 on the route being followed, 2 leads to i
    stack = np.empty(n, dtype=np.int32)
    for i in range(r0, r1):
        state[:] = 0
        state[i] = 2
        for j in range(n):
            if state[j] != 0 or P[i, j] < 0:
                continue
            top = 0
            v = j
            while state[v] == 0:
                state[v] = 1
                stack[top] = v
                top += 1
                v = P[i, v]
                if v < 0 or v >= n:
                    return False  # a route that stops before reaching i
            if state[v] == 1:
                return False  # a loop
            for t in range(top):
                state[stack[t]] = 2
    return True
