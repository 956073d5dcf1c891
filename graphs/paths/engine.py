"""Single- and multi-source shortest paths over the min-plus semiring.

Shortest-path distances from a source ``s`` are the fixed point
``d = e_s (+) d (x) A`` over ``min_plus`` (``(+)`` = min, ``(x)`` = +).  The
methods differ in which entries of ``d`` they push through ``A`` and when:

``"bellman-ford"``
    Frontier Bellman-Ford: each round multiplies only the entries that changed
    in the last round (an SpMSpV) and adds the result into ``d``.  Negative
    weights are allowed; a reachable negative cycle raises
    :class:`~graphs.errors.NegativeCycleError` naming a vertex on it.
    (Bellman 1958; Ford 1956; the frontier form is Kepner & Gilbert 2011, Ch. 3.)
``"delta-stepping"``
    Buckets of width ``delta``; light arcs are relaxed until the current bucket
    settles, heavy arcs once (Meyer & Sanders, "Delta-stepping: a
    parallelizable shortest path algorithm", J. Algorithms 49, 2003).
    Non-negative weights.  The GPU method, and the CPU default but for
    small low-diameter graphs of integer weights.  On the CPU the heavy arcs
    of a bucket are listed on all threads and applied in order (the same
    result on any number of threads).
``"dijkstra"``
    Binary-heap Dijkstra (1959) with lazy deletion; non-negative weights.
``"label-correcting"``
    One deque with Small Label First (Bertsekas, "A simple and fast label
    correcting algorithm for shortest paths", Networks 23, 1993); non-negative
    weights.  On low-diameter graphs of integer weights and up to a few
    million arcs (R-MAT) it measured faster than Dijkstra and (by some 10 %)
    delta-stepping here; on float weights, or past
    :data:`LABEL_CORRECTING_ARCS` arcs, delta-stepping on two threads
    measured up to twice as fast.  It gives up after ``8 m``
    arc scans (label-correcting methods have bad worst cases) and finishes with
    delta-stepping.

:func:`graphs.multi_source_sssp` and :func:`graphs.distance_matrix` run many
sources at once on the many-source engine, :mod:`graphs.paths.many_source`,
which builds on this module's Bellman-Ford and Johnson potentials.

This module is the engine behind :func:`graphs.sssp` (and
:func:`graphs.shortest_path`'s Bellman-Ford and the NetworkX backend).  It takes a
graph that passed the door (:func:`graphs.door.prepare`, with
``facts=True``) and checks nothing again.  Its API, for the modules beside it:

:data:`SEARCHES`
    The table of methods (``"auto"`` one more entry): the names a caller
    checks a ``method`` argument against.
:func:`search`
    One source: ``"auto"`` resolved, the weights checked against the method,
    and the one place where the CPU or GPU route is chosen.
:func:`bellman_ford`, :func:`johnson_potentials`, :func:`cycle_error`
    The frontier Bellman-Ford on a host graph, the potentials, and the
    :class:`~graphs.errors.NegativeCycleError` of a predecessor cycle.
:func:`bucket_width`, :func:`default_delta`, :func:`bounded_delta`, :func:`light_heavy_rows`
    Delta-stepping's bucket width and its light/heavy rows (kept on the graph).
:func:`hop_weights`
    An unweighted graph as one with every arc weighing 1.0.
"""

from __future__ import annotations

import numpy as np

from semiring.dtypes import neginf, posinf

from ..door import NONNEGATIVE_METHODS, Prepared, WeightFacts, check_weights, weight_facts
from ..errors import negative_cycle
from ..graph import Graph
from ..kernel_route import numpy_route
from ..traversal.engine import bfs_search
from . import _sssp_numpy

__all__ = ["SEARCHES", "search", "bellman_ford", "johnson_potentials",
           "cycle_error", "bucket_width", "default_delta", "bounded_delta", "light_heavy_rows", "hop_weights",
           "dijkstra_csr", "LOW_DIAMETER_DEGREE", "LABEL_CORRECTING_BUDGET", "LABEL_CORRECTING_ARCS", "GPU_DELTA_WIDTH", "BUCKET_LIMIT"]

LOW_DIAMETER_DEGREE = 8.0
LABEL_CORRECTING_ARCS = 1 << 22  # "auto" runs label-correcting on graphs of fewer arcs (low diameter, integers)
LABEL_CORRECTING_BUDGET = 8  # arc scans per arc before label-correcting hands over to delta-stepping
BUCKET_LIMIT = 1 << 16  # delta-stepping keeps at most this many (+ 2) buckets: see bounded_delta


def hop_weights(G: Graph) -> Graph:
    """An unweighted graph as one with every arc weighing 1.0 (float64)."""
    H = Graph(G.indptr, G.indices, G.xp.ones(G.nnz, dtype=np.float64), directed=G.directed,
              coords=G.coords, check=False)
    H._cache["negative"] = False
    return H


def dijkstra_csr(indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray, source: int):
    """Dijkstra from ``source`` on trusted host CSR arrays: the engine below every check.

    For callers that made the arrays themselves and know what the door would
    check (the NetworkX backend's conversion): nothing is checked here.
    ``indptr`` int64 (``n + 1``), ``indices`` int32 ids below ``n`` (rows in
    any order), ``weights`` int64 or float64, non-negative, no NaN; ``source``
    an int in ``[0, n)``.  Integer sums saturate at ``iinfo.max`` (unreachable).

    Returns
    -------
    dist : array (n,)
        The weights' dtype; ``inf`` (``iinfo.max``) where unreachable.
    pred : int32 array (n,)
        A shortest-path tree (-1 at the source and unreachable vertices).

    Examples
    --------
    >>> G = Graph.from_edges([0, 1, 0], [1, 2, 2], [2.0, 0.5, 4.0])
    >>> dijkstra_csr(G.indptr, G.indices, G.weights, 0)
    (array([0. , 2. , 2.5]), array([-1,  0,  1], dtype=int32))
    """
    from . import _sssp_kernels as K

    dtype = weights.dtype
    hi = posinf(dtype)
    dist = np.full(indptr.shape[0] - 1, hi, dtype=dtype)
    pred = np.full(dist.shape[0], -1, dtype=np.int32)
    K.dijkstra(indptr, indices, weights, source, dist, pred, neginf(dtype), hi)
    return dist, pred


def _dijkstra(G: Graph, s: int, delta: float | None, f: WeightFacts, dist: np.ndarray, pred: np.ndarray) -> None:
    """Binary-heap Dijkstra from ``s`` into ``dist`` / ``pred`` (``hi`` / -1 on entry)."""
    from . import _sssp_kernels as K

    K.dijkstra(G.indptr, G.indices, G.weights, s, dist, pred, f.lo, f.hi)


def _delta_stepping(G: Graph, s: int, delta: float | None, f: WeightFacts, dist: np.ndarray,
                    pred: np.ndarray) -> None:
    """Delta-stepping from ``s`` with :func:`bucket_width`'s width, over the light/heavy rows.

    A small graph with float64 or integer weights runs the kernel's plain-Python twin
    (:mod:`graphs.paths._sssp_numpy`: the same distances and predecessors; :mod:`graphs.kernel_route`).
    """
    d = bucket_width(G, delta, facts=f)
    mid, ind2, w2 = light_heavy_rows(G, d)
    if G.weights.dtype in _sssp_numpy.DTYPES and numpy_route(G.n + G.nnz):
        _sssp_numpy.delta_stepping(G.indptr, mid, ind2, w2, s, d, dist, pred, f.lo, f.hi)
        return
    import numba

    from semiring.kernels import run_parallel

    from . import _sssp_kernels as K

    pool = 2 * G.n + 1024
    threads = numba.get_num_threads()
    while run_parallel(K.delta_stepping, G.indptr, mid, ind2, w2, s, d, f.wmax, dist, pred, f.lo, f.hi, pool,
                       threads) < 0:
        pool *= 4  # more pending entries than slots: start over with a larger pool
        dist[:] = f.hi
        pred[:] = -1


def _label_correcting(G: Graph, s: int, delta: float | None, f: WeightFacts, dist: np.ndarray,
                      pred: np.ndarray) -> None:
    """Small Label First from ``s``; past its budget of arc scans, delta-stepping from scratch."""
    from . import _sssp_kernels as K

    if K.label_correcting(G.indptr, G.indices, G.weights, s, dist, pred, f.lo, f.hi,
                          LABEL_CORRECTING_BUDGET * G.nnz + G.n) >= 0:
        return
    dist[:] = f.hi
    pred[:] = -1
    _delta_stepping(G, s, delta, f, dist, pred)


def _bellman_ford_from(G: Graph, s: int, delta: float | None, f: WeightFacts, dist: np.ndarray,
                       pred: np.ndarray) -> None:
    """Frontier Bellman-Ford from ``s`` (:func:`bellman_ford`)."""
    bellman_ford(G, np.array([s], dtype=np.int32), dist, pred)


#: The single-source methods, each a host search ``(G, s, delta, facts, dist, pred)`` filling ``dist`` and
#: ``pred``; ``"auto"`` is resolved by :func:`search` (see :func:`graphs.sssp`).
SEARCHES = {
    "auto": None,
    "bellman-ford": _bellman_ford_from,
    "delta-stepping": _delta_stepping,
    "dijkstra": _dijkstra,
    "label-correcting": _label_correcting,
}


def search(P: Prepared, s: int, method: str = "auto", delta: float | None = None):
    """Distances and predecessors from ``s`` on a prepared graph: the one place where the search is chosen.

    ``method`` (a key of :data:`SEARCHES`, checked by the caller) ``"auto"``
    becomes Bellman-Ford if some weight is negative; else label-correcting
    on the CPU for a low-diameter graph (average degree at least
    :data:`LOW_DIAMETER_DEGREE`) of integer weights and fewer than
    :data:`LABEL_CORRECTING_ARCS` arcs; else delta-stepping.  The weights are
    checked against the method (:func:`graphs.door.check_weights`).  On the GPU,
    delta-stepping runs on the device and the other methods on a host copy
    (returning CuPy arrays); an unweighted graph counts hops (float64).

    Parameters
    ----------
    P : Prepared
        From :func:`graphs.door.prepare` with ``facts=True``.
    s : int
        A checked source vertex.
    method : str
    delta : float, optional
        Delta-stepping's bucket width (checked positive by the caller).

    Returns
    -------
    dist, pred : arrays (n,)
        As :func:`graphs.sssp` returns them.

    Examples
    --------
    >>> from graphs import Graph
    >>> from graphs.door import prepare
    >>> search(prepare(Graph.from_edges([0, 1], [1, 2], [2.0, 3.0]), facts=True), 0)
    (array([0., 2., 5.]), array([-1,  0,  1], dtype=int32))
    """
    G, f = P.graph, P.facts
    if f is None:  # unweighted: hop counts
        levels, parents = bfs_search(G, s)
        return P.xp.where(levels >= 0, levels.astype(np.float64), np.inf), parents
    if method == "auto":
        if f.negative_at >= 0:
            method = "bellman-ford"
        elif (P.device == "cpu" and f.avg_degree >= LOW_DIAMETER_DEGREE and G.weights.dtype.kind in "iu"
              and G.nnz < LABEL_CORRECTING_ARCS):
            method = "label-correcting"
        else:
            method = "delta-stepping"
    if f.neginf_at >= 0 or (f.negative_at >= 0 and method in NONNEGATIVE_METHODS):
        check_weights(G, method)
    if P.device == "gpu":
        if method == "delta-stepping":
            from ..cuda.sssp import sssp_gpu

            return sssp_gpu(G, s, bucket_width(G, delta, facts=f))
        G = G.to("cpu")  # Bellman-Ford, Dijkstra and label-correcting run on a host copy of the graph
    dist = np.full(G.n, f.hi, dtype=G.weights.dtype)
    pred = np.full(G.n, -1, dtype=np.int32)
    SEARCHES[method](G, s, delta, f, dist, pred)
    if P.device == "gpu":
        return P.xp.asarray(dist), P.xp.asarray(pred)
    return dist, pred


def light_heavy_rows(G: Graph, delta: float):
    """The rows of ``G`` with light arcs (``w <= delta``) first: ``(mid, indices, weights)``.

    Built in one O(m) pass and kept on the graph for the last ``delta`` used, so
    repeated delta-stepping runs (many sources) scan only the arcs they relax.
    """
    kept = G._cache.get("light_heavy")
    if kept is None or kept[0] != float(delta):
        if numpy_route(G.n + G.nnz):  # a small graph: the kernel's NumPy twin (the same rows)
            K = _sssp_numpy
        else:
            from . import _sssp_kernels as K
        kept = G._cache["light_heavy"] = (float(delta), K.split_light_heavy(G.indptr, G.indices, G.weights,
                                                                            float(delta)))
    return kept[1]


def bucket_width(G: Graph, delta: float | None = None, device: str | None = None, bounded: bool = True,
                 facts: WeightFacts | None = None) -> float:
    """The bucket width delta-stepping runs with: ``delta`` (default: :func:`default_delta`'s rule for
    ``device``, by default the graph's), raised as :func:`bounded_delta` says when ``bounded``;
    ``facts``: the graph's :class:`~graphs.door.WeightFacts`, if the caller has them.

    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1], [1, 2], [2.0**20, 6.0])
    >>> bucket_width(G), bucket_width(G, 1e-300)
    (1048582.0, 16.0)
    """
    if G.nnz == 0:
        return 1.0 if delta is None else float(delta)
    f = weight_facts(G) if facts is None else facts
    if delta is None:
        if f.mean == 0.0:
            return 1.0
        c = GPU_DELTA_WIDTH if (device or G.device) == "gpu" else 2.0
        delta = max(f.least, c * f.mean / f.avg_degree)
    delta = float(delta)
    return max(delta, f.wmax / BUCKET_LIMIT) if bounded and f.wmax > 0 else delta


def bounded_delta(G: Graph, delta: float) -> float:
    """``delta`` raised, if need be, so that delta-stepping keeps at most ``BUCKET_LIMIT + 2`` buckets.

    A pending distance never runs more than the largest weight ``wmax`` ahead
    of the current bucket, so ``wmax / delta + 2`` buckets suffice; a ``delta``
    below ``wmax / BUCKET_LIMIT`` (``BUCKET_LIMIT = 2**16``) would only make
    the bucket array large and mostly empty (and ``delta=1e-300`` impossible),
    so it is raised to that.  Any ``delta > 0`` gives the same distances.

    >>> from graphs import Graph
    >>> bounded_delta(Graph.from_edges([0], [1], [2.0**20]), 1e-300)
    16.0
    >>> bounded_delta(Graph.from_edges([0], [1], [2.0]), 0.5)
    0.5
    """
    return bucket_width(G, float(delta))


GPU_DELTA_WIDTH = 32  # warp width: the GPU bucket is this many times the CPU one (over 2)


def default_delta(G: Graph, device: str | None = None) -> float:
    """Bucket width for delta-stepping: ``c * mean weight / average degree`` (at least the least positive weight).

    Meyer & Sanders take ``delta = Theta(1 / d)`` for weights uniform in
    ``[0, 1]`` and degree ``d``; this is that rule for other weight scales.  On
    the CPU ``c = 2``, which measured best among 1..50 on R-MAT and email-Enron
    with weights 1..100.  On the GPU (``device="gpu"``, the default for a GPU
    graph) ``c =`` :data:`GPU_DELTA_WIDTH`: a bucket should hold enough vertices
    to fill the device, and extra relaxations cost less there than extra rounds
    (each round is a kernel launch and a read-back); on R-MAT scale 22 every
    width from 32 to 256 was within a few percent of the best.

    >>> from graphs import Graph
    >>> default_delta(Graph.from_edges([0, 1], [1, 2], [2.0, 6.0]))
    8.0
    >>> default_delta(Graph.from_edges([0, 1], [1, 2], [2.0, 6.0]), device="gpu")
    128.0
    """
    return bucket_width(G, None, device, bounded=False)




def bellman_ford(G: Graph, frontier: np.ndarray, dist: np.ndarray, pred: np.ndarray) -> None:
    """Frontier Bellman-Ford from ``frontier`` (``dist`` 0 there, ``hi`` elsewhere; ``pred`` -1), in place.

    Raises :class:`NegativeCycleError` for a negative cycle; distances that
    saturated at ``-inf`` are one only if the exact check of
    :func:`_saturated_cycle` finds a negative cycle among them.  Integer sums
    that saturated at ``+inf`` (distances beyond the dtype's range read as
    unreachable) must not hide a negative cycle behind them: when a reachable
    vertex keeps ``+inf``, the whole reachable part is checked exactly.
    """
    from . import _sssp_kernels as K

    dtype = G.weights.dtype
    lo, hi = neginf(dtype), posinf(dtype)
    dist[frontier] = 0
    _, v = K.bellman_ford(G.indptr, G.indices, G.weights, frontier, frontier.shape[0], dist, pred, lo, hi)
    if v >= 0:
        raise cycle_error(G, pred, int(v))
    member = dist == lo if v == -2 else None
    if dtype.kind == "i":
        # A sum that saturated at +inf hides the vertices behind it, and with them any negative
        # cycle there: when a reachable vertex kept +inf, check the whole reachable part exactly.
        reach = K.reachable_from(G.indptr, G.indices, frontier, frontier.shape[0])
        if (dist[reach != 0] == hi).any():
            member = reach != 0
    if member is not None:
        v, cpred = _saturated_cycle(G, member)
        if v >= 0:
            raise cycle_error(G, cpred, v)


def _saturated_cycle(G: Graph, member: np.ndarray) -> tuple[int, np.ndarray]:
    """A vertex on a negative cycle among the ``member`` vertices (-1 if none) and the predecessors showing it.

    The vertices whose distance saturated at ``-inf`` are closed under
    out-arcs (``-inf + w = -inf``), and every other reachable vertex satisfies
    ``d[v] <= d[u] + w`` exactly, so a reachable negative cycle lies among them.
    Integer weights are checked in exact two-word arithmetic
    (:func:`graphs.paths._sssp_kernels.negative_cycle_wide`); float weights with
    Bellman-Ford on the weights scaled by a power of two (exact but for
    underflow) so that no sum of the few rounds it needs can overflow.
    """
    from . import _sssp_kernels as K

    mem = member.astype(np.uint8)
    w = G.weights
    if w.dtype.kind == "i":
        v, pred = K.negative_cycle_wide(G.indptr, G.indices, w, mem)
        return int(v), pred
    idx = np.flatnonzero(mem).astype(np.int32)
    src, dst, _ = G.edges()
    inside = (mem[src] != 0) & (mem[dst] != 0)
    if not inside.any():
        return -1, np.full(G.n, -1, dtype=np.int32)
    room = np.finfo(w.dtype).maxexp - 8  # sums of up to (k + 2)**2 scaled weights stay below 2**room
    scale_exp = int(np.ceil(np.log2(float(np.abs(w[inside]).max()) + 1.0) + np.log2(idx.shape[0] + 2.0) * 2)) - room
    ws = np.ldexp(np.where(inside, w, np.inf), -max(scale_exp, 0)).astype(w.dtype)
    H = Graph(G.indptr, G.indices, ws, check=False)
    h = np.full(G.n, posinf(w.dtype), dtype=w.dtype)
    pred = np.full(G.n, -1, dtype=np.int32)
    h[idx] = 0
    _, v = K.bellman_ford(H.indptr, H.indices, H.weights, idx, idx.shape[0], h, pred, neginf(w.dtype), posinf(w.dtype))
    return (int(v) if v >= 0 else -1), pred


def cycle_error(G: Graph, pred: np.ndarray, v: int) -> Exception:
    """The NegativeCycleError for the predecessor cycle through ``v``, with its arcs and weight."""
    back = [v]
    u = int(pred[v])
    while u != v and u >= 0 and len(back) <= G.n:
        back.append(u)
        u = int(pred[u])
    cycle = [v] + back[1:][::-1]
    weight = None
    if G.weights is not None and u == v:
        total = 0
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            lo, hi = int(G.indptr[a]), int(G.indptr[a + 1])
            sel = G.indices[lo:hi] == b
            total += G.weights[lo:hi][sel].min().item()
        weight = total
    return negative_cycle(v, cycle, weight)




def johnson_potentials(G: Graph):
    """Johnson's vertex potentials ``h`` (Bellman-Ford from a virtual source with 0-arcs to all).

    ``w(u, v) + h[u] - h[v] >= 0`` for every arc.

    Raises
    ------
    NegativeCycleError

    Examples
    --------
    >>> from graphs import Graph
    >>> johnson_potentials(Graph.from_edges([0, 1], [1, 2], [-3.0, 1.0]))
    array([ 0., -3., -2.])
    """
    dtype = G.weights.dtype
    h = np.full(G.n, posinf(dtype), dtype=dtype)
    pred = np.full(G.n, -1, dtype=np.int32)
    bellman_ford(G, np.arange(G.n, dtype=np.int32), h, pred)
    return h
