"""The centrality engine: what betweenness and the distance statistics share.

:func:`graphs.betweenness_centrality`, :func:`graphs.edge_betweenness_centrality`
(:mod:`graphs.centrality`) and the distance statistics
(:mod:`graphs.centrality.distance_measures`: closeness, harmonic centrality,
eccentricity, diameter, radius, center, periphery) enter through
:func:`prepare` (the graph door, :func:`graphs.door.prepare`, then the simple
host CSR the kernels read) and run on this engine.  Its API:

:class:`PreparedGraph`, :func:`prepare`
    The checked graph on its run device and its simple host CSR (weights as
    int64 or float64, Dial's buckets where they pay).
:func:`check_flag`, :func:`pick_sources`
    The checks of a bool flag and of the ``sources`` argument (all, ``k``
    sampled as NetworkX samples them, or a list).
:func:`kernel_threads`, :func:`progress_bar`
    The Numba thread count (one scratch slot each) and the progress bar.
:func:`low_diameter`, :func:`brandes_cpu`, :func:`brandes`
    Whether bit-parallel batches pay, and Brandes' dependencies on the CPU or
    on the device the job runs on.
:func:`spread_job`, :func:`brandes_spread`
    The same work over several GPUs of this process (``devices=``) or a Dask
    cluster (``client=``): :mod:`graphs.source_spread` runs it, the prepared
    graph placed on each device once.
"""

from __future__ import annotations

import operator
import random
from typing import NamedTuple

import numpy as np

from semiring.kernels import run_parallel

from .. import door
from .._arguments import check_vertex, check_vertex_array
from ..errors import GraphError
from ..graph import Graph
from ..paths.all_pairs_plan import SPARSE_RATE
from ..source_spread import SourceJob, place_first, spread
from ..traversal.engine import bfs_search
from . import _centrality_kernels as K

__all__ = ["PreparedGraph", "prepare", "check_flag", "pick_sources", "kernel_threads", "progress_bar",
           "low_diameter", "brandes_cpu", "brandes", "PROGRESS_WORK", "BITS_DEPTH", "CHUNK_BATCHES",
           "spread_job", "brandes_spread"]


#: Estimated arc scans above which a progress bar may be shown (on a terminal, after 2 s).
PROGRESS_WORK = 2e8


#: Deepest BFS (from the vertex of most arcs) for which hop counts run bit-parallel batches of 64 sources.
BITS_DEPTH = 24


#: Sources per call of a CPU kernel, per thread (progress is updated between calls).
CHUNK_BATCHES = 16


class PreparedGraph(NamedTuple):
    """A graph ready for the kernels: simple CSR on the host, weights as int64/float64 or None."""

    G: Graph  # the graph as given, on the device the job runs on
    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray | None  # int64 (exact sums) or float64; None: hops
    dial: bool  # Dial's buckets: integer weights below K.DIAL_MAX
    ring: int


def check_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def prepare(G, weighted: bool, device: str) -> PreparedGraph:
    """Check ``G`` once and make the simple host CSR arrays the kernels read.

    Parallel arcs are combined by their least weight (NetworkX's reading of a
    multigraph); weights must be non-negative.  Float weights that are all
    whole numbers up to :data:`~graphs.centrality._centrality_kernels.DIAL_MAX` run as
    int64 (the same sums, exactly) on Dial's buckets.  Integer weights run in
    int64; if the longest possible path, ``(n - 1) * max weight``, does not fit
    in int64, that is an error.
    """
    weighted = check_flag(weighted, "weighted")
    G = door.prepare(G, device).graph
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


def low_diameter(P: PreparedGraph) -> bool:
    """Whether a bit-parallel batch pays: one BFS from the vertex of most arcs reaches its last level within
    :data:`BITS_DEPTH` levels.  On deep graphs (roads, grids) a batch's searches spread over many more
    levels, each vertex is scanned in up to 64 of them, and one BFS per source measured 6x faster
    (road_network(20000)); on low-diameter graphs the batch measured up to 2x faster (R-MAT)."""
    n = P.indptr.shape[0] - 1
    if n == 0:
        return True
    H = Graph(P.indptr, P.indices, None, check=False)
    levels, _ = bfs_search(H, int(np.argmax(np.diff(P.indptr))))
    return int(levels.max()) <= BITS_DEPTH


def brandes_cpu(P: PreparedGraph, src: np.ndarray, endpoints: bool, edges: bool, progress, label: str):
    """Raw (unscaled) vertex and arc dependencies summed over ``src``, on the CPU."""
    n, nnz, k = P.indptr.shape[0] - 1, P.indices.shape[0], src.shape[0]
    T = max(1, min(kernel_threads(), k))
    bc = np.zeros((T, n), dtype=np.float64)
    eb = np.zeros((T, nnz if edges else 0), dtype=np.float64)
    bits = P.weights is None and low_diameter(P)
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


def brandes(P: PreparedGraph, src: np.ndarray, endpoints: bool, edges: bool, progress, label: str):
    """Raw dependencies on the device the job runs on (host arrays for the CPU, CuPy for the GPU)."""
    if P.G.device != "gpu":
        return brandes_cpu(P, src, endpoints, edges, progress, label)
    xp = P.G.xp
    w = P.weights
    if w is not None and w.size and (bool((w == 0).any()) or float(w.max()) * max(P.G.n - 1, 1) >= 2.0**53):
        # tied distances along zero-weight arcs (the host's settled order decides them), or integer path
        # lengths beyond float64's exact range (the device sums in float64): on the host
        bc, eb = brandes_cpu(P, src, endpoints, edges, progress, label)
        return xp.asarray(bc), (xp.asarray(eb) if edges else None)
    from ..cuda.centrality import brandes_gpu

    n, nnz, k = P.G.n, P.indices.shape[0], src.shape[0]
    with progress_bar(k, label, progress, float(k) * (nnz + n)) as bar:
        return brandes_gpu(P, src, endpoints, edges, bar)


# -- several devices, or a Dask cluster ------------------------------------------------------------------------------
def spread_job(job_task, P: PreparedGraph, extras: tuple, kind: str, src: np.ndarray, devices, client,
               out=None, bar=None, row_bytes: int = 8):
    """Run ``job_task`` over the sources ``src`` on the lanes of ``devices`` or the workers of ``client``, the
    payload ``(P on the host, *extras)``; returns the summed parts (``"sum"``) or fills ``out`` (``"rows"``)."""
    host = P._replace(G=P.G.to("cpu")) if P.G.device == "gpu" else P
    per_source = (P.indptr.shape[0] + P.indices.shape[0]) / SPARSE_RATE  # one search, one core
    job = SourceJob(job_task, (host, *extras), kind, place_first, row_bytes, source_seconds=per_source)
    return spread(job, src, devices, client, P.G.device == "gpu", out, bar)


def _brandes_task(payload: tuple, chunk: np.ndarray) -> tuple:
    """A chunk's raw dependencies on the device its graph is on: ``(bc,)``, with ``eb`` after it for edges."""
    P, endpoints, edges = payload
    bc, eb = brandes(P, chunk, endpoints, edges, False, "")
    return (bc, eb) if edges else (bc,)


def brandes_spread(P: PreparedGraph, src: np.ndarray, endpoints: bool, edges: bool, progress, label: str,
                   devices=None, client=None):
    """:func:`brandes` on this device, or over the lanes of ``devices`` or the workers of ``client`` (summed
    on the host, returned on the device of ``P``'s graph); ``devices`` and ``client`` checked at the door."""
    if devices is None and client is None:
        return brandes(P, src, endpoints, edges, progress, label)
    n, nnz, k = P.G.n, P.indices.shape[0], src.shape[0]
    with progress_bar(k, label, progress, float(k) * (nnz + n)) as bar:
        parts = spread_job(_brandes_task, P, (endpoints, edges), "sum", src, devices, client, bar=bar)
    xp = P.G.xp
    if parts is None:  # no source
        return xp.zeros(n), (xp.zeros(nnz) if edges else None)
    return xp.asarray(parts[0]), (xp.asarray(parts[1]) if edges else None)
