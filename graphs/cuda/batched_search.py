"""The batched many-source search on the GPU: distances from thousands of sources at once (CuPy; ``batched_search.cu``).

A batch of ``S`` sources runs on ``S x n`` pair records of 32 bytes (pairs
``(s, v)`` numbered ``s * n + v``; ``batched_search.cuh``) by near-far
delta-stepping over all the batch's pairs at once (Davidson, Baxter, Garland &
Owens, "Work-efficient parallel GPU methods for single-source shortest paths",
IPDPS 2014; U. Meyer & P. Sanders, "Delta-stepping", J. Algorithms 49, 2003).  A
threshold ``t`` grows by a bucket width ``delta``; the *near* pairs (distance
below ``t``) are relaxed in rounds, one launch per round for all the batch's
searches, until none improves; a pair improved to ``t`` or more goes once onto
the *far* list, which is split at the next threshold.  A pair is so relaxed
(nearly) only at its final distance, where a plain frontier Bellman-Ford
re-relaxes vertices over and over across a road network's many levels.
``atomicMin`` on the bits of the non-negative doubles (their order as integers
is their numeric order); each pair queued at most once per round (a round stamp)
and at most once on the far list (a flag).  Hop counts run with an infinite
width: plain rounds, each exactly a BFS level.  The search's state (lengths of
the lists, thresholds, whether it relaxes or splits) lives on the device: each
step is a grid-stride launch that reads it and a one-thread launch that moves it
on, and the host reads it back only once per :data:`STEPS_PER_CHECK` steps
(replayed as a captured CUDA graph), so the GPU does not wait for the host
between rounds.

The vertices of a deep graph (a road network) are renumbered by reverse
Cuthill-McKee first (:func:`graphs.locality.deep_order`), so that the arcs of a
vertex lead to nearby entries of a row.

:class:`BatchedSearch` holds the buffers and runs one batch; betweenness
(:mod:`graphs.cuda.centrality`) runs its path counts and dependencies on the
records it leaves.  :func:`distance_rows_gpu` reads distance rows (and
predecessors) out of each batch: the GPU route of the many-source engine
(:mod:`graphs.paths.many_source`).  Distances are summed in float64; integer
weights are exact while every path sum stays below ``2**53`` (the engine checks).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path

import cupy as cp
import numpy as np

from apsp.cuda.graph_replay import capture
from apsp.planner import device_memory_available
from semiring.cuda_kernels import BLOCK, build_module, source_of

from ..locality import deep_order

__all__ = ["BatchedSearch", "distance_rows_gpu", "kernel_function", "launch_items", "batch_sources",
           "PAIR_BYTES", "BATCH_BYTES", "BATCH_SOURCES", "DELTA_ARCS", "STEPS_PER_CHECK", "REPLAY_GRAPHS"]

#: Bytes of a batch's arrays at most; also at most 60% of the device memory available (free, and free in CuPy's
#: pool).  Each batch pays its rounds whatever its size, so fewer, larger batches are faster.
BATCH_BYTES = 96 << 30
#: Bytes per (source, vertex) pair of a batch: its record (distance, count, dependency, stamp, flags: 32 bytes),
#: two queues and two far lists (4 each).
PAIR_BYTES = 48
#: Sources per batch at most (tests set it low to run many batches).
BATCH_SOURCES = 1 << 30
#: Bucket width of the near-far search, in mean arc weights (``None``: infinite, plain Bellman-Ford rounds).
DELTA_ARCS: float | None = 8.0
#: Steps of the search launched between two reads of its state on the host.
STEPS_PER_CHECK = 32
#: Launch each chunk of steps as a CUDA graph captured once per call (the profiler turns it off to time kernels).
REPLAY_GRAPHS = True

_KERNELS = Path(__file__).resolve().parent / "batched_search.cu"
# The layout of the search's state (batched_search.cuh: ST_*, MODE_*).
ST_SIZE, ST_MODE, ST_QLEN, ST_ROUND = 16, 0, 3, 7
MODE_DONE = 2
_log = logging.getLogger(__name__)


@functools.cache
def _module() -> cp.RawModule:
    return build_module(source_of(_KERNELS, {}), "bc_step")


def kernel_function(name: str):
    """The compiled CUDA kernel ``name`` of ``batched_search.cu``."""
    return _module().get_function(name)


def launch_items(kernel, count: int, *args) -> None:
    """``kernel`` over ``count`` threads (one per item: these kernels have no grid-stride loop)."""
    if count > 0:
        kernel((-(-count // BLOCK),), (BLOCK,), args)


@functools.cache
def resident_blocks() -> int:
    """Blocks of ``BLOCK`` threads that fill every multiprocessor once (the grid of the grid-stride loops)."""
    return int(cp.cuda.Device().attributes["MultiProcessorCount"]) * max(1, 2048 // BLOCK)


def replayable(run: Callable[[], None]) -> Callable[[], None]:
    """``run`` (launches only: no allocation, no read-back) as a captured CUDA graph's launch, or ``run`` itself
    where graphs are off or the capture fails."""
    graph = capture(run) if REPLAY_GRAPHS else None
    if graph is None:
        return run
    return lambda: graph.launch(stream=cp.cuda.get_current_stream())


def batch_sources(k: int, n: int, extra_per_source: int = 0) -> int:
    """Sources per batch: within :data:`BATCH_BYTES` and 60% of the free device memory (``PAIR_BYTES`` per pair
    plus ``extra_per_source`` bytes per source), ``S * n`` below ``2**31``, batches of equal size."""
    budget = min(BATCH_BYTES, int(0.6 * device_memory_available()))
    per_source = PAIR_BYTES * max(n, 1) + extra_per_source
    S = int(max(1, min(k, BATCH_SOURCES, budget // per_source, (2**31 - 1) // max(n, 1))))
    return max(1, -(-k // max(1, -(-k // S))))  # batches of equal size (a last small batch costs a whole one's rounds)


class BatchedSearch:
    """The device buffers of batched searches on one graph, and the run of one batch.

    Parameters
    ----------
    indptr, indices : numpy arrays
        The host CSR (int64, int32).
    weights : numpy float64 array or None
        Non-negative arc weights; ``None`` counts hops.
    k : int
        Sources in all (the batch size is chosen for them: :func:`batch_sources`).
    extra_per_source : int
        Bytes per source the caller allocates beside the batch (its output rows).
    ren : tuple or False, optional
        The renumbering ``(order, arcs)`` of :func:`graphs.locality.deep_order`
        when the caller has it (``None``: none), else found here.
    single : bool
        Sum as float32 sums round (float32 weights: the distances a CPU search
        in float32 finds), else in float64.

    Attributes
    ----------
    S : int
        Sources per batch.
    order, inv : numpy arrays or None
        The renumbering (old id of new vertex ``i``; new id of old vertex
        ``v``), or ``None``.
    arcs : numpy array or None
        Old arc of new arc ``k`` (renumbered graphs).
    indptr, indices, w : CuPy arrays
        The graph the kernels read (renumbered where ``order`` is set).
    rec, queue : CuPy arrays
        The pair records and the first queue (betweenness's waves reuse it).
    """

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray | None, k: int,
                 extra_per_source: int = 0, ren=False, single: bool = False) -> None:
        n, nnz = indptr.shape[0] - 1, indices.shape[0]
        self.n = n
        self.single = bool(single)
        w_h = np.asarray(weights, dtype=np.float64) if weights is not None else np.ones(nnz, dtype=np.float64)
        if ren is False:
            ren = deep_order(indptr, indices)
        self.order = self.inv = self.arcs = None
        if ren is not None:  # the same graph, vertices renumbered: arcs of a vertex lead near it in a row
            order, arcs = ren
            inv = np.empty(n, dtype=np.int64)
            inv[order] = np.arange(n)
            indptr = np.concatenate(([0], np.cumsum(np.diff(indptr)[order]))).astype(np.int64)
            indices = inv[indices[arcs]].astype(np.int32)
            w_h = w_h[arcs]
            self.order, self.inv, self.arcs = order, inv, arcs
        self.host_csr = (indptr, indices, w_h)
        self.indptr = cp.asarray(indptr)
        self.indices = cp.asarray(indices)
        self.w = cp.asarray(w_h)
        if weights is None or DELTA_ARCS is None or nnz == 0 or float(w_h.min()) == float(w_h.max()):
            self.delta = np.inf  # equal weights: every round is one level, no bucket needed
        else:
            self.delta = float(DELTA_ARCS * w_h.mean())
        S = self.S = batch_sources(k, n, extra_per_source)
        self.rec = cp.empty(S * n * 4, dtype=cp.uint64)  # a 32-byte record per pair (batched_search.cuh: Pair)
        self.queue = cp.empty(S * n, dtype=cp.int32)
        self._nxt = cp.empty(S * n, dtype=cp.int32)
        self._far = cp.empty(S * n, dtype=cp.int32)
        self._far2 = cp.empty(S * n, dtype=cp.int32)
        self.st = cp.empty(ST_SIZE, dtype=cp.int32)  # the search's state on the device (ST_*)
        self.cnt = cp.empty(ST_SIZE, dtype=cp.int32)  # the steps' counts
        self._th = cp.empty(4, dtype=cp.float64)  # threshold, bucket [lo, hi), bucket width
        self._aux = cp.empty(2, dtype=cp.uint64)  # least distance kept far, pair relaxations
        self.relaxed = self.rounds = 0
        grid, one = (resident_blocks(),), (1,)
        n32 = np.int32(n)
        step, advance = kernel_function("bc_step"), kernel_function("bc_advance")
        args = (self.st, self._th, n32, self.indptr, self.indices, self.w, self.rec, self.queue, self._nxt,
                self._far, self._far2, self.cnt, self._aux, np.int32(single))

        def steps() -> None:
            for _ in range(STEPS_PER_CHECK):
                step(grid, (BLOCK,), args)
                advance(one, one, (self.st, self.cnt, self._th, self._aux))

        self._chunk = replayable(steps)

    def seed(self, part: cp.ndarray, queue: cp.ndarray) -> None:
        """The sources ``part`` (internal ids) at distance 0 with one path each, listed in ``queue``."""
        launch_items(kernel_function("bc_start"), int(part.shape[0]), part, np.int32(part.shape[0]),
                     np.int32(self.n), self.rec, queue)

    def internal(self, src: np.ndarray) -> np.ndarray:
        """The graph's ids of the vertices ``src`` (renumbered where the graph is)."""
        return src if self.inv is None else self.inv[src].astype(np.int32)

    def run(self, part: cp.ndarray) -> None:
        """Distances from the sources ``part`` (internal ids, int32, at most ``S``) into the first
        ``len(part) * n`` records."""
        s, n = int(part.shape[0]), self.n
        launch_items(kernel_function("bc_clear"), s * n, self.rec, np.int64(s * n))
        self.seed(part, self.queue)
        state = np.zeros(ST_SIZE, dtype=np.int32)
        state[ST_QLEN] = s
        self.st.set(state)
        self.cnt.fill(0)
        self._th.set(np.array([self.delta, 0.0, 0.0, self.delta]))
        self._aux.set(np.array([0xFFFFFFFFFFFFFFFF, 0], dtype=np.uint64))
        while True:
            self._chunk()
            h = self.st.get()
            if h[ST_MODE] == MODE_DONE:
                break
        self.relaxed += int(self._aux[1:2].get()[0])
        self.rounds += int(h[ST_ROUND])

    def distances(self, s: int) -> cp.ndarray:
        """The bits of the distances of the last batch's ``s`` sources, ``(s, n)`` uint64 (a view of the records)."""
        return self.rec[0::4][: s * self.n].reshape(s, self.n)


def distance_rows_gpu(indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray | None, src: np.ndarray,
                      cols: np.ndarray | None, limit: float, predecessors: bool,
                      write: Callable[[int, int, cp.ndarray, cp.ndarray | None], None], bar=None,
                      ren=False) -> None:
    """Distance rows from ``src`` (host ids) to the columns ``cols`` (host ids; ``None``: every vertex), batch by batch.

    Float32 weights are summed as float32 sums round (the CPU's distances); others in float64.
    ``write(r0, r1, D, P)`` receives each batch's rows: ``D`` float64 ``(r1 - r0, len(cols))`` with ``inf``
    where unreached or past ``limit``, ``P`` int32 ``(r1 - r0, n)`` predecessors in host ids (``-1`` for the
    source and unreached vertices) or ``None``.  Predecessors need positive weights here (a zero-weight arc
    may tie both ways); the engine recovers them on the host otherwise.  ``bar``: a progress bar counting
    sources; ``ren``: the renumbering, as :class:`BatchedSearch` takes it.
    """
    n, k = indptr.shape[0] - 1, src.shape[0]
    ncols = n if cols is None else cols.shape[0]
    extra = 8 * ncols + (8 * n if predecessors else 0)
    single = weights is not None and np.dtype(weights.dtype) == np.float32
    B = BatchedSearch(indptr, indices, weights, k, extra_per_source=extra, ren=ren, single=single)
    if cols is None:
        cols_d = cp.arange(n, dtype=cp.int32) if B.inv is None else cp.asarray(B.inv.astype(np.int32))
    else:
        cols_d = cp.asarray(B.internal(cols))
    out = cp.empty(B.S * ncols, dtype=cp.float64)
    gather, tight = kernel_function("ms_gather"), kernel_function("ms_tight_preds")
    if predecessors:
        tp, ti, tw = _transpose(*B.host_csr, n)
        pred = cp.empty(B.S * n, dtype=cp.int32)
        order_d = None if B.order is None else cp.asarray(np.append(B.order, -1).astype(np.int32))
        inv_d = None if B.inv is None else cp.asarray(B.inv)
    lim = np.float64(limit)
    for r0 in range(0, k, B.S):
        part = cp.asarray(B.internal(src[r0:r0 + B.S]))
        s = int(part.shape[0])
        B.run(part)
        launch_items(gather, s * ncols, B.rec, np.int32(s), np.int32(n), cols_d, np.int32(ncols), lim, out)
        P = None
        if predecessors:
            launch_items(tight, s * n, B.rec, np.int32(s), np.int32(n), tp, ti, tw, part, lim, np.int32(single), pred)
            P = pred[: s * n].reshape(s, n)
            if B.order is not None:  # back to host ids: columns by inv, values by order (-1 stays -1)
                P = order_d[P[:, inv_d]]
        write(r0, r0 + s, out[: s * ncols].reshape(s, ncols), P)
        if bar is not None:
            bar.update(s)
    _log.debug("distance rows of %d sources on %d vertices: %d batches of up to %d sources, %d near rounds, "
               "%.2f relaxations per (source, vertex) pair", k, n, -(-k // B.S), B.S, B.rounds,
               B.relaxed / max(1, k * n))


def _transpose(indptr: np.ndarray, indices: np.ndarray, w: np.ndarray, n: int):
    """The in-arcs of a host CSR on the device: ``(indptr, indices, weights)`` of its transpose."""
    import scipy.sparse as sp

    T = sp.csr_matrix((w, indices, indptr), shape=(n, n)).T.tocsr()
    return cp.asarray(T.indptr.astype(np.int64)), cp.asarray(T.indices.astype(np.int32)), cp.asarray(T.data)
