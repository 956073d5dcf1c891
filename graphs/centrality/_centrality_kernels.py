"""Numba kernels of betweenness centrality and the distance statistics (:mod:`graphs.centrality`,
:mod:`graphs.centrality.distance_measures`).

Hop counts: multi-source BFS over bit-packed frontiers (Then, Kaufmann, Chirigati,
Hoang-Vu, Pham, Kemper, Neumann & Vo, "The More the Merrier: Efficient Multi-Source
Graph Traversal", PVLDB 8(4), 2014): a batch of up to 64 sources is one ``uint64``
word per vertex, bit ``j`` standing for source ``j``; one scan of a frontier
vertex's arcs advances every search of the batch that has reached it at this
level.  Each level is a list of ``(vertex, word)`` entries (every (vertex, source)
pair appears in exactly one level, so the lists hold at most ``64 n`` entries:
memory O(batch x n)).

Brandes' algorithm (U. Brandes, "A faster algorithm for betweenness centrality",
J. Math. Sociol. 25(2), 2001; the edge and endpoint variants from "On variants of
shortest-path betweenness centrality and their generic computation", Social
Networks 30(2), 2008) on top of it: the forward sweep counts shortest paths
``sigma[v, s]`` only where an (arc, source) pair really advances a level (the set
bits of ``frontier[u] & new[v]``), the backward sweep goes through the same level
lists from the deepest up, pulling ``sigma[u, s] / sigma[v, s] (1 + delta[v, s])``
from the next level along each arc whose head holds source ``s`` there.  Path
counts are float64 (they overflow any integer type on large graphs).

Weights (non-negative): one Dijkstra per source, the sources of a batch one after
another on each thread.  Integer weights up to :data:`DIAL_MAX` use Dial's bucket
queue (R. B. Dial, "Algorithm 360", CACM 12(11), 1969: circular buckets of width
one, O(m + max distance) per source), other weights a binary heap.  Path counts
are pushed when an arc's tail settles, onto heads not yet settled; the backward
sweep takes the settled order in reverse and pulls along the tight arcs towards
vertices settled later, so the counted paths form one acyclic graph even when
zero-weight arcs tie distances.

Every kernel runs its batches over the slots of ``prange`` (one slot per thread,
slot ``t`` taking batches ``t, t + T, ...``), each slot with its own scratch
arrays and its own row of the result, summed by the caller.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .._kernel_lib import heap_pop, heap_push, prefetch_item

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["brandes_hops", "brandes_bfs", "brandes_weighted", "hop_distance_stats", "hop_ecc_bounds", "DIAL_MAX",
           "WORD"]

WORD = 64  # sources per word of a bit-packed batch
AHEAD = 4  # queued steps whose rows are prefetched ahead of use
DENSE = 65  # an (arc, batch) step of this many sources or more adds all 64 lanes (vector instructions)
DIAL_MAX = 1 << 16  # largest integer weight for Dial's buckets (the ring has DIAL_MAX + 1 of them)

ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def popcount(typingctx, x):
    """LLVM's ``ctpop`` of an unsigned integer (one instruction with POPCNT)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def _prefetch_row(a, base, bits):
    """Prefetch the cache lines of ``a[base:base + 64]`` (float64) that hold a set bit of ``bits``."""
    for q in range(8):
        if (bits >> np.uint64(8 * q)) & np.uint64(0xFF):
            prefetch_item(a, base + 8 * q)


@njit(inline="always")
def _add_lanes(dst, d0, src, s0, bits, dense):
    """``dst[d0 + s] += src[s0 + s]`` for the set bits ``s`` of ``bits``: all 64 lanes at once (vector
    instructions, the others adding 0) when ``bits`` has ``dense`` or more, else bit by bit."""
    if popcount(bits) >= dense:
        for s in range(64):
            dst[d0 + s] += src[s0 + s] * np.float64((bits >> np.uint64(s)) & ONE)
    else:
        while bits != ZERO:
            s = trailing_zeros(bits)
            bits &= bits - ONE
            dst[d0 + s] += src[s0 + s]


@njit(cache=True, inline="always")
def _bit(j):
    return np.uint64(1) << np.uint64(j)


@njit(cache=True)
def _grow(vert, mask, need):
    """``(vert, mask)`` copied into arrays of at least ``need`` entries (doubling)."""
    cap = vert.shape[0]
    while cap < need:
        cap *= 2
    v2 = np.empty(cap, dtype=np.int32)
    m2 = np.empty(cap, dtype=np.uint64)
    v2[:vert.shape[0]] = vert
    m2[:mask.shape[0]] = mask
    return v2, m2


@njit(cache=True)
def _ms_bfs_levels(indptr, indices, src, b0, b1, seen, nxt, sigma, vert, mask, lstart, count_paths, dense, qv, qb):
    """Bit-parallel BFS from ``src[b0:b1]`` (bit ``j`` = ``src[b0 + j]``); the levels as entry lists.

    Fills ``vert``/``mask`` (grown if needed: returned) with the entries of
    level 0, 1, ..., ``lstart[L]`` the first entry of level ``L``; with
    ``count_paths``, ``sigma[v * 64 + j]`` (zero on entry) the number of
    shortest paths from source ``j`` to ``v``, a step of ``dense`` or more
    sources adding over all 64 lanes.  ``seen`` and ``nxt`` are zero on entry; ``seen``
    holds the reached bits on exit (the caller clears it through the lists).
    ``qv``/``qb``: scratch for one vertex's steps (grown if needed).
    Returns ``(vert, mask, levels, qv, qb)``.
    """
    c = 0
    for j in range(b1 - b0):
        v = src[b0 + j]
        if nxt[v] == ZERO:
            vert[c] = v
            c += 1
        nxt[v] |= _bit(j)
        if count_paths:
            sigma[v * 64 + j] = 1.0
    lstart[0] = 0
    lstart[1] = c
    for i in range(c):
        v = vert[i]
        mask[i] = nxt[v]
        seen[v] = nxt[v]
        nxt[v] = ZERO
    level = 1
    a = 0
    b = c
    while b > a:
        for i in range(a, b):
            u = vert[i]
            fu = mask[i]
            u64 = u * 64
            nq = 0
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                nb = fu & ~seen[v]
                if nb == ZERO:
                    continue
                old = nxt[v]
                if old == ZERO:
                    if c >= vert.shape[0]:
                        vert, mask = _grow(vert, mask, c + 1)
                    vert[c] = v
                    c += 1
                nxt[v] = old | nb
                if count_paths:
                    if nq >= qv.shape[0]:
                        qv, qb = _grow(qv, qb, nq + 1)
                    qv[nq] = v
                    qb[nq] = nb
                    nq += 1
            # path counts along the queued (arc, sources) steps, the rows asked for a few steps ahead
            for j in range(min(nq, AHEAD)):
                _prefetch_row(sigma, qv[j] * 64, qb[j])
            for j in range(nq):
                if j + AHEAD < nq:
                    _prefetch_row(sigma, qv[j + AHEAD] * 64, qb[j + AHEAD])
                _add_lanes(sigma, qv[j] * 64, sigma, u64, qb[j], dense)
        for i in range(b, c):
            v = vert[i]
            m = nxt[v]
            mask[i] = m
            seen[v] |= m
            nxt[v] = ZERO
        level += 1
        lstart[level] = c
        a = b
        b = c
    return vert, mask, level - 1, qv, qb


@njit(inline="always")
def _batch_levels(indptr, indices, src, batch, width, seen, nxt, sigma, vert, mask, lstart, count_paths, dense, qv, qb):
    """:func:`_ms_bfs_levels` from batch ``batch`` of ``width`` sources; returns ``(b0, b1, vert, mask, levels, qv, qb)``."""
    b0 = batch * width
    b1 = min(src.shape[0], b0 + width)
    vert, mask, depth, qv, qb = _ms_bfs_levels(indptr, indices, src, b0, b1, seen, nxt, sigma, vert, mask, lstart,
                                               count_paths, dense, qv, qb)
    return b0, b1, vert, mask, depth, qv, qb


@njit(inline="always")
def _level_sources(mask, a, b, cnt):
    """The sources (bits) of the level entries ``a:b``; ``cnt[s]`` (unless None) adds the entries holding ``s``."""
    alive = ZERO
    for i in range(a, b):
        m = mask[i]
        alive |= m
        if cnt is not None:
            while m != ZERO:
                s = trailing_zeros(m)
                m &= m - ONE
                cnt[s] += 1
    return alive


@njit(cache=True, parallel=True)
def brandes_hops(indptr, indices, src, width, endpoints, edges, dense, bc, eb):
    """Brandes' dependencies of the hop-count shortest paths from every source of ``src``.

    Parameters
    ----------
    indptr, indices : the CSR arcs (one graph, parallel arcs combined).
    src : int32 array (k,)
        The sources, cut into batches of ``width <= 64``.
    endpoints : bool
        Count the endpoints of each path too (``delta + 1``, and ``reached - 1`` at the source).
    edges : bool
        Also accumulate the arc dependencies into ``eb``.
    dense : int
        An (arc, batch) step with at least this many sources goes over all 64
        lanes at once (vector instructions), a sparser one over its set bits.
    bc : float64 array (T, n)
        Zeroed; slot ``t`` adds its batches' vertex dependencies into row ``t``.
    eb : float64 array (T, nnz) (or (T, 0) without ``edges``)
        Zeroed; the arc dependencies ``sigma[u] / sigma[v] (1 + delta[v])`` per slot.

    Notes
    -----
    One ``n x 64`` float64 array per slot holds the path counts ``sigma[v, s]``
    and, once level ``L`` is done, the coefficients ``(1 + delta[v, s]) /
    sigma[v, s]`` of its entries in their place; the level being pulled into
    keeps its sums of coefficients in a small buffer of its own entries, so
    the arrays read at random are half the size of separate ``sigma`` and
    ``delta`` (the difference between fitting the last-level cache or not).
    """
    n = indptr.shape[0] - 1
    k = src.shape[0]
    T = bc.shape[0]
    nb = (k + width - 1) // width
    for t in prange(T):
        seen = np.zeros(n, dtype=np.uint64)
        nxt = np.zeros(n, dtype=np.uint64)
        sig = np.zeros(n * 64, dtype=np.float64)
        acc = np.empty(64 * 64, dtype=np.float64)
        vert = np.empty(max(16, 2 * n), dtype=np.int32)
        mask = np.empty(max(16, 2 * n), dtype=np.uint64)
        lstart = np.empty(n + 2, dtype=np.int64)
        qv = np.empty(1024, dtype=np.int32)
        qb = np.empty(1024, dtype=np.uint64)
        row = bc[t]
        erow = eb[t]
        for batch in range(t, nb, T):
            b0, b1, vert, mask, depth, qv, qb = _batch_levels(indptr, indices, src, batch, width, seen, nxt, sig, vert,
                                                              mask, lstart, True, dense, qv, qb)
            widest = 0
            for L in range(depth + 1):
                widest = max(widest, lstart[L + 1] - lstart[L])
            if acc.shape[0] < 64 * widest:
                acc = np.empty(64 * widest, dtype=np.float64)
            for L in range(depth, 0, -1):
                # level L: its dependencies are final; add them and turn them into coefficients
                base = lstart[L]
                for i in range(lstart[L], lstart[L + 1]):
                    v = vert[i]
                    v64 = v * 64
                    a = (i - base) * 64
                    m = mask[i]
                    nxt[v] = m
                    tot = 0.0
                    cnt = 0
                    while m != ZERO:
                        s = trailing_zeros(m)
                        m &= m - ONE
                        sv = sig[v64 + s]
                        d = sv * acc[a + s] if L < depth else 0.0
                        tot += d
                        cnt += 1
                        sig[v64 + s] = (1.0 + d) / sv
                    row[v] += tot + cnt if endpoints else tot
                # level L - 1 sums the coefficients of its successors in level L, arc by arc
                base = lstart[L - 1]
                for i in range(lstart[L - 1], lstart[L]):
                    u = vert[i]
                    u64 = u * 64
                    a = (i - base) * 64
                    fu = mask[i]
                    for s in range(64):
                        acc[a + s] = 0.0
                    nq = 0
                    for p in range(indptr[u], indptr[u + 1]):
                        v = indices[p]
                        bits = fu & nxt[v]
                        if bits == ZERO:
                            continue
                        if nq >= qv.shape[0]:
                            qv, qb = _grow(qv, qb, nq + 1)
                        qv[nq] = p
                        qb[nq] = bits
                        nq += 1
                    for j in range(min(nq, AHEAD)):
                        _prefetch_row(sig, indices[qv[j]] * 64, qb[j])
                    for j in range(nq):
                        if j + AHEAD < nq:
                            _prefetch_row(sig, indices[qv[j + AHEAD]] * 64, qb[j + AHEAD])
                        p = qv[j]
                        bits = qb[j]
                        v64 = indices[p] * 64
                        if edges:
                            esum = 0.0
                            m = bits
                            while m != ZERO:
                                s = trailing_zeros(m)
                                m &= m - ONE
                                esum += sig[u64 + s] * sig[v64 + s]
                            erow[p] += esum
                        _add_lanes(acc, a, sig, v64, bits, dense)
                for i in range(lstart[L], lstart[L + 1]):
                    nxt[vert[i]] = ZERO
            if endpoints:
                # each source counts the vertices it reached
                for i in range(lstart[1], lstart[depth + 1]):
                    m = mask[i]
                    while m != ZERO:
                        s = trailing_zeros(m)
                        m &= m - ONE
                        row[src[b0 + s]] += 1.0
            for i in range(lstart[depth + 1]):
                v = vert[i]
                seen[v] = ZERO
                v64 = v * 64
                for s in range(64):
                    sig[v64 + s] = 0.0


# -- weighted -----------------------------------------------------------------------------


@njit(inline="always")
def _dijkstra_paths(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp, dial):
    """Dijkstra from ``s`` with path counts; returns the settled count (-1: the heap ran out of room).

    ``dial`` (a constant): Dial's ring of ``head.shape[0]`` unit buckets,
    whose entries (vertex ``hv``, distance ``hk``, next ``nxtp``) come from a
    pool of ``nnz + 1`` slots; else the binary heap in ``hk`` / ``hv``.  Both
    queues delete lazily: a stale entry is skipped when it comes out.
    """
    C = head.shape[0]
    dist[s] = 0
    sigma[s] = 1.0
    used = 1  # ring: pool slots taken (at most one per arc plus the source's: the pool never runs out)
    if dial:
        hv[0] = s
        hk[0] = 0
        nxtp[0] = head[0]
        head[0] = 0
        left = 1
    else:
        left = heap_push(hk, hv, 0, dist[s], s)
    cnt = 0
    b = 0
    while left > 0:
        if dial:
            e = head[b]
            if e < 0:
                b += 1
                if b == C:
                    b = 0
                continue
            head[b] = nxtp[e]
            left -= 1
            d = hk[e]
            u = hv[e]
        else:
            d = hk[0]
            u = hv[0]
            left = heap_pop(hk, hv, left)
        if pos[u] >= 0 or d > dist[u]:
            continue
        pos[u] = cnt
        order[cnt] = u
        cnt += 1
        su = sigma[u]
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if pos[v] >= 0:
                continue
            nd = d + w[p]
            dv = dist[v]
            if nd < dv:
                dist[v] = nd
                sigma[v] = su
                if dial:
                    hv[used] = v
                    hk[used] = nd
                    bb = np.int64(nd) % C  # (typed for float weights too, which never come here)
                    nxtp[used] = head[bb]
                    head[bb] = used
                    used += 1
                    left += 1
                else:
                    if left >= hk.shape[0]:
                        return -1
                    left = heap_push(hk, hv, left, nd, v)
            elif nd == dv:
                sigma[v] += su
    return cnt


@njit(cache=True)
def _dijkstra_heap(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp):
    """:func:`_dijkstra_paths` on the binary heap."""
    return _dijkstra_paths(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp, False)


@njit(cache=True)
def _dijkstra_dial(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp):
    """:func:`_dijkstra_paths` on Dial's ring."""
    return _dijkstra_paths(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp, True)


@njit(cache=True)
def _bfs_paths(indptr, indices, s, dist, sigma, order):
    """BFS from ``s`` with path counts; ``order`` gets the vertices in BFS order; returns how many were reached."""
    dist[s] = 0
    sigma[s] = 1.0
    order[0] = s
    head = 0
    tail = 1
    while head < tail:
        u = order[head]
        head += 1
        du1 = dist[u] + 1
        su = sigma[u]
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            dv = dist[v]
            if dv < 0:
                dist[v] = du1
                sigma[v] = su
                order[tail] = v
                tail += 1
            elif dv == du1:
                sigma[v] += su
    return tail


@njit(cache=True, parallel=True)
def brandes_weighted(indptr, indices, w, src, endpoints, edges, dial, ring, inf, bc, eb):
    """Brandes' dependencies of the weighted shortest paths from every source of ``src``, one search per source.

    ``w``: int64 or float64 weights, non-negative, or None for hop counts (one
    BFS per source).  ``dial``: use Dial's ring of ``ring`` buckets (integer
    weights below ``ring``), else a binary heap.  ``inf``: the unreached
    distance (``w``'s dtype; -1 as an int32 for hops).  The other arguments as
    in :func:`brandes_hops`.

    Each thread's arrays are of ``n`` entries, so they stay in a core's cache
    where the ``n x 64`` arrays of a bit-parallel batch do not (on
    low-diameter graphs of more than a few thousand vertices the per-source
    BFS measured faster).  The backward sweep takes the settled order in
    reverse and pulls along the tight arcs towards vertices settled later.
    """
    n = indptr.shape[0] - 1
    nnz = indices.shape[0]
    k = src.shape[0]
    T = bc.shape[0]
    for t in prange(T):
        dist = np.full(n, inf)
        sigma = np.zeros(n, dtype=np.float64)
        coef = np.zeros(n, dtype=np.float64)
        order = np.empty(n, dtype=np.int32)
        pos = np.full(n, -1, dtype=np.int32)
        hk = np.empty(1 if w is None else nnz + 1, dtype=dist.dtype)
        hv = np.empty(1 if w is None else nnz + 1, dtype=np.int32)
        head = np.full(ring if dial else 1, -1, dtype=np.int32)
        nxtp = np.empty(nnz + 1 if dial else 1, dtype=np.int32)
        row = bc[t]
        erow = eb[t]
        for r in range(t, k, T):
            s = src[r]
            if w is None:
                cnt = _bfs_paths(indptr, indices, s, dist, sigma, order)
            elif dial:
                cnt = _dijkstra_dial(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp)
            else:
                cnt = _dijkstra_heap(indptr, indices, w, s, dist, sigma, order, pos, hk, hv, head, nxtp)
            for i in range(cnt - 1, -1, -1):
                u = order[i]
                du = dist[u]
                pu = pos[u]
                su = sigma[u]
                acc = 0.0
                for p in range(indptr[u], indptr[u + 1]):
                    v = indices[p]
                    if w is None:
                        tight = dist[v] == du + 1
                    else:
                        tight = pos[v] > pu and du + w[p] == dist[v]
                    if tight:
                        c = su * coef[v]
                        acc += c
                        if edges:
                            erow[p] += c
                if u != s:
                    row[u] += acc + 1.0 if endpoints else acc
                coef[u] = (1.0 + acc) / su
            if endpoints:
                row[s] += cnt - 1
            for i in range(cnt):
                u = order[i]
                dist[u] = inf
                if w is not None:
                    pos[u] = -1
                    sigma[u] = 0.0


@njit(cache=True)
def brandes_bfs(indptr, indices, src, endpoints, edges, bc, eb):
    """Brandes' dependencies of the hop-count shortest paths, one BFS per source: :func:`brandes_weighted`
    without weights.

    The per-source form of :func:`brandes_hops`; same arguments but ``width`` and ``dense``.
    """
    brandes_weighted(indptr, indices, None, src, endpoints, edges, False, 1, np.int32(-1), bc, eb)


# -- distance statistics (hops) ------------------------------------------------------------


@njit(cache=True)
def _hop_scratch(n):
    """One thread's buffers for :func:`_ms_bfs_levels` counting hops only (no path counts)."""
    return (np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64), np.empty(0, dtype=np.float64),
            np.empty(max(16, 2 * n), dtype=np.int32), np.empty(max(16, 2 * n), dtype=np.uint64),
            np.empty(n + 2, dtype=np.int64), np.empty(16, dtype=np.int32), np.empty(16, dtype=np.uint64))


@njit(cache=True, parallel=True)
def hop_distance_stats(indptr, indices, src, width, slots, total, reached, harmonic, ecc):
    """Per source of ``src``: the sum of hop distances, the vertices reached, the sum of ``1/d``, the eccentricity.

    Bit-parallel BFS in batches of ``width <= 64`` sources; results go into
    ``total`` (int64), ``reached`` (int64), ``harmonic`` (float64) and ``ecc``
    (int64), indexed like ``src``; ``slots`` scratch sets (one per thread).
    """
    n = indptr.shape[0] - 1
    k = src.shape[0]
    nbatch = (k + width - 1) // width
    T = slots
    for t in prange(T):
        seen, nxt, dummy, vert, mask, lstart, qv, qb = _hop_scratch(n)
        cnt = np.zeros(64, dtype=np.int64)
        for batch in range(t, nbatch, T):
            b0, b1, vert, mask, depth, qv, qb = _batch_levels(indptr, indices, src, batch, width, seen, nxt, dummy,
                                                              vert, mask, lstart, False, 64, qv, qb)
            for j in range(b1 - b0):
                total[b0 + j] = 0
                reached[b0 + j] = 1
                harmonic[b0 + j] = 0.0
                ecc[b0 + j] = 0
            for L in range(1, depth + 1):
                cnt[:] = 0
                m = _level_sources(mask, lstart[L], lstart[L + 1], cnt)
                inv = 1.0 / L
                while m != ZERO:
                    s = trailing_zeros(m)
                    m &= m - ONE
                    total[b0 + s] += cnt[s] * L
                    reached[b0 + s] += cnt[s]
                    harmonic[b0 + s] += cnt[s] * inv
                    ecc[b0 + s] = L
            for i in range(lstart[depth + 1]):
                seen[vert[i]] = ZERO


# -- eccentricity bounds (hops) -------------------------------------------------------------


@njit(cache=True, parallel=True)
def hop_ecc_bounds(indptr, indices, src, width, ecc, lo, hi):
    """Eccentricities of the sources ``src`` and the bounds they give every vertex of an undirected graph.

    Bit-parallel BFS in batches of ``width <= 64`` sources, batch ``b`` on slot
    ``b % T`` (``T = lo.shape[0]``).  ``ecc`` (int64, like ``src``) gets each
    source's eccentricity; each slot's rows ``lo[t]`` and ``hi[t]`` (int64, the
    bounds so far on entry) are tightened by ``max(d, e_s - d) <= ecc(x) <= e_s + d``
    for every source ``s`` of the slot's batches and ``d = d(s, x)`` (F. W. Takes &
    W. A. Kosters, CIKM 2011); the caller takes the max of ``lo`` and the min of
    ``hi`` over the slots.  The graph must be connected (an unreached vertex
    gets no bound).
    """
    n = indptr.shape[0] - 1
    k = src.shape[0]
    nbatch = (k + width - 1) // width
    T = lo.shape[0]
    for t in prange(T):
        seen, nxt, dummy, vert, mask, lstart, qv, qb = _hop_scratch(n)
        e = np.zeros(64, dtype=np.int64)
        for batch in range(t, nbatch, T):
            b0, b1, vert, mask, depth, qv, qb = _batch_levels(indptr, indices, src, batch, width, seen, nxt, dummy,
                                                              vert, mask, lstart, False, 64, qv, qb)
            e[:] = 0
            for L in range(1, depth + 1):
                m = _level_sources(mask, lstart[L], lstart[L + 1], None)
                while m != ZERO:
                    s = trailing_zeros(m)
                    m &= m - ONE
                    e[s] = L
            for j in range(b1 - b0):
                ecc[b0 + j] = e[j]
            for L in range(0, depth + 1):
                for i in range(lstart[L], lstart[L + 1]):
                    v = vert[i]
                    m = mask[i]
                    low = lo[t, v]
                    high = hi[t, v]
                    while m != ZERO:
                        s = trailing_zeros(m)
                        m &= m - ONE
                        a = max(L, e[s] - L)
                        if a > low:
                            low = a
                        if e[s] + L < high:
                            high = e[s] + L
                    lo[t, v] = low
                    hi[t, v] = high
            for i in range(lstart[depth + 1]):
                seen[vert[i]] = ZERO
