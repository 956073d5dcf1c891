"""GPU drivers of betweenness centrality and the distance statistics (CuPy; CUDA C below, compiled at run time).

Betweenness (Brandes, J. Math. Sociol. 25, 2001), a batch of ``S`` sources at a time
on ``S x n`` records of 32 bytes (pairs ``(s, v)`` numbered ``s * n + v``; a record
holds all a pair has, so a visit to a pair costs one memory sector):

1. distances: the batched near-far search of :mod:`graphs.cuda.batched_search`
   (the library's many-source engine on the GPU), which also renumbers a deep
   graph's vertices (reverse Cuthill-McKee);
2. path counts in waves of Kahn's order over the tight arcs (``d[u] + w = d[v]``):
   one pass over the pairs finds each pair's tight in-degree and marks its tight
   out-arcs in a 32-bit mask (the first 31 arcs of a vertex; later ones are
   checked against the distances); a pair enters the next wave when its last
   tight in-arc has added its count (pulling the counts along in-arcs instead, with
   no floating-point atomics, measured 14% slower); the waves are written one after
   another into one array, their ends kept on the device like the search's state;
3. dependencies: the waves from last to first, each pair pulling
   ``sigma[u] / sigma[v] (1 + delta[v])`` along the tight out-arcs of its mask;
   the vertex sums are then taken per vertex over the batch's rows (no atomics).

Path counts are float64 (as in NetworkX); a batch's sums of counts along tight arcs
are exact while they stay below 2**53.  Zero-weight arcs (tied distances along an
arc, which the settled order of the CPU decides) run on the host:
:mod:`graphs.centrality` sends them there.

Distance statistics, hop counts: the bit-parallel BFS of :mod:`graphs.cuda.bit_bfs`
(64 sources per ``uint64`` word, many words per launch); each level's alive words give
the eccentricities, and a counting launch adds the new bits per source for closeness and
harmonic centrality.  (Weighted statistics read rows of
:func:`graphs.multi_source_sssp` on the device: :mod:`graphs.centrality.distance_measures`.)
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, build_module, source_of

from .batched_search import BatchedSearch, replayable, resident_blocks
from .bit_bfs import BitPlanes

__all__ = ["brandes_gpu", "hop_stats_gpu", "kernel_function", "launch_items"]

#: Waves of the path counts (or of the dependencies) launched between two reads of their state on the host.
STEPS_PER_CHECK = 32
#: Sources per block of the vertex sums of the dependencies.
COLSUM_CHUNK = 256
#: Bytes of the frontier, next and seen planes of the bit-parallel BFS.
PLANE_BYTES = 6 << 30

_KERNELS = Path(__file__).resolve().parent / "centrality.cu"
# The layout of the state of the path counts (batched_search.cuh: ST_*).
_ST_SIZE, _ST_WNUM, _ST_WDONE = 16, 8, 10
_log = logging.getLogger(__name__)


@functools.cache
def _module() -> cp.RawModule:
    return build_module(source_of(_KERNELS, {}), "bc_indegree")


def kernel_function(name: str):
    """The compiled CUDA kernel ``name`` of this module's kernel source."""
    return _module().get_function(name)


def launch_items(name: str, count: int, *args) -> None:
    """``name`` over ``count`` threads (one per item: these kernels have no grid-stride loop)."""
    if count > 0:
        kernel_function(name)((-(-count // BLOCK),), (BLOCK,), args)


def brandes_gpu(P, src: np.ndarray, endpoints: bool, edges: bool, bar):
    """Raw vertex (and arc) dependencies summed over ``src``, as CuPy arrays.

    ``P``: a prepared graph (:func:`graphs.centrality.prepare`: host CSR, no
    zero weights); ``bar``: a progress bar counting sources.  The distances of
    each batch come from the batched search (:class:`~graphs.cuda.batched_search.BatchedSearch`).
    """
    n, nnz, k = P.indptr.shape[0] - 1, P.indices.shape[0], src.shape[0]
    B = BatchedSearch(P.indptr, P.indices, P.weights, k)
    S, indptr, indices, w, rec = B.S, B.indptr, B.indices, B.w, B.rec
    st, cnt = B.st, B.cnt
    bc = cp.zeros(n, dtype=cp.float64)
    eb = cp.zeros(nnz if edges else 1, dtype=cp.float64)
    bounds = cp.empty(n + 2, dtype=cp.int32)  # ends of the waves (a wave per hop of the longest tight path)
    grid, one = (resident_blocks(),), (1,)
    n32, e32 = np.int32(n), np.int32(edges)
    count, count_advance = kernel_function("bc_count"), kernel_function("bc_count_advance")
    depend, depend_advance = kernel_function("bc_depend"), kernel_function("bc_depend_advance")
    waves = B.queue  # after the search: the waves, one after another

    def count_steps() -> None:
        for _ in range(STEPS_PER_CHECK):
            count(grid, (BLOCK,), (st, bounds, waves, n32, indptr, indices, w, rec, cnt))
            count_advance(one, one, (st, cnt, bounds))

    def depend_steps() -> None:
        for _ in range(STEPS_PER_CHECK):
            depend(grid, (BLOCK,), (st, bounds, waves, n32, indptr, indices, w, rec, e32, eb))
            depend_advance(one, one, (st,))

    count_chunk, depend_chunk = replayable(count_steps), replayable(depend_steps)
    inf_bits = np.uint64(0x7FF0000000000000)
    waves_total = 0
    internal = B.internal(src)
    for r0 in range(0, k, S):
        part = cp.asarray(internal[r0:r0 + S])
        s = part.shape[0]
        sn = s * n
        # 1. distances: the batched search
        B.run(part)
        # 2. tight in-degrees and out-arcs, then path counts in waves
        launch_items("bc_indegree", sn, np.int32(s), n32, indptr, indices, w, rec)
        B.seed(part, waves)
        state = np.zeros(_ST_SIZE, dtype=np.int32)
        state[_ST_WNUM] = 1
        st.set(state)
        cnt.fill(0)
        bounds[:2].set(np.array([0, s], dtype=np.int32))
        while True:
            count_chunk()
            h = st.get()
            if h[_ST_WDONE]:
                break
        nw = int(h[_ST_WNUM])
        waves_total += nw
        # 3. dependencies, last wave first; then each vertex's sum over the batch's sources
        for _ in range(-(-nw // STEPS_PER_CHECK)):
            depend_chunk()
        cgrid = (-(-n // BLOCK), -(-s // COLSUM_CHUNK))
        kernel_function("bc_colsum")(cgrid, (BLOCK,), (np.int32(s), np.int64(n), rec, part, np.int32(endpoints),
                                           np.int32(COLSUM_CHUNK), bc))
        if endpoints:  # each source: + 1 per other vertex it reaches
            reached = (B.distances(s) != inf_bits).sum(axis=1).astype(cp.float64) - 1.0
            cp.add.at(bc, part, reached)
        bar.update(s)
    _log.debug("betweenness of %d sources on %d vertices: %d batches of up to %d sources, %d near rounds, "
               "%d waves, %.2f relaxations per (source, vertex) pair", k, n, -(-k // S), S, B.rounds, waves_total,
               B.relaxed / max(1, k * n))
    if B.order is not None:
        out = cp.empty_like(bc)
        out[cp.asarray(B.order)] = bc
        bc = out
        if edges:
            e2 = cp.empty_like(eb)
            e2[cp.asarray(B.arcs)] = eb
            eb = e2
    return bc, (eb if edges else None)


def hop_stats_gpu(H, need_sums: bool, bar, src=None):
    """Per source (every vertex of the host graph ``H``, or the host ids ``src``): hop-distance sum, reached
    count, sum of ``1/d``, eccentricity.

    With ``need_sums=False`` only the eccentricities are computed (the caller
    knows the graph is strongly connected; ``reached`` reads ``n``).
    ``bar``: a progress bar counting sources, or ``None``.
    """
    n = H.n
    src = np.arange(n, dtype=np.int64) if src is None else np.asarray(src, dtype=np.int64)
    k = src.shape[0]
    G = H.to("gpu")
    total = cp.zeros(k, dtype=cp.int64)
    reached = cp.ones(k, dtype=cp.int64) if need_sums else cp.full(k, n, dtype=cp.int64)
    harmonic = cp.zeros(k, dtype=cp.float64)
    ecc = cp.zeros(k, dtype=cp.int64)
    T = G.transpose()  # pulls run along in-arcs
    words = -(-k // 64)
    W = int(max(1, min(words, PLANE_BYTES // (24 * max(n, 1)))))
    planes = BitPlanes(T.indptr, T.indices, n, W)
    for s0 in range(0, k, 64 * W):
        s1 = min(k, s0 + 64 * W)
        nw = -(-(s1 - s0) // 64)
        planes.seed(src[s0:s1])
        while planes.step():
            level = planes.level
            ecc[s0:s1] = cp.where(planes.alive_sources(), level, ecc[s0:s1])
            if need_sums:
                c = planes.new_counts(nw).astype(cp.int64)[: s1 - s0]
                total[s0:s1] += c * level
                reached[s0:s1] += c
                harmonic[s0:s1] += c / level
        if bar is not None:
            bar.update(s1 - s0)
    return total, reached, harmonic, ecc
