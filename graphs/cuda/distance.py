"""GPU batches of the eccentricity-bounding search (CuPy; kernels in ``centrality.cu``).

:func:`graphs.centrality.distance_measures.eccentricity` and the extremes (diameter, radius,
center, periphery) of a connected undirected graph bound every vertex's
eccentricity from a few searches (F. W. Takes & W. A. Kosters, "Determining the
diameter of small world networks", CIKM 2011; "Computing the eccentricity
distribution of large graphs", Algorithms 6(1), 2013).  Here one batch of up to
``64 W`` sources is one bit-parallel BFS (Then et al., "The More the Merrier",
PVLDB 8(4), 2014: ``W`` planes of ``uint64`` words, one pull launch per level for
all of them) that also writes each pair's hop distance (``uint16``); one launch
then folds the batch into the bounds of every vertex ``x``:
``max(d(s, x), e_s - d(s, x)) <= ecc(x) <= e_s + d(s, x)``.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK

from .centrality import kernel_function, launch_items, unpack_words

__all__ = ["hop_bounds_gpu", "BOUND_BYTES", "BOUND_SOURCES"]

#: Bytes of a batch's planes and hop distances at most (152 bytes per vertex and word of 64 sources).
BOUND_BYTES = 8 << 30
#: Sources per batch at most.
BOUND_SOURCES = 1024
#: The hop distance marking a pair not reached (and the deepest level a batch may reach, less one).
UNREACHED = 0xFFFF


def batch_size(n: int) -> int:
    """Sources per batch for a graph of ``n`` vertices: a multiple of 64 within :data:`BOUND_BYTES`."""
    words = max(1, min(BOUND_SOURCES // 64, BOUND_BYTES // (152 * max(n, 1))))
    return 64 * words


def hop_bounds_gpu(G, src: np.ndarray, lo, hi):
    """Eccentricities of the sources ``src`` (int64 CuPy array), folding their hop distances into ``lo``/``hi``.

    ``G``: a connected undirected graph on the GPU (its CSR is its own
    transpose); ``src``: distinct vertices; ``lo`` and ``hi``: int64 CuPy
    arrays (n,), updated in place.
    Returns ``None`` (bounds untouched) if a search goes deeper than
    ``UNREACHED - 1`` levels.
    """
    n = G.n
    B = int(src.shape[0])
    W = -(-B // 64)
    ids = cp.asarray(src, dtype=cp.int64)
    rel = cp.arange(B, dtype=cp.int64)
    front = cp.zeros(W * n, dtype=cp.uint64)
    seen = cp.zeros(W * n, dtype=cp.uint64)
    nxt = cp.empty(W * n, dtype=cp.uint64)
    alive = cp.empty(W, dtype=cp.uint64)
    changed = cp.zeros(1, dtype=cp.int32)
    lev = cp.full(W * n * 64, UNREACHED, dtype=cp.uint16)
    # source i sits in plane i // 64 at vertex src[i], bit i % 64 (the sources are distinct)
    pos = (rel // 64) * n + ids
    bit = cp.left_shift(cp.uint64(1), (rel % 64).astype(cp.uint64))
    front[pos] = bit
    seen[pos] = bit
    lev[pos * 64 + rel % 64] = 0
    tail = B - 64 * (W - 1)  # the last word's unused high bits count as seen, so it can fill up
    if tail < 64:
        seen[(W - 1) * n:W * n] |= np.uint64(((1 << 64) - 1) ^ ((1 << tail) - 1))
    ecc = cp.zeros(B, dtype=cp.int64)
    level = 0
    while True:
        level += 1
        if level >= UNREACHED:
            return None
        alive.fill(0)
        changed.fill(0)
        launch_items("ms_pull", W * n, np.int64(n), np.int32(W), G.indptr, G.indices, front, seen, nxt, alive,
                changed, lev, np.int32(level))
        if int(changed.get()[0]) == 0:
            break
        live = unpack_words(alive)[:B]
        ecc = cp.where(live, level, ecc)
        front, nxt = nxt, front
    kernel_function("ecc_bounds")((-(-n // BLOCK),), (BLOCK,), (np.int64(n), np.int32(W), np.int32(B), lev, ecc, lo, hi))
    return ecc
