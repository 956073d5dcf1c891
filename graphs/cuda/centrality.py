"""GPU drivers of betweenness centrality and the distance statistics (CuPy; CUDA C below, compiled at run time).

Betweenness (Brandes, J. Math. Sociol. 25, 2001), a batch of ``S`` sources at a time
on ``S x n`` records of 32 bytes (pairs ``(s, v)`` numbered ``s * n + v``; a record
holds all a pair has, so a visit to a pair costs one memory sector):

1. distances: near-far delta-stepping over all the batch's pairs at once (Davidson,
   Baxter, Garland & Owens, "Work-efficient parallel GPU methods for single-source
   shortest paths", IPDPS 2014; U. Meyer & P. Sanders, "Delta-stepping", J.
   Algorithms 49, 2003).  A threshold ``t`` grows by a bucket width ``delta``; the
   *near* pairs (distance below ``t``) are relaxed in rounds, one launch per round
   for all the batch's searches, until none improves; a pair improved to ``t`` or
   more goes once onto the *far* list, which is split at the next threshold.  A
   pair is so relaxed (nearly) only at its final distance, where a plain frontier
   Bellman-Ford re-relaxes vertices over and over across a road network's many
   levels.  ``atomicMin`` on the bits of the non-negative doubles (their order as
   integers is their numeric order); each pair queued at most once per round (a
   round stamp) and at most once on the far list (a flag).  Hop counts run with an
   infinite width: plain rounds, each exactly a BFS level.  The search's state
   (lengths of the lists, thresholds, whether it relaxes or splits) lives on the
   device: each step is a grid-stride launch that reads it and a one-thread launch
   that moves it on, and the host reads it back only once per
   :data:`STEPS_PER_CHECK` steps, so the GPU does not wait for the host between
   rounds;
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

The vertices of a deep graph (a road network) are renumbered by reverse
Cuthill-McKee first, so that the arcs of a vertex lead to nearby entries of a row.
Path counts are float64 (as in NetworkX); a batch's sums of counts along tight arcs
are exact while they stay below 2**53.  Zero-weight arcs (tied distances along an
arc, which the settled order of the CPU decides) run on the host:
:mod:`graphs.centrality` sends them there.

Distance statistics, hop counts: bit-parallel BFS (Then et al., "The More the
Merrier", PVLDB 8(4), 2014), 64 sources per ``uint64`` word and many words per
launch, in planes of words (``plane[j * n + v]``): a level is one pull launch over
every (vertex, word) whose word is not yet full, ORing the in-neighbours' frontier
words; each warp ORs its new words for the eccentricities (one ``atomicOr`` per
warp), and a counting launch adds the new bits per source for closeness and
harmonic centrality.  (Weighted statistics read rows of
:func:`graphs.multi_source_sssp` on the device: :mod:`graphs.centrality.distance_measures`.)
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import cupy as cp
import numpy as np

from apsp.cuda.graph_replay import capture
from apsp.planner import device_memory_available
from semiring.cuda_kernels import BLOCK, NULL, build_module

__all__ = ["brandes_gpu", "hop_stats_gpu", "kernel_function", "launch_items", "unpack_words"]

#: Bytes of the batch arrays of betweenness at most (48 per pair); also at most 60% of the device memory
#: available (free, and free in CuPy's pool).
#: Each batch pays its rounds and waves whatever its size, so fewer, larger batches are faster.
BATCH_BYTES = 96 << 30
#: Bytes per (source, vertex) pair of a batch: its record (distance, count, dependency, stamp, flags: 32 bytes),
#: two queues and two far lists (4 each).
PAIR_BYTES = 48
#: Sources per batch at most (tests set it low to run many batches).
BATCH_SOURCES = 1 << 30
#: Bucket width of the near-far search, in mean arc weights (``None``: infinite, plain Bellman-Ford rounds).
DELTA_ARCS: float | None = 8.0
#: Steps of the search (or waves of the path counts) launched between two reads of its state on the host.
STEPS_PER_CHECK = 32
#: Launch each chunk of steps as a CUDA graph captured once per call (the profiler turns it off to time kernels).
REPLAY_GRAPHS = True
#: Sources per block of the vertex sums of the dependencies.
COLSUM_CHUNK = 256
#: Bytes of the frontier, next and seen planes of the bit-parallel BFS.
PLANE_BYTES = 6 << 30
#: Fewest vertices for which a deep graph is renumbered (reverse Cuthill-McKee) before betweenness.
RENUMBER_MIN = 4096
#: BFS depth (from the vertex of most arcs) above which a graph counts as deep.
DEEP = 24

_KERNELS = Path(__file__).resolve().parent / "centrality.cu"
# The layout of the search's state (centrality.cu: ST_*, MODE_*).
_ST_SIZE, _ST_MODE, _ST_QLEN, _ST_ROUND, _ST_WNUM, _ST_WDONE = 16, 0, 3, 7, 8, 10
_MODE_DONE = 2
_log = logging.getLogger(__name__)


@functools.cache
def _module() -> cp.RawModule:
    return build_module(_KERNELS.read_text(), "bc_step")


def kernel_function(name: str):
    """The compiled CUDA kernel ``name`` of this module's kernel source."""
    return _module().get_function(name)


@functools.cache
def _resident_blocks() -> int:
    """Blocks of :data:`BLOCK` threads that fill every multiprocessor once (the grid of the grid-stride loops)."""
    return int(cp.cuda.Device().attributes["MultiProcessorCount"]) * max(1, 2048 // BLOCK)


def _replayable(run):
    """``run`` (launches only: no allocation, no read-back) as a captured CUDA graph's launch, or ``run`` itself
    where graphs are off or the capture fails."""
    graph = capture(run) if REPLAY_GRAPHS else None
    if graph is None:
        return run
    return lambda: graph.launch(stream=cp.cuda.get_current_stream())


def launch_items(name: str, count: int, *args) -> None:
    """``name`` over ``count`` threads (one per item: these kernels have no grid-stride loop)."""
    if count > 0:
        kernel_function(name)((-(-count // BLOCK),), (BLOCK,), args)


def _renumbering(indptr: np.ndarray, indices: np.ndarray):
    """``(order, arcs)`` of reverse Cuthill-McKee for a deep graph (``order[i]``: old id of new vertex ``i``;
    ``arcs[k]``: old arc of new arc ``k``), or ``None`` where it does not pay (small or shallow graphs)."""
    n = indptr.shape[0] - 1
    if n < RENUMBER_MIN:
        return None
    import scipy.sparse as sp
    from scipy.sparse.csgraph import reverse_cuthill_mckee, shortest_path

    A = sp.csr_matrix((np.ones(indices.shape[0], dtype=np.int8), indices, indptr), shape=(n, n))
    hops = shortest_path(A, indices=int(np.argmax(np.diff(indptr))), unweighted=True)
    if float(hops[np.isfinite(hops)].max()) <= DEEP:
        return None
    order = reverse_cuthill_mckee((A + A.T).tocsr(), symmetric_mode=True).astype(np.int64)
    inv = np.empty(n, dtype=np.int64)
    inv[order] = np.arange(n)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    arcs = np.argsort(inv[rows] * n + inv[indices], kind="stable")
    return order, arcs


def brandes_gpu(P, src: np.ndarray, endpoints: bool, edges: bool, bar):
    """Raw vertex (and arc) dependencies summed over ``src``, as CuPy arrays.

    ``P``: a prepared graph (:func:`graphs.centrality.prepare`: host CSR, no
    zero weights); ``bar``: a progress bar counting sources.
    """
    w_host = P.weights
    indptr_h, indices_h = P.indptr, P.indices
    n, nnz, k = indptr_h.shape[0] - 1, indices_h.shape[0], src.shape[0]
    w_h = np.asarray(w_host, dtype=np.float64) if w_host is not None else np.ones(nnz, dtype=np.float64)
    ren = _renumbering(indptr_h, indices_h)
    if ren is not None:  # the same graph, vertices renumbered: arcs of a vertex lead near it in a row
        order, arcs = ren
        inv = np.empty(n, dtype=np.int64)
        inv[order] = np.arange(n)
        indptr_h = np.concatenate(([0], np.cumsum(np.diff(indptr_h)[order]))).astype(np.int64)
        indices_h = inv[indices_h[arcs]].astype(np.int32)
        w_h = w_h[arcs]
        src = inv[src].astype(np.int32)
    indptr = cp.asarray(indptr_h)
    indices = cp.asarray(indices_h)
    w = cp.asarray(w_h)
    if w_host is None or DELTA_ARCS is None or nnz == 0 or float(w_h.min()) == float(w_h.max()):
        delta = np.inf  # equal weights: every round is one level, no bucket needed
    else:
        delta = float(DELTA_ARCS * w_h.mean())
    budget = min(BATCH_BYTES, int(0.6 * device_memory_available()))
    S = int(max(1, min(k, BATCH_SOURCES, budget // (PAIR_BYTES * max(n, 1)), (2**31 - 1) // max(n, 1))))
    S = max(1, -(-k // max(1, -(-k // S))))  # batches of equal size (a last small batch costs a whole one's rounds)
    bc = cp.zeros(n, dtype=cp.float64)
    eb = cp.zeros(nnz if edges else 1, dtype=cp.float64)
    rec = cp.empty(S * n * 4, dtype=cp.uint64)  # a 32-byte record per pair (centrality.cu: Pair)
    dist_of = rec[0::4]  # the records' distance words
    queue = cp.empty(S * n, dtype=cp.int32)  # near rounds, then the waves
    nxt = cp.empty(S * n, dtype=cp.int32)
    far = cp.empty(S * n, dtype=cp.int32)
    far2 = cp.empty(S * n, dtype=cp.int32)
    st = cp.empty(_ST_SIZE, dtype=cp.int32)  # the search's state on the device (centrality.cu: ST_*)
    cnt = cp.empty(_ST_SIZE, dtype=cp.int32)  # the steps' counts
    th = cp.empty(4, dtype=cp.float64)  # threshold, bucket [lo, hi), bucket width
    aux = cp.empty(2, dtype=cp.uint64)  # least distance kept far, pair relaxations
    bounds = cp.empty(n + 2, dtype=cp.int32)  # ends of the waves (a wave per hop of the longest tight path)
    grid, one = (_resident_blocks(),), (1,)
    n32, e32 = np.int32(n), np.int32(edges)
    step, advance = kernel_function("bc_step"), kernel_function("bc_advance")
    count, count_advance = kernel_function("bc_count"), kernel_function("bc_count_advance")
    depend, depend_advance = kernel_function("bc_depend"), kernel_function("bc_depend_advance")
    waves = queue  # after the search: the waves, one after another

    def search_steps() -> None:
        for _ in range(STEPS_PER_CHECK):
            step(grid, (BLOCK,), (st, th, n32, indptr, indices, w, rec, queue, nxt, far, far2, cnt, aux))
            advance(one, one, (st, cnt, th, aux))

    def count_steps() -> None:
        for _ in range(STEPS_PER_CHECK):
            count(grid, (BLOCK,), (st, bounds, waves, n32, indptr, indices, w, rec, cnt))
            count_advance(one, one, (st, cnt, bounds))

    def depend_steps() -> None:
        for _ in range(STEPS_PER_CHECK):
            depend(grid, (BLOCK,), (st, bounds, waves, n32, indptr, indices, w, rec, e32, eb))
            depend_advance(one, one, (st,))

    search_chunk, count_chunk, depend_chunk = (_replayable(f) for f in (search_steps, count_steps, depend_steps))
    inf_bits = np.uint64(0x7FF0000000000000)
    relaxed = rounds = waves_total = 0
    for r0 in range(0, k, S):
        part = cp.asarray(src[r0:r0 + S])
        s = part.shape[0]
        sn = s * n
        launch_items("bc_clear", sn, rec, np.int64(sn))
        launch_items("bc_start", s, part, np.int32(s), n32, rec, queue)
        # 1. distances: near rounds below the threshold, the far list split at each new threshold; the
        #    steps run on the device's state, the host reads it once per chunk of steps
        state = np.zeros(_ST_SIZE, dtype=np.int32)
        state[_ST_QLEN] = s
        st.set(state)
        cnt.fill(0)
        th.set(np.array([delta, 0.0, 0.0, delta]))
        aux.set(np.array([0xFFFFFFFFFFFFFFFF, 0], dtype=np.uint64))
        while True:
            search_chunk()
            h = st.get()
            if h[_ST_MODE] == _MODE_DONE:
                break
        relaxed += int(aux[1:2].get()[0])
        rounds += int(h[_ST_ROUND])
        # 2. tight in-degrees and out-arcs, then path counts in waves
        launch_items("bc_indegree", sn, np.int32(s), n32, indptr, indices, w, rec)
        launch_items("bc_start", s, part, np.int32(s), n32, rec, waves)
        state[:] = 0
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
            reached = (dist_of[:sn].reshape(s, n) != inf_bits).sum(axis=1).astype(cp.float64) - 1.0
            cp.add.at(bc, part, reached)
        bar.update(s)
    _log.debug("betweenness of %d sources on %d vertices: %d batches of up to %d sources, %d near rounds, "
               "%d waves, %.2f relaxations per (source, vertex) pair", k, n, -(-k // S), S, rounds, waves_total,
               relaxed / max(1, k * n))
    if ren is not None:
        order, arcs = ren
        out = cp.empty_like(bc)
        out[cp.asarray(order)] = bc
        bc = out
        if edges:
            e2 = cp.empty_like(eb)
            e2[cp.asarray(arcs)] = eb
            eb = e2
    return bc, (eb if edges else None)


def unpack_words(words: cp.ndarray) -> cp.ndarray:
    """Bits of ``uint64`` words as a bool array of ``64 * len(words)`` (bit ``b`` of word ``j`` at ``64 j + b``)."""
    shifts = cp.arange(64, dtype=cp.uint64)
    return ((words[:, None] >> shifts[None, :]) & cp.uint64(1)).astype(bool).ravel()


def hop_stats_gpu(H, need_sums: bool, bar):
    """Per source (every vertex of the host graph ``H``): hop-distance sum, reached count, sum of ``1/d``, eccentricity.

    With ``need_sums=False`` only the eccentricities are computed (the caller
    knows the graph is strongly connected; ``reached`` reads ``n``).
    ``bar``: a progress bar counting sources.
    """
    n = H.n
    G = H.to("gpu")
    total = cp.zeros(n, dtype=cp.int64)
    reached = cp.ones(n, dtype=cp.int64) if need_sums else cp.full(n, n, dtype=cp.int64)
    harmonic = cp.zeros(n, dtype=cp.float64)
    ecc = cp.zeros(n, dtype=cp.int64)
    T = G.transpose()  # pulls run along in-arcs
    words = -(-n // 64)
    W = int(max(1, min(words, PLANE_BYTES // (24 * max(n, 1)))))
    front = cp.empty(W * n, dtype=cp.uint64)
    seen = cp.empty(W * n, dtype=cp.uint64)
    nxt = cp.empty(W * n, dtype=cp.uint64)
    alive = cp.empty(W, dtype=cp.uint64)
    changed = cp.zeros(1, dtype=cp.int32)
    count = cp.empty(W * 64, dtype=cp.uint64)
    chunk = 4096
    for w0 in range(0, words, W):
        w1 = min(words, w0 + W)
        nw = w1 - w0
        s0, s1 = 64 * w0, min(n, 64 * w1)
        ids = cp.arange(s0, s1, dtype=cp.int64)
        rel = ids - 64 * w0
        front.fill(0)
        seen[: nw * n].fill(0)
        if nw < W:
            seen[nw * n:].fill(np.uint64(0xFFFFFFFFFFFFFFFF))  # unused planes: full, skipped
        # source s sits in plane (s - s0) // 64 at vertex s, bit (s - s0) % 64
        pos = (rel // 64) * n + ids
        bit = cp.left_shift(cp.uint64(1), (rel % 64).astype(cp.uint64))
        front[pos] = bit
        seen[pos] = bit
        tail = s1 - s0 - 64 * (nw - 1)  # the last word's unused high bits count as seen, so it can fill up
        if tail < 64:
            seen[(nw - 1) * n:nw * n] |= np.uint64(((1 << 64) - 1) ^ ((1 << tail) - 1))
        level = 0
        while True:
            level += 1
            alive.fill(0)
            changed.fill(0)
            launch_items("ms_pull", W * n, np.int64(n), np.int32(W), T.indptr, T.indices, front, seen, nxt, alive,
                    changed, NULL, np.int32(0))
            if int(changed.get()[0]) == 0:
                break
            live = unpack_words(alive[:nw])[: s1 - s0]
            ecc[s0:s1] = cp.where(live, level, ecc[s0:s1])
            if need_sums:
                count.fill(0)
                grid = (max(1, -(-n // chunk)), nw)
                kernel_function("ms_count")(grid, (64,), (np.int64(n), np.int32(nw), nxt, np.int64(chunk), count))
                c = count[: 64 * nw].astype(cp.int64)[: s1 - s0]
                total[s0:s1] += c * level
                reached[s0:s1] += c
                harmonic[s0:s1] += c / level
            front, nxt = nxt, front
        bar.update(s1 - s0)
    return total, reached, harmonic, ecc
