// Weakly connected components: hook and shortcut.
//
// Built by graphs/cuda/launch.py with the #define lines of semiring/cuda/sparse.py's
// module() (the semiring macros of prelude.cuh where a kernel reads weights, and SP_FLOAT);
// the warp-level helpers (shuffles, appends, chunk lists) come from semiring/cuda's
// sparse_device.cuh.  Graphs are CSR: `ptr` is int64 (n + 1), `idx` int32; the in-arcs of
// a pull are the CSR of the transpose (tptr / tind).
//
// Reference: Soman, Kishore & Narayanan, "A fast GPU algorithm for graph connectivity",
// IPDPS workshops 2010 (hook and shortcut components).
#include "sparse_device.cuh"

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
