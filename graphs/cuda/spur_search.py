"""Yen's spur searches on the GPU: a round's searches as one launch, a warp per search (CuPy; ``spur_search.cu``).

:class:`SpurBatch` holds a graph's arrays on the device (the graph the
searches walk, its transpose for reading routes back, the potentials ``h``)
and runs a round: the batch of :mod:`graphs.paths.k_shortest`'s spur
searches, each an A* search by near-far buckets inside its warp, so a round
costs one launch, not one per step; what it returns is what the CPU kernel
(:func:`graphs.paths._ksp_kernels.spur_searches`) returns for the same
searches, route for route (a route the device cannot read, a tie over
zero-weight arcs, is listed apart for the CPU to run again).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import cupy as cp
import numpy as np

from apsp.planner import PlanError, device_memory_available, format_bytes
from semiring.cuda_kernels import build_module, source_of

__all__ = ["SpurBatch", "SLOT_BYTES", "DELTA_ARCS", "WARPS"]

#: Bytes per (search slot, vertex): the record (16), two queues, the far list and the touched list (4 each).
SLOT_BYTES = 32
#: Bucket width of the searches' near-far order, in mean arc weights.
DELTA_ARCS = 4.0
#: Searches per block of the launch (``SPUR_WARPS`` in ``spur_search.cu``).
WARPS = 4
#: Slots at most (tests set it low to run a round in several launches).
MAX_SLOTS = 1 << 20
#: Device memory the slots may take at most (and at most half of what is free).
SLOTS_BYTES = 8 << 30

_KERNELS = Path(__file__).resolve().parent / "spur_search.cu"


@functools.cache
def _kernel():
    return build_module(source_of(_KERNELS, {}), "spur_batch").get_function("spur_batch")


class SpurBatch:
    """The device side of the spur searches on one graph.

    Parameters
    ----------
    indptr, indices, w : numpy arrays
        The graph the searches walk (int64, int32, float64 weights).
    h : numpy array
        The potentials: each vertex's exact distance to ``end`` (``hi`` or
        ``inf`` where it cannot reach it).
    order : numpy int32 array
        The original id of each vertex (ties go to the least).
    end : int
        Where the searches go.
    dtype : numpy dtype
        The lengths' dtype: float32 lengths are summed as float32 sums round,
        the others in float64 (integers exact below ``2**53``).
    hi : scalar
        The dtype's infinity: a route whose length would reach it is not found.
    cache : dict, optional
        Where the graph's device arrays are kept from one search to the next
        (the searched graph's cache: they depend on the graph only).
    """

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, w: np.ndarray, h: np.ndarray, order: np.ndarray,
                 end: int, dtype: np.dtype, hi: Any, cache: dict | None = None) -> None:
        n = indptr.shape[0] - 1
        self.n, self.end = n, int(end)
        self.single = np.dtype(dtype) == np.float32
        self.hi = float(hi)
        kept = None if cache is None else cache.get("spur_batch_graph")
        if kept is None:  # what depends on the graph only: built once per graph
            w64 = np.asarray(w, dtype=np.float64)
            exact = np.dtype(dtype).kind in "iu" or bool(np.all(w64 == np.round(w64)))
            # Rounding room for the A* bound: none where sums are exact, else a few ulps per arc of a long route.
            slack = 0.0 if exact else (1e-5 if self.single else 1e-11)
            delta = float(DELTA_ARCS * w64.mean()) if w64.size and w64.mean() > 0 else 1.0
            # The in-arcs of each vertex, parallel arcs kept apart (a route is read back over the arc that is tight).
            tails = np.repeat(np.arange(n, dtype=np.int32), np.diff(indptr))
            by_head = np.argsort(indices, kind="stable")
            tptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(indices, minlength=n), out=tptr[1:])
            arrays = (cp.asarray(indptr.astype(np.int64)), cp.asarray(indices.astype(np.int32)), cp.asarray(w64),
                      cp.asarray(tptr), cp.asarray(tails[by_head]), cp.asarray(w64[by_head]))
            kept = (arrays, slack, delta)
            if cache is not None:
                cache["spur_batch_graph"] = kept
        arrays, self.slack, self.delta = kept
        hd = np.asarray(h, dtype=np.float64)
        hd = np.where(hd >= self.hi, np.inf, hd)
        self._graph = (*arrays, cp.asarray(hd), cp.asarray(order.astype(np.int32)))
        self._rank = cp.full(n, -1, dtype=cp.int32)
        self._slots = 0

    def _grow(self, m: int) -> None:
        """Slots for ``m`` searches at once (as many as memory allows), their records cleared."""
        n = max(self.n, 1)
        free = device_memory_available()
        room = min(SLOTS_BYTES, free // 2) // (SLOT_BYTES * n)
        if room < 1 and self._slots == 0:
            raise PlanError(f"k shortest paths on the GPU: a spur search holds {format_bytes(SLOT_BYTES * n)} on the "
                            f"device ({SLOT_BYTES} bytes per vertex of {self.n:,}) and {format_bytes(free)} is free "
                            "(half of it may go to the searches); run them on the CPU (device='cpu')")
        want = int(max(1, min(m, MAX_SLOTS, room, (2**31 - 1) // n)))
        if want <= self._slots:
            return
        self._rec = cp.empty(want * n * 2, dtype=cp.uint64)  # SpurRec: the distance's bits, then stamp and flag
        self._rec[0::2] = 0x7FF0000000000000  # +inf
        self._rec[1::2] = 0x00000000FFFFFFFF  # stamp -1 (the low word), not on the far list
        self._lists = cp.empty((4, want * n), dtype=cp.int32)
        self._tcount = cp.zeros(want, dtype=cp.int32)
        self._len = cp.empty(want, dtype=cp.int32)
        self._expanded = cp.empty(want, dtype=cp.int64)
        self._slots = want

    def run(self, path: np.ndarray, prefix: np.ndarray, spurs: np.ndarray, ban_ptr: np.ndarray,
            ban_next: np.ndarray, limit: Any) -> tuple[list[tuple[Any, ...]], list[int]]:
        """The round's searches (as :meth:`graphs.paths.k_shortest.AStarSpurs.run` takes them).

        Returns ``(found, failed)``: ``found`` as ``AStarSpurs.run`` returns
        them (``settled``: the vertices the search expanded), ``failed`` the
        searches whose route the device could not read back.
        """
        nj, n = int(spurs.shape[0]), self.n
        if nj == 0:
            return [], []
        self._grow(nj)
        path_d = cp.asarray(path.astype(np.int32))
        self._rank[path_d] = cp.arange(path.shape[0], dtype=cp.int32)
        args = (*self._graph, self._rank, path_d, cp.asarray(prefix.astype(np.float64)),
                cp.asarray(spurs.astype(np.int32)), cp.asarray(ban_ptr.astype(np.int64)),
                cp.asarray(ban_next.astype(np.int32)) if ban_next.size else cp.zeros(1, dtype=cp.int32))
        found: list[tuple[Any, ...]] = []
        failed: list[int] = []
        lim = min(float(limit), self.hi)
        qa, qb, far, touched = self._lists
        try:
            for j0 in range(0, nj, self._slots):
                S = min(self._slots, nj - j0)
                _kernel()(((S + WARPS - 1) // WARPS,), (32 * WARPS,),
                          (np.int32(S), np.int32(j0), np.int32(n), *args, np.int32(self.end), np.float64(lim),
                           np.float64(self.hi), np.float64(self.delta), np.float64(self.slack), np.int32(self.single),
                           self._rec, qa, qb, far, touched, self._tcount, self._len, self._expanded))
                lens = self._len[:S].get()
                done = self._expanded[:S].get()
                failed.extend((j0 + np.flatnonzero(lens < 0)).tolist())
                hit = np.flatnonzero(lens > 0)
                if hit.size == 0:
                    continue
                L = lens[hit].astype(np.int64)
                offs = np.concatenate(([0], np.cumsum(L)))
                steps = np.arange(offs[-1]) - np.repeat(offs[:-1], L)
                rows_d = cp.asarray(np.repeat(hit.astype(np.int64) * n, L))
                verts_d = qa[rows_d + cp.asarray(steps)]  # each route from the end back to its start
                bits_d = self._rec[2 * (rows_d + verts_d.astype(cp.int64))]  # their distances (record word 0)
                verts = verts_d.get()
                dists = bits_d.view(cp.float64).get()
                for r, j in enumerate(hit.tolist()):
                    lo, up = offs[r], offs[r + 1]
                    route = verts[lo:up][::-1].copy()
                    g = dists[lo:up][::-1].astype(prefix.dtype)
                    found.append((j0 + j, route, g, g[-1].item(), int(done[j])))
        finally:
            self._rank[path_d] = -1
        return found, failed
