// Sparse semiring kernels: SpMV gather / scatter and merge, SpMM.
//
// The host (semiring/cuda/sparse.py) defines the semiring macros of prelude.cuh
// (SR_T, SR_ADD, SR_MUL, SR_ZERO) and SP_FLOAT (1 when SR_T is a floating type).
// Matrices are CSR: `ptr` is int64 (n + 1), `idx` int32, `val` SR_T; a CSC matrix
// is passed as the CSR of its transpose.  Flags of the semiring kernels:
//   SP_XFLAG   x is sparse: only entries with xflag[j] != 0 take part (pull SpMSpV)
//   SP_MASK    allow[i] == 0 rows are left alone (structural mask, complemented on the host)
//   SP_ACCUM   y[i] = add(y[i], result) instead of y[i] = result
//   SP_XFIRST  the product is mul(x, a) (vxm) instead of mul(a, x) (mxv)
// The warp-level helpers (shuffles, appends, chunk lists) are in sparse_device.cuh, shared
// with the graph kernels of graphs/cuda.
//
// References: Bell & Garland, "Implementing sparse matrix-vector multiplication on
// throughput-oriented processors", SC 2009 (CSR-vector); Merrill, Garland & Grimshaw,
// "Scalable GPU graph traversal", PPoPP 2012 (warp-cooperative neighbour gathering).
#include "prelude.cuh"
#include "sparse_device.cuh"

#define SP_XFLAG 1
#define SP_MASK 2
#define SP_ACCUM 4
#define SP_XFIRST 8

// ---------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------
__device__ __forceinline__ T sp_prod(T a, T x, int flags) {
    return (flags & SP_XFIRST) ? sr_mul_op(x, a) : sr_mul_op(a, x);
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
