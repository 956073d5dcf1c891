"""The bit-parallel BFS on the GPU: hop counts from up to thousands of sources at once (CuPy; CUDA C in ``bit_bfs.cu``).

Bit-parallel BFS (M. Then et al., "The More the Merrier: Efficient Multi-Source
Graph Traversal", PVLDB 8(4), 2014): 64 sources per ``uint64`` word and ``W``
words per vertex, in planes (``plane[j * n + v]`` holds bit ``b`` for source
``64 j + b``).  A level is one pull launch over every (plane, vertex) whose word
is not yet full, ORing the frontier words of the vertex's in-neighbours (and
stopping once the word is full); each warp ORs its new words into the plane's
``alive`` word (one ``atomicOr`` per warp), so a caller learns which sources
still reach new vertices.  A search of ``64 W`` sources costs about one pass
over the in-arcs per level for every plane, whatever the weights' absence makes
of the frontier: the many-source engine's route for hop counts on the GPU.

:class:`BitPlanes` holds one batch's state; :func:`hop_rows_gpu` writes rows of
hop distances (the many-source engine's unweighted rows); the hop-count
distance statistics (:mod:`graphs.cuda.centrality`, :mod:`graphs.cuda.distance`)
count the new bits of each level or fold their levels.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, NULL, build_module, source_of

__all__ = ["BitPlanes", "hop_rows_gpu", "kernel_function", "launch_items", "unpack_words", "ROW_BYTES",
           "rows_per_batch"]

#: Device bytes one batch of hop rows may hold: its planes (24 bytes per vertex and word of 64 sources) and, where
#: the rows do not go straight into the caller's array, its float64 rows (512 bytes per vertex and word).
ROW_BYTES = 24 << 30

_KERNELS = Path(__file__).resolve().parent / "bit_bfs.cu"
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@functools.cache
def _module() -> cp.RawModule:
    return build_module(source_of(_KERNELS, {}), "ms_pull")


def kernel_function(name: str):
    """The compiled CUDA kernel ``name`` of ``bit_bfs.cu``."""
    return _module().get_function(name)


def launch_items(name: str, count: int, *args) -> None:
    """``name`` over ``count`` threads (one per item)."""
    if count > 0:
        kernel_function(name)((-(-count // BLOCK),), (BLOCK,), args)


def unpack_words(words: cp.ndarray) -> cp.ndarray:
    """Bits of ``uint64`` words as a bool array of ``64 * len(words)`` (bit ``b`` of word ``j`` at ``64 j + b``)."""
    shifts = cp.arange(64, dtype=cp.uint64)
    return ((words[:, None] >> shifts[None, :]) & cp.uint64(1)).astype(bool).ravel()


class BitPlanes:
    """One batch of the bit-parallel BFS: ``W`` planes of ``n`` words over the in-arcs ``(tptr, tidx)``.

    ``tptr`` (int64) and ``tidx`` (int32) are the CSR of the graph's
    transpose on the device (an undirected graph's own CSR).  :meth:`seed`
    places up to ``64 W`` sources; each :meth:`step` runs one level and
    returns whether any source reached a new vertex; :attr:`front` then holds
    the words of the vertices first reached at that level.
    """

    def __init__(self, tptr: cp.ndarray, tidx: cp.ndarray, n: int, W: int) -> None:
        self.tptr, self.tidx, self.n, self.W = tptr, tidx, int(n), int(W)
        size = self.W * self.n
        self.front = cp.empty(size, dtype=cp.uint64)
        self.seen = cp.empty(size, dtype=cp.uint64)
        self.nxt = cp.empty(size, dtype=cp.uint64)
        self.alive = cp.empty(self.W, dtype=cp.uint64)
        self.changed = cp.zeros(1, dtype=cp.int32)
        self.level = 0
        self.count = 0

    def seed(self, src: np.ndarray) -> tuple[cp.ndarray, cp.ndarray]:
        """Start a search from the host ids ``src`` (at most ``64 W``; repeats allowed): source ``i`` is bit
        ``i % 64`` of plane ``i // 64``.  Planes and bits no source uses count as full.

        Returns the positions (``plane * n + vertex``) and bits of the sources, on the device.
        """
        n, W, k = self.n, self.W, int(src.shape[0])
        if k > 64 * W:
            raise ValueError(f"src: {k} sources exceed the batch's {64 * W}")
        rel = np.arange(k, dtype=np.int64)
        pos = (rel // 64) * n + np.asarray(src, dtype=np.int64)
        bit = np.left_shift(np.uint64(1), (rel % 64).astype(np.uint64))
        # repeated sources of one plane share a word: OR their bits together
        upos, inv = np.unique(pos, return_inverse=True)
        words = np.zeros(upos.shape[0], dtype=np.uint64)
        np.bitwise_or.at(words, inv, bit)
        upos_d, words_d = cp.asarray(upos), cp.asarray(words)
        self.front.fill(0)
        self.seen.fill(0)
        used = -(-k // 64)
        if used < W:
            self.seen[used * n:].fill(_ALL)  # unused planes: full, skipped
        tail = k - 64 * (used - 1)  # the last used word's high bits count as seen, so it can fill up
        if 0 < tail < 64:
            self.seen[(used - 1) * n:used * n] |= np.uint64(((1 << 64) - 1) ^ ((1 << tail) - 1))
        self.front[upos_d] = words_d
        self.seen[upos_d] |= words_d
        self.level = 0
        self.count = k
        return cp.asarray(pos), cp.asarray(bit)

    def step(self, lev: cp.ndarray | None = None) -> bool:
        """One level: the vertices first reached now, from every source at once.  ``lev``: ``uint16`` hop
        distances to write (``lev[(plane * n + v) * 64 + bit]``), or ``None``.  Returns whether anything new was
        reached; :attr:`front` holds the new words and :attr:`alive` the sources that reached them."""
        self.level += 1
        self.alive.fill(0)
        self.changed.fill(0)
        launch_items("ms_pull", self.W * self.n, np.int64(self.n), np.int32(self.W), self.tptr, self.tidx,
                     self.front, self.seen, self.nxt, self.alive, self.changed, NULL if lev is None else lev,
                     np.int32(self.level))
        self.front, self.nxt = self.nxt, self.front
        return bool(int(self.changed.get()[0]))

    def alive_sources(self) -> cp.ndarray:
        """Bool per source (``count`` of them): whether it reached a new vertex at the last level."""
        return unpack_words(self.alive)[: self.count]

    def new_counts(self, planes: int) -> cp.ndarray:
        """Per source of the first ``planes`` planes (``64 planes`` of them): the vertices it reached at the
        last level, ``uint64``."""
        count = cp.zeros(planes * 64, dtype=cp.uint64)
        chunk = 4096
        grid = (max(1, -(-self.n // chunk)), planes)
        kernel_function("ms_count")(grid, (64,), (np.int64(self.n), np.int32(planes), self.front, np.int64(chunk),
                                                   count))
        return count

    def write_rows(self, rows: cp.ndarray) -> None:
        """Write the last level's hop distance into ``rows`` (float64, C order, ``n`` columns, a row per source
        seeded) at every (source, vertex) first reached at that level."""
        launch_items("ms_rows", self.W * self.n, np.int64(self.n), np.int32(self.W), self.front,
                     np.float64(self.level), rows)


def rows_per_batch(k: int, n: int, direct: bool) -> int:
    """Words of 64 sources per batch of :func:`hop_rows_gpu`: all ``k`` sources where :data:`ROW_BYTES` and the
    free device memory allow (planes, and the rows unless ``direct``), else as many as fit."""
    per_word = n * (24 + (0 if direct else 512))
    free = cp.cuda.runtime.memGetInfo()[0] + cp.get_default_memory_pool().free_bytes()
    budget = min(ROW_BYTES, int(0.8 * free))
    return int(max(1, min(-(-k // 64), budget // max(per_word, 1))))


def hop_rows_gpu(tptr: cp.ndarray, tidx: cp.ndarray, n: int, src: np.ndarray, cols: np.ndarray | None,
                 limit: float, write: Callable[[int, int, cp.ndarray], None], direct: cp.ndarray | None = None,
                 bar=None) -> None:
    """Hop distances from ``src`` (host ids) to ``cols`` (host ids; ``None``: every vertex), batch by batch.

    ``tptr``, ``tidx``: the in-arcs (the transpose's CSR) on the device.
    Each batch's rows go to ``write(r0, r1, D)`` (``D`` float64 ``(r1 - r0,
    len(cols))``, ``inf`` where not reached or past ``limit``), or, with
    ``direct`` (a C-ordered float64 CuPy array ``(len(src), n)``, only when
    ``cols`` is ``None``), straight into ``direct[r0:r1]``.  ``bar``: a progress
    bar counting sources.
    """
    k = int(src.shape[0])
    W = rows_per_batch(k, n, direct is not None)
    planes = BitPlanes(tptr, tidx, n, W)
    buf = None if direct is not None else cp.empty(64 * W * n, dtype=cp.float64)
    cols_d = None if cols is None else cp.asarray(cols.astype(np.int64))
    for r0 in range(0, k, 64 * W):
        part = src[r0:r0 + 64 * W]
        s = int(part.shape[0])
        # (rows 64 j + b of the block: a bit past the batch's last source is never set, so a short last block
        # is written in place)
        rows = direct[r0:r0 + s] if direct is not None else buf[: s * n].reshape(s, n)
        rows.fill(np.inf)
        planes.seed(part)
        if limit >= 0:
            rows[cp.arange(s), cp.asarray(part.astype(np.int64))] = 0.0
            while planes.level + 1 <= limit and planes.step():
                planes.write_rows(rows)
        if direct is None:
            write(r0, r0 + s, rows if cols_d is None else rows.take(cols_d, axis=1))
        if bar is not None:
            bar.update(s)
