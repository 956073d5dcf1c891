// Device helpers shared by the sparse semiring kernels (sparse_kernels.cu) and the graph
// kernels built on the same patterns (graphs/cuda/*.cu): warp shuffles and sums, warp-stride
// indices, list appends with one atomic per converged group of lanes, and the chunk lists
// that spread the arcs of long rows (power-law hubs) over many warps.
//
// Included after the host's #define lines (semiring macros of prelude.cuh, SP_FLOAT: 1 when
// SR_T is a floating type).
#pragma once

#include "prelude.cuh"

#ifndef SP_FLOAT
#define SP_FLOAT 1
#endif

#define SP_FULL 0xffffffffu

typedef long long i64;
typedef unsigned long long u64;

__device__ __forceinline__ T sp_shfl_down(T v, int off, int width) {
    if constexpr (sizeof(T) == 1) {
        return (T)__shfl_down_sync(SP_FULL, (int)v, off, width);
    } else {
        return __shfl_down_sync(SP_FULL, v, off, width);
    }
}

template <typename V>
__device__ __forceinline__ V sp_shfl(V v, int src) {
    if constexpr (sizeof(V) == 1) {
        return (V)__shfl_sync(SP_FULL, (int)v, src);
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

// Each lane of a warp holds a vertex u, its arcs [a, b) (a == b: none) and a value val;
// f(u, val, e) runs for every arc e of every lane's vertex: a vertex of 32 arcs or more
// is swept by the whole warp (u and val broadcast from its lane, lanes strided over the
// arcs), a shorter one by its own lane.  Called by all 32 lanes, converged.
template <typename V, typename F>
__device__ __forceinline__ void sp_sweep_arcs(int u, V val, i64 a, i64 b, F&& f) {
    const int lane = threadIdx.x & 31;
    unsigned big = __ballot_sync(SP_FULL, b - a >= 32);
    while (big) {
        const int src = __ffs(big) - 1;
        big &= big - 1;
        const int uu = __shfl_sync(SP_FULL, u, src);
        const V vv = sp_shfl(val, src);
        const i64 aa = __shfl_sync(SP_FULL, a, src), bb = __shfl_sync(SP_FULL, b, src);
        for (i64 e = aa + lane; e < bb; e += 32) f(uu, vv, e);
    }
    if (b - a < 32) {
        for (i64 e = a; e < b; e++) f(u, val, e);
    }
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
