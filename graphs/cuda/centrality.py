"""GPU drivers of betweenness centrality and the distance statistics (CuPy; CUDA C below, compiled at run time).

Betweenness (Brandes, J. Math. Sociol. 25, 2001), a batch of ``S`` sources at a time
on ``S x n`` arrays (pairs ``(s, v)`` numbered ``s * n + v``):

1. distances: frontier Bellman-Ford over the batch's pairs, one launch per round
   for all the batch's searches; ``atomicMin`` on the bits of the non-negative
   doubles (their order as integers is their numeric order), each pair queued at
   most once per round by a round stamp;
2. path counts in waves of Kahn's order over the tight arcs (``d[u] + w = d[v]``):
   a pair enters the next wave when its last tight in-arc has added its count;
   the waves are written one after another into one array;
3. dependencies: the waves from last to first, each pair pulling
   ``sigma[u] / sigma[v] (1 + delta[v])`` along its tight out-arcs (no atomics but
   the sums per vertex and per arc).

Hop counts run the same way with unit lengths (a round is then exactly a BFS
level).  Zero-weight arcs (tied distances along an arc, which the settled order
of the CPU decides) run on the host: :mod:`graphs.centrality` sends them there.

Distance statistics, hop counts: bit-parallel BFS (Then et al., "The More the
Merrier", PVLDB 8(4), 2014), 64 sources per ``uint64`` word and many words per
launch, in planes of words (``plane[j * n + v]``): a level is one pull launch over
every (vertex, word) whose word is not yet full, ORing the in-neighbours' frontier
words; each warp ORs its new words for the eccentricities (one ``atomicOr`` per
warp), and a counting launch adds the new bits per source for closeness and
harmonic centrality.  (Weighted statistics read rows of
:func:`graphs.multi_source_sssp` on the device: :mod:`graphs.distance_measures`.)
"""

from __future__ import annotations

import functools

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, build_module

__all__ = ["brandes_gpu", "hop_stats_gpu"]

#: Bytes of the batch arrays of betweenness (distances, counts, dependencies, stamps, in-degrees, waves).
BATCH_BYTES = 12 << 30
#: Bytes of the frontier, next and seen planes of the bit-parallel BFS.
PLANE_BYTES = 6 << 30

SOURCE = r"""
typedef unsigned long long u64;
typedef long long i64;

extern "C" __global__ void bc_init(const int* __restrict__ src, int S, long long n,
                                   u64* dist, double* sigma, int* queue) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= S) return;
    long long p = i * n + src[i];
    dist[p] = 0ULL;  // the bits of 0.0
    sigma[p] = 1.0;
    queue[i] = (int)p;
}

// One round of frontier Bellman-Ford over all the batch's pairs in the queue.
extern "C" __global__ void bc_relax(const int* __restrict__ queue, int qlen, long long n,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ w, u64* dist, int* stamp, int round,
                                    int* next, int* nlen) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= qlen) return;
    long long p = queue[e];
    long long s = p / n, v = p - s * n;
    double dv = __longlong_as_double((i64)dist[p]);
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        double nd = dv + w[a];
        u64 bits = (u64)__double_as_longlong(nd);
        if (bits < dist[q]) {
            u64 old = atomicMin(dist + q, bits);
            if (bits < old && atomicExch(stamp + q, round) != round) {
                next[atomicAdd(nlen, 1)] = (int)q;
            }
        }
    }
}

// Tight in-degree of every reached pair.
extern "C" __global__ void bc_indegree(int S, long long n, const long long* __restrict__ indptr,
                                       const int* __restrict__ indices, const double* __restrict__ w,
                                       const u64* __restrict__ dist, int* indeg) {
    long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (p >= (long long)S * n) return;
    u64 db = dist[p];
    if (db == 0x7FF0000000000000ULL) return;  // +inf: not reached
    long long s = p / n, v = p - s * n;
    double dv = __longlong_as_double((i64)db);
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        if (indices[a] != v && dv + w[a] == __longlong_as_double((i64)dist[q])) atomicAdd(indeg + q, 1);
    }
}

// One wave of Kahn's order: counts flow along tight arcs; a pair whose last tight in-arc arrived is queued.
extern "C" __global__ void bc_count(const int* __restrict__ wave, int wlen, long long n,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ w, const u64* __restrict__ dist, double* sigma,
                                    int* indeg, int* next, int* nlen) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= wlen) return;
    long long p = wave[e];
    long long s = p / n, v = p - s * n;
    double dv = __longlong_as_double((i64)dist[p]);
    double sv = sigma[p];
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        if (indices[a] != v && dv + w[a] == __longlong_as_double((i64)dist[q])) {
            atomicAdd(sigma + q, sv);
            __threadfence();
            if (atomicSub(indeg + q, 1) == 1) next[atomicAdd(nlen, 1)] = (int)q;
        }
    }
}

// One wave backwards: each pair pulls the dependencies of its tight successors (all in later waves).
extern "C" __global__ void bc_depend(const int* __restrict__ wave, int wlen, long long n,
                                     const long long* __restrict__ indptr, const int* __restrict__ indices,
                                     const double* __restrict__ w, const u64* __restrict__ dist,
                                     const double* __restrict__ sigma, double* delta, const int* __restrict__ src,
                                     int endpoints, int edges, double* bc, double* eb) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= wlen) return;
    long long p = wave[e];
    long long s = p / n, v = p - s * n;
    double dv = __longlong_as_double((i64)dist[p]);
    double sv = sigma[p];
    double acc = 0.0;
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        if (indices[a] != v && dv + w[a] == __longlong_as_double((i64)dist[q])) {
            double c = sv * (1.0 + delta[q]) / sigma[q];
            acc += c;
            if (edges) atomicAdd(eb + a, c);
        }
    }
    delta[p] = acc;
    if (v != src[s]) {
        atomicAdd(bc + v, endpoints ? acc + 1.0 : acc);
        if (endpoints) atomicAdd(bc + src[s], 1.0);
    }
}

// Bit-parallel BFS, one pull level over the planes j0..j0+W-1 (plane[j * n + v]).
extern "C" __global__ void ms_pull(long long n, int W, const long long* __restrict__ indptr,
                                   const int* __restrict__ indices, const u64* __restrict__ front, u64* seen,
                                   u64* next, u64* alive, int* changed) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    u64 nb = 0ULL;
    int j = 0;
    if (i < (long long)W * n) {
        j = (int)(i / n);
        long long x = i - (long long)j * n;
        u64 sx = seen[i];
        if (sx != ~0ULL) {
            u64 acc = 0ULL;
            const u64* f = front + (long long)j * n;
            for (long long a = indptr[x]; a < indptr[x + 1]; ++a) {
                acc |= f[indices[a]];
                if ((acc | sx) == ~0ULL) break;
            }
            nb = acc & ~sx;
            if (nb) seen[i] = sx | nb;
        }
        next[i] = nb;
    }
    // one atomicOr per warp and plane for the sources still alive at this level
    unsigned lane = threadIdx.x & 31;
    int j0 = __shfl_sync(0xffffffffu, j, 0);
    bool same = __all_sync(0xffffffffu, j == j0);
    if (same) {
        unsigned lo = __reduce_or_sync(0xffffffffu, (unsigned)(nb & 0xffffffffULL));
        unsigned hi = __reduce_or_sync(0xffffffffu, (unsigned)(nb >> 32));
        if (lane == 0 && (lo | hi)) {
            atomicOr(alive + j0, ((u64)hi << 32) | lo);
            atomicExch(changed, 1);
        }
    } else if (nb) {
        atomicOr(alive + j, nb);
        atomicExch(changed, 1);
    }
}

// Per source (plane j, bit b): how many vertices got bit b at this level.  Block: 64 threads, one per bit.
extern "C" __global__ void ms_count(long long n, int W, const u64* __restrict__ next, long long chunk,
                                    unsigned long long* count) {
    int j = blockIdx.y;
    int b = threadIdx.x;
    long long x0 = blockIdx.x * chunk, x1 = min(n, x0 + chunk);
    const u64* plane = next + (long long)j * n;
    unsigned long long c = 0;
    for (long long x = x0; x < x1; ++x) c += (plane[x] >> b) & 1ULL;
    if (c) atomicAdd(count + (long long)j * 64 + b, c);
}
"""


@functools.cache
def _module() -> cp.RawModule:
    return build_module(SOURCE, "bc_relax")


def _fn(name: str):
    return _module().get_function(name)


def _launch(name: str, count: int, *args) -> None:
    """``name`` over ``count`` threads (one per item: these kernels have no grid-stride loop)."""
    if count > 0:
        _fn(name)((-(-count // BLOCK),), (BLOCK,), args)


def brandes_gpu(P, src: np.ndarray, endpoints: bool, edges: bool, bar):
    """Raw vertex (and arc) dependencies summed over ``src``, as CuPy arrays.

    ``P``: a prepared graph (:func:`graphs.centrality.prepare`: host CSR, no
    zero weights); ``bar``: a progress bar counting sources.
    """
    w_host = P.weights
    n, nnz, k = P.indptr.shape[0] - 1, P.indices.shape[0], src.shape[0]
    indptr = cp.asarray(P.indptr)
    indices = cp.asarray(P.indices)
    w = cp.asarray(w_host, dtype=cp.float64) if w_host is not None else cp.ones(nnz, dtype=cp.float64)
    S = int(max(1, min(k, BATCH_BYTES // (40 * max(n, 1)), (2**31 - 1) // max(n, 1))))
    bc = cp.zeros(n, dtype=cp.float64)
    eb = cp.zeros(nnz if edges else 1, dtype=cp.float64)
    dist = cp.empty(S * n, dtype=cp.uint64)
    sigma = cp.empty(S * n, dtype=cp.float64)
    delta = cp.empty(S * n, dtype=cp.float64)
    stamp = cp.empty(S * n, dtype=cp.int32)
    indeg = cp.empty(S * n, dtype=cp.int32)
    waves = cp.empty(S * n, dtype=cp.int32)
    queue = cp.empty(S * n, dtype=cp.int32)
    nxt = cp.empty(S * n, dtype=cp.int32)
    nlen = cp.zeros(1, dtype=cp.int32)
    inf_bits = np.uint64(0x7FF0000000000000)
    for r0 in range(0, k, S):
        part = cp.asarray(src[r0:r0 + S])
        s = part.shape[0]
        dist.fill(inf_bits)
        sigma.fill(0)
        stamp.fill(-1)
        indeg.fill(0)
        _launch("bc_init", s, part, np.int32(s), np.int64(n), dist, sigma, queue)
        # 1. distances
        qlen, rnd = s, 0
        while qlen:
            nlen.fill(0)
            _launch("bc_relax", qlen, queue, np.int32(qlen), np.int64(n), indptr, indices, w, dist, stamp,
                    np.int32(rnd), nxt, nlen)
            qlen = int(nlen.get()[0])
            queue, nxt = nxt, queue
            rnd += 1
        # 2. tight in-degrees, then path counts in waves (written one after another into `waves`)
        _launch("bc_indegree", s * n, np.int32(s), np.int64(n), indptr, indices, w, dist, indeg)
        _launch("bc_init", s, part, np.int32(s), np.int64(n), dist, sigma, waves)
        bounds = [0, s]
        while bounds[-1] > bounds[-2]:
            a, b = bounds[-2], bounds[-1]
            nlen.fill(0)
            _launch("bc_count", b - a, waves[a:], np.int32(b - a), np.int64(n), indptr, indices, w, dist,
                    sigma, indeg, waves[b:], nlen)
            bounds.append(b + int(nlen.get()[0]))
        # 3. dependencies, last wave first
        for i in range(len(bounds) - 2, 0, -1):
            a, b = bounds[i - 1], bounds[i]
            _launch("bc_depend", b - a, waves[a:], np.int32(b - a), np.int64(n), indptr, indices, w, dist,
                    sigma, delta, part, np.int32(endpoints), np.int32(edges), bc, eb)
        bar.update(s)
    return bc, (eb if edges else None)


def _unpack(words: cp.ndarray) -> cp.ndarray:
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
            _launch("ms_pull", W * n, np.int64(n), np.int32(W), T.indptr, T.indices, front, seen, nxt, alive,
                    changed)
            if int(changed.get()[0]) == 0:
                break
            live = _unpack(alive[:nw])[: s1 - s0]
            ecc[s0:s1] = cp.where(live, level, ecc[s0:s1])
            if need_sums:
                count.fill(0)
                grid = (max(1, -(-n // chunk)), nw)
                _fn("ms_count")(grid, (64,), (np.int64(n), np.int32(nw), nxt, np.int64(chunk), count))
                c = count[: 64 * nw].astype(cp.int64)[: s1 - s0]
                total[s0:s1] += c * level
                reached[s0:s1] += c
                harmonic[s0:s1] += c / level
            front, nxt = nxt, front
        bar.update(s1 - s0)
    return total, reached, harmonic, ecc
