// Kernels of betweenness centrality and the distance statistics (graphs/cuda/centrality.py,
// graphs/cuda/distance.py).  Self-contained: compiled as it is by semiring.cuda_kernels.build_module.
//
// Betweenness: a batch of S sources on S x n records, pair (s, v) at s * n + v (int32: the
// driver keeps S * n below 2**31).  A pair's record holds all it has (32 bytes: one memory
// sector, so a visit to a pair costs one sector whichever fields it reads).  Distances are
// the bits of non-negative doubles in u64 words (their order as integers is their numeric
// order, so atomicMin on the bits is a min on the values); +inf (0x7FF0000000000000) is
// "not reached".
//
// Bit-parallel BFS: planes of uint64 words, plane[j * n + v] holding bit b for source 64 j + b.
typedef unsigned long long u64;
typedef long long i64;

#define INF_BITS 0x7FF0000000000000ULL
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ double as_double(u64 b) { return __longlong_as_double((i64)b); }
__device__ __forceinline__ u64 as_bits(double d) { return (u64)__double_as_longlong(d); }

// Ask L2 for the sector at `p` now (no register waits for it): the atomics that follow find it there, so a
// thread's arcs go to memory together rather than one after another.  Measured on an H200: the path counts 1.8x
// faster (their atomics are the first touch of a record); the search, the dependencies and the in-degrees slower
// (they read the records first anyway), so only the counts prefetch.
__device__ __forceinline__ void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

// Slot for one item in a list whose length is *counter: one atomic per converged group of lanes.
__device__ __forceinline__ int append(int* counter) {
    unsigned mask = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    int rank = __popc(mask & ((1u << lane) - 1u));
    int base = 0;
    if (lane == leader) base = atomicAdd(counter, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + rank;
}

// One (source, vertex) pair of a batch.
struct __align__(32) Pair {
    u64 dist;      // the bits of its distance
    double sigma;  // shortest paths to it
    union {
        int indeg;     // while the path counts run: tight in-arcs whose tail is not counted yet (0 at the end:
        double delta;  // delta +0.0); then its dependency
    };
    union {
        int stamp;          // during the search: the last near round that queued it
        unsigned in_tight;  // then its tight in-arcs (for_tight_arcs over the transposed arcs)
    };
    unsigned flags;  // during the search: on the far list (1); then its tight out-arcs (for_tight_arcs)
};

// ---------------------------------------------------------------------------------------------
// Betweenness, 1: distances by near-far delta-stepping over all the batch's pairs.
// ---------------------------------------------------------------------------------------------

// Every pair of the batch: not reached, no path, never queued.
extern "C" __global__ void bc_clear(Pair* R, long long count) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= count) return;
    Pair r;
    r.dist = INF_BITS;
    r.sigma = 0.0;
    r.delta = 0.0;
    r.stamp = -1;
    r.flags = 0u;
    R[i] = r;
}

// The batch's sources: distance 0, one path, listed in `queue` (the first near round, or the first wave).
extern "C" __global__ void bc_start(const int* __restrict__ src, int S, int n, Pair* R, int* queue) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= S) return;
    int p = i * n + src[i];
    R[p].dist = 0ULL;  // the bits of 0.0
    R[p].sigma = 1.0;
    queue[i] = p;
}

// The search runs on the device from one launch to the next: the host launches bc_step and bc_advance in
// chunks and reads `st` only between chunks.  st: the state of the batch's search (ints), th: thresholds,
// aux: the least distance kept on the far list, and the number of pair relaxations (statistics).
#define ST_MODE 0    // MODE_RELAX, MODE_SPLIT or MODE_DONE
#define ST_PQ 1      // parity of the queues: the current round reads q1 if set, else q0
#define ST_PF 2      // parity of the far lists: the current far list is f1 if set, else f0
#define ST_QLEN 3    // pairs in the current round's queue
#define ST_NLEN 4    // pairs appended to the next round's queue
#define ST_FLEN 5    // pairs on the current far list
#define ST_KLEN 6    // pairs kept on the other far list by a split
#define ST_ROUND 7   // near rounds so far (the stamps)
#define ST_WNUM 8    // path counts: waves so far (bounds[0..WNUM] hold their ends)
#define ST_WC 9      // pairs appended to the next wave
#define ST_WDONE 10  // path counts: no pair left
#define ST_DK 11     // dependencies: the wave to pull next (k: [bounds[k - 1], bounds[k])), 0 when done
#define ST_SIZE 16
#define TH_THR 0
#define TH_LO 1
#define TH_HI 2
#define TH_DELTA 3
#define MODE_RELAX 0
#define MODE_SPLIT 1
#define MODE_DONE 2

// One step of near-far delta-stepping over all the batch's pairs, as st[ST_MODE] says:
// MODE_RELAX: each pair of the current round relaxes its out-arcs.  A head improved below the threshold
//   joins the next round (once per round: the stamp), one improved to the threshold or more joins the far
//   list (once: the flag).
// MODE_SPLIT: the far list at a new bucket [lo, hi): pairs below `lo` were relaxed at their distance already
//   (dropped), pairs in [lo, hi) make the next round, the rest stay far; aux[0] gets the least distance kept.
// Grid-stride loops: the lengths are on the device.
extern "C" __global__ void bc_step(const int* st, const double* th, int n, const long long* __restrict__ indptr,
                                   const int* __restrict__ indices, const double* __restrict__ w, Pair* R, int* q0,
                                   int* q1, int* f0, int* f1, int* cnt, u64* aux) {
    int mode = st[ST_MODE];
    int stride = gridDim.x * blockDim.x;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (mode == MODE_RELAX) {
        const int* queue = st[ST_PQ] ? q1 : q0;
        int* near = st[ST_PQ] ? q0 : q1;
        int* far = st[ST_PF] ? f1 : f0;
        int qlen = st[ST_QLEN], round = st[ST_ROUND];
        double thr = th[TH_THR];
        for (int e = tid; e < qlen; e += stride) {
            int p = queue[e];
            int s = p / n, v = p - s * n;
            int base = s * n;
            double dv = as_double(R[p].dist);
            long long a1 = indptr[v + 1];
            for (long long a = indptr[v]; a < a1; ++a) {
                int q = base + indices[a];
                double nd = dv + w[a];
                u64 bits = as_bits(nd);
                if (bits < R[q].dist) {
                    u64 old = atomicMin(&R[q].dist, bits);
                    if (bits < old) {
                        if (nd < thr) {
                            if (atomicExch(&R[q].stamp, round) != round) near[append(cnt + ST_NLEN)] = q;
                        } else if (atomicExch(&R[q].flags, 1u) == 0u) {
                            far[append(cnt + ST_FLEN)] = q;
                        }
                    }
                }
            }
        }
    } else if (mode == MODE_SPLIT) {
        const int* far = st[ST_PF] ? f1 : f0;
        int* keep = st[ST_PF] ? f0 : f1;
        int* near = st[ST_PQ] ? q0 : q1;  // the next round's queue
        int flen = st[ST_FLEN];
        double lo = th[TH_LO], hi = th[TH_HI];
        u64 m = ~0ULL;
        for (int e = tid; e < flen; e += stride) {
            int p = far[e];
            u64 b = R[p].dist;
            double d = as_double(b);
            if (d < lo) {
                R[p].flags = 0u;
            } else if (d < hi) {
                R[p].flags = 0u;
                near[append(cnt + ST_NLEN)] = p;
            } else {
                keep[append(cnt + ST_KLEN)] = p;
                m = b < m ? b : m;
            }
        }
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            u64 o = __shfl_down_sync(FULL_MASK, m, off);
            m = o < m ? o : m;
        }
        if ((threadIdx.x & 31) == 0 && m != ~0ULL) atomicMin(aux, m);
    }
}

// After each bc_step (one thread): the counts of the step become the next state.  `st` is read by the
// steps, `cnt` written by them (the same layout; separate arrays, so no step reads what another writes).
extern "C" __global__ void bc_advance(int* st, int* cnt, double* th, u64* aux) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    int mode = st[ST_MODE];
    if (mode == MODE_DONE) return;
    int q = cnt[ST_NLEN];
    cnt[ST_NLEN] = 0;
    if (mode == MODE_RELAX) {
        aux[1] += (u64)st[ST_QLEN];
        st[ST_ROUND] += 1;
        st[ST_FLEN] = cnt[ST_FLEN];
    } else {  // MODE_SPLIT: the far list goes on from the kept pairs
        st[ST_FLEN] = cnt[ST_KLEN];
        cnt[ST_FLEN] = cnt[ST_KLEN];
        cnt[ST_KLEN] = 0;
        st[ST_PF] ^= 1;
        th[TH_THR] = th[TH_HI];
    }
    st[ST_QLEN] = q;
    st[ST_PQ] ^= 1;
    if (q > 0) {
        st[ST_MODE] = MODE_RELAX;
    } else if (st[ST_FLEN] == 0) {
        st[ST_MODE] = MODE_DONE;
    } else if (mode == MODE_RELAX) {  // the bucket is done: split the far list at the next one
        th[TH_LO] = th[TH_THR];
        th[TH_HI] = th[TH_THR] + th[TH_DELTA];
        st[ST_MODE] = MODE_SPLIT;
    } else {  // an empty bucket: skip to the one of the least distance kept
        th[TH_LO] = th[TH_HI];
        th[TH_HI] = as_double(aux[0]) + th[TH_DELTA];
    }
    if (mode == MODE_SPLIT) aux[0] = ~0ULL;
}

// ---------------------------------------------------------------------------------------------
// Betweenness, 2: path counts in waves of Kahn's order over the tight arcs.
// ---------------------------------------------------------------------------------------------

// Tight in-degree of every reached pair, and its tight out-arcs: bit j of flags for arc j of v (j < 31;
// arcs from the 32nd on are checked against the distances where they are used).
extern "C" __global__ void bc_indegree(int S, int n, const long long* __restrict__ indptr,
                                       const int* __restrict__ indices, const double* __restrict__ w, Pair* R) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= (long long)S * n) return;
    int p = (int)i;
    u64 db = R[p].dist;
    unsigned mask = 0u;
    if (db != INF_BITS) {  // reached
        int s = p / n, v = p - s * n;
        double dv = as_double(db);
        long long a0 = indptr[v], a1 = indptr[v + 1];
        for (long long a = a0; a < a1; ++a) {
            int u = indices[a];
            if (u != v && dv + w[a] == as_double(R[s * n + u].dist)) {
                atomicAdd(&R[s * n + u].indeg, 1);
                if (a - a0 < 31) mask |= 1u << (a - a0);
            }
        }
    }
    R[p].flags = mask;
}

// body(a) for each tight out-arc a of pair p (vertex v, row offset base; arcs a0..a1-1): the arcs a0 + j of
// its tight mask, then those from a0 + 31 on that are tight by the distances; in the order of the arcs.
template <typename Body>
__device__ __forceinline__ void for_tight_arcs(const Pair* R, int p, unsigned flags, int v, int base, long long a0,
                                               long long a1, const int* __restrict__ indices,
                                               const double* __restrict__ w, Body body) {
    for (unsigned m = flags; m; m &= m - 1u) body(a0 + (__ffs(m) - 1));
    if (a1 - a0 > 31) {
        double dv = as_double(R[p].dist);
        for (long long a = a0 + 31; a < a1; ++a)
            if (indices[a] != v && dv + w[a] == as_double(R[base + indices[a]].dist)) body(a);
    }
}

// body(p, v, base) for each pair p = base + v of wave k, [bounds[k - 1], bounds[k]) of `waves` (grid-stride).
template <typename Body>
__device__ __forceinline__ void for_wave_pairs(const int* __restrict__ bounds, const int* waves, int k, int n,
                                               Body body) {
    int lo = bounds[k - 1], hi = bounds[k];
    int stride = gridDim.x * blockDim.x;
    for (int e = lo + blockIdx.x * blockDim.x + threadIdx.x; e < hi; e += stride) {
        int p = waves[e];
        int s = p / n;
        body(p, p - s * n, s * n);
    }
}

// One wave, [bounds[WNUM - 1], bounds[WNUM]) of `waves`: counts flow along tight arcs; a pair whose last tight
// in-arc arrived joins the next wave (appended after this one).  No fence between the count and the in-degree:
// the pair is read in a later launch.
extern "C" __global__ void bc_count(const int* st, const int* __restrict__ bounds, int* waves, int n,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ w, Pair* R, int* cnt) {
    if (st[ST_WDONE]) return;
    int k = st[ST_WNUM];
    int hi = bounds[k];
    for_wave_pairs(bounds, waves, k, n, [&](int p, int v, int base) {
        Pair r = R[p];
        long long a0 = indptr[v], a1 = indptr[v + 1];
        for (unsigned m = r.flags; m; m &= m - 1u) prefetch_l2(&R[base + indices[a0 + (__ffs(m) - 1)]]);
        for_tight_arcs(R, p, r.flags, v, base, a0, a1, indices, w, [&](long long a) {
            int q = base + indices[a];
            atomicAdd(&R[q].sigma, r.sigma);
            if (atomicSub(&R[q].indeg, 1) == 1) waves[hi + append(cnt + ST_WC)] = q;
        });
    });
}

// After each bc_count (one thread): the next wave's end, or the end of the counts.
extern "C" __global__ void bc_count_advance(int* st, int* cnt, int* bounds) {
    if (blockIdx.x != 0 || threadIdx.x != 0 || st[ST_WDONE]) return;
    int c = cnt[ST_WC];
    cnt[ST_WC] = 0;
    if (c == 0) {
        st[ST_WDONE] = 1;
        st[ST_DK] = st[ST_WNUM];  // the dependencies start from the last wave
        return;
    }
    int k = st[ST_WNUM];
    bounds[k + 1] = bounds[k] + c;
    st[ST_WNUM] = k + 1;
}

// ---------------------------------------------------------------------------------------------
// Betweenness, 3: dependencies, the waves from last to first.
// ---------------------------------------------------------------------------------------------

// Each pair of wave st[ST_DK] pulls the dependencies of its tight successors (all in later waves).
extern "C" __global__ void bc_depend(const int* st, const int* __restrict__ bounds, const int* __restrict__ waves,
                                     int n, const long long* __restrict__ indptr, const int* __restrict__ indices,
                                     const double* __restrict__ w, Pair* R, int edges, double* eb) {
    int k = st[ST_DK];
    if (k == 0) return;
    for_wave_pairs(bounds, waves, k, n, [&](int p, int v, int base) {
        Pair r = R[p];
        double acc = 0.0;
        long long a0 = indptr[v], a1 = indptr[v + 1];
        for_tight_arcs(R, p, r.flags, v, base, a0, a1, indices, w, [&](long long a) {
            int q = base + indices[a];
            double c = r.sigma * (1.0 + R[q].delta) / R[q].sigma;
            acc += c;
            if (edges) atomicAdd(eb + a, c);
        });
        R[p].delta = acc;
    });
}

// After each bc_depend (one thread): the wave before.
extern "C" __global__ void bc_depend_advance(int* st) {
    if (blockIdx.x == 0 && threadIdx.x == 0 && st[ST_DK] > 0) st[ST_DK] -= 1;
}

// bc[v] += the dependencies of v over the batch's sources (other than v), + 1 per source reaching v with
// `endpoints`.  Grid: (vertices, chunks of `chunk` sources); one atomicAdd per vertex and chunk.
extern "C" __global__ void bc_colsum(int S, long long n, const Pair* __restrict__ R, const int* __restrict__ src,
                                     int endpoints, int chunk, double* bc) {
    long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (v >= n) return;
    int s0 = blockIdx.y * chunk, s1 = min(S, s0 + chunk);
    double acc = 0.0;
    for (int s = s0; s < s1; ++s) {
        long long p = (long long)s * n + v;
        if (src[s] == v) continue;
        if (endpoints) {
            if (R[p].dist != INF_BITS) acc += R[p].delta + 1.0;
        } else {
            acc += R[p].delta;
        }
    }
    if (acc != 0.0) atomicAdd(bc + v, acc);
}

// ---------------------------------------------------------------------------------------------
// Bit-parallel BFS.
// ---------------------------------------------------------------------------------------------

// One pull level over the planes 0..W-1 (plane[j * n + v]).  With `lev` (not null), each new bit b
// of (j, x) writes `level` into lev[(j * n + x) * 64 + b] (the hop distance of the pair).
extern "C" __global__ void ms_pull(long long n, int W, const long long* __restrict__ indptr,
                                   const int* __restrict__ indices, const u64* __restrict__ front, u64* seen,
                                   u64* next, u64* alive, int* changed, unsigned short* lev, int level) {
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
        if (lev != nullptr && nb) {
            unsigned short* row = lev + i * 64;
            u64 m = nb;
            while (m) {
                int b = __ffsll((long long)m) - 1;
                m &= m - 1;
                row[b] = (unsigned short)level;
            }
        }
    }
    // one atomicOr per warp and plane for the sources still alive at this level
    unsigned lane = threadIdx.x & 31;
    int j0 = __shfl_sync(FULL_MASK, j, 0);
    bool same = __all_sync(FULL_MASK, j == j0);
    if (same) {
        unsigned lo = __reduce_or_sync(FULL_MASK, (unsigned)(nb & 0xffffffffULL));
        unsigned hi = __reduce_or_sync(FULL_MASK, (unsigned)(nb >> 32));
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

// Eccentricity bounds from a batch of B sources (Takes & Kosters): for each source s with eccentricity
// e_s and hop distance d = d(s, x), max(d, e_s - d) <= ecc(x) <= e_s + d (undirected graphs).
// lev as ms_pull writes it (0xFFFF: not reached; the caller checked the graph is connected).
extern "C" __global__ void ecc_bounds(long long n, int W, int B, const unsigned short* __restrict__ lev,
                                      const long long* __restrict__ ecc, long long* lo, long long* hi) {
    long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (x >= n) return;
    long long l = lo[x], h = hi[x];
    for (int j = 0; j < W; ++j) {
        const unsigned short* row = lev + ((long long)j * n + x) * 64;
        int bmax = min(64, B - 64 * j);
        for (int b = 0; b < bmax; ++b) {
            int L = row[b];
            if (L == 0xFFFF) continue;
            long long e = ecc[64 * j + b];
            long long a = e - L > L ? e - L : L;
            if (a > l) l = a;
            if (e + L < h) h = e + L;
        }
    }
    lo[x] = l;
    hi[x] = h;
}
