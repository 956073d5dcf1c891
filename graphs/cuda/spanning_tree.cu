// Minimum spanning forest: Boruvka rounds with edge filtering, hooking and pointer jumping.
//
// Built by graphs/cuda/launch.py (no semiring specialisation: the weight type is a template
// parameter, one extern "C" entry per weight dtype).  The edge list holds, per live edge,
// its endpoints' component roots (eu, ev: int32) and its arc id (eid: position in the
// graph's CSR, int64).  Edges are ordered strictly by (weight, arc id); a weight enters the
// order through an order-preserving 64-bit key (mst_key), so the minimum is found with two
// 64-bit atomicMin passes: the weight key first, then the arc id among the edges of that key.
//
// One round (driven by graphs/cuda/spanning_tree.py):
//   mst_filter_*  drop edges inside one component, relabel the others to roots (comp), append
//                 them to the output list, atomicMin each root's best weight key;
//   mst_pick_*    atomicMin each root's best arc id among edges of its best weight key;
//   mst_hook      each root with an edge hooks onto the other endpoint's root (parent), except
//                 the smaller root of a mutual pair; the edge is marked in the forest;
//   mst_shortcut  pointer jumping: every vertex points straight at its root.
//
// Reference: Fallin, Gonzalez, Seo & Burtscher, "A High-Performance MST Implementation for
// GPUs", SC'23 (ECL-MST: edge filtering, atomicMin selection, hooking); Boruvka (1926).
#include "sparse_device.cuh"

#define MST_NONE 0xffffffffffffffffull

// Order-preserving key: a < b as weights  <=>  mst_key(a) < mst_key(b) as u64.
// -0.0 is read as +0.0 (they are equal weights; the arc id breaks the tie).
__device__ __forceinline__ u64 mst_key(float x) {
    if (x == 0.0f) x = 0.0f;
    const unsigned b = __float_as_uint(x);
    return (u64)((b & 0x80000000u) ? ~b : (b | 0x80000000u));
}
__device__ __forceinline__ u64 mst_key(double x) {
    if (x == 0.0) x = 0.0;
    const u64 b = (u64)__double_as_longlong(x);
    return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}
__device__ __forceinline__ u64 mst_key(int x) { return (u64)((unsigned)x ^ 0x80000000u); }
__device__ __forceinline__ u64 mst_key(long long x) { return (u64)x ^ 0x8000000000000000ull; }

// Weight key of arc `e`; an unweighted graph (w == nullptr) has one key for all arcs.
template <typename W>
__device__ __forceinline__ u64 mst_arc_key(const W* __restrict__ w, i64 e) {
    return w ? mst_key(w[e]) : 0ull;
}

// List position for one item: one atomic per converged group of lanes (64-bit sp_append).
__device__ __forceinline__ u64 mst_append(u64* counter) {
    const unsigned mask = __activemask();
    const int lane = threadIdx.x & 31;
    const int leader = __ffs(mask) - 1;
    const int rank = __popc(mask & ((1u << lane) - 1u));
    u64 base = 0;
    if (lane == leader) base = atomicAdd(counter, (u64)__popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + (u64)rank;
}

template <typename W>
__device__ __forceinline__ void mst_filter(const int* __restrict__ eu, const int* __restrict__ ev,
                                           const i64* __restrict__ eid, i64 m, const int* __restrict__ comp,
                                           const W* __restrict__ w, int* __restrict__ ou, int* __restrict__ ov,
                                           i64* __restrict__ oid, u64* count, u64* bestw) {
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (i64)gridDim.x * blockDim.x) {
        const int ru = comp[eu[i]], rv = comp[ev[i]];
        if (ru != rv) {
            const i64 e = eid[i];
            const u64 p = mst_append(count);
            ou[p] = ru;
            ov[p] = rv;
            oid[p] = e;
            const u64 key = mst_arc_key(w, e);
            if (key < bestw[ru]) atomicMin(&bestw[ru], key);
            if (key < bestw[rv]) atomicMin(&bestw[rv], key);
        }
    }
}

template <typename W>
__device__ __forceinline__ void mst_pick(const int* __restrict__ eu, const int* __restrict__ ev,
                                         const i64* __restrict__ eid, i64 m, const W* __restrict__ w,
                                         const u64* __restrict__ bestw, u64* bestid) {
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (i64)gridDim.x * blockDim.x) {
        const int ru = eu[i], rv = ev[i];
        const i64 e = eid[i];
        const u64 key = mst_arc_key(w, e);
        if (key == bestw[ru] && (u64)e < bestid[ru]) atomicMin(&bestid[ru], (u64)e);
        if (key == bestw[rv] && (u64)e < bestid[rv]) atomicMin(&bestid[rv], (u64)e);
    }
}

#define MST_ENTRIES(SUFFIX, W)                                                                            \
    extern "C" __global__ void mst_filter_##SUFFIX(const int* eu, const int* ev, const i64* eid, i64 m,  \
                                                   const int* comp, const W* w, int* ou, int* ov,         \
                                                   i64* oid, u64* count, u64* bestw) {                    \
        mst_filter<W>(eu, ev, eid, m, comp, w, ou, ov, oid, count, bestw);                                \
    }                                                                                                     \
    extern "C" __global__ void mst_pick_##SUFFIX(const int* eu, const int* ev, const i64* eid, i64 m,    \
                                                 const W* w, const u64* bestw, u64* bestid) {             \
        mst_pick<W>(eu, ev, eid, m, w, bestw, bestid);                                                    \
    }

MST_ENTRIES(f32, float)
MST_ENTRIES(f64, double)
MST_ENTRIES(i32, int)
MST_ENTRIES(i64, long long)

// Each root r with a minimum edge e = {a, b} hooks onto the other side's root s; when s
// picked the same edge (a mutual pair: the only cycles the strict order allows), the
// smaller root stays a root.  Reads comp (the round's roots), writes parent (a copy of comp
// for every vertex that does not hook) and marks e in the forest.
extern "C" __global__ void mst_hook(long long n, const int* __restrict__ comp, const u64* __restrict__ bestid,
                                    const int* __restrict__ src, const int* __restrict__ dst,
                                    int* __restrict__ parent, unsigned char* __restrict__ in_tree) {
    for (i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x; r < n; r += (i64)gridDim.x * blockDim.x) {
        int p = comp[r];
        if (p == (int)r && bestid[r] != MST_NONE) {
            const i64 e = (i64)bestid[r];
            const int ra = comp[src[e]], rb = comp[dst[e]];
            const int s = ra == (int)r ? rb : ra;
            in_tree[e] = 1;
            if (!(bestid[s] == (u64)e && (int)r < s)) p = s;
        }
        parent[r] = p;
    }
}

extern "C" __global__ void mst_shortcut(long long n, int* parent) {
    for (i64 v = (i64)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (i64)gridDim.x * blockDim.x) {
        int l = parent[v];
        while (parent[l] != l) l = parent[l];
        parent[v] = l;
    }
}
