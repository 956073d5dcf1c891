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

The shared machinery (the door, the sources, Brandes' sweeps on either device)
is :mod:`graphs.centrality.engine`.  On the CPU the batches run in parallel on Numba threads
(:mod:`graphs.centrality._centrality_kernels`); on the GPU a batch of sources is one launch
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
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..source_spread import check_spread
from .engine import (
    PreparedGraph,
    brandes_spread,
    check_flag,
    kernel_threads,
    pick_sources,
    prepare,
    progress_bar,
)

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["betweenness_centrality", "edge_betweenness_centrality", "EdgeBetweenness", "prepare", "PreparedGraph",
           "progress_bar", "kernel_threads", "pick_sources"]


class EdgeBetweenness(NamedTuple):
    """Betweenness of each edge: ``value[e]`` for the edge ``src[e] -> dst[e]``.

    A directed graph lists each arc (parallel arcs once); an undirected graph
    each edge once, with ``src <= dst``; in the order of ``(src, dst)``.
    """

    src: object
    dst: object
    value: object


def _vertex_scale(n: int, k: int | None, directed: bool, normalized: bool, endpoints: bool, sampled: bool) -> Any:
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
    G: Any,
    *,
    sources: Any = None,
    weighted: bool = True,
    normalized: bool = True,
    endpoints: bool = False,
    seed: Any = None,
    device: Device = "auto",
    progress: bool | None = None,
    devices: Any = None,
    client: Any = None,
) -> Array:
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
    devices : "all" or sequence of int, optional
        Spread the sources over these GPUs of this process (``"all"``: every
        GPU): the graph copied to each once, chunks of sources taken from a
        shared counter, the parts summed.  The result is on ``G``'s device.
    client : distributed.Client, optional
        Spread the sources over the workers of a Dask cluster (the graph sent
        to each once, one task per chunk, the parts summed in a tree); a
        worker lost mid-run has its chunks computed again.  GPU workers
        when ``G`` is on the GPU.  Not with ``devices``.

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
    normalized = check_flag(normalized, "normalized")
    endpoints = check_flag(endpoints, "endpoints")
    check_spread(devices, client)
    P = prepare(G, weighted, device)
    n = P.G.n
    xp = P.G.xp
    if n == 0:
        return xp.zeros(0, dtype=np.float64)
    src, sampled = pick_sources(n, sources, seed, P.G)
    raw, _ = brandes_spread(P, src, endpoints, False, progress, "betweenness", devices, client)
    scale = _vertex_scale(n, src.shape[0] if sampled else None, P.G.directed, normalized, endpoints, sampled)
    if isinstance(scale, tuple):
        factor = np.full(n, scale[1])
        factor[src] = scale[0]
        return raw * xp.asarray(factor)
    return raw * scale if scale != 1 else raw


def edge_betweenness_centrality(
    G: Any,
    *,
    sources: Any = None,
    weighted: bool = True,
    normalized: bool = True,
    seed: Any = None,
    device: Device = "auto",
    progress: bool | None = None,
    devices: Any = None,
    client: Any = None,
) -> EdgeBetweenness:
    """Betweenness centrality of every edge: the shortest paths through it.

    Parameters are those of :func:`betweenness_centrality` (no ``endpoints``;
    ``devices`` and ``client`` spread the sources the same way).
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
    normalized = check_flag(normalized, "normalized")
    check_spread(devices, client)
    P = prepare(G, weighted, device)
    n = P.G.n
    xp = P.G.xp
    rows = np.repeat(np.arange(n, dtype=np.int32), np.diff(P.indptr))
    cols = P.indices
    if n == 0:
        return EdgeBetweenness(xp.asarray(rows), xp.asarray(cols), xp.zeros(0, dtype=np.float64))
    src, sampled = pick_sources(n, sources, seed, P.G)
    _, raw = brandes_spread(P, src, False, True, progress, "edge betweenness", devices, client)
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
