"""GPU batches of the eccentricity-bounding search (CuPy; the BFS of ``bit_bfs.cu``, the bounds in ``centrality.cu``).

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

from .bit_bfs import BitPlanes
from .centrality import kernel_function

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
    planes = BitPlanes(G.indptr, G.indices, n, W)
    lev = cp.full(W * n * 64, UNREACHED, dtype=cp.uint16)
    pos, _ = planes.seed(cp.asnumpy(src).astype(np.int64))
    rel = cp.arange(B, dtype=cp.int64)
    lev[pos * 64 + rel % 64] = 0
    ecc = cp.zeros(B, dtype=cp.int64)
    while True:
        if planes.level + 1 >= UNREACHED:
            return None
        if not planes.step(lev):
            break
        ecc = cp.where(planes.alive_sources(), planes.level, ecc)
    kernel_function("ecc_bounds")((-(-n // BLOCK),), (BLOCK,), (np.int64(n), np.int32(W), np.int32(B), lev, ecc, lo, hi))
    return ecc
