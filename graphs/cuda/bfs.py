"""GPU drivers of BFS and s-t connectivity (CuPy; kernels in ``bfs.cu``).

The host keeps one loop per search and asks the device one small question per
level (the new frontier's size and arcs: one read-back).

BFS (Beamer et al., SC 2012; Li & Becchi, IPDPS 2013).  Each level picks:

* direction: push (top-down from the frontier queue) or pull (bottom-up: every
  unvisited vertex scans its in-arcs against the frontier *bitmap*), by Beamer's
  rule with ``alpha`` and ``beta``, pulling only while the frontier has at
  least ``n / beta`` out-arcs (a pull level sweeps all ``n`` vertices);
* working set: small frontiers (at most :data:`SMALL_NF` vertices and
  :data:`SMALL_MF` arcs) run in ONE block that goes through level after level
  with a block barrier in place of a kernel launch and a read-back, which is
  what makes high-diameter graphs (grids, roads) fast; larger push levels use a
  queue with a lane per vertex, the whole warp for vertices of 32 or more
  arcs, and vertices of :data:`~graphs.cuda.launch.CHUNK` or more arcs cut into
  chunks of CHUNK arcs that a second kernel gives a warp each (thread, warp or
  many warps by degree), listed on the device; pull levels use a bitmap and a
  thread per vertex, the whole warp taking over in-lists longer than 8 arcs.

s-t connectivity: bidirectional BFS, each step a push level from the side with
fewer frontier arcs, until the two searches meet (Harish & Narayanan, HiPC 2007).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, NULL, launch_grid

from ..graph import Graph
from . import launch
from .launch import CHUNK, chunk_grid, chunk_lists

__all__ = ["bfs_gpu", "st_connectivity_gpu", "SMALL_NF", "SMALL_MF"]

FILE = "bfs.cu"
SMALL_NF = 8192
SMALL_MF = 1 << 14
SMALL_BLOCK = 1024
SMALL_LEVELS = 4096


def _module():
    """The compiled ``bfs.cu`` (looked up in :mod:`.launch` at each call, so a profiler can wrap it)."""
    return launch.module(FILE, "bfs_push")


class _Scratch:
    """Counters and a frontier bitmap in one buffer, so a level zeroes them with one memset (before each use)."""

    def __init__(self, words: int) -> None:
        self.buf = cp.empty(6 + words, dtype=cp.uint32)
        self.count = self.buf[0:1].view(cp.int32)
        self.chunk_count = self.buf[1:2].view(cp.int32)
        self.stats = self.buf[2:6].view(cp.uint64)
        self.bitmap = self.buf[6:]

    def read(self) -> tuple[int, int, int]:
        head = self.buf[:6].get()
        stats = head[2:6].view(np.uint64)
        return int(head[:1].view(np.int32)[0]), int(stats[0]), int(stats[1])


def bfs_gpu(G: Graph, s: int, *, direction: str, return_trace: bool, alpha: float, beta: float):
    """Direction-optimising, adaptive BFS on the GPU; see :func:`graphs.bfs`."""
    mod = _module()
    n = G.n
    words = (n + 31) // 32
    level = cp.empty(n, dtype=cp.int32)
    parent = cp.empty(n, dtype=cp.int32)
    visited = cp.empty(max(words, 1), dtype=cp.uint32)
    qa = cp.empty(max(n, 1), dtype=cp.int32)
    qb = cp.empty(max(n, 1), dtype=cp.int32)
    out = cp.empty(10, dtype=cp.int32)  # bfs_small's out (4 int32) and out64 (3 uint64: m_f, visited arcs, start m_f)
    out64 = out[4:].view(cp.uint64)
    # One launch sets everything up and leaves s's out-degree in out64[2], where the first
    # single-block level reads it: no read-back before the first level.
    mod.get_function("bfs_start")((launch_grid(n),), (BLOCK,), (G.indptr, np.int64(n), np.int32(s), level, parent,
                                                                 visited, np.int64(words), qa, out64[2:]))
    mf = None if direction != "pull" else int(out64[2:].get()[0])  # the source's out-arcs, once known
    m_unvisited = None if mf is None else G.nnz - mf
    nf, d, prev_nf = 1, 0, 0
    push = direction != "pull"
    T = None if direction == "push" else G.transpose()
    cur_q, nxt_q = qa, qb
    scratch = [_Scratch(words), _Scratch(words)]
    cur_bm_valid = False
    which = 0  # scratch[which] holds the current frontier's bitmap
    trace: list[dict] = []
    small = mod.get_function("bfs_small")
    push_k = mod.get_function("bfs_push")
    chunks_k = mod.get_function("bfs_push_chunks")
    pull_k = mod.get_function("bfs_pull")
    crow, cnum = chunk_lists(G.nnz, CHUNK)
    t_nf = cp.empty(SMALL_LEVELS, dtype=cp.int32)
    t_mf = cp.empty(SMALL_LEVELS, dtype=cp.uint64)
    while nf > 0:
        if direction == "auto" and mf is not None:
            if push and mf * alpha > m_unvisited and mf * beta >= n:
                push = False
            elif not push and nf * beta < n and nf < prev_nf:
                push = True
        if push and nf <= SMALL_NF and (mf is None or mf <= SMALL_MF):
            small((1,), (SMALL_BLOCK,), (G.indptr, G.indices, cur_q, nxt_q, np.int32(nf), np.int32(d),
                                         np.uint64(mf or 0), out64[2:] if mf is None else NULL, level, parent,
                                         visited, np.int32(SMALL_NF), np.uint64(SMALL_MF), np.int32(SMALL_LEVELS),
                                         out[:4], out64, t_nf, t_mf))
            both = out.get()
            o, o64 = both[:4], both[4:].view(np.uint64)
            if mf is None:
                mf = int(o64[2])
                m_unvisited = G.nnz - mf
            done = int(o[2])
            if done:
                if return_trace:
                    tn, tm = t_nf[:done].get(), t_mf[:done].get()
                    trace.extend({"level": d + k, "direction": "push", "frontier": int(tn[k]), "edges": int(tm[k]),
                                  "frontier_format": "queue", "granularity": "thread (one block; warp >= 32 arcs, block >= 1024)"}
                                 for k in range(done))
                prev_nf = nf
                nf, d, mf = int(o[0]), int(o[1]), int(o64[0])
                m_unvisited -= int(o64[1])
                if o[3] == 1:
                    cur_q, nxt_q = nxt_q, cur_q
                cur_bm_valid = False
                continue
        nxt = scratch[1 - which]
        nxt.buf.fill(0)
        if push:
            push_k((launch_grid(nf),), (BLOCK,), (G.indptr, G.indices, cur_q, np.int32(nf), np.int32(d), level, parent,
                                                  visited, nxt_q, nxt.bitmap, nxt.count, nxt.stats, NULL, NULL, crow,
                                                  cnum, nxt.chunk_count))
            chunks_k((chunk_grid(mf),), (BLOCK,), (G.indptr, G.indices, crow, cnum, nxt.chunk_count, np.int32(d), level,
                                                   parent, visited, nxt_q, nxt.bitmap, nxt.count, nxt.stats, NULL,
                                                   NULL))
            fmt, gran = "queue", f"thread; warp for degree >= 32; a warp per {CHUNK} arcs for degree >= {CHUNK}"
        else:
            cur = scratch[which]
            if not cur_bm_valid:
                cur.buf.fill(0)
                mod.get_function("bfs_queue_to_bitmap")((launch_grid(nf),), (BLOCK,), (cur_q, np.int32(nf), cur.bitmap))
            pull_k((launch_grid(n),), (BLOCK,), (T.indptr, T.indices, G.indptr, np.int64(n), np.int32(d), cur.bitmap,
                                                 level, parent, visited, nxt_q, nxt.bitmap, nxt.count, nxt.stats))
            fmt, gran = "bitmap", "thread; the warp for in-arcs past the first 8"
        count, new_mf, scanned = nxt.read()
        if return_trace:
            trace.append({"level": d, "direction": "push" if push else "pull", "frontier": nf,
                          "edges": mf if push else scanned, "frontier_format": fmt, "granularity": gran})
        prev_nf, nf, mf = nf, count, new_mf
        m_unvisited -= new_mf
        d += 1
        cur_q, nxt_q = nxt_q, cur_q
        which = 1 - which
        cur_bm_valid = True
    return (level, parent, trace) if return_trace else (level, parent)


def st_connectivity_gpu(G: Graph, s: int, t: int):
    """Bidirectional BFS on the GPU: push levels from the side with fewer frontier arcs."""
    if s == t:
        return 0, np.array([s], dtype=np.int32)
    mod = _module()
    push_k = mod.get_function("bfs_push")
    chunks_k = mod.get_function("bfs_push_chunks")
    n = G.n
    words = (n + 31) // 32
    T = G.transpose()
    crow, cnum = chunk_lists(G.nnz, CHUNK)
    sides = []
    for root, H in ((s, G), (t, T)):
        lv = cp.full(n, -1, dtype=cp.int32)
        lv[root] = 0
        vis = cp.zeros(max(words, 1), dtype=cp.uint32)
        vis[root >> 5] = np.uint32(1 << (root & 31))
        q = cp.empty(max(n, 1), dtype=cp.int32)
        q[0] = root
        ends = H.indptr[root:root + 2].get()
        sides.append({"G": H, "level": lv, "parent": cp.full(n, -1, dtype=cp.int32), "visited": vis, "q": q,
                      "nq": cp.empty(max(n, 1), dtype=cp.int32), "nf": 1, "mf": int(ends[1] - ends[0]), "d": 0})
    meet = cp.full(1, np.iinfo(np.uint64).max, dtype=cp.uint64)
    scratch = _Scratch(0)
    while sides[0]["nf"] > 0 and sides[1]["nf"] > 0:
        k = 0 if sides[0]["mf"] <= sides[1]["mf"] else 1
        a, b = sides[k], sides[1 - k]
        scratch.buf.fill(0)
        H = a["G"]
        push_k((launch_grid(a["nf"]),), (BLOCK,), (H.indptr, H.indices, a["q"], np.int32(a["nf"]), np.int32(a["d"]),
                                                  a["level"], a["parent"], a["visited"], a["nq"], NULL, scratch.count,
                                                  scratch.stats, b["level"], meet, crow, cnum, scratch.chunk_count))
        chunks_k((chunk_grid(a["mf"]),), (BLOCK,), (H.indptr, H.indices, crow, cnum, scratch.chunk_count,
                                                    np.int32(a["d"]), a["level"], a["parent"], a["visited"], a["nq"],
                                                    NULL, scratch.count, scratch.stats, b["level"], meet))
        count, mf, _ = scratch.read()
        a["nf"], a["mf"], a["d"] = count, mf, a["d"] + 1
        a["q"], a["nq"] = a["nq"], a["q"]
        m = int(meet.get()[0])
        if m != np.iinfo(np.uint64).max:
            dist, v = m >> 32, m & 0xFFFFFFFF
            ps, pt = sides[0]["parent"].get(), sides[1]["parent"].get()
            front = [v]
            while front[-1] != s:
                front.append(int(ps[front[-1]]))
            back = []
            u = v
            while u != t:
                u = int(pt[u])
                back.append(u)
            path = np.array(front[::-1] + back, dtype=np.int32)
            return int(dist), path
    return -1, np.empty(0, dtype=np.int32)
