"""The many-source search engine: distance rows from many sources to many (or all) targets, CPU and GPU.

Everything in the library that searches from many sources at once runs here:
:func:`graphs.distance_matrix`, :func:`graphs.multi_source_sssp`,
:func:`graphs.all_pairs_shortest_paths`' sparse route, the distance statistics
(:mod:`graphs.centrality.distance_measures`), :class:`graphs.DynamicSSSP`'s
first trees, the ``scipy.sparse.csgraph`` door and the NetworkX backend's
many-source functions.

Routes, decided once in :func:`distance_rows`:

* CPU: one Dijkstra per source (indexed 4-ary heap), sources spread over the
  CPU threads, each search stopping as soon as every target is settled or the
  heap's least distance passes ``limit``, and writing only its targets'
  columns (:mod:`graphs.paths._many_kernels`).  A deep graph (a road network)
  is searched in reverse Cuthill-McKee order (:mod:`graphs.locality`), which
  keeps the arcs of a vertex near it in the distance array: 1.8x per search on
  ``road_network(200_000)``.  Making the order costs about three searches, so
  it is made once the graph has served :data:`RENUMBER_SOURCES_PER_THREAD`
  sources per thread (one call, or the blocks of a loop); one search on a
  fresh graph runs in its own numbering.
* GPU: the batched near-far search of :mod:`graphs.cuda.batched_search`,
  thousands of sources per batch, distances summed in float64 (so integer
  weights are exact while every path sum stays below ``2**53``, checked here;
  larger ones run the SpMM route below), rows read out batch by batch.
* Negative weights: Johnson's potentials (Johnson, "Efficient algorithms for
  shortest paths in sparse networks", JACM 24, 1977; one frontier Bellman-Ford
  from a virtual source, which names a negative cycle if there is one), then
  the same search on the reduced weights ``w + h[u] - h[v] >= 0`` on the CPU.
  On the GPU, negative weights take ``"spmm"``: Bellman-Ford on an ``n x k``
  block, one sparse-times-dense min-plus product per round (the route a
  caller may also ask for with ``method="spmm"``).

Its API, for the modules beside it:

:data:`MULTI_SEARCHES`
    The many-source methods (``"auto"`` one more entry).
:func:`distance_rows`
    Rows ``sources x targets`` (and predecessor rows) into an array, a
    memmap or a CuPy array, batch by batch, with a progress bar.
:func:`search_many`, :func:`search_rows`
    Full rows ``(D, P)`` as :func:`graphs.multi_source_sssp` returns them
    (on a Dask cluster through :mod:`graphs.paths.distributed`);
    :func:`search_rows` for a weighted graph without ``-inf`` held already.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from semiring import min_plus
from semiring.dtypes import neginf, posinf
from semiring.kernels import num_threads, run_chunks
from semiring.sparse import kernels_for

from ..door import Prepared, check_weights
from ..graph import Graph
from ..locality import Renumbered, graph_order, renumbered
from . import _many_kernels as MK
from . import _sssp_kernels as K
from .engine import bellman_ford, hop_weights, johnson_potentials

__all__ = ["MULTI_SEARCHES", "distance_rows", "search_many", "search_rows", "exact_on_gpu", "search_order",
           "ROW_BATCH_BYTES", "RENUMBER_SOURCES_PER_THREAD"]

#: The many-source methods (see :func:`graphs.multi_source_sssp`); ``"auto"``: the batched search.
MULTI_SEARCHES = {"auto": None, "dijkstra": "one search per source", "spmm": "Bellman-Ford on an n x k block"}
#: Bytes of the rows one CPU batch writes before they are copied out (and progress is shown).
ROW_BATCH_BYTES = 64 << 20
#: Sources per CPU thread searched on a deep graph from which it is renumbered (:func:`graphs.locality.renumbered`):
#: the order costs about three searches' time and saves about half of each search (on ``road_network(200_000)``,
#: 2 threads: one source 0.042 s in the graph's numbering against 0.152 s renumbering first; even near 8 sources).
RENUMBER_SOURCES_PER_THREAD = 4


def exact_on_gpu(G: Graph) -> bool:
    """Whether the GPU's float64 sums give ``G``'s distances exactly: float weights, or integer weights whose
    longest possible path, ``(n - 1) * max |w|``, stays below ``2**53``."""
    w = G.weights
    if w is None or w.dtype.kind == "f" or G.nnz == 0:
        return True
    big = float(abs(w).max())
    return (G.n - 1) * big < 2.0**53


def _limit_value(limit: float | None, dtype: np.dtype):
    """``limit`` as the kernels compare it: float64 for float distances, the integer floor (at most ``hi``)
    for integer ones; ``hi`` for no limit."""
    hi = posinf(dtype)
    if limit is None or limit == np.inf:
        return hi if dtype.kind == "i" else np.float64(np.inf)
    if dtype.kind == "f":
        return np.float64(limit)
    return dtype.type(min(int(np.floor(limit)), int(hi)))


def distance_rows(G: Graph, src: np.ndarray, cols: np.ndarray | None = None, *, limit: float | None = None,
                  predecessors: bool = False, out=None, bar=None):
    """Distances from ``src`` to the vertices ``cols`` (``None``: all), and predecessor rows, batch by batch.

    ``G`` is checked (no ``-inf`` weight); an unweighted graph counts hops.
    ``limit``: distances above it read as unreachable (and the searches stop
    there).  ``out``: the ``(len(src), len(cols))`` result to fill (an array,
    a ``numpy.memmap`` or a CuPy array) in the weights' dtype (float64 for
    hop counts); allocated on ``G``'s device when ``None``.  ``bar``: a
    progress bar counting sources.

    Returns
    -------
    D : array (k, t)
    P : int32 array (k, n) or None
        Predecessors (``-1`` for the source and for vertices not reached or
        past ``limit``); ``None`` unless ``predecessors``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 4.0])
    >>> distance_rows(G, np.array([0, 2], np.int32), np.array([2, 2, 1], np.int32))
    (array([[3., 3., 1.],
           [0., 0., 5.]]), None)
    """
    gpu = G.device == "gpu"
    if G.weights is None and not gpu:
        G = hop_weights(G)
    dtype = np.dtype(np.float64 if G.weights is None else G.weights.dtype)
    k = src.shape[0]
    t = G.n if cols is None else cols.shape[0]
    if out is None:
        xp = G.xp
        out = xp.empty((k, t), dtype=dtype)
    P = None
    if predecessors:  # beside the distances: on the device where they are
        on_device = hasattr(out, "__cuda_array_interface__")
        P = (G.xp if on_device else np).full((k, G.n), -1, dtype=np.int32)
    if gpu and not G.has_negative_weights and exact_on_gpu(G):
        _rows_gpu(G, src, cols, limit, out, P, bar)
    elif gpu:
        import cupy as cp

        H = G.to("cpu")
        want = True if P is not None else None  # (True: the host route allocates the predecessor rows)
        D, Pr = (_rows_host(H, src, cols, limit, None, want, bar) if not H.has_negative_weights
                 else _johnson_rows(H, src, cols, limit, None, want, bar))
        out[...] = D if isinstance(out, np.ndarray) else cp.asarray(D)
        if P is not None:
            P[...] = Pr if isinstance(P, np.ndarray) else cp.asarray(Pr)
    elif G.has_negative_weights:
        _johnson_rows(G, src, cols, limit, out, P, bar)
    else:
        _rows_host(G, src, cols, limit, out, P, bar)
    return out, P


def _rows_host(G: Graph, src: np.ndarray, cols: np.ndarray | None, limit, out, P, bar, weights=None):
    """The CPU route: rows of ``out`` (allocated when ``None``) and ``P`` (or ``True``: allocate it) from the
    Dijkstra kernel, on the renumbered graph where it is deep; ``weights``: other non-negative weights of
    the same arcs (Johnson's reduced ones), in their own dtype."""
    n, k = G.n, src.shape[0]
    w = G.weights if weights is None else weights
    dtype = np.dtype(w.dtype)
    t = n if cols is None else cols.shape[0]
    if out is None:
        out = np.empty((k, t), dtype=dtype)
    if P is True:
        P = np.full((k, n), -1, dtype=np.int32)
    R = search_order(G, k)
    if R is None:
        indptr, indices = G.indptr, G.indices
        order = np.arange(n, dtype=np.int32)
        inv = None
    else:
        indptr, indices, order, inv = R.indptr, R.indices, R.order, R.inv
        w = w[R.arcs]
    isrc = src if inv is None else inv[src]
    icols = (np.arange(n, dtype=np.int32) if inv is None else inv) if cols is None else (
        cols if inv is None else inv[cols])
    is_target = np.zeros(n, dtype=np.bool_)
    is_target[icols] = True
    n_targets = int(np.count_nonzero(is_target))
    pcols = icols if cols is None else (np.arange(n, dtype=np.int32) if inv is None else inv)
    if P is None:
        pcols, Pbuf = np.empty(0, dtype=np.int32), np.empty((k, 0), dtype=np.int32)
    lo, hi = neginf(dtype), posinf(dtype)
    lim = _limit_value(limit, dtype)
    direct = type(out) is np.ndarray and out.dtype == dtype and out.flags.c_contiguous
    per_row = max(1, t * dtype.itemsize + (4 * n if P is not None else 0))
    batch = int(max(1, min(k, ROW_BATCH_BYTES // per_row)))
    for r0 in range(0, k, batch):
        r1 = min(k, r0 + batch)
        Db = out[r0:r1] if direct else np.empty((r1 - r0, t), dtype=dtype)
        Pb = (P[r0:r1] if P is not None else Pbuf[: r1 - r0])
        part = np.ascontiguousarray(isrc[r0:r1], dtype=np.int32)
        run_chunks(lambda a, b, Db=Db, Pb=Pb, part=part: MK.dijkstra_rows(
            indptr, indices, w, part, is_target, n_targets, lim, icols, Db, pcols, order, Pb, lo, hi, a, b),
            r1 - r0, work=(r1 - r0) * (G.nnz + n + 1) * 8)
        if not direct:
            out[r0:r1] = Db
        if bar is not None:
            bar.update(r1 - r0)
    return out, P


def search_order(G: Graph, k: int) -> Renumbered | None:
    """The renumbered graph (:func:`graphs.locality.renumbered`) on which the CPU searches of ``k`` more sources of
    ``G`` run, or ``None`` where they run in the graph's own numbering (see :func:`_order_pays`); a spread over
    worker processes calls it once before sending the graph, so that they receive the order instead of each
    computing its own.

    >>> from graphs.generators import road_network
    >>> G = road_network(500, seed=0)
    >>> search_order(G, 1) is None, search_order(G, 10**6) is search_order(G, 1)
    (True, True)
    """
    return renumbered(G) if _order_pays(G, k) else None


def _order_pays(G: Graph, k: int) -> bool:
    """Whether the CPU searches of ``k`` more sources run on the renumbered graph: it holds its order already, or
    the sources searched on it so far (these included, counted on the graph) reach
    :data:`RENUMBER_SOURCES_PER_THREAD` per thread, so a loop over small blocks of sources renumbers once."""
    searched = G._cache.get("sources_searched", 0) + k
    G._cache["sources_searched"] = searched
    return "renumbered" in G._cache or searched >= RENUMBER_SOURCES_PER_THREAD * num_threads()


def _rows_gpu(G: Graph, src: np.ndarray, cols: np.ndarray | None, limit, out, P, bar) -> None:
    """The GPU route: the batched search's rows into ``out`` (CuPy or host) and ``P``."""
    import cupy as cp

    from ..cuda.batched_search import distance_rows_gpu

    H = G.to("cpu")
    dtype = np.dtype(out.dtype)
    hi = posinf(dtype)
    positive = H.weights is None or H.nnz == 0 or float(H.weights.min()) > 0
    host_out = not isinstance(out, cp.ndarray)
    lim = np.inf if limit is None else float(limit)

    def write(r0: int, r1: int, D, Pr) -> None:
        if dtype.kind == "i":  # exact below 2**53 (checked); unreached: the integer maximum
            unreached = cp.isinf(D)
            D = cp.where(unreached, 0, D).astype(dtype)
            D[unreached] = hi
        elif dtype != np.float64:
            D = D.astype(dtype)
        if host_out:
            D.get(out=out[r0:r1]) if type(out) is np.ndarray else out.__setitem__(slice(r0, r1), D.get())
        else:
            out[r0:r1] = D
        if Pr is not None:
            P[r0:r1] = Pr.get() if isinstance(P, np.ndarray) else Pr

    if H.weights is None and P is None:
        # hop counts: the bit-parallel BFS over the in-arcs, rows straight into a float64 device result
        from ..cuda.bit_bfs import hop_rows_gpu

        T = G.transpose()
        direct = out if (cols is None and not host_out and dtype == np.float64 and out.flags.c_contiguous) else None
        hop_rows_gpu(T.indptr, T.indices, G.n, src, cols, lim, lambda r0, r1, D: write(r0, r1, D, None),
                     direct=direct, bar=bar)
        return
    distance_rows_gpu(H.indptr, H.indices, H.weights, src, cols, lim, predecessors=P is not None and positive,
                      write=write, bar=bar, ren=graph_order(G))
    if P is not None and not positive:
        # Zero-weight arcs may be tight both ways: predecessors by a BFS over the tight arcs, on the host, from
        # distances summed there in the weights' own dtype (as the tight test sums them).
        Dfull = _rows_host(H, src, None, limit, None, None, None)[0]
        Ph = np.empty(P.shape, dtype=np.int32)
        w = H.weights
        run_chunks(lambda a, b: K.tight_tree_preds(H.indptr, H.indices, w, src, Dfull, Ph, neginf(w.dtype),
                                                   posinf(w.dtype), a, b), src.shape[0], work=src.shape[0] * H.nnz)
        P[...] = Ph if isinstance(P, np.ndarray) else cp.asarray(Ph)


def _johnson_rows(G: Graph, src: np.ndarray, cols: np.ndarray | None, limit, out, P, bar):
    """Rows for a graph with negative weights: the search on Johnson-reweighted arcs, distances restored.

    The reweighted arcs ``w + h[u] - h[v]`` and the distances are computed
    where they cannot overflow: int64 for int32 weights; for int64 weights in
    int64 only when the potentials and weights are small enough for every sum
    to fit (checked first); floats in their own dtype, checked to stay finite.
    A row whose exact distances reach a sentinel (or cannot be computed so)
    is computed again by Bellman-Ford from its source, which saturates as the
    library's policy says; so every row equals :func:`graphs.sssp` with
    ``method="bellman-ford"`` (the same distances; predecessors may differ
    where paths tie).  ``limit`` applies to the restored distances.
    """
    dtype = np.dtype(G.weights.dtype)
    lo, hi = neginf(dtype), posinf(dtype)
    n, k = G.n, src.shape[0]
    t = n if cols is None else cols.shape[0]
    if out is None:
        out = np.empty((k, t), dtype=dtype)
    if P is True:
        P = np.full((k, n), -1, dtype=np.int32)
    h = johnson_potentials(G)  # raises NegativeCycleError naming a cycle
    rows, heads, w = G.edges()
    redo = np.zeros(k, dtype=bool)
    w2 = None
    if dtype.kind == "i":
        ok = not bool((h == lo).any())
        if ok and dtype == np.int64:
            big = max(int(np.abs(w.astype(np.float64)).max(initial=0.0)), int(np.abs(h.astype(np.float64)).max()))
            # |w2| < 3 * big and a distance is a sum of fewer than n of them, plus two potentials.
            ok = big < 2**60 and 3 * big * max(n, 1) + 2 * big < 2**62
        if ok:
            hw = h.astype(np.int64)
            w2 = w.astype(np.int64) + hw[rows] - hw[heads]
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            w2 = w + h[rows] - h[heads]
        if bool(np.isfinite(h).all()) and bool(np.isfinite(w2).all()):
            np.maximum(w2, 0, out=w2)  # rounding may leave -1e-16 on tight arcs
        else:
            w2 = None
    full = P is not None or limit is not None  # full rows: the predecessors and the limit read every vertex
    run_cols = None if full else cols
    ccols = np.arange(n) if run_cols is None else run_cols
    if w2 is not None:
        D2, P = _rows_host(G, src, run_cols, None, None, P, bar, weights=w2)
        hi2 = posinf(w2.dtype)
        reached = D2 != hi2
        if dtype.kind == "i":
            hw = h.astype(np.int64)
            exact = np.where(reached, D2 - hw[src][:, None] + hw[ccols][None, :], 0)
            redo = (reached & ((exact <= int(lo)) | (exact >= int(hi)))).any(axis=1)
            res = np.where(reached, exact, hi).astype(dtype)
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                back = D2 - h[src][:, None] + h[ccols][None, :]
            redo = (reached & ~np.isfinite(back)).any(axis=1)
            res = np.where(reached, back, hi).astype(dtype, copy=False)
    else:
        redo[:] = True
        res = np.full((k, ccols.shape[0]), hi, dtype=dtype)
        if bar is not None:
            bar.update(k)
    for r in np.flatnonzero(redo).tolist():
        d = np.full(n, hi, dtype=dtype)
        p = np.full(n, -1, dtype=np.int32)
        bellman_ford(G, src[r:r + 1], d, p)
        res[r] = d[ccols]
        if P is not None:
            P[r] = p
    if limit is not None:
        past = res > limit
        res[past] = hi
        if P is not None:
            P[past] = -1
    out[...] = res if (cols is None or not full) else res[:, cols]
    return out, P


def search_many(P: Prepared, src: np.ndarray, method: str = "auto", predecessors: bool = True, client=None,
                kernel: Callable | None = None):
    """Distances (and predecessors) from the checked sources ``src`` on a prepared graph, one row per source.

    ``method`` is a key of :data:`MULTI_SEARCHES` (checked by the caller);
    ``client`` runs the rows on a Dask cluster, calling ``kernel`` (the public
    :func:`graphs.multi_source_sssp`) on each chunk of sources there
    (:func:`graphs.paths.distributed.distributed_multi_source_sssp`).
    Returns ``(D, P)`` as :func:`graphs.multi_source_sssp` does.

    Examples
    --------
    >>> from graphs import Graph
    >>> from graphs.door import prepare
    >>> P = prepare(Graph.from_edges([0, 1], [1, 2], [2.0, -3.0]), facts=True)
    >>> search_many(P, np.array([0, 2], np.int32), predecessors=False)
    (array([[ 0.,  2., -1.],
           [inf, inf,  0.]]), None)
    """
    G, f = P.graph, P.facts
    if f is None:
        G = hop_weights(G)
    elif f.neginf_at >= 0:
        check_weights(G, "bellman-ford")
    if client is not None:  # on a Dask cluster: graphs.paths.distributed
        from .distributed import distributed_multi_source_sssp

        if method == "auto":
            method = "spmm" if P.device == "gpu" else "dijkstra"
        return distributed_multi_source_sssp(G, src, method, client, kernel, predecessors=predecessors)
    return search_rows(G, src, method, predecessors)


def search_rows(G: Graph, src: np.ndarray, method: str = "auto", predecessors: bool = True):
    """:func:`search_many` on a weighted graph known to hold no ``-inf`` weight: the CPU or GPU route.

    ``method`` ``"auto"`` and ``"dijkstra"``: :func:`distance_rows` (the
    batched search on the GPU, Dijkstra per source on the CPU, Johnson's
    reweighting for negative weights); ``"spmm"``: Bellman-Ford on an
    ``n x k`` block.  For the families that hold a checked graph already
    (the distance statistics).

    >>> from graphs import Graph
    >>> search_rows(Graph.from_edges([0, 1], [1, 2], [2.0, 3.0]), np.array([1], np.int32))
    (array([[inf,  0.,  3.]]), array([[-1, -1,  1]], dtype=int32))
    """
    if method == "spmm":
        return _multi_spmm(G, src, predecessors)
    return distance_rows(G, src, predecessors=predecessors)


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
        Gc = G.to("cpu")
        bellman_ford(Gc, src[col:col + 1], np.full(n, hi, dtype=dtype), np.full(n, -1, dtype=np.int32))
        raise AssertionError("unreachable: the single-source run raised")  # pragma: no cover
    D = xp.ascontiguousarray(X.T)
    if not predecessors:
        return D, None
    Dh = D.get() if xp is not np else D
    Gc = G.to("cpu")
    lo = neginf(dtype)
    P = np.empty((k, n), dtype=np.int32)
    run_chunks(lambda r0, r1: K.tight_tree_preds(Gc.indptr, Gc.indices, Gc.weights, src, Dh, P, lo, hi, r0, r1),
               k, work=k * (Gc.nnz + 1) * 8)
    return D, (P if xp is np else xp.asarray(P))
