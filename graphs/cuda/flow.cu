// Maximum flow: lock-free push-relabel and the global relabel (backward BFS from the sink).
//
// Built by graphs/cuda/launch.py (the #define lines of semiring/cuda/sparse.py's module();
// these kernels read no semiring macros) with the helpers of semiring/cuda's
// sparse_device.cuh.  The residual network is CSR: `ptr` int64 (n + 1), `head` int32,
// `mate` int64 (the opposite arc of each arc), `res` the residual capacities.  Capacities
// and excesses are long long (exact integers) or double, one extern "C" kernel each.
//
// References: Hong & He, "An asynchronous multithreaded algorithm for the maximum network
// flow problem with nonblocking global relabeling heuristic", IEEE TPDS 22 (2011) (the
// lock-free push and relabel: a vertex pushes to its lowest residual neighbour when it is
// higher, else lifts itself one above it; stale reads of neighbours' labels, excesses and
// residuals stay safe because only a vertex lowers its own excess and its own arcs'
// residuals); Harish, Vineet & Narayanan, "Large graph algorithms for massively
// multithreaded architectures" (2009) (rounds of pushes and relabels, then one global
// relabel).
#include "sparse_device.cuh"

__device__ __forceinline__ long long flow_atomic_add(long long* p, long long d) {
    return (long long)atomicAdd((unsigned long long*)p, (unsigned long long)d);
}

__device__ __forceinline__ double flow_atomic_add(double* p, double d) { return atomicAdd(p, d); }

// ---------------------------------------------------------------------------------
// Push / relabel: every active vertex u (excess above tol, label below n, neither the
// sink nor the blocked terminal) repeats up to `iters` times: find the residual arc to
// the lowest neighbour; push min(excess, residual) along it when u is higher, else set
// label[u] to one above that neighbour (n, dead, if that reaches n or no residual arc is
// left).
// ---------------------------------------------------------------------------------
template <typename C>
__device__ void flow_push_relabel(const i64* __restrict__ ptr, const int* __restrict__ head,
                                  const i64* __restrict__ mate, C* res, C* excess, int* label, long long n,
                                  int sink, int blocked, C tol, int iters, long long heavy) {
    const int nn = (int)n;
    for (i64 u = (i64)blockIdx.x * blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
        if (u == sink || u == blocked || ptr[u + 1] - ptr[u] > heavy) continue;  // heavy: a warp's job
        for (int it = 0; it < iters; it++) {
            const C e = ((volatile C*)excess)[u];
            const int hu = label[u];
            if (!(e > tol) || hu >= nn) break;
            int hmin = nn;
            i64 amin = -1;
            for (i64 a = ptr[u]; a < ptr[u + 1]; a++) {
                if (((volatile C*)res)[a] > tol) {
                    const int h = ((volatile int*)label)[head[a]];
                    if (h < hmin) {
                        hmin = h;
                        amin = a;
                    }
                }
            }
            if (amin < 0 || hmin >= nn) {
                label[u] = nn;
                break;
            }
            if (hu > hmin) {
                const C r = ((volatile C*)res)[amin];
                const C d = e < r ? e : r;
                flow_atomic_add(&res[amin], -d);
                flow_atomic_add(&res[mate[amin]], d);
                flow_atomic_add(&excess[u], -d);
                flow_atomic_add(&excess[head[amin]], d);
            } else {
                label[u] = hmin + 1 < nn ? hmin + 1 : nn;
            }
        }
    }
}

extern "C" __global__ void flow_push_relabel_i64(const i64* ptr, const int* head, const i64* mate, long long* res,
                                                 long long* excess, int* label, long long n, int sink, int blocked,
                                                 long long tol, int iters, long long heavy) {
    flow_push_relabel<long long>(ptr, head, mate, res, excess, label, n, sink, blocked, tol, iters, heavy);
}

extern "C" __global__ void flow_push_relabel_f64(const i64* ptr, const int* head, const i64* mate, double* res,
                                                 double* excess, int* label, long long n, int sink, int blocked,
                                                 double tol, int iters, long long heavy) {
    flow_push_relabel<double>(ptr, head, mate, res, excess, label, n, sink, blocked, tol, iters, heavy);
}

// The same step for the heavy vertices (more than `heavy` arcs, listed in `list`): a warp
// per vertex scans its arcs lane-strided and reduces (label, arc) to the lowest label, the
// lowest arc among equals; lane 0 pushes or relabels.  Values lane 0 read are broadcast, so
// every lane takes the same branches.
template <typename C>
__device__ void flow_push_relabel_heavy(const i64* __restrict__ ptr, const int* __restrict__ head,
                                        const i64* __restrict__ mate, C* res, C* excess, int* label, long long n,
                                        int sink, int blocked, C tol, int iters, const int* __restrict__ list,
                                        long long count) {
    const int nn = (int)n;
    const int lane = threadIdx.x & 31;
    const i64 none = 0x7fffffffffffffffLL;
    for (i64 w = sp_warp_id(); w < count; w += sp_warp_count()) {
        const int u = list[w];
        if (u == sink || u == blocked) continue;
        for (int it = 0; it < iters; it++) {
            C e = ((volatile C*)excess)[u];
            int hu = ((volatile int*)label)[u];
            e = __shfl_sync(SP_FULL, e, 0);
            hu = __shfl_sync(SP_FULL, hu, 0);
            if (!(e > tol) || hu >= nn) break;
            int hmin = nn;
            i64 amin = none;
            for (i64 a = ptr[u] + lane; a < ptr[u + 1]; a += 32) {
                if (((volatile C*)res)[a] > tol) {
                    const int h = ((volatile int*)label)[head[a]];
                    if (h < hmin) {
                        hmin = h;
                        amin = a;
                    }
                }
            }
            for (int off = 16; off > 0; off >>= 1) {
                const int oh = __shfl_down_sync(SP_FULL, hmin, off);
                const i64 oa = __shfl_down_sync(SP_FULL, amin, off);
                if (oh < hmin || (oh == hmin && oa < amin)) {
                    hmin = oh;
                    amin = oa;
                }
            }
            hmin = __shfl_sync(SP_FULL, hmin, 0);
            amin = __shfl_sync(SP_FULL, amin, 0);
            if (amin == none || hmin >= nn) {
                if (lane == 0) label[u] = nn;
                __syncwarp();
                break;
            }
            if (lane == 0) {
                if (hu > hmin) {
                    const C r = ((volatile C*)res)[amin];
                    const C d = e < r ? e : r;
                    flow_atomic_add(&res[amin], -d);
                    flow_atomic_add(&res[mate[amin]], d);
                    flow_atomic_add(&excess[u], -d);
                    flow_atomic_add(&excess[head[amin]], d);
                } else {
                    label[u] = hmin + 1 < nn ? hmin + 1 : nn;
                }
            }
            __syncwarp();
        }
    }
}

extern "C" __global__ void flow_push_relabel_heavy_i64(const i64* ptr, const int* head, const i64* mate,
                                                       long long* res, long long* excess, int* label, long long n,
                                                       int sink, int blocked, long long tol, int iters,
                                                       const int* list, long long count) {
    flow_push_relabel_heavy<long long>(ptr, head, mate, res, excess, label, n, sink, blocked, tol, iters, list, count);
}

extern "C" __global__ void flow_push_relabel_heavy_f64(const i64* ptr, const int* head, const i64* mate, double* res,
                                                       double* excess, int* label, long long n, int sink, int blocked,
                                                       double tol, int iters, const int* list, long long count) {
    flow_push_relabel_heavy<double>(ptr, head, mate, res, excess, label, n, sink, blocked, tol, iters, list, count);
}

// ---------------------------------------------------------------------------------
// Global relabel: one BFS level per launch from a frontier list.  The frontier's length
// is read on the device (counts[i % 3]), so the host launches levels without reading
// anything back; each launch appends the next level to counts[(i + 1) % 3] and clears
// counts[(i + 2) % 3], the next launch's output.  A vertex y joins the next level when
// it still has label n, is not `blocked`, and its arc y -> x into the frontier vertex x
// has residual capacity; atomicCAS makes it join once.
// ---------------------------------------------------------------------------------
template <typename C>
__device__ void flow_bfs_level(const i64* __restrict__ ptr, const int* __restrict__ head,
                               const i64* __restrict__ mate, const C* __restrict__ res, int* label, long long n,
                               int blocked, C tol, const int* __restrict__ frontier, int* next, int* counts, int i) {
    const int nn = (int)n;
    const int len = counts[i % 3];
    const i64 tid = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid == 0) counts[(i + 2) % 3] = 0;
    for (i64 k = tid; k < len; k += (i64)gridDim.x * blockDim.x) {
        const int x = frontier[k];
        const int hx = label[x] + 1;
        for (i64 a = ptr[x]; a < ptr[x + 1]; a++) {
            const int y = head[a];
            if (y != blocked && label[y] == nn && res[mate[a]] > tol) {
                if (atomicCAS(&label[y], nn, hx) == nn) next[sp_append(&counts[(i + 1) % 3])] = y;
            }
        }
    }
}

extern "C" __global__ void flow_bfs_level_i64(const i64* ptr, const int* head, const i64* mate, const long long* res,
                                              int* label, long long n, int blocked, long long tol, const int* frontier,
                                              int* next, int* counts, int i) {
    flow_bfs_level<long long>(ptr, head, mate, res, label, n, blocked, tol, frontier, next, counts, i);
}

extern "C" __global__ void flow_bfs_level_f64(const i64* ptr, const int* head, const i64* mate, const double* res,
                                              int* label, long long n, int blocked, double tol, const int* frontier,
                                              int* next, int* counts, int i) {
    flow_bfs_level<double>(ptr, head, mate, res, label, n, blocked, tol, frontier, next, counts, i);
}

// ---------------------------------------------------------------------------------
// Active vertices (excess above tol, label below n, not a terminal): one atomic per block.
// ---------------------------------------------------------------------------------
template <typename C>
__device__ void flow_count_active(const C* __restrict__ excess, const int* __restrict__ label, long long n, int sink,
                                  int blocked, C tol, unsigned long long* count) {
    const i64 stride = (i64)gridDim.x * blockDim.x;
    const i64 u0 = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    const i64 rounds = (n + stride - 1) / stride;  // every thread runs the same rounds (__syncthreads_count)
    for (i64 r = 0; r < rounds; r++) {
        const i64 u = u0 + r * stride;
        const int on = u < n && u != sink && u != blocked && excess[u] > tol && label[u] < (int)n;
        const int c = __syncthreads_count(on);
        if (threadIdx.x == 0 && c) atomicAdd(count, (unsigned long long)c);
    }
}

extern "C" __global__ void flow_count_active_i64(const long long* excess, const int* label, long long n, int sink,
                                                 int blocked, long long tol, unsigned long long* count) {
    flow_count_active<long long>(excess, label, n, sink, blocked, tol, count);
}

extern "C" __global__ void flow_count_active_f64(const double* excess, const int* label, long long n, int sink,
                                                 int blocked, double tol, unsigned long long* count) {
    flow_count_active<double>(excess, label, n, sink, blocked, tol, count);
}

// ---------------------------------------------------------------------------------
// Residual reachability from s (the minimum cut's source side): one BFS level per launch
// over a frontier list, as flow_bfs_level but forwards (arcs x -> y with residual capacity).
// ---------------------------------------------------------------------------------
template <typename C>
__device__ void flow_reach_level(const i64* __restrict__ ptr, const int* __restrict__ head, const C* __restrict__ res,
                                 int* seen, C tol, const int* __restrict__ frontier, int* next, int* counts, int i) {
    const int len = counts[i % 3];
    const i64 tid = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid == 0) counts[(i + 2) % 3] = 0;
    for (i64 k = tid; k < len; k += (i64)gridDim.x * blockDim.x) {
        const int x = frontier[k];
        for (i64 a = ptr[x]; a < ptr[x + 1]; a++) {
            const int y = head[a];
            if (seen[y] == 0 && res[a] > tol) {
                if (atomicCAS(&seen[y], 0, 1) == 0) next[sp_append(&counts[(i + 1) % 3])] = y;
            }
        }
    }
}

extern "C" __global__ void flow_reach_level_i64(const i64* ptr, const int* head, const long long* res, int* seen,
                                                long long tol, const int* frontier, int* next, int* counts, int i) {
    flow_reach_level<long long>(ptr, head, res, seen, tol, frontier, next, counts, i);
}

extern "C" __global__ void flow_reach_level_f64(const i64* ptr, const int* head, const double* res, int* seen,
                                                double tol, const int* frontier, int* next, int* counts, int i) {
    flow_reach_level<double>(ptr, head, res, seen, tol, frontier, next, counts, i);
}
