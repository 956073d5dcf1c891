// SSSP kernels: near-far relaxation (with chunks of long near vertices), the far-pile split,
// and the shortest-path tree from final distances (tight in-arc pull, tight-arc BFS).
//
// Built by graphs/cuda/launch.py with the #define lines of semiring/cuda/sparse.py's
// module() (the semiring macros of prelude.cuh where a kernel reads weights, and SP_FLOAT);
// the warp-level helpers (shuffles, appends, chunk lists) come from semiring/cuda's
// sparse_device.cuh.  Graphs are CSR: `ptr` is int64 (n + 1), `idx` int32; the in-arcs of
// a pull are the CSR of the transpose (tptr / tind).
//
// Reference: Davidson, Baxter, Garland & Owens, "Work-efficient parallel GPU methods for
// single-source shortest paths", IPDPS 2014 (near-far SSSP).
#include "sparse_device.cuh"

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
        sp_sweep_arcs(u, du, a, b, [&](int x, T dx, i64 e) {
            sssp_relax_one(x, idx[e], sr_mul_op(dx, w[e]), dist, pred, threshold, it, epoch, near_mark, far_mark,
                           next_near, far, counts);
        });
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
