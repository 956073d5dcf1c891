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
    Non-negative weights.  The GPU method, and the CPU default for
    high-diameter graphs.
``"dijkstra"``
    Binary-heap Dijkstra (1959) with lazy deletion; non-negative weights.
``"label-correcting"``
    One deque with Small Label First (Bertsekas, "A simple and fast label
    correcting algorithm for shortest paths", Networks 23, 1993); non-negative
    weights.  On low-diameter graphs (R-MAT, social networks) it measured 2-3x
    faster than Dijkstra and delta-stepping here; it gives up after ``8 m``
    arc scans (label-correcting methods have bad worst cases) and finishes with
    delta-stepping.

:func:`multi_source_sssp` runs many sources at once: on the CPU a Dijkstra per
source in parallel (with Johnson's reweighting for negative weights: Johnson,
"Efficient algorithms for shortest paths in sparse networks", JACM 24, 1977),
or ``method="spmm"``: Bellman-Ford on a dense ``n x k`` distance block, one
sparse-times-dense min-plus product (:func:`semiring.sparse.mxm`) per round,
which is the GPU route and the sparse APSP route for graphs too large for a
dense ``n x n`` matrix.
"""

from __future__ import annotations

import numpy as np

from semiring import min_plus
from semiring.dtypes import neginf, posinf
from semiring.errors import InvalidEntryError
from semiring.kernels import run_chunks
from semiring.sparse import kernels_for

from . import _sssp_kernels as K
from ._arguments import check_vertex, check_vertex_array, resolve_graph_device
from .errors import GraphError, negative_cycle
from .graph import Graph, as_graph
from .traversal import bfs

__all__ = ["sssp", "multi_source_sssp", "SSSP_METHODS", "check_weights", "dijkstra_csr"]

SSSP_METHODS = ("auto", "bellman-ford", "delta-stepping", "dijkstra", "label-correcting")
LOW_DIAMETER_DEGREE = 8.0
LABEL_CORRECTING_BUDGET = 8  # arc scans per arc before label-correcting hands over to delta-stepping
MULTI_METHODS = ("auto", "dijkstra", "spmm")


def _hop_weights(G: Graph) -> Graph:
    """An unweighted graph as one with every arc weighing 1.0 (float64)."""
    return Graph(G.indptr, G.indices, G.xp.ones(G.nnz, dtype=np.float64), directed=G.directed,
                 coords=G.coords, check=False)


class WeightFacts:
    """What the searches need to know of a graph's weights, read in one pass and kept on the graph.

    Attributes
    ----------
    lo, hi : scalar
        The weights' ``-inf`` and ``+inf`` (the sentinels for integers).
    neginf_at : int
        The first arc of weight ``-inf`` (``-1``: none).
    negative_at : int
        The first arc of negative weight (``-1``: none).
    least, mean : float
        The least and the mean positive weight (``0.0`` without one).
    avg_degree : float
        Arcs per non-isolated vertex.
    wmax : float
        The largest weight.
    """

    __slots__ = ("lo", "hi", "neginf_at", "negative_at", "least", "mean", "avg_degree", "wmax")


def weight_facts(G: Graph) -> WeightFacts:
    """The :class:`WeightFacts` of a weighted graph, computed once per graph.

    >>> from graphs import Graph
    >>> f = weight_facts(Graph.from_edges([0, 1], [1, 2], [2.0, -6.0]))
    >>> f.negative_at, f.least, f.wmax
    (1, 2.0, 2.0)
    """
    f = G._cache.get("weight_facts")
    if f is not None:
        return f
    f = WeightFacts()
    w = G.weights
    xp = np if isinstance(w, np.ndarray) else G.xp
    dt = w.dtype
    if dt.kind == "f":
        f.lo, f.hi = dt.type(-np.inf), dt.type(np.inf)
    else:
        info = np.iinfo(dt)
        f.lo, f.hi = dt.type(info.min), dt.type(info.max)
    f.neginf_at = f.negative_at = -1
    f.least = f.mean = f.avg_degree = f.wmax = 0.0
    if G.nnz:
        neg = w < 0
        if bool(neg.any()):
            f.negative_at = int(xp.argmax(neg))
            bad = w == f.lo
            if bool(bad.any()):
                f.neginf_at = int(xp.argmax(bad))
        pos = w[w > 0]
        if pos.size:
            f.least, f.mean = float(pos.min()), float(pos.mean())
        f.avg_degree = float(G.nnz / max(1, int((xp.diff(G.indptr) > 0).sum())))
        f.wmax = float(w.max())
    G._cache["weight_facts"] = f
    G._cache["negative"] = f.negative_at >= 0
    return f


def check_weights(G: Graph, method: str) -> None:
    """An :class:`InvalidEntryError` for a ``-inf`` weight, or a negative one where ``method`` needs none."""
    f = weight_facts(G)
    w = G.weights
    if f.neginf_at >= 0:
        k = f.neginf_at
        what = "-inf" if w.dtype.kind == "f" else f"{w[k].item()}, the {w.dtype} sentinel of -inf"
        raise InvalidEntryError(f"weights[{k}] is {what}; min_plus cannot combine it")
    if method in ("delta-stepping", "dijkstra", "label-correcting") and f.negative_at >= 0:
        k = f.negative_at
        src, dst, _ = G.edges()
        raise InvalidEntryError(
            f"method={method!r} needs non-negative weights; arc {int(src[k])} -> {int(dst[k])} "
            f"weighs {w[k].item()!r} (use method='bellman-ford')"
        )


def _auto_method(G: Graph) -> str:
    """What ``method="auto"`` runs on a weighted graph (see :func:`sssp`)."""
    return _route(G, "auto", None)


def _route(G: Graph, method: str, delta: float | None) -> str:
    """The method :func:`sssp` runs: ``method`` checked against :data:`SSSP_METHODS`, ``delta`` and the
    weights (``"auto"`` resolved); the one place where the search is chosen."""
    if method not in SSSP_METHODS:
        raise GraphError(f"method must be one of {', '.join(SSSP_METHODS)}, got {method!r}")
    if delta is not None and not delta > 0:
        raise GraphError(f"delta must be positive, got {delta!r}")
    if G.weights is None:
        return "bfs"
    f = weight_facts(G)
    if method == "auto":
        if f.negative_at >= 0:
            method = "bellman-ford"
        elif G.device == "gpu" or f.avg_degree < LOW_DIAMETER_DEGREE:
            method = "delta-stepping"
        else:
            method = "label-correcting"
    if f.neginf_at >= 0 or (f.negative_at >= 0 and method in ("delta-stepping", "dijkstra", "label-correcting")):
        check_weights(G, method)
    return method


def light_heavy_rows(G: Graph, delta: float):
    """The rows of ``G`` with light arcs (``w <= delta``) first: ``(mid, indices, weights)``.

    Built in one O(m) pass and kept on the graph for the last ``delta`` used, so
    repeated delta-stepping runs (many sources) scan only the arcs they relax.
    """
    kept = G._cache.get("light_heavy")
    if kept is None or kept[0] != float(delta):
        kept = G._cache["light_heavy"] = (float(delta), K.split_light_heavy(G.indptr, G.indices, G.weights,
                                                                            float(delta)))
    return kept[1]


def bucket_width(G: Graph, delta: float | None = None, device: str | None = None, bounded: bool = True) -> float:
    """The bucket width delta-stepping runs with: ``delta`` (default: :func:`default_delta`'s rule for
    ``device``, by default the graph's), raised as :func:`bounded_delta` says when ``bounded``.

    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1], [1, 2], [2.0**20, 6.0])
    >>> bucket_width(G), bucket_width(G, 1e-300)
    (1048582.0, 16.0)
    """
    if G.nnz == 0:
        return 1.0 if delta is None else float(delta)
    f = weight_facts(G)
    if delta is None:
        if f.mean == 0.0:
            return 1.0
        c = GPU_DELTA_WIDTH if (device or G.device) == "gpu" else 2.0
        delta = max(f.least, c * f.mean / f.avg_degree)
    delta = float(delta)
    return max(delta, f.wmax / K.BUCKET_LIMIT) if bounded and f.wmax > 0 else delta


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


def sssp(G, source: int, method: str = "auto", *, delta: float | None = None, device: str = "auto"):
    """Shortest-path distances and predecessors from ``source``.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        An unweighted graph counts hops (float64 distances).
    source : int or label
        A 0-based vertex id (a Python or NumPy integer; a DIMACS file's id
        ``k`` is vertex ``k - 1``), or a label when ``G`` carries
        ``node_labels`` (see :mod:`graphs._arguments`).
    method : {"auto", "bellman-ford", "delta-stepping", "dijkstra", "label-correcting"}
        ``"auto"``: Bellman-Ford if some weight is negative; else, on the GPU,
        delta-stepping; on the CPU, label-correcting when the average degree
        of the non-isolated vertices is at least 8 (low diameter), else
        delta-stepping (road networks, grids).
    delta : float, optional
        Bucket width of delta-stepping (default :func:`default_delta`); one
        below ``wmax / 2**16`` is raised to that (:func:`bounded_delta`), so
        the buckets stay few whatever ``delta`` and the weights are.
    device : {"auto", "cpu", "gpu"}
        On the GPU, delta-stepping (near-far) runs on the device; the other
        methods run on a host copy of the graph and return CuPy arrays.

    Returns
    -------
    dist : array (n,)
        The weights' dtype; ``inf`` (the integer sentinel ``iinfo.max`` for
        integer weights) where unreachable.  Integer sums saturate at the
        sentinels instead of wrapping, and the sentinels stick: a distance
        that would reach ``iinfo.max`` is +inf (unreachable) and nothing is
        relaxed from it; one that reaches ``iinfo.min`` (or a float sum that
        overflows to ``-inf``) is ``-inf``, and so is every distance reached
        through it (``-inf + w = -inf``), as in :mod:`semiring.dtypes`.
    pred : int32 array (n,)
        A shortest-path tree: ``pred[v]`` is the vertex before ``v``; -1 for
        the source and unreachable vertices.

    Raises
    ------
    VertexError
        ``source`` is not a vertex (an id outside ``[0, n)``, an unknown label).
    VertexTypeError
        ``source`` is not an integer (or a label); also a ``TypeError``.
    NegativeCycleError
        A negative cycle is reachable from ``source`` (its ``vertex`` lies on
        it).  Distances saturated at ``-inf`` are not one unless a cycle of
        negative weight really exists (checked in exact arithmetic).
    InvalidEntryError
        Negative weights with Dijkstra or delta-stepping; a ``-inf`` weight
        (for integers the ``iinfo.min`` sentinel).
    GraphError
        Unknown ``method``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 1], [4.0, 1.0, 1.0, -2.0])
    >>> dist, pred = sssp(G, 0)
    >>> dist
    array([ 0., -1.,  1.,  0.])
    >>> pred
    array([-1,  2,  0,  1], dtype=int32)
    >>> sssp(Graph.from_edges([0, 1], [1, 0], [1.0, -2.0]), 0)
    Traceback (most recent call last):
    ...
    apsp.errors.NegativeCycleError: negative cycle through vertex 0 (0 -> 1 -> 0, weight -1.0)
    """
    G = G if isinstance(G, Graph) else as_graph(G, name="G")
    if device != "auto":
        G = resolve_graph_device(G, device)
    s = check_vertex(G, source, "source")
    method = _route(G, method, delta)
    if method == "bfs":
        levels, parents = bfs(G, s)
        xp = G.xp
        dist = xp.where(levels >= 0, levels.astype(np.float64), np.inf)
        return dist, parents
    if G.device == "gpu":
        if method == "delta-stepping":
            from .cuda.sssp import sssp_gpu

            return sssp_gpu(G, s, bucket_width(G, delta))
        # Bellman-Ford, Dijkstra and label-correcting run on a host copy of the graph.
        import cupy as cp

        dist, pred = _search_host(G.to("cpu"), s, method, delta)
        return cp.asarray(dist), cp.asarray(pred)
    return _search_host(G, s, method, delta)


def _search_host(G: Graph, s: int, method: str, delta: float | None):
    """:func:`sssp`'s search on a host graph whose arguments :func:`_route` checked."""
    f = weight_facts(G)
    lo, hi = f.lo, f.hi
    dist = np.full(G.n, hi, dtype=G.weights.dtype)
    pred = np.full(G.n, -1, dtype=np.int32)
    w = G.weights
    if method == "label-correcting":
        if K.label_correcting(G.indptr, G.indices, w, s, dist, pred, lo, hi,
                              LABEL_CORRECTING_BUDGET * G.nnz + G.n) >= 0:
            return dist, pred
        dist[:] = hi
        pred[:] = -1
        method = "delta-stepping"
    if method == "dijkstra":
        K.dijkstra(G.indptr, G.indices, w, s, dist, pred, lo, hi)
    elif method == "delta-stepping":
        d = bucket_width(G, delta)
        mid, ind2, w2 = light_heavy_rows(G, d)
        pool = 2 * G.n + 1024
        while K.delta_stepping(G.indptr, mid, ind2, w2, s, d, dist, pred, lo, hi, pool) < 0:
            pool *= 4  # more pending entries than slots: start over with a larger pool
            dist[:] = hi
            pred[:] = -1
    else:
        _bellman_ford(G, np.array([s], dtype=np.int32), dist, pred)
    return dist, pred


def dijkstra_csr(indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray, source: int):
    """Dijkstra from ``source`` on trusted host CSR arrays: :func:`sssp`'s engine below its checks.

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
    dtype = weights.dtype
    hi = posinf(dtype)
    dist = np.full(indptr.shape[0] - 1, hi, dtype=dtype)
    pred = np.full(dist.shape[0], -1, dtype=np.int32)
    K.dijkstra(indptr, indices, weights, source, dist, pred, neginf(dtype), hi)
    return dist, pred


def _bellman_ford(G: Graph, frontier: np.ndarray, dist: np.ndarray, pred: np.ndarray) -> None:
    """Frontier Bellman-Ford from ``frontier`` (``dist`` 0 there, ``hi`` elsewhere; ``pred`` -1), in place.

    Raises :class:`NegativeCycleError` for a negative cycle; distances that
    saturated at ``-inf`` are one only if the exact check of
    :func:`_saturated_cycle` finds a negative cycle among them.  Integer sums
    that saturated at ``+inf`` (distances beyond the dtype's range read as
    unreachable) must not hide a negative cycle behind them: when a reachable
    vertex keeps ``+inf``, the whole reachable part is checked exactly.
    """
    dtype = G.weights.dtype
    lo, hi = neginf(dtype), posinf(dtype)
    dist[frontier] = 0
    _, v = K.bellman_ford(G.indptr, G.indices, G.weights, frontier, frontier.shape[0], dist, pred, lo, hi)
    if v >= 0:
        raise _cycle_error(G, pred, int(v))
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
            raise _cycle_error(G, cpred, v)


def _saturated_cycle(G: Graph, member: np.ndarray) -> tuple[int, np.ndarray]:
    """A vertex on a negative cycle among the ``member`` vertices (-1 if none) and the predecessors showing it.

    The vertices whose distance saturated at ``-inf`` are closed under
    out-arcs (``-inf + w = -inf``), and every other reachable vertex satisfies
    ``d[v] <= d[u] + w`` exactly, so a reachable negative cycle lies among them.
    Integer weights are checked in exact two-word arithmetic
    (:func:`graphs._sssp_kernels.negative_cycle_wide`); float weights with
    Bellman-Ford on the weights scaled by a power of two (exact but for
    underflow) so that no sum of the few rounds it needs can overflow.
    """
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


def _cycle_error(G: Graph, pred: np.ndarray, v: int) -> Exception:
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


def _sources(G: Graph, sources) -> np.ndarray:
    """The source vertices as int32 ids: ``None`` (all), one vertex, or a 1-D sequence or array of them.

    Each entry is checked by :func:`check_vertex` (integers, or labels of a
    labelled graph); an integer array is checked at once.
    """
    if sources is None:
        return np.arange(G.n, dtype=np.int32)
    if hasattr(sources, "__cuda_array_interface__"):
        sources = sources.get()
    if isinstance(sources, np.ndarray):
        if sources.ndim == 0:
            return np.array([check_vertex(G, sources[()], "sources")], dtype=np.int32)
        if sources.ndim != 1:
            raise GraphError(f"sources must be a vertex or a 1-D list of vertices, got shape {sources.shape}")
        if check_vertex_array(G, sources, "sources"):
            bad = (sources < 0) | (sources >= G.n)
            if bool(bad.any()):
                k = int(np.argmax(bad))
                check_vertex(G, sources[k], f"sources[{k}]")
            return sources.astype(np.int32)
        items = sources.tolist()
    elif isinstance(sources, (list, tuple, range)):
        items = list(sources)
    else:
        return np.array([check_vertex(G, sources, "sources")], dtype=np.int32)
    out = np.empty(len(items), dtype=np.int32)
    for k, v in enumerate(items):
        if isinstance(v, (list, tuple, np.ndarray)):
            raise GraphError(f"sources must be a vertex or a 1-D list of vertices; sources[{k}] is {v!r}")
        out[k] = check_vertex(G, v, f"sources[{k}]")
    return out


def _over_sources(kernel, k: int, nnz: int) -> None:
    """Run ``kernel(r0, r1)`` over source rows on the CPU thread pool, chunks handed out as threads free up.

    Searches from different sources can cost very different amounts (a source
    in a small component settles few vertices), so the rows go out in several
    chunks per thread rather than one fixed share each.
    """
    run_chunks(kernel, k, work=k * (nnz + 1) * 8)


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
    _bellman_ford(G, np.arange(G.n, dtype=np.int32), h, pred)
    return h


def multi_source_sssp(G, sources=None, method: str = "auto", *, device: str = "auto", client=None,
                      predecessors: bool = True):
    """Shortest paths from many sources at once (all vertices by default: sparse APSP).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Weights follow the saturation policy of :func:`sssp`.
    sources : int, label, or sequence of them, optional
        0-based vertex ids (or labels of a labelled graph); default: every
        vertex (``k = n``).
    method : {"auto", "dijkstra", "spmm"}
        ``"dijkstra"``: one Dijkstra per source, sources in parallel, with
        Johnson's reweighting when weights are negative (CPU).
        ``"spmm"``: Bellman-Ford on the ``n x k`` block ``X``, one min-plus
        sparse-times-dense product ``A^T (x) X`` per round until nothing
        changes (at most ``n`` rounds, else a negative cycle).  ``"auto"``:
        Dijkstra on the CPU, SpMM on the GPU.
    device : {"auto", "cpu", "gpu"}
    client : distributed.Client, optional
        Run on this Dask cluster (:mod:`graphs.distributed_sssp`): the graph
        is sent to every worker once, the sources are split among them, and
        ``D`` and ``P`` come back as :class:`dask.array.Array` (row blocks per
        source chunk, left on the workers): rows of a matrix too large for
        one machine.
    predecessors : bool, keyword-only
        ``False`` skips the predecessor trees (``P`` is then ``None``): the
        SpMM method recovers them in a second pass over the tight arcs, which
        costs more than the distances on large graphs.

    Returns
    -------
    D : array (k, n)
        ``D[r, v]``: distance from ``sources[r]`` to ``v`` (weights' dtype;
        float64 hop counts for an unweighted graph).
    P : int32 array (k, n), or None
        Predecessors, one shortest-path tree per row (``None`` when
        ``predecessors=False``).

    Raises
    ------
    NegativeCycleError, VertexError, GraphError
    VertexTypeError
        A source is not an integer (or a label); also a ``TypeError``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, -1.0, 3.0])
    >>> D, P = multi_source_sssp(G)
    >>> D
    array([[ 0.,  1.,  0.],
           [ 2.,  0., -1.],
           [ 3.,  4.,  0.]])
    >>> np.array_equal(multi_source_sssp(G, [2], method="spmm")[0], D[2:])
    True
    >>> multi_source_sssp(G, [0], predecessors=False)
    (array([[0., 1., 0.]]), None)
    """
    if not isinstance(predecessors, (bool, np.bool_)):
        raise TypeError(f"predecessors must be a bool, got {type(predecessors).__name__}")
    G = resolve_graph_device(as_graph(G, name="G"), device)
    if method not in MULTI_METHODS:
        raise GraphError(f"method must be one of {', '.join(MULTI_METHODS)}, got {method!r}")
    src = _sources(G, sources)
    if G.weights is None:
        G = _hop_weights(G)
    check_weights(G, "bellman-ford")
    if method == "auto":
        method = "spmm" if G.device == "gpu" else "dijkstra"
    if client is not None:  # on a Dask cluster: graphs.distributed_sssp
        from .distributed_sssp import distributed_multi_source_sssp

        return distributed_multi_source_sssp(G, src, method, client, multi_source_sssp,
                                             predecessors=bool(predecessors))
    if method == "spmm":
        return _multi_spmm(G, src, bool(predecessors))
    if G.device == "gpu":  # Dijkstra on a host copy of the graph
        import cupy as cp

        D, P = _many_host(G.to("cpu"), src, True)
        return cp.asarray(D), (cp.asarray(P) if predecessors else None)
    return _many_host(G, src, bool(predecessors))


def _many_host(G: Graph, src: np.ndarray, predecessors: bool):
    """:func:`multi_source_sssp`'s Dijkstra (Johnson's reweighting for negative weights) on a host graph."""
    dtype = G.weights.dtype
    lo, hi = neginf(dtype), posinf(dtype)
    k = src.shape[0]
    D = np.full((k, G.n), hi, dtype=dtype)
    P = np.full((k, G.n), -1, dtype=np.int32)
    if not G.has_negative_weights:
        _over_sources(lambda r0, r1: K.dijkstra_many(G.indptr, G.indices, G.weights, src, D, P, lo, hi, r0, r1),
                      k, G.nnz)
    else:
        _johnson(G, src, D, P)
    return (D, P) if predecessors else (D, None)


def _johnson(G: Graph, src: np.ndarray, D: np.ndarray, P: np.ndarray) -> None:
    """Rows of ``D`` / ``P`` for a graph with negative weights: Dijkstra on Johnson-reweighted arcs.

    The reweighted arcs ``w + h[u] - h[v]`` and the distances are computed
    where they cannot overflow: int64 for int32 weights; for int64 weights in
    int64 only when the potentials and weights are small enough for every sum
    to fit (checked first); floats in their own dtype, checked to stay finite.
    A row whose exact distances reach a sentinel (or cannot be computed so)
    is computed again by Bellman-Ford from its source, which saturates as the
    library's policy says; so every row equals :func:`sssp` with
    ``method="bellman-ford"`` (the same distances; predecessors may differ
    where paths tie).
    """
    dtype = np.dtype(G.weights.dtype)
    lo, hi = neginf(dtype), posinf(dtype)
    h = johnson_potentials(G)
    redo = np.zeros(src.shape[0], dtype=bool)
    rows, cols, w = G.edges()
    if dtype.kind == "i":
        wide_ok = not bool((h == lo).any())
        if wide_ok and dtype == np.int64:
            big = max(int(np.abs(w.astype(np.float64)).max(initial=0.0)), int(np.abs(h.astype(np.float64)).max()))
            # |w2| < 3 * big and a distance is a sum of fewer than n of them, plus two potentials.
            wide_ok = big < 2**60 and 3 * big * max(G.n, 1) + 2 * big < 2**62
        if wide_ok:
            wide = np.dtype(np.int64)
            hw = h.astype(wide)
            w2 = w.astype(wide) + hw[rows] - hw[cols]
            k = src.shape[0]
            D2 = np.full((k, G.n), posinf(wide), dtype=wide)
            P2 = np.full((k, G.n), -1, dtype=np.int32)
            lw, hiw = neginf(wide), posinf(wide)
            _over_sources(lambda r0, r1: K.dijkstra_many(G.indptr, G.indices, w2, src, D2, P2, lw, hiw, r0, r1),
                          k, G.nnz)
            reached = D2 != hiw
            exact = np.where(reached, D2 - hw[src][:, None] + hw[None, :], 0)
            redo = (reached & ((exact <= int(lo)) | (exact >= int(hi)))).any(axis=1)
            D[...] = np.where(reached, exact, hi).astype(dtype)
            P[...] = P2
        else:
            redo[:] = True
    else:
        finite_h = bool(np.isfinite(h).all())
        with np.errstate(over="ignore", invalid="ignore"):
            w2 = w + h[rows] - h[cols]
        if finite_h and bool(np.isfinite(w2).all()):
            np.maximum(w2, 0, out=w2)  # rounding may leave -1e-16 on tight arcs
            k = src.shape[0]
            _over_sources(lambda r0, r1: K.dijkstra_many(G.indptr, G.indices, w2, src, D, P, lo, hi, r0, r1),
                          k, G.nnz)
            reached = D != hi
            with np.errstate(over="ignore", invalid="ignore"):
                back = D - h[src][:, None] + h[None, :]
            redo = (reached & ~np.isfinite(back)).any(axis=1)
            D[...] = np.where(reached, back, D).astype(dtype, copy=False)
        else:
            redo[:] = True
    for r in np.flatnonzero(redo).tolist():
        D[r] = hi
        P[r] = -1
        _bellman_ford(G, src[r:r + 1], D[r], P[r])


def _multi_spmm(G: Graph, src: np.ndarray, predecessors: bool = True):
    """Bellman-Ford on an ``n x k`` block: ``X = X (+) A^T (x) X`` until it stops changing.

    Each round is one min-plus sparse-times-dense product over the in-arcs
    (the kernels behind :func:`semiring.sparse.mxm`, called directly: the
    operands were validated once, and integer weights work on the GPU too,
    where ``cupyx.scipy.sparse`` cannot hold them).
    """

    xp = G.xp
    T = G.transpose()
    dtype = np.dtype(G.weights.dtype)
    hi = posinf(dtype)
    n, k = G.n, src.shape[0]
    K_ = kernels_for(min_plus, dtype, G.device)
    X = xp.full((n, k), hi, dtype=dtype)
    sx = xp.asarray(src)
    X[sx, xp.arange(k)] = 0
    Y = xp.empty_like(X)
    for _ in range(n + 1):
        K_.spmm(T.indptr, T.indices, T.weights, X, Y, None, False, False)
        better = Y < X
        if not bool(better.any()):
            break
        xp.minimum(X, Y, out=X)
    else:
        # Still improving after n rounds: locate the cycle with one single-source run.
        col = int(xp.argmax(better.any(axis=0)))
        sssp(G.to("cpu"), int(src[col]), method="bellman-ford")
        raise AssertionError("unreachable: the single-source run raised")  # pragma: no cover
    D = xp.ascontiguousarray(X.T)
    if not predecessors:
        return D, None
    Dh = D.get() if xp is not np else D
    Gc = G.to("cpu")
    lo = neginf(dtype)
    P = np.empty((k, n), dtype=np.int32)
    _over_sources(lambda r0, r1: K.tight_tree_preds(Gc.indptr, Gc.indices, Gc.weights, src, Dh, P, lo, hi, r0, r1),
                  k, Gc.nnz)
    return D, (P if xp is np else xp.asarray(P))
