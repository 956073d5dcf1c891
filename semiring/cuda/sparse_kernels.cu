// Sparse semiring kernels (SpMV gather / scatter, SpMM) and the graph-frontier kernels
// built on them (BFS push / pull, near-far SSSP, connected components).
//
// The host (semiring/cuda/sparse.py) defines the semiring macros of prelude.cuh
// (SR_T, SR_ADD, SR_MUL, SR_ZERO) and SP_FLOAT (1 when SR_T is a floating type).
// Matrices are CSR: `ptr` is int64 (n + 1), `idx` int32, `val` SR_T; a CSC matrix
// is passed as the CSR of its transpose.  Flags of the semiring kernels:
//   SP_XFLAG   x is sparse: only entries with xflag[j] != 0 take part (pull SpMSpV)
//   SP_MASK    allow[i] == 0 rows are left alone (structural mask, complemented on the host)
//   SP_ACCUM   y[i] = add(y[i], result) instead of y[i] = result
//   SP_XFIRST  the product is mul(x, a) (vxm) instead of mul(a, x) (mxv)
//
// References: Bell & Garland, "Implementing sparse matrix-vector multiplication on
// throughput-oriented processors", SC 2009 (CSR-vector); Merrill, Garland & Grimshaw,
// "Scalable GPU graph traversal", PPoPP 2012 (warp-cooperative neighbour gathering);
// Beamer et al., SC 2012 (direction-optimising BFS); Li & Becchi, IPDPS 2013 (adaptive
// working sets); Davidson, Baxter, Garland & Owens, IPDPS 2014 (near-far SSSP);
// Soman, Kishore & Narayanan, IPDPS workshops 2010 (hook and shortcut components).
#include "prelude.cuh"

#ifndef SP_FLOAT
#define SP_FLOAT 1
#endif

#define SP_XFLAG 1
#define SP_MASK 2
#define SP_ACCUM 4
#define SP_XFIRST 8
#define SP_FULL 0xffffffffu

typedef long long i64;
typedef unsigned long long u64;

// ---------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------
__device__ __forceinline__ T sp_prod(T a, T x, int flags) {
    return (flags & SP_XFIRST) ? sr_mul_op(x, a) : sr_mul_op(a, x);
}

__device__ __forceinline__ T sp_shfl_down(T v, int off, int width) {
    if constexpr (sizeof(T) == 1) {
        return (T)__shfl_down_sync(SP_FULL, (int)v, off, width);
    } else {
        return __shfl_down_sync(SP_FULL, v, off, width);
    }
}

__device__ __forceinline__ T sp_shfl(T v, int src) {
    if constexpr (sizeof(T) == 1) {
        return (T)__shfl_sync(SP_FULL, (int)v, src);
    } else {
        return __shfl_sync(SP_FULL, v, src);
    }
}

__device__ __forceinline__ u64 sp_warp_sum(u64 v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(SP_FULL, v, off);
    return v;
}

// Warp-stride loops: this warp's index in the grid and the number of warps.
__device__ __forceinline__ i64 sp_warp_id() { return ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; }
__device__ __forceinline__ i64 sp_warp_count() { return ((i64)gridDim.x * blockDim.x) >> 5; }

// Position for one item in a list whose length is *counter: one atomic per converged group of lanes.
__device__ __forceinline__ int sp_append(int* counter) {
    unsigned mask = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    int rank = __popc(mask & ((1u << lane) - 1u));
    int base = 0;
    if (lane == leader) base = atomicAdd(counter, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + rank;
}

// Long rows are cut into chunks of `chunk` arcs, each listed as (row, chunk number) for a
// warp of a second kernel, so a power-law hub is spread over the whole GPU.  Called by all
// 32 lanes (converged); a lane with nch > 0 lists the nch chunks of its `row`, and the
// warp writes each row's entries together (one atomic per row; a row's chunks are contiguous).
__device__ __forceinline__ void sp_list_chunks(int row, int nch, int* crow, int* cnum, int* count) {
    const int lane = threadIdx.x & 31;
    unsigned todo = __ballot_sync(SP_FULL, nch > 0);
    while (todo) {
        const int src = __ffs(todo) - 1;
        todo &= todo - 1;
        const int r = __shfl_sync(SP_FULL, row, src), c = __shfl_sync(SP_FULL, nch, src);
        int first = lane == 0 ? atomicAdd(count, c) : 0;
        first = __shfl_sync(SP_FULL, first, 0);
        for (int k = lane; k < c; k += 32) {
            crow[first + k] = r;
            cnum[first + k] = k;
        }
    }
}

// The arcs [e0, e1) of chunk k of the list: row crow[k], chunk cnum[k].
__device__ __forceinline__ int sp_chunk_range(const i64* ptr, const int* crow, const int* cnum, i64 k, int chunk,
                                              i64& e0, i64& e1) {
    const int r = crow[k];
    const i64 b = ptr[r + 1];
    e0 = ptr[r] + (i64)cnum[k] * chunk;
    e1 = e0 + chunk < b ? e0 + chunk : b;
    return r;
}

// f(k, row, e0, e1) for every chunk k of the list, a warp per chunk (warp-stride over *count).
template <typename F>
__device__ __forceinline__ void sp_for_each_chunk(const i64* ptr, const int* crow, const int* cnum, const int* count,
                                                  int chunk, F&& f) {
    const int cc = *count;
    for (i64 k = sp_warp_id(); k < cc; k += sp_warp_count()) {
        i64 e0, e1;
        const int r = sp_chunk_range(ptr, crow, cnum, k, chunk, e0, e1);
        f(k, r, e0, e1);
    }
}

// *addr = add(*addr, val) by compare-and-swap on the word W that holds a T.
template <typename W>
__device__ __forceinline__ void sp_cas_add(T* addr, T val) {
    union {
        T t;
        W u;
    } cur, nw;
    W* a = reinterpret_cast<W*>(addr);
    W old = *a, assumed;
    do {
        assumed = old;
        cur.u = assumed;
        nw.t = sr_add_op(cur.t, val);
        if (nw.u == assumed) return;
        old = atomicCAS(a, assumed, nw.u);
    } while (old != assumed);
}

// *addr = add(*addr, val), atomically, for any semiring.
__device__ __forceinline__ void sp_atomic_add(T* addr, T val) {
    if constexpr (sizeof(T) == 1) {
        if (val) *(volatile unsigned char*)addr = (unsigned char)1;  // lor_land: a | b
    } else if constexpr (sizeof(T) == 4) {
        sp_cas_add<unsigned int>(addr, val);
    } else {
        sp_cas_add<unsigned long long>(addr, val);
    }
}

// atomic min for values >= 0 (floats order like their bit patterns there); returns the old value.
// (A template so that `if constexpr` discards the branches that do not apply to U.)
template <typename U>
__device__ __forceinline__ U sp_atomic_min_nonneg(U* addr, U val) {
#if SP_FLOAT
    if constexpr (sizeof(T) == 4) {
        return (U)__int_as_float(atomicMin(reinterpret_cast<int*>(addr), __float_as_int((float)val)));
    } else {
        return (U)__longlong_as_double(
            (long long)atomicMin(reinterpret_cast<long long*>(addr), (long long)__double_as_longlong((double)val)));
    }
#else
    if constexpr (sizeof(U) == 1) {
        const U old = *addr;  // never used for SSSP (bool); here so that the file compiles for every type
        if (val < old) *addr = val;
        return old;
    } else {
        return atomicMin(addr, val);
    }
#endif
}

// ---------------------------------------------------------------------------------
// semiring SpMV, gather form: y[i] (+)= add_e mul(A[i, e], x[idx[e]])
// `group` lanes per row (a power of two <= 32).  A row longer than `heavy_min` is cut
// into chunks of `chunk` arcs, listed (row, chunk number) in crow / cnum; a warp per
// chunk reduces it (sp_gather_chunks), straight into y when the row is one chunk, else
// into part[] / pgot[], which sp_gather_fixup then combines per row in chunk order
// (deterministic, also for a non-idempotent add).  A power-law hub is so spread over
// the whole GPU and the short rows never wait for it; no host synchronisation.
// ---------------------------------------------------------------------------------
// The entry checks of S.mxv, fused into the gather (one read of the values instead of
// two): NaN (floats), up to two forbidden values, negative values for semirings on
// [0, inf).  Only entries the product reads are checked; the host falls back to its
// own pass (which names the entry) when the flag is raised.
struct SpCheck {
    T bad0, bad1;
    int nbad, nonneg;
    int* flag;
};

// v < 0 (the one unsigned element type, bool as unsigned char, never is).
template <typename U>
__device__ __forceinline__ bool sp_below_zero(U v) {
    if constexpr (sizeof(U) > 1) {
        return v < (U)0;
    } else {
        return false;
    }
}

__device__ __forceinline__ bool sp_invalid(T v, const SpCheck& c) {
    bool b = (c.nbad > 0 && v == c.bad0) || (c.nbad > 1 && v == c.bad1);
    b = b || (c.nonneg && sp_below_zero(v));
#if SP_FLOAT
    b = b || (v != v);
#endif
    return b;
}

template <bool CHECK, int UNROLL>
__device__ __forceinline__ T sp_row_part(const int* __restrict__ idx, const T* __restrict__ val,
                                         const T* __restrict__ x, const unsigned char* __restrict__ xflag,
                                         i64 e0, i64 e1, int step, int flags, int& got, const SpCheck& chk,
                                         bool& bad) {
    T t = sr_zero();
#pragma unroll UNROLL
    for (i64 e = e0; e < e1; e += step) {
        const int j = idx[e];
        if ((flags & SP_XFLAG) && xflag[j] == 0) continue;
        const T v = val[e];
        if constexpr (CHECK) {
            if (sp_invalid(v, chk)) bad = true;
        }
        t = sr_add_op(t, sp_prod(v, x[j], flags));
        got = 1;
    }
    return t;
}

__device__ __forceinline__ void sp_store_row(T* y, unsigned char* hit, i64 r, T t, int got, int flags) {
    y[r] = (flags & SP_ACCUM) ? sr_add_op(y[r], t) : t;
    hit[r] = (unsigned char)got;
}

// The short-row pass is latency-bound (ncu: 63% occupancy at the compiler's 48 registers):
// SP_GATHER_MIN_BLOCKS blocks of 256 per SM and a shorter unroll keep more warps in flight.
#ifndef SP_GATHER_MIN_BLOCKS
#define SP_GATHER_MIN_BLOCKS 8
#endif
#ifndef SP_SHORT_UNROLL
#define SP_SHORT_UNROLL 2
#endif

#define SP_GATHER_PARAMS                                                                                   \
    const i64 *__restrict__ ptr, const int *__restrict__ idx, const T *__restrict__ val,                    \
        const T *__restrict__ x, const unsigned char *__restrict__ xflag, T *__restrict__ y,                \
        unsigned char *__restrict__ hit, const unsigned char *__restrict__ allow, long long n_rows, int flags, \
        int group, long long heavy_min, int chunk, int *__restrict__ crow, int *__restrict__ cnum,           \
        int *chunk_count
#define SP_GATHER_ARGS ptr, idx, val, x, xflag, y, hit, allow, n_rows, flags, group, heavy_min, chunk, crow, cnum, chunk_count
#define SP_CHECK_PARAMS T bad0, T bad1, int nbad, int nonneg, int *bad_flag

template <bool CHECK>
__device__ __forceinline__ void sp_gather_rows(SP_GATHER_PARAMS, const SpCheck& chk) {
    const int lane = threadIdx.x & 31;
    const int sub = lane & (group - 1);
    const int rows_per_warp = 32 / group;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    for (i64 base = warp * rows_per_warp; base < n_rows; base += warps * rows_per_warp) {
        const i64 r = base + lane / group;
        bool active = r < n_rows;
        if (active && (flags & SP_MASK) && allow[r] == 0) active = false;
        i64 a = 0, b = 0;
        int nch = 0;
        if (active) {
            a = ptr[r];
            b = ptr[r + 1];
            if (b - a > heavy_min) {
                nch = (int)((b - a + chunk - 1) / chunk);
                active = false;
            }
        }
        sp_list_chunks((int)r, sub == 0 ? nch : 0, crow, cnum, chunk_count);
        int got = 0;
        bool bad = false;
        T t = sr_zero();
        if (active) t = sp_row_part<CHECK, SP_SHORT_UNROLL>(idx, val, x, xflag, a + sub, b, group, flags, got, chk, bad);
        if (CHECK && bad) *chk.flag = 1;
        for (int off = group >> 1; off > 0; off >>= 1) {
            const T o = sp_shfl_down(t, off, group);
            const int og = __shfl_down_sync(SP_FULL, got, off, group);
            t = sr_add_op(t, o);
            got |= og;
        }
        if (active && sub == 0) sp_store_row(y, hit, r, t, got, flags);
    }
}


extern "C" __global__ void __launch_bounds__(256, SP_GATHER_MIN_BLOCKS) sp_gather(SP_GATHER_PARAMS) {
    sp_gather_rows<false>(SP_GATHER_ARGS, SpCheck{});
}

extern "C" __global__ void __launch_bounds__(256, SP_GATHER_MIN_BLOCKS) sp_gather_checked(SP_GATHER_PARAMS, SP_CHECK_PARAMS) {
    sp_gather_rows<true>(SP_GATHER_ARGS, SpCheck{bad0, bad1, nbad, nonneg, bad_flag});
}

#define SP_CHUNKS_PARAMS                                                                                    \
    const i64 *__restrict__ ptr, const int *__restrict__ idx, const T *__restrict__ val,                     \
        const T *__restrict__ x, const unsigned char *__restrict__ xflag, T *__restrict__ y,                 \
        unsigned char *__restrict__ hit, int flags, int chunk, const int *__restrict__ crow,                  \
        const int *__restrict__ cnum, const int *__restrict__ chunk_count, T *__restrict__ part,             \
        unsigned char *__restrict__ pgot
#define SP_CHUNKS_ARGS ptr, idx, val, x, xflag, y, hit, flags, chunk, crow, cnum, chunk_count, part, pgot

template <bool CHECK>
__device__ __forceinline__ void sp_gather_chunk_rows(SP_CHUNKS_PARAMS, const SpCheck& chk) {
    const int lane = threadIdx.x & 31;
    sp_for_each_chunk(ptr, crow, cnum, chunk_count, chunk, [&](i64 k, int r, i64 e0, i64 e1) {
        const i64 a = ptr[r], b = ptr[r + 1];
        int got = 0;
        bool bad = false;
        T t = sp_row_part<CHECK, 4>(idx, val, x, xflag, e0 + lane, e1, 32, flags, got, chk, bad);
        if (CHECK && bad) *chk.flag = 1;
        for (int off = 16; off > 0; off >>= 1) {
            t = sr_add_op(t, sp_shfl_down(t, off, 32));
            got |= __shfl_down_sync(SP_FULL, got, off);
        }
        if (lane == 0) {
            if (b - a <= chunk) {
                sp_store_row(y, hit, r, t, got, flags);
            } else {
                part[k] = t;
                pgot[k] = (unsigned char)got;
            }
        }
    });
}

extern "C" __global__ void sp_gather_chunks(SP_CHUNKS_PARAMS) { sp_gather_chunk_rows<false>(SP_CHUNKS_ARGS, SpCheck{}); }

extern "C" __global__ void sp_gather_chunks_checked(SP_CHUNKS_PARAMS, SP_CHECK_PARAMS) {
    sp_gather_chunk_rows<true>(SP_CHUNKS_ARGS, SpCheck{bad0, bad1, nbad, nonneg, bad_flag});
}

// Rows of more than one chunk: combine their partial results in chunk order.
extern "C" __global__ void sp_gather_fixup(const i64* __restrict__ ptr, T* __restrict__ y,
                                           unsigned char* __restrict__ hit, int flags, int chunk,
                                           const int* __restrict__ crow, const int* __restrict__ cnum,
                                           const int* __restrict__ chunk_count, const T* __restrict__ part,
                                           const unsigned char* __restrict__ pgot) {
    const int count = *chunk_count;
    for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += (i64)gridDim.x * blockDim.x) {
        if (cnum[k] != 0) continue;
        const int r = crow[k];
        const i64 len = ptr[r + 1] - ptr[r];
        if (len <= chunk) continue;
        const i64 nch = (len + chunk - 1) / chunk;
        T t = sr_zero();
        int got = 0;
        for (i64 c = 0; c < nch; c++) {
            t = sr_add_op(t, part[k + c]);
            got |= pgot[k + c];
        }
        sp_store_row(y, hit, r, t, got, flags);
    }
}

// ---------------------------------------------------------------------------------
// semiring SpMV / SpMSpV, scatter form: for each listed row i = rows[k] (value xv[k]),
// t[j] (+)= mul(xv[k], A[i, j]) over allowed j.  t must hold the semiring zero and
// hitw zeros; the first arrival at j appends j to `order`.  A lane owns a row; rows
// with 32 or more entries are swept by the whole warp.
// ---------------------------------------------------------------------------------
__device__ __forceinline__ void sp_scatter_one(int j, T p, T* t, int* hitw, long long* order, int* count,
                                               const unsigned char* allow, int flags) {
    if ((flags & SP_MASK) && allow[j] == 0) return;
    if (hitw[j] == 0 && atomicExch(&hitw[j], 1) == 0) order[sp_append(count)] = j;
    sp_atomic_add(&t[j], p);
}

extern "C" __global__ void sp_scatter(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                      const T* __restrict__ val, const long long* __restrict__ rows,
                                      const T* __restrict__ xv, long long nrows, T* t, int* hitw,
                                      long long* order, int* count, const unsigned char* __restrict__ allow,
                                      int flags) {
    const int lane = threadIdx.x & 31;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    for (i64 base = warp * 32; base < nrows; base += warps * 32) {
        const i64 k = base + lane;
        i64 a = 0, b = 0;
        T xi = sr_zero();
        if (k < nrows) {
            const i64 i = rows[k];
            a = ptr[i];
            b = ptr[i + 1];
            xi = xv[k];
        }
        unsigned big = __ballot_sync(SP_FULL, b - a >= 32);
        while (big) {
            const int src = __ffs(big) - 1;
            big &= big - 1;
            const i64 aa = __shfl_sync(SP_FULL, a, src), bb = __shfl_sync(SP_FULL, b, src);
            const T xs = sp_shfl(xi, src);
            for (i64 e = aa + lane; e < bb; e += 32) {
                const T p = (flags & SP_XFIRST) ? sr_mul_op(xs, val[e]) : sr_mul_op(val[e], xs);
                sp_scatter_one(idx[e], p, t, hitw, order, count, allow, flags);
            }
        }
        if (b - a < 32) {
            for (i64 e = a; e < b; e++) {
                const T p = (flags & SP_XFIRST) ? sr_mul_op(xi, val[e]) : sr_mul_op(val[e], xi);
                sp_scatter_one(idx[e], p, t, hitw, order, count, allow, flags);
            }
        }
    }
}

// y[j] (+)= (hit[j] ? t[j] : zero) where allowed.
extern "C" __global__ void sp_merge(const T* __restrict__ t, const unsigned char* __restrict__ hit,
                                    T* __restrict__ y, const unsigned char* __restrict__ allow, long long n,
                                    int flags) {
    for (i64 j = (i64)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (i64)gridDim.x * blockDim.x) {
        if ((flags & SP_MASK) && allow[j] == 0) continue;
        const T v = hit[j] ? t[j] : sr_zero();
        y[j] = (flags & SP_ACCUM) ? sr_add_op(y[j], v) : v;
    }
}

// ---------------------------------------------------------------------------------
// semiring SpMM: C[i, :] (+)= A[i, :] (x) B, B (k x s) and C (m x s) row-major.
// A warp per row, lanes over the s columns (coalesced on B's rows).
// ---------------------------------------------------------------------------------
extern "C" __global__ void sp_spmm(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                   const T* __restrict__ val, const T* __restrict__ B, T* __restrict__ C,
                                   const unsigned char* __restrict__ allow, long long n_rows, long long s,
                                   int flags) {
    const int lane = threadIdx.x & 31;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    for (i64 r = warp; r < n_rows; r += warps) {
        const i64 a = ptr[r], b = ptr[r + 1];
        for (i64 j0 = 0; j0 < s; j0 += 32) {
            const i64 j = j0 + lane;
            if (j >= s) break;
            T acc = sr_zero();
            for (i64 e = a; e < b; e++) {
                const T bv = B[(i64)idx[e] * s + j];
                acc = sr_add_op(acc, (flags & SP_XFIRST) ? sr_mul_op(bv, val[e]) : sr_mul_op(val[e], bv));
            }
            const i64 o = r * s + j;
            if ((flags & SP_MASK) && allow[o] == 0) continue;
            C[o] = (flags & SP_ACCUM) ? sr_add_op(C[o], acc) : acc;
        }
    }
}

// ---------------------------------------------------------------------------------
// BFS.  level[] is -1 for unvisited vertices; `visited` is a bitmap of the same set
// (kept in L2), so most arcs to visited vertices cost no atomic.  A level writes the
// next frontier both as a queue (next_q, *count entries) and as a bitmap (next_bm),
// so either direction can follow.  stats[0] accumulates the out-arcs of the new
// frontier (m_f), stats[1] the arcs scanned.
// ---------------------------------------------------------------------------------
__device__ __forceinline__ bool bfs_is_set(const unsigned int* bm, int v) { return (bm[v >> 5] >> (v & 31)) & 1u; }

// Claim v for level d + 1 from u; returns v's out-degree if this thread won it, else 0.
__device__ __forceinline__ u64 bfs_claim(int u, int v, int d, const i64* ptr, int* level, int* parent,
                                         unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                         const int* other_level, u64* meet) {
    if (bfs_is_set(visited, v)) return 0;
    if (atomicCAS(&level[v], -1, d + 1) != -1) return 0;
    parent[v] = u;
    atomicOr(&visited[v >> 5], 1u << (v & 31));
    if (next_bm != nullptr) atomicOr(&next_bm[v >> 5], 1u << (v & 31));
    next_q[sp_append(count)] = v;
    if (other_level != nullptr) {
        const int o = other_level[v];
        if (o >= 0) atomicMin(meet, ((u64)(unsigned)(d + 1 + o) << 32) | (u64)(unsigned)v);
    }
    return (u64)(ptr[v + 1] - ptr[v]);
}

// Push (top-down) level: a lane owns a frontier vertex; vertices with 32 or more arcs are
// swept by the whole warp, and vertices with BFS_CHUNK or more arcs are cut into chunks of
// BFS_CHUNK arcs that bfs_push_chunks gives a warp each (thread, warp or many warps per
// vertex by degree: Li & Becchi's adaptive granularity, Merrill et al.'s gathering).
// crow == nullptr: no chunk list (the warp sweeps every long vertex).
#define BFS_CHUNK 256

extern "C" __global__ void bfs_push(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                    const int* __restrict__ queue, int nf, int d, int* level, int* parent,
                                    unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                    u64* stats, const int* other_level, u64* meet, int* crow, int* cnum,
                                    int* chunk_count) {
    const int lane = threadIdx.x & 31;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    u64 mf = 0, scanned = 0;
    for (i64 base = warp * 32; base < nf; base += warps * 32) {
        const i64 k = base + lane;
        int u = -1, nch = 0;
        i64 a = 0, b = 0;
        if (k < nf) {
            u = queue[k];
            a = ptr[u];
            b = ptr[u + 1];
            scanned += (u64)(b - a);
            if (b - a >= BFS_CHUNK && crow != nullptr) {
                nch = (int)((b - a + BFS_CHUNK - 1) / BFS_CHUNK);
                b = a;
            }
        }
        if (crow != nullptr) sp_list_chunks(u, nch, crow, cnum, chunk_count);
        unsigned big = __ballot_sync(SP_FULL, b - a >= 32);
        while (big) {
            const int src = __ffs(big) - 1;
            big &= big - 1;
            const int uu = __shfl_sync(SP_FULL, u, src);
            const i64 aa = __shfl_sync(SP_FULL, a, src), bb = __shfl_sync(SP_FULL, b, src);
            for (i64 e = aa + lane; e < bb; e += 32)
                mf += bfs_claim(uu, idx[e], d, ptr, level, parent, visited, next_q, next_bm, count, other_level, meet);
        }
        if (b - a < 32) {
            for (i64 e = a; e < b; e++)
                mf += bfs_claim(u, idx[e], d, ptr, level, parent, visited, next_q, next_bm, count, other_level, meet);
        }
    }
    mf = sp_warp_sum(mf);
    scanned = sp_warp_sum(scanned);
    if (lane == 0) {
        if (mf) atomicAdd(&stats[0], mf);
        if (scanned) atomicAdd(&stats[1], scanned);
    }
}

// The chunks of the long frontier vertices of a push level: a warp per chunk.
extern "C" __global__ void bfs_push_chunks(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                           const int* __restrict__ crow, const int* __restrict__ cnum,
                                           const int* __restrict__ chunk_count, int d, int* level, int* parent,
                                           unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                           u64* stats, const int* other_level, u64* meet) {
    const int lane = threadIdx.x & 31;
    u64 mf = 0;
    sp_for_each_chunk(ptr, crow, cnum, chunk_count, BFS_CHUNK, [&](i64, int u, i64 e0, i64 e1) {
        for (i64 e = e0 + lane; e < e1; e += 32)
            mf += bfs_claim(u, idx[e], d, ptr, level, parent, visited, next_q, next_bm, count, other_level, meet);
    });
    mf = sp_warp_sum(mf);
    if (lane == 0 && mf) atomicAdd(&stats[0], mf);
}

// Pull (bottom-up) level: a thread per vertex; an unvisited v scans its in-arcs (tptr/tind)
// and stops at the first in-neighbour in the current frontier bitmap.  A warp owns 32
// consecutive vertices, i.e. one word of each bitmap, so it reads its visited word once
// and writes both words with plain stores (no other thread touches them in a pull level).
// A lane scans the first PULL_SOLO in-arcs of its vertex alone; the warp scans the rest.
#define PULL_SOLO 8

extern "C" __global__ void bfs_pull(const i64* __restrict__ tptr, const int* __restrict__ tind,
                                    const i64* __restrict__ ptr, long long n, int d,
                                    const unsigned int* __restrict__ cur_bm, int* level, int* parent,
                                    unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                    u64* stats) {
    const int lane = threadIdx.x & 31;
    const i64 stride = (i64)gridDim.x * blockDim.x;
    u64 mf = 0, scanned = 0;
    for (i64 base = ((i64)blockIdx.x * blockDim.x + threadIdx.x) & ~(i64)31; base < n; base += stride) {
        const i64 v = base + lane;
        const unsigned seen = visited[base >> 5];
        if (seen == SP_FULL) continue;  // the whole warp's word is visited (warp-uniform)
        bool found = false;
        int u = -1;
        i64 a = 0, b = 0, e = 0;
        if (v < n && !((seen >> lane) & 1u)) {
            a = tptr[v];
            b = tptr[v + 1];
            const i64 solo_end = a + PULL_SOLO < b ? a + PULL_SOLO : b;
            for (e = a; e < solo_end; e++) {
                u = tind[e];
                if (bfs_is_set(cur_bm, u)) {
                    found = true;
                    break;
                }
            }
        }
        // The rest of the longer in-lists: the whole warp scans each, 32 arcs a step, so one
        // long list without a frontier neighbour does not hold up its 31 neighbours.
        unsigned rest = __ballot_sync(SP_FULL, !found && e < b);
        while (rest) {
            const int src = __ffs(rest) - 1;
            rest &= rest - 1;
            i64 ee = __shfl_sync(SP_FULL, e, src);
            const i64 bb = __shfl_sync(SP_FULL, b, src);
            int uu = -1;
            for (; ee < bb; ee += 32) {
                const int cand = ee + lane < bb ? tind[ee + lane] : -1;
                const unsigned h = __ballot_sync(SP_FULL, cand >= 0 && bfs_is_set(cur_bm, cand));
                if (h) {
                    uu = __shfl_sync(SP_FULL, cand, __ffs(h) - 1);
                    ee += __ffs(h) - 1;
                    break;
                }
            }
            if (lane == src) {
                found = uu >= 0;
                u = uu;
                e = found ? ee : bb;
            }
        }
        if (found) {
            level[v] = d + 1;
            parent[v] = u;
            next_q[sp_append(count)] = (int)v;
            mf += (u64)(ptr[v + 1] - ptr[v]);
            scanned += (u64)(e - a + 1);
        } else {
            scanned += (u64)(b - a);
        }
        const unsigned got = __ballot_sync(SP_FULL, found);
        if (lane == 0 && got) {
            visited[base >> 5] = seen | got;
            next_bm[base >> 5] = got;
        }
    }
    mf = sp_warp_sum(mf);
    scanned = sp_warp_sum(scanned);
    if (lane == 0) {
        if (mf) atomicAdd(&stats[0], mf);
        if (scanned) atomicAdd(&stats[1], scanned);
    }
}

// Small frontiers: ONE block runs level after level (a __syncthreads between levels
// instead of a kernel launch and a read-back), while the frontier stays under max_nf
// vertices and max_mf arcs.  Within a level a lane owns a frontier vertex, a warp sweeps
// vertices of 32 or more arcs, and the whole block sweeps those of SMALL_HEAVY or more.
// out[0] = frontier size, out[1] = its level, out[2] = levels done, out[3] = 0 if the
// frontier ended in qa else 1; out64[0] = m_f of that frontier, out64[1] = out-degrees of
// all vertices visited here.  trace_nf / trace_mf get one entry per level.
#define SMALL_HEAVY 1024
#define SMALL_HEAVY_CAP 64

__device__ __forceinline__ void bfs_small_claim(int u, int v, int d, const i64* ptr, int* level, int* parent,
                                                unsigned int* visited, int* nxt, int* s_count, u64* s_mf) {
    if (bfs_is_set(visited, v)) return;
    if (atomicCAS(&level[v], -1, d + 1) != -1) return;
    parent[v] = u;
    atomicOr(&visited[v >> 5], 1u << (v & 31));
    nxt[atomicAdd(s_count, 1)] = v;
    atomicAdd(s_mf, (u64)(ptr[v + 1] - ptr[v]));
}

extern "C" __global__ void bfs_small(const i64* __restrict__ ptr, const int* __restrict__ idx, int* qa, int* qb,
                                     int nf, int d, u64 mf0, const u64* mf_dev, int* level, int* parent,
                                     unsigned int* visited, int max_nf, u64 max_mf, int max_levels, int* out,
                                     u64* out64, int* trace_nf, u64* trace_mf) {
    __shared__ int s_count;
    __shared__ u64 s_mf;
    __shared__ int s_nheavy;
    __shared__ int s_heavy[SMALL_HEAVY_CAP];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    int* cur = qa;
    int* nxt = qb;
    const u64 mf_start = mf_dev != nullptr ? *mf_dev : mf0;  // from bfs_start: no read-back before level 0
    u64 mf = mf_start, visited_deg = 0;
    int levels = 0;
    while (nf > 0 && levels < max_levels && nf <= max_nf && mf <= max_mf) {
        if (threadIdx.x == 0) {
            s_count = 0;
            s_mf = 0;
            s_nheavy = 0;
            trace_nf[levels] = nf;
            trace_mf[levels] = mf;
        }
        __syncthreads();
        for (int base = wid * 32; base < nf; base += nwarps * 32) {
            const int k = base + lane;
            int u = -1;
            i64 a = 0, b = 0;
            if (k < nf) {
                u = cur[k];
                a = ptr[u];
                b = ptr[u + 1];
                if (b - a >= SMALL_HEAVY) {
                    const int slot = atomicAdd(&s_nheavy, 1);
                    if (slot < SMALL_HEAVY_CAP) {
                        s_heavy[slot] = u;
                        b = a;
                    }
                }
            }
            unsigned big = __ballot_sync(SP_FULL, b - a >= 32);
            while (big) {
                const int src = __ffs(big) - 1;
                big &= big - 1;
                const int uu = __shfl_sync(SP_FULL, u, src);
                const i64 aa = __shfl_sync(SP_FULL, a, src), bb = __shfl_sync(SP_FULL, b, src);
                for (i64 e = aa + lane; e < bb; e += 32)
                    bfs_small_claim(uu, idx[e], d, ptr, level, parent, visited, nxt, &s_count, &s_mf);
            }
            if (b - a < 32) {
                for (i64 e = a; e < b; e++)
                    bfs_small_claim(u, idx[e], d, ptr, level, parent, visited, nxt, &s_count, &s_mf);
            }
        }
        __syncthreads();
        const int nheavy = s_nheavy < SMALL_HEAVY_CAP ? s_nheavy : SMALL_HEAVY_CAP;
        for (int h = 0; h < nheavy; h++) {
            const int u = s_heavy[h];
            for (i64 e = ptr[u] + threadIdx.x; e < ptr[u + 1]; e += blockDim.x)
                bfs_small_claim(u, idx[e], d, ptr, level, parent, visited, nxt, &s_count, &s_mf);
        }
        __syncthreads();
        nf = s_count;
        mf = s_mf;
        visited_deg += mf;
        d += 1;
        levels += 1;
        int* tmp = cur;
        cur = nxt;
        nxt = tmp;
        __syncthreads();  // everyone has read s_count before it is reset
    }
    if (threadIdx.x == 0) {
        out[0] = nf;
        out[1] = d;
        out[2] = levels;
        out[3] = cur == qa ? 0 : 1;
        out64[0] = mf;
        out64[1] = visited_deg;
        out64[2] = mf_start;
    }
}

// The state of a BFS from s in one launch: level / parent -1 except level[s] = 0, the
// visited bitmap holding s only, queue = [s], and s's out-degree in *mf (for bfs_small).
extern "C" __global__ void bfs_start(const i64* __restrict__ ptr, long long n, int s, int* level, int* parent,
                                     unsigned int* visited, long long words, int* queue, u64* mf) {
    const i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 v = (i64)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        level[v] = v == s ? 0 : -1;
        parent[v] = -1;
    }
    for (i64 w = (i64)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride)
        visited[w] = w == (s >> 5) ? 1u << (s & 31) : 0u;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        queue[0] = s;
        *mf = (u64)(ptr[s + 1] - ptr[s]);
    }
}

// Set the bitmap bits of a queue (bm must be zero).
extern "C" __global__ void bfs_queue_to_bitmap(const int* __restrict__ queue, int nf, unsigned int* bm) {
    for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < nf; k += (i64)gridDim.x * blockDim.x) {
        const int v = queue[k];
        atomicOr(&bm[v >> 5], 1u << (v & 31));
    }
}

// ---------------------------------------------------------------------------------
// SSSP, near-far (Davidson et al. 2014), min-plus with weights >= 0: relax the arcs of
// the `near` vertices; an improved vertex joins the next near set if its distance is
// below `threshold`, else the far pile (each list deduplicated with stamp arrays).
// counts[0] = next near size, counts[1] = far size.
// ---------------------------------------------------------------------------------
__device__ __forceinline__ void sssp_relax_one(int u, int v, T nd, T* dist, int* pred, T threshold, int it,
                                               int epoch, int* near_mark, int* far_mark, int* next_near, int* far,
                                               int* counts) {
    if (!(nd < dist[v])) return;
    const T old = sp_atomic_min_nonneg(&dist[v], nd);
    if (!(nd < old)) return;
    pred[v] = u;  // provisional; the final tree is rebuilt from the distances
    if (nd < threshold) {
        if (near_mark[v] != it && atomicExch(&near_mark[v], it) != it) next_near[sp_append(&counts[0])] = v;
    } else {
        if (far_mark[v] != epoch && atomicExch(&far_mark[v], epoch) != epoch) far[sp_append(&counts[1])] = v;
    }
}

#define SSSP_CHUNK 256

extern "C" __global__ void sssp_relax(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                      const T* __restrict__ w, const int* __restrict__ near, int nn, T* dist,
                                      int* pred, T threshold, int it, int epoch, int* near_mark, int* far_mark,
                                      int* next_near, int* far, int* counts, u64* stats, int* crow, int* cnum,
                                      int* chunk_count) {
    const int lane = threadIdx.x & 31;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    u64 scanned = 0;
    for (i64 base = warp * 32; base < nn; base += warps * 32) {
        const i64 k = base + lane;
        int u = -1, nch = 0;
        i64 a = 0, b = 0;
        T du = sr_zero();
        if (k < nn) {
            u = near[k];
            a = ptr[u];
            b = ptr[u + 1];
            du = dist[u];
            scanned += (u64)(b - a);
            if (b - a >= SSSP_CHUNK) {
                nch = (int)((b - a + SSSP_CHUNK - 1) / SSSP_CHUNK);
                b = a;
            }
        }
        sp_list_chunks(u, nch, crow, cnum, chunk_count);
        unsigned big = __ballot_sync(SP_FULL, b - a >= 32);
        while (big) {
            const int src = __ffs(big) - 1;
            big &= big - 1;
            const int uu = __shfl_sync(SP_FULL, u, src);
            const i64 aa = __shfl_sync(SP_FULL, a, src), bb = __shfl_sync(SP_FULL, b, src);
            const T dd = sp_shfl(du, src);
            for (i64 e = aa + lane; e < bb; e += 32)
                sssp_relax_one(uu, idx[e], sr_mul_op(dd, w[e]), dist, pred, threshold, it, epoch, near_mark,
                               far_mark, next_near, far, counts);
        }
        if (b - a < 32) {
            for (i64 e = a; e < b; e++)
                sssp_relax_one(u, idx[e], sr_mul_op(du, w[e]), dist, pred, threshold, it, epoch, near_mark,
                               far_mark, next_near, far, counts);
        }
    }
    scanned = sp_warp_sum(scanned);
    if (lane == 0 && scanned) atomicAdd(&stats[0], scanned);
}

// The chunks of the long near vertices: a warp per chunk.  dist[u] is read here, so it may
// already be lower than when u was listed: any value it holds is the length of a path.
extern "C" __global__ void sssp_relax_chunks(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                             const T* __restrict__ w, const int* __restrict__ crow,
                                             const int* __restrict__ cnum, const int* __restrict__ chunk_count,
                                             T* dist, int* pred, T threshold, int it, int epoch, int* near_mark,
                                             int* far_mark, int* next_near, int* far, int* counts) {
    const int lane = threadIdx.x & 31;
    sp_for_each_chunk(ptr, crow, cnum, chunk_count, SSSP_CHUNK, [&](i64, int u, i64 e0, i64 e1) {
        const T du = dist[u];
        for (i64 e = e0 + lane; e < e1; e += 32)
            sssp_relax_one(u, idx[e], sr_mul_op(du, w[e]), dist, pred, threshold, it, epoch, near_mark, far_mark,
                           next_near, far, counts);
    });
}

// Redistribute the far pile for a new threshold: entries below `settled_below` were
// expanded already (dropped), those below `threshold` form the near set, the rest stay
// far (deduplicated for the new epoch).
extern "C" __global__ void sssp_split(const int* __restrict__ far_in, int nfar, const T* __restrict__ dist,
                                      T settled_below, T threshold, int it, int epoch, int* near_mark,
                                      int* far_mark, int* near_out, int* far_out, int* counts) {
    for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < nfar; k += (i64)gridDim.x * blockDim.x) {
        const int v = far_in[k];
        const T dv = dist[v];
        if (dv < settled_below) continue;
        if (dv < threshold) {
            if (atomicExch(&near_mark[v], it) != it) near_out[sp_append(&counts[0])] = v;
        } else {
            if (atomicExch(&far_mark[v], epoch) != epoch) far_out[sp_append(&counts[1])] = v;
        }
    }
}

// Predecessors from final distances by pulling over in-arcs: the first tight arc
// (dist[u] + w == dist[v]; a tree when every weight is > 0, as tight arcs then cannot form a
// cycle).  A lane owns a vertex; the warp scans in-lists of 32 or more arcs 32 at a time
// and stops at the first window with a tight arc; in-lists of PRED_CHUNK or more arcs are
// chunked: a warp per chunk records the first tight position (atomicMin into firstpos),
// and sssp_pred_fixup turns it into the predecessor.
#define PRED_CHUNK 1024
#define PRED_NONE 0x7fffffff

__device__ __forceinline__ bool sssp_tight(const int* tind, const T* tw, const T* dist, i64 e, T dv) {
    const T du = dist[tind[e]];
    return du != sr_zero() && sr_mul_op(du, tw[e]) == dv;
}

extern "C" __global__ void sssp_pred_pull(const i64* __restrict__ tptr, const int* __restrict__ tind,
                                          const T* __restrict__ tw, const T* __restrict__ dist, int* pred,
                                          long long n, int s, int* crow, int* cnum, int* chunk_count,
                                          int* firstpos) {
    const int lane = threadIdx.x & 31;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    for (i64 base = warp * 32; base < n; base += warps * 32) {
        const i64 v = base + lane;
        i64 a = 0, b = 0;
        T dv = sr_zero();
        int nch = 0, p = -1;
        if (v < n && v != s) {
            dv = dist[v];
            if (dv != sr_zero()) {
                a = tptr[v];
                b = tptr[v + 1];
                if (b - a >= PRED_CHUNK) {
                    nch = (int)((b - a + PRED_CHUNK - 1) / PRED_CHUNK);
                    firstpos[v] = PRED_NONE;
                    b = a;
                }
            }
        }
        sp_list_chunks((int)v, nch, crow, cnum, chunk_count);
        unsigned big = __ballot_sync(SP_FULL, b - a >= 32);
        while (big) {
            const int src = __ffs(big) - 1;
            big &= big - 1;
            const i64 aa = __shfl_sync(SP_FULL, a, src), bb = __shfl_sync(SP_FULL, b, src);
            const T dd = sp_shfl(dv, src);
            for (i64 e0 = aa; e0 < bb; e0 += 32) {
                const i64 e = e0 + lane;
                const unsigned hit = __ballot_sync(SP_FULL, e < bb && sssp_tight(tind, tw, dist, e, dd));
                if (hit) {
                    if (lane == src) p = tind[e0 + __ffs(hit) - 1];
                    break;
                }
            }
        }
        if (b - a < 32) {
            for (i64 e = a; e < b; e++) {
                if (sssp_tight(tind, tw, dist, e, dv)) {
                    p = tind[e];
                    break;
                }
            }
        }
        if (v < n && nch == 0) pred[v] = p;
    }
}

extern "C" __global__ void sssp_pred_chunks(const i64* __restrict__ tptr, const int* __restrict__ tind,
                                            const T* __restrict__ tw, const T* __restrict__ dist,
                                            const int* __restrict__ crow, const int* __restrict__ cnum,
                                            const int* __restrict__ chunk_count, int* firstpos) {
    const int lane = threadIdx.x & 31;
    sp_for_each_chunk(tptr, crow, cnum, chunk_count, PRED_CHUNK, [&](i64, int v, i64 e0, i64 e1) {
        const i64 a = tptr[v];
        if ((i64)*(volatile int*)&firstpos[v] < e0 - a) return;  // an earlier chunk found one already
        const T dv = dist[v];
        for (i64 w0 = e0; w0 < e1; w0 += 32) {
            const i64 e = w0 + lane;
            const unsigned hit = __ballot_sync(SP_FULL, e < e1 && sssp_tight(tind, tw, dist, e, dv));
            if (hit) {
                if (lane == 0) atomicMin(&firstpos[v], (int)(w0 + __ffs(hit) - 1 - a));
                break;
            }
        }
    });
}

extern "C" __global__ void sssp_pred_fixup(const i64* __restrict__ tptr, const int* __restrict__ tind,
                                           const int* __restrict__ crow, const int* __restrict__ cnum,
                                           const int* __restrict__ chunk_count, const int* __restrict__ firstpos,
                                           int* pred) {
    const int cc = *chunk_count;
    for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < cc; k += (i64)gridDim.x * blockDim.x) {
        if (cnum[k] != 0) continue;
        const int v = crow[k];
        const int f = firstpos[v];
        pred[v] = f == PRED_NONE ? -1 : tind[tptr[v] + f];
    }
}

// One level of a BFS over tight arcs (dist[u] + w == dist[v]): predecessors that form a
// tree even with zero-weight cycles.  seen[] is 0 for unclaimed vertices.
extern "C" __global__ void sssp_tight_push(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                           const T* __restrict__ w, const T* __restrict__ dist,
                                           const int* __restrict__ queue, int nf, int* seen, int* pred,
                                           int* next_q, int* count) {
    for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < nf; k += (i64)gridDim.x * blockDim.x) {
        const int u = queue[k];
        const T du = dist[u];
        for (i64 e = ptr[u]; e < ptr[u + 1]; e++) {
            const int v = idx[e];
            if (seen[v] == 0 && sr_mul_op(du, w[e]) == dist[v] && atomicCAS(&seen[v], 0, 1) == 0) {
                pred[v] = u;
                next_q[sp_append(count)] = v;
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Weakly connected components: hook the larger root onto the smaller across every
// arc, then shortcut every vertex to its root; repeat until no hook happens.  Labels
// only decrease and point to smaller ids, so the final root is the component's
// smallest vertex.
// ---------------------------------------------------------------------------------
extern "C" __global__ void cc_hook(const i64* __restrict__ ptr, const int* __restrict__ idx, long long n,
                                   int* label, int* changed) {
    for (i64 u = (i64)blockIdx.x * blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
        for (i64 e = ptr[u]; e < ptr[u + 1]; e++) {
            const int ru = label[u], rv = label[idx[e]];
            if (ru != rv) {
                const int hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
                atomicMin(&label[hi], lo);
                *changed = 1;
            }
        }
    }
}

extern "C" __global__ void cc_shortcut(long long n, int* label) {
    for (i64 v = (i64)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
        int l = label[v];
        while (label[l] != l) l = label[l];
        label[v] = l;
    }
}
