"""The flow network shared by the CPU and GPU maximum flow: capacities, checks, result type.

:func:`capacities` reads a graph's weights as capacities (int64 or float64) and
rejects negative, NaN and infinite entries naming the arc; :func:`check_int64_room`
refuses integer inputs whose sums could overflow int64; :func:`fixed_point` writes
float capacities as exact integers (one int64 each, or several limbs), so that the
flow is computed exactly and rounded once at the end (:func:`to_float`);
:func:`residual_arrays`
builds the residual network with array operations of NumPy or CuPy (the GPU
driver's builder; the CPU builds the same arrays with a Numba kernel);
:func:`cut_of` and :class:`FlowResult` shape the answer.  Nothing here depends on
the device beyond the array module ``xp`` it is handed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _flow_kernels as K
from .errors import CapacityError
from .graph import Graph

__all__ = [
    "FlowResult", "capacities", "check_int64_room", "check_flow_range", "fixed_point", "to_float", "residual_arrays", "cut_of",
    "tails", "flood_from_sink",
]

_INT64_MAX = np.iinfo(np.int64).max
_LIMB = 62  # bits per limb (graphs._flow_kernels.LIMB_BITS)


@dataclass(frozen=True)
class FlowResult:
    """A maximum flow and the minimum cut it certifies.

    Attributes
    ----------
    flow_value : int or float
        The value of the maximum flow (a Python ``int`` for integer capacities).
    flow : scipy.sparse.csr_array or cupyx.scipy.sparse.csr_matrix
        Net flow on every vertex pair joined by an arc, stored both ways and
        antisymmetric (``flow[u, v] == -flow[v, u]``), as SciPy's ``maximum_flow``
        returns it; explicit zeros are kept.  int64 or float64.
    source_side : bool array (n,)
        The minimum cut's source side: the vertices reachable from the source in
        the residual graph of the flow.
    cut_edges : tuple of two int32 arrays
        ``(u, v)`` of every arc of the graph (parallel arcs listed each) with positive
        capacity from the source side to the sink side; all are saturated, and their
        capacities sum to ``flow_value``.
    """

    flow_value: Any
    flow: Any
    source_side: Any
    cut_edges: tuple[Any, Any]


def tails(xp: Any, indptr: Any) -> Any:
    """The tail of every arc of the CSR rows ``indptr`` (int32)."""
    n = int(indptr.shape[0]) - 1
    return xp.repeat(xp.arange(n, dtype=np.int32), xp.diff(indptr).astype(np.int64))


def capacities(G: Graph) -> Any:
    """The capacities of ``G``'s arcs.

    Parameters
    ----------
    G : Graph

    Returns
    -------
    cap : int64 or float64 array (nnz,)
        The weights (1 for an unweighted graph).

    Raises
    ------
    CapacityError
        A capacity is negative, NaN or infinite (the message names the arc).

    Examples
    --------
    >>> capacities(Graph.from_edges([0, 1], [1, 2], [2.0, 4.0]))
    array([2., 4.])
    >>> capacities(Graph.from_edges([0, 1], [1, 2], [3, -1]))
    Traceback (most recent call last):
    ...
    graphs.errors.CapacityError: capacity of arc 1 (1 -> 2) is -1; capacities must be >= 0
    """
    xp = G.xp
    if G.weights is None:
        return xp.ones(G.nnz, dtype=np.int64)
    w = G.weights
    is_float = w.dtype.kind == "f"
    cap = w.astype(np.float64 if is_float else np.int64, copy=False)
    if cap.size == 0:
        return cap
    bad = ~xp.isfinite(cap) | (cap < 0) if is_float else cap < 0
    if bool(bad.any()):
        k = int(xp.argmax(bad))
        u = int(np.searchsorted(np.asarray(G.indptr if xp is np else G.indptr.get()), k, side="right")) - 1
        x = cap[k].item()
        why = "capacities must be >= 0" if x < 0 else "capacities must be finite numbers"
        raise CapacityError(f"capacity of arc {k} ({u} -> {int(G.indices[k])}) is {x!r}; {why}")
    return cap


def fixed_point(xp: Any, cap: Any) -> tuple[Any, Any]:
    """Float capacities as exact integers: ``cap == icap * 2**emin``.

    A finite float64 is an integer of at most 53 bits times a power of two, so all
    the capacities are integer multiples of ``2**emin``, the smallest of those
    powers; flows, residual capacities and excesses, being sums and differences of
    capacities, are then integers too, computed without rounding.  Each is at most
    the total capacity, below ``nnz * 2**top`` (``top``: the exponent above the
    largest capacity), so ``top - emin + bit_length(nnz)`` bits hold every value:
    one int64 when that is at most 62 bits, else ``L`` limbs of 62 bits, most
    significant first.

    Parameters
    ----------
    xp : module
        NumPy or CuPy.
    cap : float64 array (nnz,)
        Capacities as :func:`capacities` returns them (finite, nonnegative).

    Returns
    -------
    icap : int64 array, (nnz,) or (nnz, L)
        The scaled capacities: one int64 each when every sum fits 62 bits, else
        ``L >= 2`` limbs of 62 bits each, most significant first.
    emin : int
        The scale's exponent (``-1074 <= emin``).

    Examples
    --------
    >>> fixed_point(np, np.array([0.75, 3.0, 0.0]))
    (array([ 3, 12,  0]), -2)
    >>> icap, emin = fixed_point(np, np.array([1e15, 1e-3]))
    >>> icap.shape, emin
    ((2, 2), -60)
    >>> [(int(a) << 62 | int(b)) * 2.0**emin for a, b in icap.tolist()]
    [1000000000000000.0, 0.001]
    """
    if xp is not np:  # computed on the host: two passes over the capacities, O(nnz) copies
        icap, emin = fixed_point(np, cap.get())
        return xp.asarray(icap), emin
    raw = np.ascontiguousarray(cap, dtype=np.float64).view(np.int64)
    emin, top = K.fixed_point_range(raw)
    bits = top - emin + int(cap.size).bit_length()
    L = max(1, -(-bits // _LIMB))
    icap = K.fixed_point_limbs(raw, emin, L)
    return (icap.reshape(-1) if L == 1 else icap), emin


def to_float(value: int, emin: int) -> float:
    """``value * 2**emin`` rounded once to the nearest float64 (ties to even).

    Python's true division of integers is correctly rounded, subnormal results
    included.

    Raises
    ------
    CapacityError
        The result is beyond the largest float64.

    Examples
    --------
    >>> to_float(8 * 2**43 + 1, -43)
    8.000000000000114
    >>> to_float(2**1045, -1044)
    2.0
    >>> to_float(2**2000 + 1, -900)
    Traceback (most recent call last):
    ...
    graphs.errors.CapacityError: the maximum flow value is at least 2**1100, above the largest float64 (below 2**1024)
    """
    try:
        return float(value << emin) if emin >= 0 else value / (1 << -emin)
    except OverflowError:
        k = value.bit_length() - 1 + emin
        raise CapacityError(
            f"the maximum flow value is at least 2**{k}, above the largest float64 (below 2**1024)"
        ) from None


def check_flow_range(xp: Any, data: Any) -> None:
    """Refuse a float flow with an arc whose flow is beyond the largest float64 (parallel arcs summed past it).

    Examples
    --------
    >>> check_flow_range(np, np.array([1.0, -np.inf]))
    Traceback (most recent call last):
    ...
    graphs.errors.CapacityError: the flow on residual arc 1 is above the largest float64 in magnitude (parallel arcs summed past it)
    """
    bad = ~xp.isfinite(data)
    if bool(bad.any()):
        raise CapacityError(
            f"the flow on residual arc {int(xp.argmax(bad))} is above the largest float64 in magnitude "
            "(parallel arcs summed past it)"
        )


def _exact_sum(values: Any) -> int:
    """Exact sum of int64 values as a Python int."""
    return sum(int(x) for x in np.asarray(values).tolist())


def check_int64_room(G: Graph, cap: Any, s: int) -> None:
    """Refuse integer capacities whose sums may overflow int64.

    Every excess is at most the capacity out of ``s``, and every residual capacity
    at most the summed capacity of one vertex pair in both directions; both must
    fit int64.  Sums are estimated in float64 and checked exactly where close.

    Raises
    ------
    CapacityError
        The capacity out of ``s``, or of a vertex pair, exceeds ``2**63 - 1``.

    Examples
    --------
    >>> G = Graph.from_edges([0, 0], [1, 1], [2**62, 2**62])
    >>> check_int64_room(G, capacities(G), 0)
    Traceback (most recent call last):
    ...
    graphs.errors.CapacityError: the capacities out of the source 0 sum to 9223372036854775808, above 2**63 - 1 (int64)
    """
    xp = G.xp
    if cap.dtype.kind == "f" or cap.size == 0:
        return
    if int(cap.max()) <= 2**62 // cap.size:
        return  # max * count bounds every sum: none can come near the limit
    src = tails(xp, G.indptr)
    dst = G.indices
    loop = src == dst
    out_s = cap[(src == s) & ~loop]
    total = _exact_sum(out_s.get() if xp is not np else out_s)
    if total > _INT64_MAX:
        raise CapacityError(f"the capacities out of the source {s} sum to {total}, above 2**63 - 1 (int64)")
    keep = ~loop
    a = xp.minimum(src, dst)[keep].astype(np.int64)
    b = xp.maximum(src, dst)[keep].astype(np.int64)
    c = cap[keep]
    key = a * G.n + b
    uniq, seg = xp.unique(key, return_inverse=True)
    est = xp.bincount(seg.ravel(), weights=c.astype(np.float64), minlength=int(uniq.size))
    for p in xp.flatnonzero(est >= 2.0**62).tolist():
        exact = _exact_sum((c[seg.ravel() == p]).get() if xp is not np else c[seg.ravel() == p])
        if exact > _INT64_MAX:
            k = int(uniq[p])
            raise CapacityError(
                f"the capacities between vertices {k // G.n} and {k % G.n} (both directions) sum to {exact}, "
                "above 2**63 - 1 (int64)"
            )


def residual_arrays(xp: Any, G: Graph, cap: Any) -> tuple[Any, Any, Any, Any]:
    """The residual network of ``G`` by sorting (NumPy or CuPy): ``(ptr, head, mate, cap0)``.

    One arc per direction of every vertex pair joined by an arc (parallel arcs
    summed, self loops dropped), rows sorted by head; ``mate[a]`` is the opposite
    arc; ``cap0[a]`` its capacity.  Integer sums are exact when they fit int64
    (see :func:`check_int64_room`).

    Examples
    --------
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 1, 0, 2], [2, 3, 4, 9])
    >>> ptr, head, mate, cap0 = residual_arrays(np, G, capacities(G))
    >>> ptr.tolist(), head.tolist(), mate.tolist(), cap0.tolist()
    ([0, 1, 2, 2], [1, 0], [1, 0], [5, 4])
    """
    n = G.n
    src = tails(xp, G.indptr)
    dst = G.indices
    keep = src != dst
    src, dst, c = src[keep].astype(np.int64), dst[keep].astype(np.int64), cap[keep]
    fwd = src < dst
    a, b = xp.minimum(src, dst), xp.maximum(src, dst)
    key = a * n + b
    order = xp.argsort(key, kind="stable") if xp is np else xp.argsort(key)
    key, fwd, c = key[order], fwd[order], c[order]
    m = int(key.size)
    new = xp.ones(m, dtype=bool)
    if m:
        new[1:] = key[1:] != key[:-1]
    seg = xp.cumsum(new, dtype=np.int64) - 1
    starts = xp.flatnonzero(new)
    P = int(starts.size)
    zero = xp.zeros((), dtype=c.dtype)
    cf, cb = xp.where(fwd, c, zero), xp.where(fwd, zero, c)
    if c.dtype.kind == "f":
        cab = xp.bincount(seg, weights=cf, minlength=P)
        cba = xp.bincount(seg, weights=cb, minlength=P)
    else:
        # Segment sums as differences of prefix sums: exact modulo 2**64, hence exact.
        def seg_sum(x: Any) -> Any:
            cs = xp.cumsum(x)
            ends = xp.concatenate((starts[1:], xp.asarray([m], dtype=starts.dtype))) - 1
            tot = cs[ends]
            before = xp.concatenate((xp.zeros(1, dtype=cs.dtype), cs[ends[:-1]])) if P else tot
            return tot - before

        cab, cba = (seg_sum(cf), seg_sum(cb)) if P else (c[:0], c[:0])
    pk = key[starts]
    pa, pb = pk // n, pk % n
    tail = xp.concatenate((pa, pb))
    head = xp.concatenate((pb, pa))
    cap0 = xp.concatenate((cab, cba))
    order2 = xp.argsort(tail * n + head)
    inv = xp.empty(2 * P, dtype=np.int64)
    inv[order2] = xp.arange(2 * P, dtype=np.int64)
    mate0 = xp.concatenate((xp.arange(P, 2 * P, dtype=np.int64), xp.arange(0, P, dtype=np.int64)))
    mate = inv[mate0[order2]]
    tail, head, cap0 = tail[order2], head[order2], cap0[order2]
    ptr = xp.zeros(n + 1, dtype=np.int64)
    ptr[1:] = xp.cumsum(xp.bincount(tail, minlength=n))
    return ptr, head.astype(np.int32), mate, cap0


def flood_from_sink(ptr: Any, mate: Any, cap0: Any, s: int, t: int) -> bool:
    """Whether to solve the reverse problem (``t`` to ``s`` on the transposed network).

    Push-relabel starts by flooding every arc out of its source; when less capacity
    enters ``t`` than leaves ``s``, flooding from ``t`` on the transpose (residual
    capacities ``cap0[mate]``) strands less excess.  Both sums are taken in float64,
    so they cannot overflow; the smaller one then fits int64 (see
    :func:`check_int64_room`).  Capacities of several limbs (rows of ``cap0``, see
    :func:`fixed_point`) are summed as floats in units of their first limb.

    Examples
    --------
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], [9, 9, 1, 1])
    >>> ptr, head, mate, cap0 = residual_arrays(np, G, capacities(G))
    >>> flood_from_sink(ptr, mate, cap0, 0, 3)
    True
    """
    lo_s, hi_s = int(ptr[s]), int(ptr[s + 1])
    lo_t, hi_t = int(ptr[t]), int(ptr[t + 1])

    def total(c: Any) -> float:
        c = c.astype(np.float64)
        if c.ndim == 2:
            c = c @ 2.0 ** (-_LIMB * np.arange(c.shape[1]))
        return float(c.sum())

    return total(cap0[mate[lo_t:hi_t]]) < total(cap0[lo_s:hi_s])


def cut_of(xp: Any, G: Graph, cap: Any, source_side: Any) -> tuple[Any, Any]:
    """``(u, v)`` of the arcs of positive capacity from ``source_side`` to its complement."""
    src = tails(xp, G.indptr)
    dst = G.indices
    on = source_side[src] & ~source_side[dst] & (cap > 0)
    return src[on].astype(np.int32), dst[on].astype(np.int32)
