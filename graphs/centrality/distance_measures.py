"""Distance statistics of every vertex: closeness, harmonic centrality, eccentricity, and from it the
diameter, radius, center and periphery.

Each is a reduction of the rows of the distance matrix, which is computed in
batches of sources and never stored (memory O(batch x n)):

* hop counts: bit-parallel multi-source BFS, 64 sources per ``uint64`` word
  (Then et al., "The More the Merrier: Efficient Multi-Source Graph Traversal",
  PVLDB 8(4), 2014), counting per level how many vertices each source reaches;
  the eccentricity of a source is the last level it is alive in
  (:func:`graphs.centrality._centrality_kernels.hop_distance_stats`; on the GPU
  :mod:`graphs.cuda.centrality`, many words per launch);
* weights: rows of :func:`graphs.multi_source_sssp` (its parallel Dijkstra on the
  CPU, its SpMM route on the GPU), a batch at a time.

Conventions are NetworkX's:

* closeness (Freeman; Wasserman & Faust, "Social Network Analysis", 1994, for
  ``wf_improved``): ``(r - 1) / sum_v d(v, u)`` over the ``r`` vertices that reach
  ``u`` (``u`` included), times ``(r - 1) / (n - 1)`` with ``wf_improved``; 0 when
  the sum is 0.  Distances run *into* ``u`` (a directed graph is read reversed);
* harmonic centrality (Boldi & Vigna, "Axioms for centrality", Internet
  Mathematics 10, 2014): ``sum_v 1 / d(v, u)`` over ``v`` reaching ``u`` at a
  distance other than 0;
* eccentricity: the largest distance *from* ``v``; a graph that is not
  (strongly) connected has infinite eccentricities, which is an error
  (:class:`NotConnectedError`, naming the components), as NetworkX raises;
  diameter and radius are the largest and least eccentricity, the center and
  periphery the vertices attaining them.

Eccentricities and the extremes of a connected *undirected* graph with integer
lengths (hops, integer weights, whole-number float weights) do not search from
every vertex: each search from ``s`` bounds every vertex ``x`` by
``max(d(s, x), e_s - d(s, x)) <= ecc(x) <= e_s + d(s, x)`` (the triangle
inequality), and the searches go on, a batch of sources at a time, from the
vertices whose bounds could still change the answer, alternately those of least
lower and of greatest upper bound (ties: most arcs first), until the answer is
known exactly (F. W. Takes & W. A. Kosters, "Determining the diameter of small
world networks", CIKM 2011, and "Computing the eccentricity distribution of large
graphs", Algorithms 6(1), 2013; NetworkX's ``usebounds=True``).  Small-world
graphs need a few batches instead of ``n`` searches.  A batch is one bit-parallel
BFS of 64 sources per thread on the CPU (:func:`graphs.centrality._centrality_kernels.hop_ecc_bounds`),
of up to 1024 sources on the GPU (:mod:`graphs.cuda.distance`), rows of
:func:`graphs.multi_source_sssp` for weights.  The bounds are exact integers, so
the results are those of all the searches; directed graphs and fractional
weights (whose rounded sums need not obey the triangle inequality) search from
every vertex.

Weights must be non-negative; parallel arcs count with their least weight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.backend import to_device
from semiring.docstrings import fill_template
from semiring.kernels import run_parallel

from ..errors import GraphError
from ..graph import Graph
from ..paths.engine import hop_weights
from ..paths.many_source import search_rows
from ..source_spread import check_spread
from ..traversal.components import component_labels
from . import _centrality_kernels as K
from .engine import PreparedGraph, kernel_threads, prepare, progress_bar, spread_job

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["closeness_centrality", "harmonic_centrality", "eccentricity", "diameter", "radius", "center",
           "periphery", "NotConnectedError"]

#: Sources per row block of the weighted statistics: about this many bytes of distances at a time.
BLOCK_BYTES = 1 << 26
#: Sources per batch of the bounding search with weights on the CPU at most (tests set it low).
BOUND_BATCH = 256
#: Sources per bit-parallel BFS (one per thread) of the bounding search on the CPU, at most 64.
HOP_WIDTH = K.WORD
#: The upper bound of a vertex no search has bounded yet.
_NO_BOUND = np.iinfo(np.int64).max


#: The graph and options of every statistic, in their docstrings' Parameters.
_OPTIONS = """G : Graph or anything :func:`graphs.as_graph` accepts
weighted : bool
    Use the weights (non-negative) as lengths; ``False`` counts hops.
device : {"auto", "cpu", "gpu"}
progress : bool, optional
    Show a progress bar; default: on a terminal, for runs over 2 s.
devices : "all" or sequence of int, optional
    Spread the searches over these GPUs of this process (``"all"``: every
    GPU), sources taken from a shared counter; the result is on ``G``'s device.
    (Eccentricities found by the bounding search, a few batches of
    searches, are computed on ``device``.)
client : distributed.Client, optional
    Spread the searches over the workers of a Dask cluster (a worker lost
    mid-run has its sources searched again).  Not with ``devices``.
"""


class NotConnectedError(GraphError):
    """Infinite eccentricities: some vertex cannot reach another; ``components`` is the number of (strong) components."""

    def __init__(self, message: str, components: int) -> None:
        super().__init__(message)
        self.components = components


class _Stats:
    """Per-source reductions of the distance rows: sum, count reached (the source included), sum of ``1/d``, max."""

    def __init__(self, total: Any, reached: Any, harmonic: Any, ecc: Any) -> None:
        self.total, self.reached, self.harmonic, self.ecc = total, reached, harmonic, ecc


def _row_graph(P: PreparedGraph, reverse: bool) -> Graph:
    """The simple graph the rows are read from (reversed for distances into each vertex)."""
    H = Graph(P.indptr, P.indices, P.weights, directed=P.G.directed, check=False)
    H._cache["simple"] = True
    return H.transpose() if reverse and P.G.directed else H


def _stats(P: PreparedGraph, reverse: bool, progress: bool | None, label: str, devices: Any = None,
           client: Any = None) -> _Stats:
    """Per-vertex statistics of the rows from every vertex (of the reversed graph with ``reverse``), on this
    device, or spread over ``devices`` or the workers of ``client`` (:mod:`graphs.source_spread`; checked at the
    door)."""
    n = P.G.n
    H = _row_graph(P, reverse)
    src = np.arange(n, dtype=np.int32)
    # the GPU's hop route can skip the sums of an eccentricity where every vertex reaches every other
    hop_gpu = P.weights is None and (P.G.device == "gpu" or devices is not None)
    need_sums = (label != "eccentricity" or not hop_gpu
                 or component_labels(H, "strong" if H.directed else "weak")[0] > 1)
    with progress_bar(n, label, progress, float(n) * (H.nnz + n)) as bar:
        if devices is None and client is None:
            return _Stats(*_stats_of(P, H, src, need_sums, bar))
        dts = _stats_dtypes(P)
        out = [np.empty(n, dtype=dt) for dt in dts]
        spread_job(_stats_task, P, (reverse, need_sums), "rows", src, devices, client, out=out, bar=bar,
                   row_bytes=8 * len(dts))
    xp = P.G.xp
    return _Stats(*(xp.asarray(o) for o in out))


def _stats_dtypes(P: PreparedGraph) -> tuple[np.dtype, ...]:
    """The dtypes of the statistics: sum, count reached, sum of ``1/d``, eccentricity."""
    if P.weights is None:
        return (np.dtype(np.int64), np.dtype(np.int64), np.dtype(np.float64), np.dtype(np.int64))
    return (np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.float64), np.dtype(P.weights.dtype))


def _stats_task(payload: tuple[Any, ...], chunk: np.ndarray) -> tuple[Any, ...]:
    """A spread chunk's statistics (:func:`_stats_of`) on the device its graph is on."""
    P, reverse, need_sums = payload
    return _stats_of(P, _row_graph(P, reverse), chunk, need_sums, None)


def _stats_of(P: PreparedGraph, H: Graph, src: np.ndarray, need_sums: bool, bar: Any) -> tuple[Any, ...]:
    """``(total, reached, harmonic, ecc)`` of the rows of ``H`` from the sources ``src``, on ``P``'s device
    (``need_sums=False``: the GPU's hop route computes only the eccentricities; ``reached`` reads ``n``)."""
    n, k = P.G.n, src.shape[0]
    gpu = P.G.device == "gpu"
    T = kernel_threads()
    if P.weights is None and gpu:
        from ..cuda.centrality import hop_stats_gpu

        return hop_stats_gpu(H, need_sums, bar, src)
    if P.weights is None:
        total = np.zeros(k, dtype=np.int64)
        reached = np.zeros(k, dtype=np.int64)
        harmonic = np.zeros(k, dtype=np.float64)
        ecc = np.zeros(k, dtype=np.int64)
        width = min(K.WORD, max(1, -(-k // T)))
        step = width * T * 16
        for r0 in range(0, k, step):
            r1 = min(k, r0 + step)
            run_parallel(K.hop_distance_stats, H.indptr, H.indices, src[r0:r1], width, T, total[r0:r1],
                         reached[r0:r1], harmonic[r0:r1], ecc[r0:r1])
            if bar is not None:
                bar.update(r1 - r0)
        return total, reached, harmonic, ecc
    # weights: rows of the shortest-path engine (its Dijkstra on the CPU, its SpMM route on the GPU), a block at a time
    xp = P.G.xp
    R = H.to("gpu") if gpu else H
    total = xp.zeros(k, dtype=np.float64)
    reached = xp.zeros(k, dtype=np.int64)
    harmonic = xp.zeros(k, dtype=np.float64)
    ecc = xp.zeros(k, dtype=P.weights.dtype)
    hi = np.inf if P.weights.dtype.kind == "f" else np.iinfo(P.weights.dtype).max
    step = max(4 * T, min(4096, BLOCK_BYTES // (8 * max(n, 1))))
    for r0 in range(0, k, step):
        r1 = min(k, r0 + step)
        D, _ = search_rows(R, src[r0:r1], predecessors=False)
        ok = D != hi
        reached[r0:r1] = ok.sum(axis=1)
        Df = xp.where(ok, D, 0).astype(np.float64)
        total[r0:r1] = Df.sum(axis=1)
        harmonic[r0:r1] = xp.where(Df > 0, 1.0 / xp.where(Df > 0, Df, 1.0), 0.0).sum(axis=1)
        ecc[r0:r1] = xp.where(ok, D, 0).max(axis=1)
        if bar is not None:
            bar.update(r1 - r0)
    return total, reached, harmonic, ecc


def _out_dtype(P: PreparedGraph, G: Graph) -> np.dtype:
    """Distances in the weights' units: int64 hops, the weights' kind otherwise (int64 or float64)."""
    if P.weights is None:
        return np.dtype(np.int64)
    return np.dtype(np.float64) if G.weights.dtype.kind == "f" else np.dtype(np.int64)


@fill_template(options=_OPTIONS)
def closeness_centrality(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
                         devices: Any = None, client: Any = None,
                         wf_improved: bool = True) -> Array:
    """Closeness centrality of every vertex (distances into the vertex), as NetworkX computes it.

    Parameters
    ----------
    {options}
    wf_improved : bool
        Wasserman and Faust's scaling by the fraction ``(r - 1) / (n - 1)`` of
        the vertices that reach ``u`` (NetworkX's default); ``False``: the plain
        ``(r - 1) / sum d`` of the part that reaches ``u``.

    Returns
    -------
    float64 array (n,)
        The closeness of each vertex; 0 where the distances into it sum to 0.

    Examples
    --------
    >>> from graphs import Graph
    >>> P3 = Graph.from_edges([0, 1], [1, 2], directed=False)
    >>> closeness_centrality(P3)
    array([0.66666667, 1.        , 0.66666667])
    >>> closeness_centrality(Graph.from_edges([0, 1], [1, 2]))  # directed: who reaches u, how far
    array([0.        , 0.5       , 0.66666667])
    """
    if not isinstance(wf_improved, (bool, np.bool_)):
        raise TypeError(f"wf_improved must be a bool, got {type(wf_improved).__name__}")
    check_spread(devices, client)
    P = prepare(G, weighted, device)
    n, xp = P.G.n, P.G.xp
    if n == 0:
        return xp.zeros(0, dtype=np.float64)
    st = _stats(P, True, progress, "closeness", devices, client)
    total = st.total.astype(np.float64)
    r1 = (st.reached - 1).astype(np.float64)
    pos = total > 0
    out = xp.where(pos, r1 / xp.where(pos, total, 1.0), 0.0)
    if wf_improved and n > 1:
        out = out * (r1 / (n - 1))
    return out


@fill_template(options=_OPTIONS)
def harmonic_centrality(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
                        devices: Any = None, client: Any = None) -> Array:
    """Harmonic centrality of every vertex: ``sum 1 / d(v, u)`` over the vertices ``v`` that reach ``u``.

    Distances of 0 (the vertex itself, zero-weight paths) are left out, as in
    NetworkX; a directed graph counts the distances into ``u``.

    Parameters
    ----------
    {options}

    Returns
    -------
    float64 array (n,)
        The harmonic centrality of each vertex; 0 where no vertex reaches it at a positive distance.

    Examples
    --------
    >>> from graphs import Graph
    >>> harmonic_centrality(Graph.from_edges([0, 1], [1, 2], directed=False))
    array([1.5, 2. , 1.5])
    """
    check_spread(devices, client)
    P = prepare(G, weighted, device)
    n, xp = P.G.n, P.G.xp
    if n == 0:
        return xp.zeros(0, dtype=np.float64)
    return _stats(P, True, progress, "harmonic", devices, client).harmonic


def _not_connected(P: PreparedGraph, v: int) -> NotConnectedError:
    """The error for a graph whose eccentricities are infinite (``v``: the first vertex that does not reach all)."""
    H = _row_graph(P, False)
    connection = "strong" if P.G.directed else "weak"
    count, labels = component_labels(H.to("cpu"), connection)
    sizes = np.bincount(labels, minlength=count)
    t = int(np.argmax(labels != labels[v])) if count > 1 else v
    if P.G.directed:
        hops = hop_weights(Graph(P.indptr, P.indices, None, check=False))
        reach = search_rows(hops, np.array([v], dtype=np.int32), predecessors=False)[0][0]
        t = int(np.argmax(~np.isfinite(reach)))
    kind = "strongly connected components" if P.G.directed else "connected components"
    what = "digraph is not strongly connected" if P.G.directed else "graph is not connected"
    msg = (f"eccentricity is infinite: the {what}; vertex {t} cannot be reached from vertex {v}. "
           f"It has {count} {kind} (sizes {', '.join(map(str, sorted(sizes.tolist(), reverse=True)[:8]))}"
           f"{', ...' if count > 8 else ''}; vertex {v} is in one of {int(sizes[labels[v]])} vertices, "
           f"vertex {t} in one of {int(sizes[labels[t]])})")
    return NotConnectedError(msg, int(count))


@fill_template(options=_OPTIONS)
def eccentricity(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
                 devices: Any = None, client: Any = None) -> Array:
    """Eccentricity of every vertex: its largest distance to another vertex.

    The graph must be connected (a directed graph: strongly connected).

    Parameters
    ----------
    {options}

    Returns
    -------
    array (n,)
        int64 for hops and integer weights, float64 for float weights.

    Raises
    ------
    NotConnectedError
        Some vertex cannot reach another (a :class:`GraphError`): the message
        names two such vertices and the components.

    Examples
    --------
    >>> from graphs import Graph
    >>> eccentricity(Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False))
    array([3, 2, 2, 3])
    >>> eccentricity(Graph.from_edges([0, 2], [1, 3], directed=False))
    Traceback (most recent call last):
    ...
    graphs.centrality.distance_measures.NotConnectedError: eccentricity is infinite: the graph is not connected; vertex 2 cannot be reached from vertex 0. It has 2 connected components (sizes 2, 2; vertex 0 is in one of 2 vertices, vertex 2 in one of 2)
    """
    check_spread(devices, client)
    P = prepare(G, weighted, device)
    n, xp = P.G.n, P.G.xp
    if n == 0:
        return xp.zeros(0, dtype=_out_dtype(P, P.G))
    bounds = _bounded(P, "eccentricity", progress) if _bounds_apply(P) else None
    if bounds is not None:
        return bounds[0].astype(_out_dtype(P, P.G), copy=False)
    return _all_eccentricities(P, progress, devices, client)


def _all_eccentricities(P: PreparedGraph, progress: bool | None, devices: Any = None, client: Any = None) -> Array:
    """Every vertex's eccentricity from a search from every vertex (NotConnectedError if one is infinite)."""
    st = _stats(P, False, progress, "eccentricity", devices, client)
    short = st.reached < P.G.n
    if bool(short.any()):
        raise _not_connected(P, int(P.G.xp.argmax(short)))
    return st.ecc.astype(_out_dtype(P, P.G), copy=False)


def _bounds_apply(P: PreparedGraph) -> bool:
    """Whether the bounding search serves ``P``: undirected, integer lengths, sums of two paths within int64."""
    if P.G.directed:
        return False
    if P.weights is None:
        return True
    if P.weights.dtype.kind not in "iu":
        return False
    wmax = int(P.weights.max()) if P.weights.size else 0
    return 2 * wmax * max(P.G.n - 1, 1) < 2**62


def _candidates(which: str, lo: Array, hi: Array) -> Array:
    """The vertices whose bounds could still change the answer of ``which`` (a bool mask)."""
    if which == "diameter":  # ecc(v) <= hi[v] <= max lo <= diameter: v cannot raise it
        return hi > lo.max()
    if which == "radius":
        return lo < hi.min()
    if which == "periphery":  # once empty, every vertex with hi >= max lo (the diameter) is exact
        return (lo < hi) & (hi >= lo.max())
    if which == "center":
        return (lo < hi) & (lo <= hi.min())
    return lo < hi  # eccentricity


def _pick(xp: Any, cand: Array, lo: Array, hi: Array, deg: Array, high: bool, B: int) -> Array:
    """Up to ``B`` candidates: greatest upper bounds (``high``) or least lower bounds; ties, most arcs first."""
    idx = xp.flatnonzero(cand)
    if idx.shape[0] <= B:
        return idx
    primary = -hi[idx].astype(np.float64) if high else lo[idx].astype(np.float64)
    key = primary - 0.5 * deg[idx] / (float(deg.max()) + 1.0)
    return idx[xp.argsort(key)[:B]]


def _bounded(P: PreparedGraph, which: str, progress: bool | None) -> tuple[Array, Array] | None:
    """``(lo, hi)``: int64 eccentricity bounds of every vertex of a connected undirected ``P``, tight where
    ``which`` needs them (every vertex for ``"eccentricity"``); None where a GPU batch cannot hold its hop
    distances (then every vertex is searched).  NotConnectedError if the graph is not connected."""
    n, xp = P.G.n, P.G.xp
    gpu = P.G.device == "gpu"
    H = _row_graph(P, False)
    R = H.to("gpu") if gpu else H
    count, _ = component_labels(R, "weak")
    if count > 1:
        raise _not_connected(P, 0)  # undirected: no vertex reaches all, vertex 0 is the first
    lo = xp.zeros(n, dtype=np.int64)
    hi = xp.full(n, _NO_BOUND, dtype=np.int64)
    deg = xp.asarray(np.diff(P.indptr))
    T = kernel_threads()
    if P.weights is None:
        if gpu:
            from ..cuda.distance import batch_size

            B = batch_size(n)
        else:
            B = HOP_WIDTH * T
    else:
        B = max(T, min(BOUND_BATCH, BLOCK_BYTES // (8 * n)))
    high = False
    with progress_bar(n, which, progress, float(n) * (H.nnz + n)) as bar:
        while True:
            cand = _candidates(which, lo, hi)
            if not bool(cand.any()):
                return lo, hi
            batch = _pick(xp, cand, lo, hi, deg, high, B)
            high = not high
            if P.weights is None and gpu:
                from ..cuda.distance import hop_bounds_gpu

                if hop_bounds_gpu(R, to_device(batch, "cpu").astype(np.int32), lo, hi) is None:
                    return None
            elif P.weights is None:
                src = batch.astype(np.int32)
                slots = max(1, min(T, -(-src.shape[0] // HOP_WIDTH)))
                los = np.repeat(lo[None, :], slots, axis=0)
                his = np.repeat(hi[None, :], slots, axis=0)
                ecc = np.zeros(src.shape[0], dtype=np.int64)
                run_parallel(K.hop_ecc_bounds, H.indptr, H.indices, src, HOP_WIDTH, ecc, los, his)
                lo, hi = los.max(axis=0), his.min(axis=0)
            else:
                D, _ = search_rows(R, np.asarray(to_device(batch, "cpu"), dtype=np.int32), predecessors=False)
                D = D.astype(np.int64, copy=False)
                e = D.max(axis=1)
                lo = xp.maximum(lo, xp.maximum(D, e[:, None] - D).max(axis=0))
                hi = xp.minimum(hi, (e[:, None] + D).min(axis=0))
            bar.update(int(batch.shape[0]))


def _extreme(G: Any, weighted: bool, device: Device, progress: bool | None, which: str, devices: Any = None,
             client: Any = None) -> tuple[PreparedGraph, Array, Array]:
    """The prepared graph and its eccentricity bounds, tight for ``which`` (or every eccentricity, exact)."""
    check_spread(devices, client)
    P = prepare(G, weighted, device)
    if P.G.n == 0:
        raise GraphError(f"the {which} of a graph with no vertices is undefined")
    bounds = _bounded(P, which, progress) if _bounds_apply(P) else None
    if bounds is None:
        ecc = _all_eccentricities(P, progress, devices, client)
        return P, ecc, ecc
    dt = _out_dtype(P, P.G)
    return P, bounds[0].astype(dt, copy=False), bounds[1].astype(dt, copy=False)


def _scalar(x: Any) -> Any:
    return x.item() if hasattr(x, "item") else x


#: The docstring of :func:`diameter`, :func:`radius`, :func:`center` and :func:`periphery`.
_EXTREME_DOC = """{summary}

    {notes}
    Parameters
    ----------
    {options}

    Returns
    -------
    {returns}

    Raises
    ------
    NotConnectedError
        Some vertex cannot reach another (the eccentricities are infinite).
    GraphError
        A graph with no vertices.

    Examples
    --------
    >>> from graphs import Graph
    >>> {name}(Graph.from_edges([0, 1, 2], [1, 2, 3], {weights}directed=False))
    {result}
    """
_VALUE = "int or float\n    An int for hops and integer weights, a float for float weights."
_VERTICES = "int64 array\n    The vertex ids, ascending."


@fill_template(_EXTREME_DOC, options=_OPTIONS, summary="The largest eccentricity.", returns=_VALUE, name="diameter",
        weights="", result="3",
        notes="A connected undirected graph with integer lengths is searched from a few\n"
              "batches of sources, bounding the others (the module's notes); other graphs\n"
              "from every vertex.\n\n")
def diameter(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
             devices: Any = None, client: Any = None) -> float:
    _, lo, _ = _extreme(G, weighted, device, progress, "diameter", devices, client)
    return _scalar(lo.max())


@fill_template(_EXTREME_DOC, options=_OPTIONS, summary="The least eccentricity.", notes="", returns=_VALUE, name="radius",
        weights="[1.0, 1.0, 5.0], ", result="5.0")
def radius(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
           devices: Any = None, client: Any = None) -> float:
    _, _, hi = _extreme(G, weighted, device, progress, "radius", devices, client)
    return _scalar(hi.min())


def _attaining(G: Any, weighted: bool, device: Device, progress: bool | None, which: str, devices: Any = None,
               client: Any = None) -> Array:
    """The vertices whose eccentricity is the least (``"center"``) or the largest (``"periphery"``)."""
    P, lo, hi = _extreme(G, weighted, device, progress, which, devices, client)
    extreme = hi == hi.min() if which == "center" else lo == lo.max()
    return P.G.xp.flatnonzero((lo == hi) & extreme)


@fill_template(_EXTREME_DOC, options=_OPTIONS, summary="The vertices of least eccentricity.", notes="", returns=_VERTICES,
        name="center",
        weights="", result="array([1, 2])")
def center(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
           devices: Any = None, client: Any = None) -> Array:
    return _attaining(G, weighted, device, progress, "center", devices, client)


@fill_template(_EXTREME_DOC, options=_OPTIONS, summary="The vertices of largest eccentricity.", notes="", returns=_VERTICES,
        name="periphery",
        weights="", result="array([0, 3])")
def periphery(G: Any, *, weighted: bool = True, device: Device = "auto", progress: bool | None = None,
              devices: Any = None, client: Any = None) -> Array:
    return _attaining(G, weighted, device, progress, "periphery", devices, client)
