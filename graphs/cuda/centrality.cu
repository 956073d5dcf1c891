// Kernels of betweenness centrality and the distance statistics (graphs/cuda/centrality.py,
// graphs/cuda/distance.py).  Self-contained: compiled as it is by semiring.cuda_kernels.build_module.
//
// Betweenness: a batch of S sources on S x n arrays, pair (s, v) at s * n + v (int32: the
// driver keeps S * n below 2**31).  Distances are the bits of non-negative doubles in u64
// words (their order as integers is their numeric order, so atomicMin on the bits is a min
// on the values); +inf (0x7FF0000000000000) is "not reached".
//
// Bit-parallel BFS: planes of uint64 words, plane[j * n + v] holding bit b for source 64 j + b.
typedef unsigned long long u64;
typedef long long i64;

#define INF_BITS 0x7FF0000000000000ULL
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ double as_double(u64 b) { return __longlong_as_double((i64)b); }
__device__ __forceinline__ u64 as_bits(double d) { return (u64)__double_as_longlong(d); }

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

// ---------------------------------------------------------------------------------------------
// Betweenness, 1: distances by near-far delta-stepping over all the batch's pairs.
// ---------------------------------------------------------------------------------------------

// The batch's sources: distance 0, one path, listed in `queue` (the first near round, or the first wave).
extern "C" __global__ void bc_start(const int* __restrict__ src, int S, long long n, u64* dist, double* sigma,
                                    int* queue) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= S) return;
    long long p = i * n + src[i];
    dist[p] = 0ULL;  // the bits of 0.0
    sigma[p] = 1.0;
    queue[i] = (int)p;
}

// One near round: each queued pair relaxes its out-arcs.  A head improved below `thr` joins the next
// round (once per round: the stamp), one improved to `thr` or more joins the far list (once: the flag).
extern "C" __global__ void bc_relax(const int* __restrict__ queue, int qlen, long long n,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ w, u64* dist, double thr, int* stamp, int round,
                                    int* near, int* near_len, int* far, int* far_len, int* in_far) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= qlen) return;
    long long p = queue[e];
    long long s = p / n, v = p - s * n;
    long long base = s * n;
    double dv = as_double(dist[p]);
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = base + indices[a];
        double nd = dv + w[a];
        u64 bits = as_bits(nd);
        if (bits < dist[q]) {
            u64 old = atomicMin(dist + q, bits);
            if (bits < old) {
                if (nd < thr) {
                    if (atomicExch(stamp + q, round) != round) near[append(near_len)] = (int)q;
                } else if (atomicExch(in_far + q, 1) == 0) {
                    far[append(far_len)] = (int)q;
                }
            }
        }
    }
}

// The far list at a new threshold: pairs below `lo` were relaxed at their distance already (dropped),
// pairs in [lo, hi) are the next near round, the rest stay far; `minfar` gets the least distance kept.
extern "C" __global__ void bc_split(const int* __restrict__ far, int flen, const u64* __restrict__ dist, double lo,
                                    double hi, int* near, int* near_len, int* keep, int* keep_len, int* in_far,
                                    u64* minfar) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    u64 m = ~0ULL;
    if (e < flen) {
        int p = far[e];
        u64 b = dist[p];
        double d = as_double(b);
        if (d < lo) {
            in_far[p] = 0;
        } else if (d < hi) {
            in_far[p] = 0;
            near[append(near_len)] = p;
        } else {
            keep[append(keep_len)] = p;
            m = b;
        }
    }
    __syncwarp();
    for (int off = 16; off > 0; off >>= 1) {
        u64 o = __shfl_down_sync(FULL_MASK, m, off);
        m = o < m ? o : m;
    }
    if ((threadIdx.x & 31) == 0 && m != ~0ULL) atomicMin(minfar, m);
}

// ---------------------------------------------------------------------------------------------
// Betweenness, 2: path counts in waves of Kahn's order over the tight arcs.
// ---------------------------------------------------------------------------------------------

// Tight in-degree of every reached pair.
extern "C" __global__ void bc_indegree(int S, long long n, const long long* __restrict__ indptr,
                                       const int* __restrict__ indices, const double* __restrict__ w,
                                       const u64* __restrict__ dist, int* indeg) {
    long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (p >= (long long)S * n) return;
    u64 db = dist[p];
    if (db == INF_BITS) return;  // not reached
    long long s = p / n, v = p - s * n;
    double dv = as_double(db);
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        if (indices[a] != v && dv + w[a] == as_double(dist[q])) atomicAdd(indeg + q, 1);
    }
}

// One wave: counts flow along tight arcs; a pair whose last tight in-arc arrived is queued.
extern "C" __global__ void bc_count(const int* __restrict__ wave, int wlen, long long n,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ w, const u64* __restrict__ dist, double* sigma,
                                    int* indeg, int* next, int* nlen) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= wlen) return;
    long long p = wave[e];
    long long s = p / n, v = p - s * n;
    double dv = as_double(dist[p]);
    double sv = sigma[p];
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        if (indices[a] != v && dv + w[a] == as_double(dist[q])) {
            atomicAdd(sigma + q, sv);
            __threadfence();
            if (atomicSub(indeg + q, 1) == 1) next[append(nlen)] = (int)q;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Betweenness, 3: dependencies, the waves from last to first.
// ---------------------------------------------------------------------------------------------

// Each pair of the wave pulls the dependencies of its tight successors (all in later waves).
extern "C" __global__ void bc_depend(const int* __restrict__ wave, int wlen, long long n,
                                     const long long* __restrict__ indptr, const int* __restrict__ indices,
                                     const double* __restrict__ w, const u64* __restrict__ dist,
                                     const double* __restrict__ sigma, double* delta, int edges, double* eb) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= wlen) return;
    long long p = wave[e];
    long long s = p / n, v = p - s * n;
    double dv = as_double(dist[p]);
    double sv = sigma[p];
    double acc = 0.0;
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = s * n + indices[a];
        if (indices[a] != v && dv + w[a] == as_double(dist[q])) {
            double c = sv * (1.0 + delta[q]) / sigma[q];
            acc += c;
            if (edges) atomicAdd(eb + a, c);
        }
    }
    delta[p] = acc;
}

// bc[v] += the dependencies of v over the batch's sources (other than v), + 1 per source reaching v with
// `endpoints`.  Grid: (vertices, chunks of `chunk` sources); one atomicAdd per vertex and chunk.
extern "C" __global__ void bc_colsum(int S, long long n, const double* __restrict__ delta,
                                     const u64* __restrict__ dist, const int* __restrict__ src, int endpoints,
                                     int chunk, double* bc) {
    long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (v >= n) return;
    int s0 = blockIdx.y * chunk, s1 = min(S, s0 + chunk);
    double acc = 0.0;
    for (int s = s0; s < s1; ++s) {
        long long p = (long long)s * n + v;
        if (src[s] == v) continue;
        if (endpoints) {
            if (dist[p] != INF_BITS) acc += delta[p] + 1.0;
        } else {
            acc += delta[p];
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
