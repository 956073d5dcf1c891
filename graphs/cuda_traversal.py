"""GPU drivers of BFS, s-t connectivity, SSSP and weak components (CuPy; kernels in semiring/cuda).

The host keeps one loop per algorithm and asks the device one small question
per level (the new frontier's size and arcs: one read-back); the kernels are in
``semiring/cuda/sparse_kernels.cu``.

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
  arcs, and vertices of :data:`CHUNK` or more arcs cut into chunks of CHUNK arcs
  that a second kernel gives a warp each (thread, warp or many warps by degree),
  listed on the device; pull levels use a bitmap and a thread per vertex, the
  whole warp taking over in-lists longer than 8 arcs.

SSSP: near-far delta-stepping (Davidson, Baxter, Garland & Owens, "Work-efficient
parallel GPU methods for single-source shortest paths", IPDPS 2014): the near set
holds vertices below the current threshold and is relaxed until empty; improved
vertices above it wait in the far pile, which is split when the threshold
advances by ``delta``.  Predecessors are rebuilt from the final distances (a
pull over in-arcs, or a BFS over tight arcs when zero weights could make the
tight arcs cyclic).

Weak components: hook-and-shortcut (Soman, Kishore & Narayanan 2010).
"""

from __future__ import annotations

import math

import cupy as cp
import numpy as np

from semiring import min_plus
from semiring.cuda.ops import spec_for
from semiring.cuda.sparse import BLOCK, NULL, launch_grid, module
from semiring.dtypes import posinf

from .graph import Graph

__all__ = ["bfs_gpu", "st_connectivity_gpu", "sssp_gpu", "weak_components_gpu", "SMALL_NF", "SMALL_MF"]

CHUNK = 256  # BFS_CHUNK and SSSP_CHUNK in sparse_kernels.cu: arcs per warp for long vertices
PRED_CHUNK = 1024  # PRED_CHUNK in sparse_kernels.cu
SMALL_NF = 8192
SMALL_MF = 1 << 14
SMALL_BLOCK = 1024
SMALL_LEVELS = 4096


def _chunk_grid(arcs: int, chunk: int = CHUNK) -> int:
    """Blocks for a chunk kernel over at most ``arcs`` arcs (a warp per chunk, grid-stride beyond)."""
    return launch_grid(-(-max(int(arcs), 1) // chunk), block=BLOCK // 32)


def _bfs_module():
    return module(None, True)


def _chunk_lists(nnz: int, chunk: int):
    """``(crow, cnum)``: room for every chunk of ``chunk`` arcs of a level's long vertices."""
    cap = max(1, 2 * (nnz // chunk) + 1)
    return cp.empty(cap, dtype=cp.int32), cp.empty(cap, dtype=cp.int32)


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
    mod = _bfs_module()
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
    crow, cnum = _chunk_lists(G.nnz, CHUNK)
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
            chunks_k((_chunk_grid(mf),), (BLOCK,), (G.indptr, G.indices, crow, cnum, nxt.chunk_count, np.int32(d), level,
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
    mod = _bfs_module()
    push_k = mod.get_function("bfs_push")
    chunks_k = mod.get_function("bfs_push_chunks")
    n = G.n
    words = (n + 31) // 32
    T = G.transpose()
    crow, cnum = _chunk_lists(G.nnz, CHUNK)
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
        chunks_k((_chunk_grid(a["mf"]),), (BLOCK,), (H.indptr, H.indices, crow, cnum, scratch.chunk_count,
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


def sssp_gpu(G: Graph, s: int, method: str, delta: float):
    """SSSP on the GPU: near-far delta-stepping; Bellman-Ford and Dijkstra run on the host copy."""
    if method != "delta-stepping":
        from .sssp import sssp

        dist, pred = sssp(G.to("cpu"), s, method=method)
        return cp.asarray(dist), cp.asarray(pred)
    dtype = np.dtype(G.weights.dtype)
    mod = module(spec_for(min_plus, dtype), dtype.kind == "f")
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
    crow, cnum = _chunk_lists(G.nnz, CHUNK)
    relax = mod.get_function("sssp_relax")
    relax_chunks = mod.get_function("sssp_relax_chunks")
    chunk_grid = _chunk_grid(G.nnz)
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
            relax_chunks((chunk_grid,), (BLOCK,), (G.indptr, G.indices, G.weights, crow, cnum, counts[2:], dist, pred,
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
    dtype = np.dtype(dist.dtype)
    mod = module(spec_for(min_plus, dtype), dtype.kind == "f")
    n = G.n
    if "positive" not in G._cache:
        G._cache["positive"] = bool(G.nnz == 0 or float(G.weights.min()) > 0)
    if G._cache["positive"]:
        T = G.transpose()
        crow, cnum = _chunk_lists(T.nnz, PRED_CHUNK)
        count = cp.zeros(1, dtype=cp.int32)
        firstpos = cp.empty(max(n, 1), dtype=cp.int32)
        mod.get_function("sssp_pred_pull")((launch_grid(n),), (BLOCK,), (T.indptr, T.indices, T.weights, dist, pred,
                                                                         np.int64(n), np.int32(s), crow, cnum, count,
                                                                         firstpos))
        mod.get_function("sssp_pred_chunks")((_chunk_grid(T.nnz, PRED_CHUNK),), (BLOCK,),
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


def weak_components_gpu(G: Graph):
    """Hook-and-shortcut components; labels numbered by smallest vertex."""
    mod = _bfs_module()
    n = G.n
    if n == 0:
        return 0, cp.zeros(0, dtype=cp.int32)
    label = cp.arange(n, dtype=cp.int32)
    changed = cp.zeros(1, dtype=cp.int32)
    hook = mod.get_function("cc_hook")
    shortcut = mod.get_function("cc_shortcut")
    grid = launch_grid(n)
    while True:
        changed.fill(0)
        hook((grid,), (BLOCK,), (G.indptr, G.indices, np.int64(n), label, changed))
        shortcut((grid,), (BLOCK,), (np.int64(n), label))
        if int(changed.get()[0]) == 0:
            break
    roots, inverse = cp.unique(label, return_inverse=True)
    return int(roots.size), inverse.astype(cp.int32)
