// The bit-parallel BFS (graphs/cuda/bit_bfs.py): 64 sources per uint64 word, planes of words,
// plane[j * n + v] holding bit b for source 64 j + b; a level is one pull launch over every (plane, vertex).
// Used by the hop-count rows of the many-source engine and by the hop-count distance statistics.
#include "batched_search.cuh"

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

// Rows of hop distances: each new bit b of (plane j, vertex x) writes `level` at row 64 j + b, column x of
// `out` (64 W rows of n columns, row-major).
extern "C" __global__ void ms_rows(long long n, int W, const u64* __restrict__ next, double level, double* out) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= (long long)W * n) return;
    u64 m = next[i];
    if (m == 0ULL) return;
    int j = (int)(i / n);
    long long x = i - (long long)j * n;
    double* base = out + (long long)64 * j * n + x;
    while (m) {
        int b = __ffsll((long long)m) - 1;
        m &= m - 1;
        base[(long long)b * n] = level;
    }
}
