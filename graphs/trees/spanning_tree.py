"""Minimum spanning forests: Boruvka's algorithm with edge filtering, on the CPU and GPU.

Every component of the graph, read as undirected (as SciPy's
``minimum_spanning_tree`` reads a directed matrix), gets a spanning tree of
least total weight.  Negative and zero weights are ordinary weights; self loops
never belong to a forest; parallel arcs are separate candidate edges.  An
unweighted graph weighs 1 per edge.

**Which forest.**  Edges are ordered strictly by ``(weight, arc id)``, where the
*arc id* is the arc's position in the graph's CSR (``G.indices``).  The result
is the unique minimum spanning forest under that order, so it does not depend
on the device or on thread timing.  For an undirected graph, whose edge
``{u, v}`` is stored as two arcs, the arc that counts is the canonical one,
``min(u, v) -> max(u, v)`` (it comes first in the CSR); for a directed graph
each arc ``u -> v`` is its own candidate edge ``{u, v}`` (so of the arcs
``u -> v`` and ``v -> u`` the lighter one wins, as in SciPy).

**Algorithm.**  Boruvka (1926) rounds: every component picks its minimum edge
(the cut property puts it in the forest), the picked edges join components,
and the edge list is filtered: edges inside one component are dropped, the
others are relabelled to their components' roots, as in ECL-MST (Fallin,
Gonzalez, Seo & Burtscher, "A High-Performance MST Implementation for GPUs",
SC'23, sections 3-4).  The seed paper of Harish, Vineet & Narayanan ("Large
graph algorithms for massively multithreaded architectures", 2009) runs the
same rounds with contraction.  On the CPU (:mod:`graphs.trees._mst_kernels`, Numba)
the minimum search is split over the worker threads and the joins go through a
union-find; on the GPU (:mod:`graphs.cuda.spanning_tree`) components hook along
their minimum edges (a mutual pair keeps the smaller root) and pointer jumping
flattens them.  Each round at least halves the number of components that
still have edges, so there are at most ``log2(n)`` rounds.

Examples
--------
>>> from graphs import Graph
>>> G = Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], [1.0, 2.0, 5.0, -1.0], directed=False)
>>> F = minimum_spanning_tree(G)
>>> F.weight, F.n_components
(2.0, 1)
>>> F.edges
(array([0, 1, 2], dtype=int32), array([1, 2, 3], dtype=int32), array([ 1.,  2., -1.]))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.kernels import num_threads, run_rows

from ..csr_arrays import build_csr
from ..door import prepare
from ..errors import GraphError
from ..graph import Graph
from ..validate import cast_weights, check_weights
from . import _mst_kernels as K

if TYPE_CHECKING:
    from semiring.array_types import Device

__all__ = ["SpanningForest", "minimum_spanning_tree", "forest_arcs_cpu", "forest_arcs_all_ties"]

WORK_PER_EDGE = 64  # cost units of one edge for the thread pool: from 65536 edges a round is split


@dataclass(frozen=True)
class SpanningForest:
    """A minimum spanning forest: its edges, total weight, component count and graph.

    Attributes
    ----------
    weight : float or int
        Total weight: for float weights (and an unweighted graph) a Python
        ``float``, the exact sum of the edge weights rounded once to float64
        (so the CPU and the GPU agree); for integer weights an exact Python
        ``int`` (no wrapping, no int64 limit).  ``-inf`` (a ``float``) when an
        edge weighs ``-inf``, for integer weights when one weighs ``iinfo.min``,
        the dtype's sentinel of ``-inf`` (see :mod:`graphs.validate`): the
        forest is then well defined (such an edge is the lightest of all) but
        its total is ``-inf``.
    edges : tuple of arrays ``(u, v, w)``
        One entry per forest edge, ``u < v`` (int32), ``w`` in the graph's weight
        dtype (float64 ones for an unweighted graph), in increasing arc id (see
        :mod:`graphs.trees.spanning_tree`).  NumPy arrays, or CuPy arrays on the GPU.
    graph : Graph
        The forest as an undirected :class:`Graph` (both arcs of each edge) on
        the input's device.
    n_components : int
        Connected components of the input read as undirected (``n - len(u)``).
    """

    weight: Any
    edges: tuple[Any, Any, Any]
    graph: Graph
    n_components: int

    @property
    def n(self) -> int:
        """Number of vertices."""
        return self.graph.n

    def to_scipy(self) -> Any:
        """The forest in the layout of SciPy's ``minimum_spanning_tree``, its weights exact.

        A ``scipy.sparse.csr_matrix`` (``cupyx.scipy.sparse.csr_matrix`` on the
        GPU) of shape ``(n, n)``, sorted indices, holding each edge once, at
        ``(u, v)`` with ``u < v``.  For a symmetric input SciPy's result has
        this layout too (upper triangular); for an asymmetric one SciPy keeps
        each edge where the input entry it chose sits, which may be below the
        diagonal, and ``T + T.T`` is the symmetric forest either way.
        Zero-weight edges are stored as explicit zeros (SciPy drops zeros from
        its input).

        The data's dtype:

        * float weights (and an unweighted graph, whose edges weigh 1):
          float64, as SciPy's (float32 weights widen exactly; ``-inf`` stays
          ``-inf``);
        * integer weights: the weights' own dtype (int32 or int64), every
          weight exactly as the graph holds it (SciPy's sparse matrices hold
          integers exactly; SciPy's ``minimum_spanning_tree`` would give
          float64).  An edge of weight ``iinfo.min``, the dtype's sentinel of
          ``-inf`` (:mod:`graphs.validate`), keeps that value: find such edges
          with ``T.data == np.iinfo(T.dtype).min`` (``T.astype(float)`` reads
          them as a large negative number, not ``-inf``);
        * on the GPU, whose sparse matrices hold no integers, integer weights
          become float64 exactly (the sentinel ``iinfo.min`` becomes
          ``-inf``), and a weight that float64 would round (beyond ``2**53``)
          is an error, not a new value.

        Returns
        -------
        scipy.sparse.csr_matrix or cupyx.scipy.sparse.csr_matrix

        Raises
        ------
        InvalidEntryError
            GPU only: an integer edge weight has no exact float64 value (the
            message names it).

        Examples
        --------
        >>> from graphs import Graph
        >>> G = Graph.from_edges([0, 1, 0], [1, 2, 2], [3.0, 2.0, 1.0], directed=False)
        >>> minimum_spanning_tree(G).to_scipy().toarray()
        array([[0., 0., 1.],
               [0., 0., 2.],
               [0., 0., 0.]])
        >>> T = minimum_spanning_tree(Graph.from_edges([0, 1], [1, 2], np.array([2**53 + 1, -3]))).to_scipy()
        >>> T.dtype, T.data
        (dtype('int64'), array([9007199254740993,               -3]))
        """
        u, v, w = self.edges
        n = self.graph.n
        if self.graph.device == "gpu":
            import cupyx.scipy.sparse as csp

            w = cast_weights("the forest's weights", w, np.float64)
            return csp.coo_matrix((w, (u, v)), shape=(n, n)).tocsr()
        import scipy.sparse as sp

        if w.dtype.kind == "f":
            w = w.astype(np.float64, copy=False)  # float32 widens exactly; -inf stays -inf
        # The forest has no two edges on one (u, v), so the COO -> CSR conversion sums nothing: integers stay exact.
        T = sp.coo_matrix((w, (u, v)), shape=(n, n)).tocsr()
        T.sort_indices()
        return T


def minimum_spanning_tree(G: Any, *, device: Device = "auto") -> SpanningForest:
    """Minimum spanning forest of ``G`` read as undirected (a tree per component).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Weighted or not (an unweighted edge weighs 1); directed arcs count as
        undirected edges.  Weights may be negative or zero.
    device : {"auto", "cpu", "gpu"}
        ``"auto"`` runs where ``G`` lives.

    Returns
    -------
    SpanningForest
        ``.weight``, ``.edges`` (u, v, w with u < v), ``.graph``,
        ``.n_components`` and ``.to_scipy()``.  The forest is the unique
        minimum spanning forest under the strict order ``(weight, arc id)``
        described in :mod:`graphs.trees.spanning_tree`.

    Raises
    ------
    InvalidEntryError
        A weight is NaN or ``+inf`` (for integers the ``iinfo.max`` sentinel);
        the message names the arc.
    GraphError
        Unknown ``device``; the exact total of float weights is beyond float64's
        range (it does not fit the result, so it is not rounded to ``inf``).

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 3], [1, 2, 2, 4], [4, 1, 1, 7], n=6)
    >>> F = minimum_spanning_tree(G)
    >>> F.weight, F.n_components
    (9, 3)
    >>> F.edges
    (array([0, 1, 3], dtype=int32), array([2, 2, 4], dtype=int32), array([1, 1, 7]))

    Totals are exact, and an edge of weight ``-inf`` (for integers the sentinel
    ``iinfo.min``) makes the total ``-inf``:

    >>> big = np.iinfo(np.int64).max - 1
    >>> minimum_spanning_tree(Graph.from_edges([0, 1], [1, 2], np.array([big, big]))).weight
    18446744073709551612
    >>> minimum_spanning_tree(Graph.from_edges([0, 1], [1, 2], np.array([np.iinfo(np.int64).min, 3]))).weight
    -inf
    >>> minimum_spanning_tree(Graph.from_edges([0, 1, 2], [1, 2, 3], [1e16, 1.0, -1e16])).weight
    1.0
    """
    G = prepare(G, device).graph
    if G.weights is not None:
        check_weights("weights", G.weights, G.nnz)
    if G.device == "gpu":
        from ..cuda.spanning_tree import minimum_spanning_tree_gpu

        tree = minimum_spanning_tree_gpu(G)
    else:
        tree = forest_arcs_cpu(G)
    return forest_from_arcs(G, tree)


def forest_arcs_cpu(G: Graph) -> np.ndarray:
    """Arc ids (sorted, int64) of the minimum spanning forest: Boruvka rounds on the CPU."""

    n = G.n
    if G.weights is None or K.all_equal(G.weights):  # all ties: Kruskal in CSR order, no sort, one pass
        return forest_arcs_all_ties(G.indptr, G.indices, not G.directed)
    eu, ev, eid = K.candidate_edges(G.indptr, G.indices, not G.directed)
    ew = G.weights[eid]
    parent = np.arange(n, dtype=np.int32)
    tree = np.empty(max(n - 1, 0), dtype=np.int64)
    k = 0
    spare = [(np.zeros(n, dtype=ew.dtype), np.full(n, K.NONE, dtype=np.int64)) for _ in range(num_threads())]
    kept: list[Any] = []  # (start, end of the kept part, minima) of each chunk of a round

    def filter_rows(lo: int, hi: int) -> None:
        best = spare.pop()  # one pair of minima arrays per worker; list.pop is atomic
        kept.append((lo, K.filter_chunk(lo, hi, eu, ev, ew, eid, parent, *best), best))

    m = eid.shape[0]
    while m > 0:
        kept.clear()
        run_rows(filter_rows, m, work=m * WORK_PER_EDGE, align=1)
        kept.sort(key=lambda r: r[0])
        bw, bi = kept[0][2]
        for lo, end, (ow, oi) in kept[1:]:
            K.merge_minima(lo, end, eu, ev, bw, bi, ow, oi)  # resets oi
        for lo, end, _ in kept:
            k = K.join_minima(lo, end, eu, ev, eid, bi, parent, tree, k)  # resets bi
        spare.extend(b for _, _, b in kept)
        m = 0
        for lo, end, _ in kept:
            if lo != m:
                for a in (eu, ev, ew, eid):
                    a[m:m + end - lo] = a[lo:end]
            m += end - lo
        K.compress(parent, eu, ev, m)
    return np.sort(tree[:k])


def forest_arcs_all_ties(indptr: np.ndarray, indices: np.ndarray, undirected: bool) -> np.ndarray:
    """Arc ids (increasing, int64) of the minimum spanning forest when every arc weighs the same.

    The strict order ``(weight, arc id)`` is then the CSR order, so Kruskal runs
    without a sort (:func:`graphs.trees._mst_kernels.forest_in_arc_order`); the
    forest is the one the Boruvka rounds find.
    """
    n = indptr.shape[0] - 1
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    parent = np.arange(n, dtype=np.int32)
    tree = np.empty(n - 1, dtype=np.int64)
    k = K.forest_in_arc_order(indptr, indices, undirected, parent, tree)
    return tree[:k]


def forest_from_arcs(G: Graph, tree: Any) -> SpanningForest:
    """The :class:`SpanningForest` of ``G`` whose edges are the arcs ``tree`` (sorted arc ids).

    Parameters
    ----------
    G : Graph
    tree : int64 array
        Arc ids (positions in ``G.indices``) of the forest edges, increasing;
        NumPy on the CPU, CuPy on the GPU.

    Returns
    -------
    SpanningForest

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([1, 0], [0, 2], [2.5, 1.0])
    >>> forest_from_arcs(G, np.array([0, 1])).edges
    (array([0, 0], dtype=int32), array([2, 1], dtype=int32), array([1. , 2.5]))
    """
    xp = G.xp
    src, dst, w = G.edges()
    a, b = src[tree], dst[tree]
    u = xp.minimum(a, b).astype(np.int32)
    v = xp.maximum(a, b).astype(np.int32)
    ww = w[tree] if w is not None else xp.ones(tree.shape[0], dtype=np.float64)
    total = _total(ww)
    F = Graph(*build_csr(G.n, u, v, ww, both_ways=True), directed=False, check=False)  # valid by construction
    return SpanningForest(total, (u, v, ww), F, G.n - int(tree.shape[0]))


def _total(w: Any) -> Any:
    """The forest's total weight: exact, as :attr:`SpanningForest.weight` describes it.

    Examples
    --------
    >>> _total(np.array([1e308, 1e308, -1e308])), _total(np.array([-0.0])), _total(np.array([2**62, 2**62]))
    (1e+308, -0.0, 9223372036854775808)
    >>> _total(np.array([1e308, 1e308]))
    Traceback (most recent call last):
    ...
    graphs.errors.GraphError: the total weight of the spanning forest (2 edges) is beyond float64's range (its magnitude is at least 2**1024); it has no float64 value
    """
    if not isinstance(w, np.ndarray):
        w = w.get()  # CuPy: at most n - 1 weights to the host
    if w.dtype.kind == "f":
        if bool((w == -np.inf).any()):
            return -math.inf  # a Graph holds no +inf arc, so no inf - inf
        return _exact_float_sum(w.astype(np.float64, copy=False))
    if w.size and bool((w == np.iinfo(w.dtype).min).any()):
        return -math.inf  # the integer sentinel of -inf
    w64 = w.astype(np.int64)
    high = int((w64 >> 32).sum())  # |high| < 2**31 per edge, fewer than 2**31 edges
    low = int((w64 & 0xFFFFFFFF).sum(dtype=np.uint64))
    return high * (1 << 32) + low


def _exact_float_sum(w: np.ndarray) -> float:
    """``sum(w)`` of finite float64 values, computed exactly and rounded once to the nearest float64.

    Each value is a 53-bit integer times a power of two (``np.frexp``); the
    integers of one power are summed in int64 (in two halves of 27 bits, so no
    sum can overflow), the powers' sums combined as Python ints, and the exact
    total divided by the common power of two, which Python rounds correctly.
    A zero total is ``-0.0`` when every term is ``-0.0`` (as IEEE addition gives).

    Raises
    ------
    GraphError
        The exact sum is beyond float64's range.
    """
    if w.size == 0:
        return 0.0
    frac, exp = np.frexp(w)
    mant = np.ldexp(frac, 53).astype(np.int64)  # w = mant * 2**(exp - 53), exactly
    e = exp.astype(np.int64) - 53
    order = np.argsort(e, kind="stable")
    e, mant = e[order], mant[order]
    starts = np.flatnonzero(np.concatenate(([True], e[1:] != e[:-1])))
    high = np.add.reduceat(mant >> 26, starts).tolist()  # |mant >> 26| < 2**27: sums of < 2**36 terms fit
    low = np.add.reduceat(mant & ((1 << 26) - 1), starts).tolist()
    emin = int(e[0])
    total = 0
    for h, lo, p in zip(high, low, e[starts].tolist()):
        total += ((h << 26) + lo) << (p - emin)
    if total == 0:
        return -0.0 if bool(np.signbit(w).all()) else 0.0
    try:
        return float(total << emin) if emin >= 0 else total / (1 << -emin)
    except OverflowError:
        raise GraphError(
            f"the total weight of the spanning forest ({w.size} edges) is beyond float64's range (its magnitude is at "
            f"least 2**{abs(total).bit_length() - 1 + emin}); it has no float64 value"
        ) from None
