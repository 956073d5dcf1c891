"""Predecessors from finished ``min_plus`` distances, by last hops (Numba): the kernel template.

A *template*: :func:`semiring.kernels.cpu_kernels` writes a copy per dtype with the
``# @MUL`` line replaced by the semiring's saturating ``mul`` (so that every sum
here is computed exactly as the closure computes it), and Numba caches the
compiled kernels beside that copy.  :mod:`apsp.paths.last_hop` drives these
kernels and states the rule and its proof.

* :func:`thresholds` bounds the weight of a last hop into each ``j`` (``T``);
* :func:`count_arcs` and :func:`fill_arcs` list, for every column ``j``, the
  arcs ``k -> j`` with ``W[k, j] <= T[j]`` (``k != j``), ordered by weight,
  then by ``k`` (a CSC-like layout: ``start``, ``src``, ``wt``);
* :func:`rows_last_hop` picks ``P[i, j]`` for the rows ``r0:r1`` and returns
  the number of arcs it looked at, or ``-1`` when a row went over its budget
  or a reachable entry found no arc (the caller then falls back);
* :func:`repair_rows` follows every route of rows ``r0:r1`` back to ``i``
  and mends the rows where one loops (rule 4).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from semiring.cpu_ops import template_add as add  # @ADD  # noqa: F401
from semiring.cpu_ops import template_mul as mul  # @MUL


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
    """``P[i, :]`` for ``i`` in ``r0:r1`` by the rule of :mod:`apsp.paths.last_hop`; arcs looked at, or -1.

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
def _classify(P, i, state, stack, cyc, cstart, todo, ntodo, bad_out):  # pragma: no cover - jitted
    """Follow the routes of row ``i`` from the vertices ``todo[:ntodo]`` (in that order), whose ``state``
    is 0; every other vertex has its final state already (2: its route reaches ``i``).  Sets ``state[v]``
    to 2 if the route of ``v`` reaches ``i``, 3 if it loops or runs into a loop.  The loops' vertices go
    to ``cyc`` (loop ``c``: ``cyc[cstart[c]:cstart[c + 1]]``), the vertices marked 3 to ``bad_out`` (in
    increasing order when ``todo`` is).  Returns ``(vertices marked 3, loops)``; ``(-1, 0)`` if a route
    stops short of ``i``."""
    n = P.shape[0]
    bad = 0
    ncyc = 0
    cstart[0] = 0
    for q in range(ntodo):
        j = todo[q]
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
                return -1, 0
        if state[v] == 1:  # a new loop: the stack from v to the top
            t = top - 1
            while stack[t] != v:
                t -= 1
            c0 = cstart[ncyc]
            for u in range(t, top):
                cyc[c0 + u - t] = stack[u]
            ncyc += 1
            cstart[ncyc] = c0 + top - t
        mark = np.int8(2) if state[v] == 2 else np.int8(3)
        for t in range(top):
            state[stack[t]] = mark
    for q in range(ntodo):
        j = todo[q]
        if state[j] == 3:
            bad_out[bad] = j
            bad += 1
    return bad, ncyc


@njit(cache=True, nogil=True)
def _arc_from_reached(D, start, src, wt, state, i, v, mi, lo, hi, rel):  # pragma: no cover - jitted
    """The first arc into ``v`` in its sorted list (lightest, then smallest ``k``) that qualifies and comes
    from a vertex whose route reaches ``i`` (``state`` 2); -1 if none."""
    x = D[i, v]
    ax = abs(x)
    d = x + ax * rel if ax < hi else x
    for t in range(start[v], start[v + 1]):
        w = wt[t]
        if mul(mi, w, lo, hi) > d:
            return -1  # no later (heavier) arc can qualify
        k = src[t]
        if state[k] == 2 and mul(D[i, k], w, lo, hi) <= d:
            return k
    return -1


CANDIDATES = 8  # qualifying arcs remembered per vertex by the repair (more: the list is scanned again)


@njit(cache=True, nogil=True)
def _reached_arc_cached(D, start, src, wt, state, i, v, mi, lo, hi, rel, cofs, ccount, cbuf, used):  # pragma: no cover - jitted
    """:func:`_arc_from_reached` with the qualifying arcs into ``v`` remembered (at most
    :data:`CANDIDATES`, in list order) after the first look, so later rounds only read their states.
    Returns ``(k, used)``: the arc's tail or -1, and the slots of ``cbuf`` now in use."""
    if cofs[v] < 0:
        x = D[i, v]
        ax = abs(x)
        d = x + ax * rel if ax < hi else x
        cofs[v] = used
        c = 0
        for t in range(start[v], start[v + 1]):
            w = wt[t]
            if mul(mi, w, lo, hi) > d:
                break
            k = src[t]
            if mul(D[i, k], w, lo, hi) <= d:
                if c == CANDIDATES:
                    c += 1  # overflow: more qualifying arcs than remembered
                    break
                cbuf[used + c] = k
                c += 1
        ccount[v] = c
        used += min(c, CANDIDATES)
    c = ccount[v]
    o = cofs[v]
    for t in range(min(c, CANDIDATES)):
        k = cbuf[o + t]
        if state[k] == 2:
            return k, used
    if c > CANDIDATES:
        return _arc_from_reached(D, start, src, wt, state, i, v, mi, lo, hi, rel), used
    return -1, used


@njit(cache=True, nogil=True)
def repair_rows(D, start, src, wt, P, r0, r1, zero, lo, hi, rel):  # pragma: no cover - jitted
    """Make every route of rows ``r0:r1`` reach ``i`` (rule 4 of :mod:`apsp.paths.last_hop`); False if it cannot.

    A row whose routes already reach ``i`` is left as it is.  Otherwise, in
    rounds: the routes are followed from vertex 0 upwards, and each loop, in
    the order it is met, is broken at its smallest vertex that has a
    qualifying arc from a vertex whose route reaches ``i`` (the first such
    arc of its sorted list: lightest, then smallest ``k``); its vertices then
    count as reaching ``i`` for the loops after it, and the vertices that ran
    into it follow.  A round that can break no loop instead takes the
    vertices whose route loops or runs into a loop from 0 upwards, each
    taking such an arc where it has one (and then counting as reaching
    ``i``): along a shortest path with the fewest arcs the first such vertex
    always has one.  A vertex only ever points at a vertex whose route
    reaches ``i``, so no step makes a loop and each round mends at least one
    vertex.
    """
    n = P.shape[0]
    state = np.empty(n, dtype=np.int8)
    stack = np.empty(n, dtype=np.int32)
    cyc = np.empty(n, dtype=np.int32)
    cstart = np.empty(n + 1, dtype=np.int32)
    cofs = np.empty(n, dtype=np.int32)
    ccount = np.empty(n, dtype=np.int32)
    cbuf = np.empty(CANDIDATES * n, dtype=np.int32)
    every = np.arange(n).astype(np.int32)
    todo = np.empty(n, dtype=np.int32)
    badv = np.empty(n, dtype=np.int32)
    for i in range(r0, r1):
        state[:] = 0
        state[i] = 2
        bad, ncyc = _classify(P, i, state, stack, cyc, cstart, every, n, badv)
        if bad < 0:
            return False
        if bad == 0:
            continue
        mi = zero
        for k in range(n):
            x = D[i, k]
            mi = x if x < mi else mi
        cofs[:] = -1
        used = 0
        for _ in range(n + 1):
            if bad < 0:
                return False
            if bad == 0:
                break
            mended = 0
            for c in range(ncyc):
                best_v = -1
                best_k = -1
                for t in range(cstart[c], cstart[c + 1]):
                    v = cyc[t]
                    if best_v >= 0 and v > best_v:
                        continue
                    k, used = _reached_arc_cached(D, start, src, wt, state, i, v, mi, lo, hi, rel,
                                                  cofs, ccount, cbuf, used)
                    if k >= 0:
                        best_v = v
                        best_k = k
                if best_v >= 0:
                    P[i, best_v] = best_k
                    mended += 1
                    for t in range(cstart[c], cstart[c + 1]):  # the loop's vertices now reach i
                        state[cyc[t]] = 2
            if mended == 0:
                for q in range(bad):
                    v = badv[q]
                    k, used = _reached_arc_cached(D, start, src, wt, state, i, v, mi, lo, hi, rel,
                                                  cofs, ccount, cbuf, used)
                    if k >= 0:
                        P[i, v] = k
                        state[v] = 2
                        mended += 1
                if mended == 0:
                    return False
            # only the vertices still marked 3 can change: follow their routes again
            nt = 0
            for q in range(bad):
                v = badv[q]
                if state[v] == 3:
                    state[v] = 0
                    todo[nt] = v
                    nt += 1
            bad, ncyc = _classify(P, i, state, stack, cyc, cstart, todo, nt, badv)
    return True
