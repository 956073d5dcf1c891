"""GPU driver of single-source shortest paths: near-far delta-stepping (CuPy; kernels in ``sssp.cu``).

Near-far (Davidson, Baxter, Garland & Owens, "Work-efficient parallel GPU methods
for single-source shortest paths", IPDPS 2014): the near set holds vertices below
the current threshold and is relaxed until empty; improved vertices above it wait
in the far pile, which is split when the threshold advances by ``delta``.
Predecessors are rebuilt from the final distances (a pull over in-arcs, or a BFS
over tight arcs when zero weights could make the tight arcs cyclic).

Weights must be non-negative; :func:`graphs.sssp` checks them and runs the other
methods (Bellman-Ford, Dijkstra, label-correcting) on a host copy of the graph,
so this driver only ever runs delta-stepping.
"""

from __future__ import annotations

import math

import cupy as cp
import numpy as np

from semiring import min_plus
from semiring.cuda_kernels import BLOCK, launch_grid, spec_for
from semiring.dtypes import posinf

from ..graph import Graph
from . import launch
from .launch import CHUNK, chunk_grid, chunk_lists

__all__ = ["sssp_gpu"]

FILE = "sssp.cu"
PRED_CHUNK = 1024  # PRED_CHUNK in sssp.cu


def _module(dtype: np.dtype):
    """The compiled ``sssp.cu`` for min-plus in ``dtype`` (looked up in :mod:`.launch` at each call)."""
    return launch.module(FILE, "sssp_relax", spec_for(min_plus, dtype), dtype.kind == "f")


def sssp_gpu(G: Graph, s: int, delta: float):
    """Near-far delta-stepping from ``s`` with bucket width ``delta`` (weights >= 0, checked by the caller).

    Parameters
    ----------
    G : Graph
        On the GPU, weighted, no negative weight.
    s : int
        The source, a checked vertex id.
    delta : float
        Bucket width (rounded up to an integer >= 1 for integer weights).

    Returns
    -------
    dist : CuPy array (n,)
        The weights' dtype; ``posinf`` of it where unreachable.
    pred : CuPy int32 array (n,)
        A shortest-path tree; -1 for ``s`` and unreachable vertices.
    """
    dtype = np.dtype(G.weights.dtype)
    mod = _module(dtype)
    if dtype.kind == "i":
        delta = max(1, int(math.ceil(delta)))
    n = G.n
    hi = posinf(dtype)
    dist = cp.full(n, hi, dtype=dtype)
    pred = cp.full(n, -1, dtype=cp.int32)
    dist[s] = 0
    near_mark = cp.full(n, -1, dtype=cp.int32)
    far_mark = cp.full(n, -1, dtype=cp.int32)
    near, nxt = cp.empty(max(n, 1), dtype=cp.int32), cp.empty(max(n, 1), dtype=cp.int32)
    far, far2 = cp.empty(max(n, 1), dtype=cp.int32), cp.empty(max(n, 1), dtype=cp.int32)
    near[0] = s
    counts = cp.zeros(3, dtype=cp.int32)  # next near, far, chunks of long near vertices
    stats = cp.zeros(1, dtype=cp.uint64)
    crow, cnum = chunk_lists(G.nnz, CHUNK)
    relax = mod.get_function("sssp_relax")
    relax_chunks = mod.get_function("sssp_relax_chunks")
    chunk_blocks = chunk_grid(G.nnz)
    split = mod.get_function("sssp_split")
    nn, nfar = 1, 0
    thr = dtype.type(delta)
    it, epoch = 0, 0
    while True:
        while nn > 0:
            it += 1
            counts.set(np.array([0, nfar, 0], dtype=np.int32))
            relax((launch_grid(nn),), (BLOCK,), (G.indptr, G.indices, G.weights, near, np.int32(nn), dist, pred, thr,
                                                np.int32(it), np.int32(epoch), near_mark, far_mark, nxt, far, counts,
                                                stats, crow, cnum, counts[2:]))
            relax_chunks((chunk_blocks,), (BLOCK,), (G.indptr, G.indices, G.weights, crow, cnum, counts[2:], dist, pred,
                                                   thr, np.int32(it), np.int32(epoch), near_mark, far_mark, nxt, far,
                                                   counts))
            c = counts.get()
            nn, nfar = int(c[0]), int(c[1])
            near, nxt = nxt, near
        if nfar == 0:
            break
        settled_below = thr
        thr = dtype.type(thr + delta)
        while True:
            it += 1
            epoch += 1
            counts.set(np.array([0, 0, 0], dtype=np.int32))
            split((launch_grid(nfar),), (BLOCK,), (far, np.int32(nfar), dist, settled_below, thr, np.int32(it),
                                                  np.int32(epoch), near_mark, far_mark, near, far2, counts))
            c = counts.get()
            nn, nfar = int(c[0]), int(c[1])
            far, far2 = far2, far
            if nn > 0 or nfar == 0:
                break
            # Nothing below the threshold: jump to the bucket of the least far distance.
            least = dist[far[:nfar]].min().item()
            settled_below = thr
            thr = dtype.type((math.floor(least / delta) + 1) * delta)
    _predecessors(G, s, dist, pred)
    return dist, pred


def _predecessors(G: Graph, s: int, dist, pred) -> None:
    """Shortest-path tree from final distances (pull over in-arcs; tight BFS with zero weights)."""
    mod = _module(np.dtype(dist.dtype))
    n = G.n
    if "positive" not in G._cache:
        G._cache["positive"] = bool(G.nnz == 0 or float(G.weights.min()) > 0)
    if G._cache["positive"]:
        T = G.transpose()
        crow, cnum = chunk_lists(T.nnz, PRED_CHUNK)
        count = cp.zeros(1, dtype=cp.int32)
        firstpos = cp.empty(max(n, 1), dtype=cp.int32)
        mod.get_function("sssp_pred_pull")((launch_grid(n),), (BLOCK,), (T.indptr, T.indices, T.weights, dist, pred,
                                                                         np.int64(n), np.int32(s), crow, cnum, count,
                                                                         firstpos))
        mod.get_function("sssp_pred_chunks")((chunk_grid(T.nnz, PRED_CHUNK),), (BLOCK,),
                                              (T.indptr, T.indices, T.weights, dist, crow, cnum, count, firstpos))
        mod.get_function("sssp_pred_fixup")((launch_grid(crow.shape[0]),), (BLOCK,), (T.indptr, T.indices, crow, cnum,
                                                                                count, firstpos, pred))
        return
    pred.fill(-1)
    seen = cp.zeros(n, dtype=cp.int32)
    seen[s] = 1
    q, nq = cp.empty(n, dtype=cp.int32), cp.empty(n, dtype=cp.int32)
    q[0] = s
    nf = 1
    count = cp.zeros(1, dtype=cp.int32)
    k = mod.get_function("sssp_tight_push")
    while nf > 0:
        count.fill(0)
        k((launch_grid(nf),), (BLOCK,), (G.indptr, G.indices, G.weights, dist, q, np.int32(nf), seen, pred, nq, count))
        nf = int(count.get()[0])
        q, nq = nq, q
