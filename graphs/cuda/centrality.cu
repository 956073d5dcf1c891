// Kernels of betweenness centrality and the distance statistics (graphs/cuda/centrality.py,
// graphs/cuda/distance.py).  Betweenness starts from the distances of the batched search
// (batched_search.cu, on the records of batched_search.cuh); this file has its path counts and dependencies.
// The hop-count statistics run on the bit-parallel BFS of bit_bfs.cu; the eccentricity bounds below fold
// the levels it writes.
#include "batched_search.cuh"

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
// Eccentricity bounds (the levels of the bit-parallel BFS of bit_bfs.cu).
// ---------------------------------------------------------------------------------------------

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
