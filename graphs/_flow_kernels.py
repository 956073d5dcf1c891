"""Numba kernels of the CPU maximum flow: residual network, push-relabel, residual reachability.

The residual network (built by :func:`residual_csr`) has one arc per direction of
every unordered vertex pair joined by an arc of the graph (parallel arcs merged by
summing capacities, self loops dropped); ``mate[a]`` is the arc of the opposite
direction.  :func:`push_relabel` is Goldberg & Tarjan's algorithm ("A new approach
to the maximum-flow problem", JACM 35, 1988) in the form of Cherkassky & Goldberg's
HIPR ("On implementing the push-relabel method for the maximum flow problem",
Algorithmica 19, 1997): highest-label selection from label buckets, current arcs,
the gap heuristic (a label left empty cuts every vertex above it off the sink) and
global relabelling (a backward breadth-first search from the sink) once the
relabelling work since the last one exceeds ``freq``.

Arithmetic is exact.  Capacities, residual capacities and excesses are
nonnegative integers: one int64 each (an ``(m,)`` array: integer capacities, and
float capacities scaled to integers when every sum fits, see
:func:`graphs._flow_network.fixed_point`), or ``L`` limbs of :data:`LIMB_BITS` bits
each, most significant first (an ``(m, L)`` int64 array: float capacities whose
sums need more than 62 bits, as ``1e-3`` next to ``1e15``).  The kernels are
written once over three operations on either layout (:func:`_pos`, :func:`_push`,
:func:`_saturate`, overloaded by the number of dimensions), so a value is zero only
when it is exactly zero; no tolerance is involved.  Every kernel is serial:
push-relabel's queue discipline is what makes it fast, and it does not split.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros  # LLVM's ctlz / cttz
from numba.extending import overload

__all__ = [
    "residual_csr", "residual_map", "fixed_point_range", "fixed_point_limbs", "limb_sums", "limb_flows",
    "saturate_source", "push_relabel", "reachable_from", "stranded", "cut_arcs", "LIMB_BITS",
]

#: Bits per limb of a multi-limb number (two limbs and a carry fit int64).
LIMB_BITS = 62
_BASE = 1 << LIMB_BITS


# --- numbers: one int64 each, or rows of limbs ---------------------------------------------------


def _pos(x, i):  # pragma: no cover - replaced by the overload in jitted code
    """Whether number ``i`` of ``x`` is above zero."""
    raise NotImplementedError


def _push(res, a, ma, excess, v, w):  # pragma: no cover - replaced by the overload in jitted code
    """Move ``min(excess[v], res[a])`` along arc ``a`` (``v -> w``, reverse arc ``ma``)."""
    raise NotImplementedError


def _saturate(res, a, ma, excess, w):  # pragma: no cover - replaced by the overload in jitted code
    """Move all of ``res[a]`` along arc ``a`` into ``excess[w]`` (reverse arc ``ma``)."""
    raise NotImplementedError


@njit(cache=True, nogil=True, inline="always")
def _limb_less(x, i, y, j):  # pragma: no cover - jitted
    """Whether row ``i`` of ``x`` is below row ``j`` of ``y`` (limbs most significant first)."""
    for k in range(x.shape[1]):
        if x[i, k] != y[j, k]:
            return x[i, k] < y[j, k]
    return False


@njit(cache=True, nogil=True, inline="always")
def _limb_add(x, i, y, j):  # pragma: no cover - jitted
    """``x[i] += y[j]`` (the sum stays below ``2**(62 L)``: every value is at most the total capacity)."""
    carry = 0
    for k in range(x.shape[1] - 1, -1, -1):
        d = x[i, k] + y[j, k] + carry
        if d >= _BASE:
            x[i, k] = d - _BASE
            carry = 1
        else:
            x[i, k] = d
            carry = 0


@njit(cache=True, nogil=True, inline="always")
def _limb_sub(x, i, y, j):  # pragma: no cover - jitted
    """``x[i] -= y[j]`` (``x[i] >= y[j]``)."""
    borrow = 0
    for k in range(x.shape[1] - 1, -1, -1):
        d = x[i, k] - y[j, k] - borrow
        if d < 0:
            x[i, k] = d + _BASE
            borrow = 1
        else:
            x[i, k] = d
            borrow = 0


@overload(_pos, inline="always")
def _pos_impl(x, i):
    if x.ndim == 1:
        return lambda x, i: x[i] > 0

    def impl(x, i):  # pragma: no cover - jitted
        for k in range(x.shape[1]):
            if x[i, k] != 0:
                return True
        return False

    return impl


@overload(_push, inline="always")
def _push_impl(res, a, ma, excess, v, w):
    if res.ndim == 1:

        def scalar(res, a, ma, excess, v, w):  # pragma: no cover - jitted
            ev = excess[v]
            r = res[a]
            dlt = ev if ev < r else r
            res[a] = r - dlt
            res[ma] += dlt
            excess[v] = ev - dlt
            excess[w] += dlt

        return scalar

    def limbs(res, a, ma, excess, v, w):  # pragma: no cover - jitted
        if _limb_less(excess, v, res, a):  # the whole excess moves
            _limb_sub(res, a, excess, v)
            _limb_add(res, ma, excess, v)
            _limb_add(excess, w, excess, v)
            excess[v, :] = 0
        else:  # the arc fills
            _limb_sub(excess, v, res, a)
            _limb_add(res, ma, res, a)
            _limb_add(excess, w, res, a)
            res[a, :] = 0

    return limbs


@overload(_saturate, inline="always")
def _saturate_impl(res, a, ma, excess, w):
    if res.ndim == 1:

        def scalar(res, a, ma, excess, w):  # pragma: no cover - jitted
            d = res[a]
            res[a] = 0
            res[ma] += d
            excess[w] += d

        return scalar

    def limbs(res, a, ma, excess, w):  # pragma: no cover - jitted
        _limb_add(res, ma, res, a)
        _limb_add(excess, w, res, a)
        res[a, :] = 0

    return limbs


@njit(cache=True, nogil=True)
def _sorted_rows(indptr, indices, cap):  # pragma: no cover - jitted
    """``(indices, cap, perm)`` with every row sorted by head (the arrays themselves when they are).

    ``perm[k]`` is the position in the input of the arc at position ``k``.
    """
    n = indptr.shape[0] - 1
    ok = True
    for u in range(n):
        for e in range(indptr[u] + 1, indptr[u + 1]):
            if indices[e] < indices[e - 1]:
                ok = False
                break
        if not ok:
            break
    perm = np.arange(indices.shape[0])
    if ok:
        return indices, cap, perm
    idx = indices.copy()
    c = cap.copy()
    for u in range(n):
        lo, hi = indptr[u], indptr[u + 1]
        order = np.argsort(indices[lo:hi], kind="mergesort")
        for k in range(hi - lo):
            idx[lo + k] = indices[lo + order[k]]
            c[lo + k] = cap[lo + order[k]]
            perm[lo + k] = lo + order[k]
    return idx, c, perm


@njit(cache=True, nogil=True)
def _transpose(indptr, indices):  # pragma: no cover - jitted
    """The CSR structure of the transpose, rows sorted by tail (vertices are visited in order)."""
    n = indptr.shape[0] - 1
    m = indptr[n]
    tptr = np.zeros(n + 1, dtype=np.int64)
    for e in range(m):
        tptr[indices[e] + 1] += 1
    for v in range(n):
        tptr[v + 1] += tptr[v]
    fill = tptr[:-1].copy()
    tsrc = np.empty(m, dtype=np.int32)
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            tsrc[fill[v]] = u
            fill[v] += 1
    return tptr, tsrc


@njit(cache=True, nogil=True)
def _merge_rows(indptr, indices, cap, perm, tptr, tsrc, use_t):  # pragma: no cover - jitted
    """Rows of the residual network: row u of the graph merged with row u of the transpose.

    The transpose's entries are the reverse arcs (capacity 0 here; an arc w -> u of
    the graph is counted in row w).  Without ``use_t`` (a symmetric graph: the
    transpose has the rows of the graph) the graph's rows alone are merged.  Also
    returns ``where``: the residual arc of every arc of the graph (``perm`` maps the
    sorted arcs to the input's positions; -1 for a self loop).
    """
    n = indptr.shape[0] - 1
    m = indptr[n]
    size = 2 * m if use_t else m
    ptr = np.zeros(n + 1, dtype=np.int64)
    head = np.empty(size, dtype=np.int32)
    cap0 = np.zeros(size, dtype=cap.dtype)
    where = np.full(m, -1, dtype=np.int64)
    zero = np.zeros(1, dtype=cap.dtype)[0]
    out = 0
    for u in range(n):
        i, iend = indptr[u], indptr[u + 1]
        j, jend = (tptr[u], tptr[u + 1]) if use_t else (0, 0)
        start = out
        while i < iend or j < jend:
            e = -1
            if j >= jend or (i < iend and indices[i] <= tsrc[j]):
                w = indices[i]
                cf = cap[i]
                e = perm[i]
                i += 1
            else:
                w = tsrc[j]
                cf = zero
                j += 1
            if w == u:
                continue
            if not (out > start and head[out - 1] == w):
                head[out] = w
                cap0[out] = zero
                out += 1
            cap0[out - 1] += cf
            if e >= 0:
                where[e] = out - 1
        ptr[u + 1] = out
    return ptr, head[:out].copy(), cap0[:out].copy(), where


@njit(cache=True, nogil=True)
def _mates(ptr, head):  # pragma: no cover - jitted
    """The opposite arc of every arc (rows sorted by head); ``ok`` False if one is missing."""
    n = ptr.shape[0] - 1
    mate = np.empty(head.shape[0], dtype=np.int64)
    pos = ptr[:-1].copy()
    for u in range(n):
        for a in range(ptr[u], ptr[u + 1]):
            v = head[a]
            if v < u:
                continue
            # Row v is sorted; its arcs to vertices below u were matched by them already,
            # so the arc v -> u, if there, is the first unmatched one.
            b = pos[v]
            if b >= ptr[v + 1] or head[b] != u:
                return mate, False
            pos[v] = b + 1
            mate[a] = b
            mate[b] = a
    return mate, True


@njit(cache=True, nogil=True)
def _residual(indptr, indices, cap, symmetric):  # pragma: no cover - jitted
    """:func:`residual_csr`'s arrays and ``where`` (the residual arc of every arc of the graph)."""
    indices, cap, perm = _sorted_rows(indptr, indices, cap)
    if symmetric:
        ptr, head, cap0, where = _merge_rows(indptr, indices, cap, perm, indptr, indices, False)
        mate, ok = _mates(ptr, head)
        if ok:
            return ptr, head, mate, cap0, where
    tptr, tsrc = _transpose(indptr, indices)
    ptr, head, cap0, where = _merge_rows(indptr, indices, cap, perm, tptr, tsrc, True)
    mate, ok = _mates(ptr, head)
    return ptr, head, mate, cap0, where


@njit(cache=True, nogil=True)
def residual_csr(indptr, indices, cap, symmetric=False):  # pragma: no cover - jitted
    """The residual network of the arcs ``u -> indices[e]`` (``indptr``'s rows) with capacities ``cap``.

    Returns ``(ptr, head, mate, cap0)``: CSR rows sorted by head, one arc per
    direction of each vertex pair (parallel arcs summed, self loops dropped), the
    paired reverse arc of each arc, and each arc's capacity (0 for a pure reverse arc).
    Each residual row merges the (sorted) row of the graph with the row of its
    transpose, which a counting pass builds already sorted: O(n + m).  With
    ``symmetric`` (an undirected graph's promise) the transpose is skipped; a graph
    that breaks the promise is noticed and built the general way.
    """
    ptr, head, mate, cap0, _ = _residual(indptr, indices, cap, symmetric)
    return ptr, head, mate, cap0


@njit(cache=True, nogil=True)
def residual_map(indptr, indices, symmetric=False):  # pragma: no cover - jitted
    """:func:`residual_csr`'s ``(ptr, head, mate)`` and ``where``: the residual arc of each arc (-1: self loop).

    For capacities of several limbs, which :func:`limb_sums` then adds up per residual arc.
    """
    ptr, head, mate, _, where = _residual(indptr, indices, np.zeros(indices.shape[0], dtype=np.int64), symmetric)
    return ptr, head, mate, where


@njit(cache=True, nogil=True)
def limb_sums(where, cap, size):  # pragma: no cover - jitted
    """Capacities of ``size`` residual arcs: ``cap[e]`` (rows of limbs) added into row ``where[e]``."""
    out = np.zeros((size, cap.shape[1]), dtype=np.int64)
    for e in range(where.shape[0]):
        if where[e] >= 0:
            _limb_add(out, where[e], cap, e)
    return out


@njit(cache=True, nogil=True, inline="always")
def _float_bits(b):  # pragma: no cover - jitted
    """``(mant, base, top)`` of a positive float64 with bits ``b``: it is ``mant * 2**base``, below ``2**top``."""
    field = b >> 52
    mant = b & ((np.int64(1) << 52) - 1)
    if field == 0:  # subnormal
        return mant, -1074, 64 - leading_zeros(mant) - 1074
    return mant | (np.int64(1) << 52), field - 1075, field - 1022


@njit(cache=True, nogil=True)
def fixed_point_range(bits):  # pragma: no cover - jitted
    """``(emin, top)`` of the float64 capacities with bits ``bits`` (``cap.view(np.int64)``).

    Every positive capacity is an integer times ``2**emin`` and below ``2**top``;
    ``(0, 0)`` when none is positive.
    """
    emin = 1 << 20
    top = -(1 << 20)
    for e in range(bits.shape[0]):
        b = bits[e]
        if b > 0:  # positive (a zero is 0, a -0.0 has the sign bit)
            mant, base, hi = _float_bits(b)
            lsb = base + trailing_zeros(mant)
            if lsb < emin:
                emin = lsb
            if hi > top:
                top = hi
    if top == -(1 << 20):
        return 0, 0
    return emin, top


@njit(cache=True, nogil=True)
def fixed_point_limbs(bits, emin, L):  # pragma: no cover - jitted
    """The capacities (float64 bits ``bits``) over ``2**emin`` as ``L`` limbs of :data:`LIMB_BITS` bits, most
    significant first (rows of an int64 array)."""
    out = np.zeros((bits.shape[0], L), dtype=np.int64)
    mask = np.uint64(_BASE - 1)
    for e in range(bits.shape[0]):
        b = bits[e]
        if b > 0:
            mant, base, _ = _float_bits(b)
            sh = base - emin
            if sh < 0:  # mant's trailing zero bits below 2**emin
                mant >>= -sh
                sh = 0
            q, r = sh // LIMB_BITS, sh % LIMB_BITS
            out[e, L - 1 - q] = np.int64((np.uint64(mant) << np.uint64(r)) & mask)
            hi = mant >> (LIMB_BITS - r)  # 53 bits span two limbs at most
            if hi != 0:
                out[e, L - 2 - q] = hi
    return out


@njit(cache=True, nogil=True, inline="always")
def _limbs_to_float(x, emin):  # pragma: no cover - jitted
    """``x * 2**emin`` (a 1-D row of limbs) rounded to the nearest float64 (ties to even; inf past the largest)."""
    L = x.shape[0]
    k = 0
    while k < L and x[k] == 0:
        k += 1
    if k == L:
        return 0.0
    if k == L - 1:
        # int64 -> float64 rounds once; the scaling is then exact (a subnormal result has
        # fewer than 53 bits, since emin >= -1074, and so was exact already).
        return math.ldexp(float(x[k]), emin)
    top, lo = x[k], x[k + 1]
    s = leading_zeros(top) - 1  # shifts top's highest bit to bit 62: the number's top 63 bits
    mant = (top << s) | (lo >> (LIMB_BITS - s))
    sticky = (lo & ((np.int64(1) << (LIMB_BITS - s)) - 1)) != 0
    for j in range(k + 2, L):
        if x[j] != 0:
            sticky = True
    if sticky:
        mant |= 1  # round to odd below the 53 bits kept: one correct rounding in float(mant)
    return math.ldexp(float(mant), LIMB_BITS * (L - 2 - k) + LIMB_BITS - s + emin)


@njit(cache=True, nogil=True)
def limb_flows(cap0, res, emin):  # pragma: no cover - jitted
    """``(cap0 - res) * 2**emin`` per row of limbs, each rounded to the nearest float64."""
    m, L = cap0.shape
    out = np.empty(m, dtype=np.float64)
    d = np.empty(L, dtype=np.int64)
    for a in range(m):
        neg = _limb_less(cap0, a, res, a)
        x, y = (res, cap0) if neg else (cap0, res)
        borrow = 0
        for k in range(L - 1, -1, -1):
            v = x[a, k] - y[a, k] - borrow
            borrow = 1 if v < 0 else 0
            d[k] = v + borrow * _BASE
        f = _limbs_to_float(d, emin)
        out[a] = -f if neg else f
    return out


@njit(cache=True, nogil=True)
def saturate_source(ptr, head, mate, res, excess, s):  # pragma: no cover - jitted
    """Push every residual arc out of ``s`` to capacity (the initial preflow)."""
    for a in range(ptr[s], ptr[s + 1]):
        if _pos(res, a):
            _saturate(res, a, mate[a], excess, head[a])


@njit(cache=True, nogil=True)
def _global_relabel(ptr, head, mate, res, label, sink, blocked, queue):  # pragma: no cover - jitted
    """Exact distances to ``sink`` in the residual graph (``n`` where it cannot be reached)."""
    n = ptr.shape[0] - 1
    label[:] = n
    label[sink] = 0
    queue[0] = sink
    qh, qt = 0, 1
    while qh < qt:
        x = queue[qh]
        qh += 1
        dx = label[x] + 1
        for a in range(ptr[x], ptr[x + 1]):
            y = head[a]
            if label[y] == n and y != blocked and _pos(res, mate[a]):
                label[y] = dx
                queue[qt] = y
                qt += 1


@njit(cache=True, nogil=True)
def push_relabel(ptr, head, mate, res, excess, label, sink, blocked, freq):  # pragma: no cover - jitted
    """Discharge every vertex with excess towards ``sink`` (highest label first).

    ``blocked`` (the source in the first phase, the sink of the first phase in the
    second) keeps label ``n`` and never moves flow.  On return no vertex other than
    ``sink`` and ``blocked`` with label below ``n`` holds excess;
    ``label`` holds the final labels.  Returns the number of global relabellings.
    """
    n = ptr.shape[0] - 1
    cur = ptr[:-1].copy()
    a_first = np.full(n + 1, -1, dtype=np.int32)  # active vertices of each label (stacks)
    a_next = np.full(n, -1, dtype=np.int32)
    i_first = np.full(n + 1, -1, dtype=np.int32)  # inactive vertices of each label (doubly linked)
    i_next = np.full(n, -1, dtype=np.int32)
    i_prev = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    work = 0
    n_global = 0
    amax = 0
    dmax = 0
    relabel_now = True
    while True:
        if relabel_now:
            relabel_now = False
            n_global += 1
            work = 0
            _global_relabel(ptr, head, mate, res, label, sink, blocked, queue)
            a_first[:] = -1
            i_first[:] = -1
            amax = 0
            dmax = 0
            for v in range(n):
                cur[v] = ptr[v]
                d = label[v]
                if v == sink or v == blocked or d >= n:
                    continue
                if d > dmax:
                    dmax = d
                if _pos(excess, v):
                    a_next[v] = a_first[d]
                    a_first[d] = v
                    if d > amax:
                        amax = d
                else:
                    f = i_first[d]
                    i_next[v] = f
                    i_prev[v] = -1
                    if f >= 0:
                        i_prev[f] = v
                    i_first[d] = v
        if amax <= 0:
            break
        v = a_first[amax]
        if v < 0:
            amax -= 1
            continue
        a_first[amax] = a_next[v]
        # Discharge v: push along admissible arcs, relabel when none is left.
        while True:
            dv = label[v]
            end = ptr[v + 1]
            a = cur[v]
            while a < end:
                if _pos(res, a):
                    w = head[a]
                    if label[w] == dv - 1:
                        wake = w != sink and not _pos(excess, w)
                        _push(res, a, mate[a], excess, v, w)
                        if wake:
                            # w turns active: unlink it from its inactive list.
                            p, q = i_prev[w], i_next[w]
                            if p >= 0:
                                i_next[p] = q
                            else:
                                i_first[dv - 1] = q
                            if q >= 0:
                                i_prev[q] = p
                            a_next[w] = a_first[dv - 1]
                            a_first[dv - 1] = w
                            if dv - 1 > amax:
                                amax = dv - 1
                        if not _pos(excess, v):
                            break
                a += 1
            if not _pos(excess, v):
                cur[v] = a
                f = i_first[dv]
                i_next[v] = f
                i_prev[v] = -1
                if f >= 0:
                    i_prev[f] = v
                i_first[dv] = v
                break
            # Relabel: one above the lowest residual neighbour.
            work += 12 + (end - ptr[v])
            if a_first[dv] < 0 and i_first[dv] < 0:
                # Gap: nothing else at label dv, so nothing above it reaches the sink.
                for d in range(dv + 1, dmax + 1):
                    x = a_first[d]
                    while x >= 0:
                        label[x] = n
                        x = a_next[x]
                    a_first[d] = -1
                    x = i_first[d]
                    while x >= 0:
                        label[x] = n
                        x = i_next[x]
                    i_first[d] = -1
                label[v] = n
                dmax = dv - 1
                amax = dv - 1
                break
            dmin = n
            amin = end
            for b in range(ptr[v], end):
                if _pos(res, b):
                    dw = label[head[b]]
                    if dw < dmin:
                        dmin = dw
                        amin = b
            if dmin + 1 >= n:
                label[v] = n
                break
            label[v] = dmin + 1
            cur[v] = amin
            if dmin + 1 > dmax:
                dmax = dmin + 1
        if work > freq:
            relabel_now = True
    return n_global


@njit(cache=True, nogil=True)
def reachable_from(ptr, head, res, s):  # pragma: no cover - jitted
    """Boolean mask of the vertices reachable from ``s`` over arcs of positive residual capacity."""
    n = ptr.shape[0] - 1
    seen = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int32)
    seen[s] = True
    queue[0] = s
    qh, qt = 0, 1
    while qh < qt:
        x = queue[qh]
        qh += 1
        for a in range(ptr[x], ptr[x + 1]):
            y = head[a]
            if not seen[y] and _pos(res, a):
                seen[y] = True
                queue[qt] = y
                qt += 1
    return seen


@njit(cache=True, nogil=True)
def stranded(excess, s, t):  # pragma: no cover - jitted
    """Whether a vertex other than ``s`` and ``t`` holds excess (the second phase's work)."""
    for v in range(excess.shape[0]):
        if v != s and v != t and _pos(excess, v):
            return True
    return False


@njit(cache=True, nogil=True)
def cut_arcs(indptr, indices, cap, side):  # pragma: no cover - jitted
    """``(u, v)`` of the arcs of positive capacity from ``side`` to its complement."""
    n = indptr.shape[0] - 1
    k = 0
    for u in range(n):
        if side[u]:
            for e in range(indptr[u], indptr[u + 1]):
                if not side[indices[e]] and cap[e] > 0:
                    k += 1
    cu = np.empty(k, dtype=np.int32)
    cv = np.empty(k, dtype=np.int32)
    k = 0
    for u in range(n):
        if side[u]:
            for e in range(indptr[u], indptr[u + 1]):
                if not side[indices[e]] and cap[e] > 0:
                    cu[k] = u
                    cv[k] = indices[e]
                    k += 1
    return cu, cv
