"""Betweenness centrality of vertices and edges: Brandes' algorithm over batches of sources.

The betweenness of ``v`` is ``sum_{s != v != t} sigma_st(v) / sigma_st``, the
fraction of shortest ``s -> t`` paths through ``v`` (Freeman, "A set of measures
of centrality based on betweenness", Sociometry 40, 1977), computed from each
source's dependencies ``delta_s(v) = sum_w sigma_sv / sigma_sw (1 + delta_s(w))``
over the shortest-path successors ``w`` of ``v`` (U. Brandes, "A faster algorithm
for betweenness centrality", J. Math. Sociol. 25(2), 2001; edges and endpoints:
"On variants of shortest-path betweenness centrality and their generic
computation", Social Networks 30(2), 2008).  Sampled betweenness takes ``k``
random sources and rescales (Brandes & Pich, "Centrality estimation in large
networks", Int. J. Bifurcation and Chaos 17(7), 2007).

The sources run in batches, never an ``n x n`` matrix (memory O(batch x n)):

* hop counts: a batch of 64 sources is one bit per source in a ``uint64`` word
  per vertex, one scan of a vertex's arcs advancing all the searches that reach it
  at that level (multi-source BFS: Then et al., "The More the Merrier", PVLDB 8(4),
  2014); path counts move only along the (arc, source) pairs that advance a level,
  and the dependencies flow back level by level the same way;
* weights: one Dijkstra per source (Dial's buckets for integer weights up to
  65536, a binary heap otherwise), the backward sweep over the settled order.

On the CPU the batches run in parallel on Numba threads
(:mod:`graphs._centrality_kernels`); on the GPU a batch of sources is one launch
per level for the whole batch (:mod:`graphs.cuda.centrality`).

Conventions are NetworkX's (``networkx.betweenness_centrality`` and
``edge_betweenness_centrality``, including the rescaling of sampled sources and of
undirected graphs), so results agree with NetworkX to rounding for graphs with
positive weights.  Parallel arcs count once (with their least weight), as in a
NetworkX multigraph; self loops lie on no shortest path.  Path counts are
float64.  Zero-weight arcs make distances tie along arcs: such an arc counts for
the paths when its tail was settled before its head (the counted paths then form
one acyclic graph; NetworkX counts some of those ties differently, depending on its
heap order).
"""

from __future__ import annotations

import math
import operator
import random
from typing import NamedTuple

import numpy as np

from semiring.kernels import run_parallel

from . import _centrality_kernels as K
from ._arguments import check_vertex, check_vertex_array, resolve_graph_device
from .errors import GraphError
from .graph import Graph, as_graph

__all__ = ["betweenness_centrality", "edge_betweenness_centrality", "EdgeBetweenness", "prepare", "PreparedGraph",
           "progress_bar", "kernel_threads"]

#: Estimated arc scans above which a progress bar may be shown (on a terminal, after 2 s).
PROGRESS_WORK = 2e8
#: Deepest BFS (from the vertex of most arcs) for which hop counts run bit-parallel batches of 64 sources.
BITS_DEPTH = 24
#: Sources per call of a CPU kernel, per thread (progress is updated between calls).
CHUNK_BATCHES = 16


class EdgeBetweenness(NamedTuple):
    """Betweenness of each edge: ``value[e]`` for the edge ``src[e] -> dst[e]``.

    A directed graph lists each arc (parallel arcs once); an undirected graph
    each edge once, with ``src <= dst``; in the order of ``(src, dst)``.
    """

    src: object
    dst: object
    value: object


class PreparedGraph(NamedTuple):
    """A graph ready for the kernels: simple CSR on the host, weights as int64/float64 or None."""

    G: Graph  # the graph as given, on the device the job runs on
    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray | None  # int64 (exact sums) or float64; None: hops
    dial: bool  # Dial's buckets: integer weights below K.DIAL_MAX
    ring: int


def _check_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def prepare(G, weighted: bool, device: str) -> PreparedGraph:
    """Check ``G`` once and make the simple host CSR arrays the kernels read.

    Parallel arcs are combined by their least weight (NetworkX's reading of a
    multigraph); weights must be non-negative.  Float weights that are all
    whole numbers up to :data:`~graphs._centrality_kernels.DIAL_MAX` run as
    int64 (the same sums, exactly) on Dial's buckets.  Integer weights run in
    int64; if the longest possible path, ``(n - 1) * max weight``, does not fit
    in int64, that is an error.
    """
    weighted = _check_flag(weighted, "weighted")
    G = resolve_graph_device(as_graph(G, name="G"), device)
    H = G.to("cpu") if G.device == "gpu" else G
    S = H.simplify()
    w = S.weights if weighted else None
    dial, ring = False, 1
    if w is not None:
        if w.size and bool((w < 0).any()):
            k = int(np.argmax(w < 0))
            src, dst, _ = S.edges()
            raise GraphError(f"weights must be non-negative for shortest-path centrality; arc "
                             f"{int(src[k])} -> {int(dst[k])} weighs {w[k].item()!r}")
        wmax = float(w.max()) if w.size else 0.0
        if w.dtype.kind in "iu":
            if w.size and int(w.max()) * max(S.n - 1, 1) >= 2**63 - 1:
                raise GraphError(f"weights up to {int(w.max())} on {S.n} vertices: path lengths may not fit "
                                 "in int64; use float weights")
            w = w.astype(np.int64)
        else:
            w = w.astype(np.float64)
            if wmax <= K.DIAL_MAX and bool(np.all(np.floor(w) == w)):
                w = w.astype(np.int64)  # whole numbers: the same sums, exactly
        if w.dtype == np.int64 and wmax < K.DIAL_MAX:
            dial, ring = True, int(wmax) + 1
    return PreparedGraph(G, S.indptr, S.indices, w, dial, ring)


def pick_sources(n: int, sources, seed, G: Graph | None = None) -> tuple[np.ndarray, bool]:
    """The source vertices (int32) and whether they are a sample (``sources`` given).

    ``None``: every vertex.  An integer ``k``: ``k`` distinct vertices drawn as
    NetworkX draws them (``random.Random(seed).sample``, so the same ``seed``
    picks the same vertices as ``networkx.betweenness_centrality(k=, seed=)``);
    ``k = n`` is all of them.  A sequence or array: those vertices (ids, or
    labels of a labelled graph).
    """
    if sources is None:
        return np.arange(n, dtype=np.int32), False
    if hasattr(sources, "__cuda_array_interface__"):
        sources = sources.get()
    if isinstance(sources, (bool, np.bool_)):
        raise TypeError("sources must be None, a number of sources k, or a sequence of vertices; got a bool")
    if not isinstance(sources, (np.ndarray, list, tuple, range)):
        try:
            k = operator.index(sources)
        except TypeError:
            raise TypeError("sources must be None, a number of sources k, or a sequence of vertices; "
                            f"got {type(sources).__name__}") from None
        if not 1 <= k <= n:
            raise GraphError(f"sources = {k} sources to sample, but the graph has {n} vertices (need 1 <= k <= n)")
        if k == n:
            return np.arange(n, dtype=np.int32), False
        if seed is None or isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            rng = random.Random(None if seed is None else int(seed))
        elif isinstance(seed, random.Random):
            rng = seed
        else:
            raise TypeError(f"seed must be None, an int or a random.Random, got {type(seed).__name__}")
        return np.asarray(rng.sample(range(n), k), dtype=np.int32), True
    arr = np.asarray(sources) if not isinstance(sources, np.ndarray) else sources
    if arr.ndim != 1:
        raise GraphError(f"sources must be a 1-D sequence of vertices, got shape {arr.shape}")
    if arr.size == 0:
        raise GraphError("sources is empty; give at least one source vertex")
    # an array the caller made must hold ids (or labels); a list is read entry by entry when it is not all ints
    if check_vertex_array(G, arr, "sources") if isinstance(sources, np.ndarray) else arr.dtype.kind in "iu":
        bad = (arr < 0) | (arr >= n)
        if bool(bad.any()):
            k = int(np.argmax(bad))
            raise GraphError(f"sources[{k}] = {int(arr[k])} is not a vertex of a graph with n = {n} (ids are 0-based)")
        out = arr.astype(np.int32)
    else:
        if G is None:
            raise TypeError(f"sources must hold integer vertex ids, got {arr.dtype}")
        items = list(sources)
        out = np.array([check_vertex(G, v, f"sources[{i}]") for i, v in enumerate(items)], dtype=np.int32)
    return out, True


def kernel_threads() -> int:
    """The number of threads the Numba kernels run on (one scratch slot each)."""
    import numba

    return int(numba.get_num_threads())


def progress_bar(total: float, label: str, enabled: bool | None, work: float):
    """An :class:`apsp.progress.Progress` of ``total`` steps; ``enabled=None`` shows none below :data:`PROGRESS_WORK`."""
    from apsp.progress import Progress

    if enabled is None and work < PROGRESS_WORK:
        enabled = False
    return Progress(total, label, enabled=enabled)


def _low_diameter(P: PreparedGraph) -> bool:
    """Whether a bit-parallel batch pays: one BFS from the vertex of most arcs reaches its last level within
    :data:`BITS_DEPTH` levels.  On deep graphs (roads, grids) a batch's searches spread over many more
    levels, each vertex is scanned in up to 64 of them, and one BFS per source measured 6x faster
    (road_network(20000)); on low-diameter graphs the batch measured up to 2x faster (R-MAT)."""
    n = P.indptr.shape[0] - 1
    if n == 0:
        return True
    from .traversal import bfs

    H = Graph(P.indptr, P.indices, None, check=False)
    levels, _ = bfs(H, int(np.argmax(np.diff(P.indptr))))
    return int(levels.max()) <= BITS_DEPTH


def _brandes_cpu(P: PreparedGraph, src: np.ndarray, endpoints: bool, edges: bool, progress, label: str):
    """Raw (unscaled) vertex and arc dependencies summed over ``src``, on the CPU."""
    n, nnz, k = P.indptr.shape[0] - 1, P.indices.shape[0], src.shape[0]
    T = max(1, min(kernel_threads(), k))
    bc = np.zeros((T, n), dtype=np.float64)
    eb = np.zeros((T, nnz if edges else 0), dtype=np.float64)
    bits = P.weights is None and _low_diameter(P)
    if bits:
        width = min(K.WORD, max(1, -(-k // T)))
        step = width * T * CHUNK_BATCHES
    else:
        width = 1
        step = T * CHUNK_BATCHES * 4
    with progress_bar(k, label, progress, float(k) * (nnz + n)) as bar:
        for r0 in range(0, k, step):
            part = src[r0:r0 + step]
            if bits:
                run_parallel(K.brandes_hops, P.indptr, P.indices, part, width, endpoints, edges, K.DENSE, bc, eb)
            elif P.weights is None:
                run_parallel(K.brandes_bfs, P.indptr, P.indices, part, endpoints, edges, bc, eb)
            else:
                inf = np.inf if P.weights.dtype == np.float64 else np.iinfo(np.int64).max
                run_parallel(K.brandes_weighted, P.indptr, P.indices, P.weights, part, endpoints, edges, P.dial,
                             P.ring, P.weights.dtype.type(inf), bc, eb)
            bar.update(part.shape[0])
    return bc.sum(axis=0), (eb.sum(axis=0) if edges else None)


def _brandes(P: PreparedGraph, src: np.ndarray, endpoints: bool, edges: bool, progress, label: str):
    """Raw dependencies on the device the job runs on (host arrays for the CPU, CuPy for the GPU)."""
    if P.G.device != "gpu":
        return _brandes_cpu(P, src, endpoints, edges, progress, label)
    xp = P.G.xp
    w = P.weights
    if w is not None and w.size and (bool((w == 0).any()) or float(w.max()) * max(P.G.n - 1, 1) >= 2.0**53):
        # tied distances along zero-weight arcs (the host's settled order decides them), or integer path
        # lengths beyond float64's exact range (the device sums in float64): on the host
        bc, eb = _brandes_cpu(P, src, endpoints, edges, progress, label)
        return xp.asarray(bc), (xp.asarray(eb) if edges else None)
    from .cuda.centrality import brandes_gpu

    n, nnz, k = P.G.n, P.indices.shape[0], src.shape[0]
    with progress_bar(k, label, progress, float(k) * (nnz + n)) as bar:
        return brandes_gpu(P, src, endpoints, edges, bar)


def _vertex_scale(n: int, k: int | None, directed: bool, normalized: bool, endpoints: bool, sampled):
    """NetworkX's ``_rescale`` of vertex betweenness: a scalar, or ``(source scale, other scale)`` when sampled."""
    N = n if endpoints else n - 1
    if N < 2:
        return 1.0
    K_source = N if k is None else k
    correction = 1 if directed else 2
    if k is None or endpoints:
        return 1 / (K_source * (N - 1)) if normalized else N / (K_source * correction)
    if normalized:
        s_src = 1 / ((K_source - 1) * (N - 1)) if K_source > 1 else math.nan
        s_other = 1 / (K_source * (N - 1))
    else:
        s_src = N / ((K_source - 1) * correction) if K_source > 1 else math.nan
        s_other = N / (K_source * correction)
    return s_src, s_other


def betweenness_centrality(
    G,
    *,
    sources=None,
    weighted: bool = True,
    normalized: bool = True,
    endpoints: bool = False,
    seed=None,
    device: str = "auto",
    progress: bool | None = None,
):
    """Betweenness centrality of every vertex (exact, or estimated from sampled sources).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Directed or undirected; parallel arcs count once (with their least
        weight); self loops are on no shortest path.
    sources : None, int or sequence of vertices, keyword-only
        ``None``: every vertex (exact).  An integer ``k``: ``k`` sources drawn
        at random with ``seed``, exactly as ``networkx.betweenness_centrality(G,
        k=k, seed=seed)`` draws them (``k = n`` is exact).  A sequence or array
        of vertices: those sources (ids, or labels of a labelled graph), rescaled
        as a sample of ``len(sources)``.
    weighted : bool
        Use the weights (non-negative) if ``G`` has them; ``False`` counts hops.
    normalized : bool
        Divide by the number of ordered pairs ``(N - 1)(K - 1)``... as NetworkX
        does: by ``K (N - 1)``, ``K`` the number of sources (``n``, or the
        sample), ``N = n - 1`` (``n`` with ``endpoints``).  Otherwise scale to
        the full sum, halved for an undirected graph (each pair counted once).
        A sampled source's own value (it is no inner vertex of its own paths)
        is scaled by ``K - 1`` in place of ``K``, as in NetworkX 3.5+.
    endpoints : bool
        Count a path's end vertices too.
    seed : None, int or random.Random
        The random draw of ``k`` sources.
    device : {"auto", "cpu", "gpu"}
        ``"auto"`` runs where ``G`` lives; the result is an array of that device.
    progress : bool, optional
        Show a progress bar; default: on a terminal, for runs over 2 s.

    Returns
    -------
    float64 array (n,)
        The betweenness of vertex ``v`` at ``[v]``.

    Raises
    ------
    GraphError
        A negative weight (naming its arc); integer weights whose path lengths
        may overflow int64; ``k`` outside ``[1, n]``; an empty or 2-D source list.
    VertexError
        A source that is no vertex.
    TypeError
        ``sources``, ``seed`` or a flag of the wrong type.

    Examples
    --------
    >>> from graphs import Graph
    >>> P4 = Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)  # the path 0 - 1 - 2 - 3
    >>> betweenness_centrality(P4)
    array([0.        , 0.66666667, 0.66666667, 0.        ])
    >>> betweenness_centrality(P4, normalized=False)
    array([0., 2., 2., 0.])
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], [1.0, 1.0, 1.0, 5.0])
    >>> betweenness_centrality(G, normalized=False)  # 0 -> 3 goes through 1 only
    array([0., 1., 0., 0.])
    >>> betweenness_centrality(G, weighted=False, normalized=False)  # two hop-shortest routes
    array([0. , 0.5, 0.5, 0. ])
    """
    normalized = _check_flag(normalized, "normalized")
    endpoints = _check_flag(endpoints, "endpoints")
    P = prepare(G, weighted, device)
    n = P.G.n
    xp = P.G.xp
    if n == 0:
        return xp.zeros(0, dtype=np.float64)
    src, sampled = pick_sources(n, sources, seed, P.G)
    raw, _ = _brandes(P, src, endpoints, False, progress, "betweenness")
    scale = _vertex_scale(n, src.shape[0] if sampled else None, P.G.directed, normalized, endpoints, sampled)
    if isinstance(scale, tuple):
        factor = np.full(n, scale[1])
        factor[src] = scale[0]
        return raw * xp.asarray(factor)
    return raw * scale if scale != 1 else raw


def edge_betweenness_centrality(
    G,
    *,
    sources=None,
    weighted: bool = True,
    normalized: bool = True,
    seed=None,
    device: str = "auto",
    progress: bool | None = None,
) -> EdgeBetweenness:
    """Betweenness centrality of every edge: the shortest paths through it.

    Parameters are those of :func:`betweenness_centrality` (no ``endpoints``).
    NetworkX's scaling (``networkx.edge_betweenness_centrality``): normalized,
    divided by ``K (n - 1)``; otherwise by ``K / n`` (and by 2 more for an
    undirected graph); ``K`` the number of sources.

    Returns
    -------
    EdgeBetweenness
        ``(src, dst, value)``: int32 ends and float64 values, one entry per arc
        of a directed graph (parallel arcs once), per edge of an undirected one
        (``src <= dst``), in ``(src, dst)`` order; arrays of the graph's device.

    Examples
    --------
    >>> from graphs import Graph
    >>> P3 = Graph.from_edges([0, 1], [1, 2], directed=False)
    >>> eb = edge_betweenness_centrality(P3, normalized=False)
    >>> eb.src, eb.dst, eb.value
    (array([0, 1], dtype=int32), array([1, 2], dtype=int32), array([2., 2.]))
    """
    normalized = _check_flag(normalized, "normalized")
    P = prepare(G, weighted, device)
    n = P.G.n
    xp = P.G.xp
    rows = np.repeat(np.arange(n, dtype=np.int32), np.diff(P.indptr))
    cols = P.indices
    if n == 0:
        return EdgeBetweenness(xp.asarray(rows), xp.asarray(cols), xp.zeros(0, dtype=np.float64))
    src, sampled = pick_sources(n, sources, seed, P.G)
    _, raw = _brandes(P, src, False, True, progress, "edge betweenness")
    raw = raw.get() if hasattr(raw, "get") else raw
    if P.G.directed:
        keep = np.ones(rows.shape[0], dtype=bool)
        val = raw
    else:
        key = rows.astype(np.int64) * n + cols
        order = np.argsort(key, kind="stable")
        rev = order[np.searchsorted(key[order], cols.astype(np.int64) * n + rows)]
        keep = rows <= cols
        val = np.where(rows == cols, raw, raw + raw[rev])
    r, c, v = rows[keep], cols[keep], val[keep]
    order = np.lexsort((c, r))
    r, c, v = r[order], c[order], v[order]
    N = n
    if N >= 2:
        K_source = N if not sampled else src.shape[0]
        scale = 1 / (K_source * (N - 1)) if normalized else N / (K_source * (1 if P.G.directed else 2))
        v = v * scale
    return EdgeBetweenness(xp.asarray(r), xp.asarray(c), xp.asarray(v))
