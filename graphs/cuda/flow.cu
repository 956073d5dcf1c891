// Maximum flow: lock-free push-relabel (multi-push discharges) and the global relabel
// (backward BFS from the sink).
//
// Built by graphs/cuda/launch.py (the #define lines of semiring/cuda/sparse.py's module();
// these kernels read no semiring macros) with the helpers of semiring/cuda's
// sparse_device.cuh.  The residual network is CSR: `ptr` int64 (n + 1), `head` int32,
// `mate` int64 (the opposite arc of each arc), `res` the residual capacities.  Capacities
// and excesses are long long, exact integers (float capacities arrive scaled to integers,
// graphs/_flow_network.py's fixed_point); the drivers pass tol = 0.
//
// References: Hong & He, "An asynchronous multithreaded algorithm for the maximum network
// flow problem with nonblocking global relabeling heuristic", IEEE TPDS 22 (2011) (the
// lock-free push and relabel: stale reads of neighbours' labels, excesses and residuals
// stay safe because only a vertex lowers its own excess and its own arcs' residuals; its
// step pushes along one arc, to the lowest neighbour, ours along every lower one);
// Harish, Vineet & Narayanan, "Large graph algorithms for massively multithreaded
// architectures" (2009) (rounds of pushes and relabels, then one global relabel).
#include "sparse_device.cuh"

__device__ __forceinline__ long long flow_atomic_add(long long* p, long long d) {
    return (long long)atomicAdd((unsigned long long*)p, (unsigned long long)d);
}

// ---------------------------------------------------------------------------------
// Discharge: an active vertex u (excess above tol, label below n, neither the sink nor
// the blocked terminal) pushes, in one scan of its arcs, along every residual arc whose
// head it reads lower than itself, as much as each arc takes, until its excess is gone;
// when excess is left, every arc to a lower head is saturated and u lifts itself to one
// above its lowest residual neighbour (n, dead, when none is left).  Hong & He's step
// pushes along one arc: a hub of a power-law graph then needs a scan of all its arcs per
// arc it fills (R-MAT 20, the two largest hubs: 2.3 s with that step, 0.46 s with this).
// ---------------------------------------------------------------------------------
template <typename C>
__device__ void flow_discharge(const i64* __restrict__ ptr, const int* __restrict__ head,
                               const i64* __restrict__ mate, C* res, C* excess, int* label, long long n, int sink,
                               int blocked, C tol, int iters, long long heavy) {
    const int nn = (int)n;
    for (i64 u = (i64)blockIdx.x * blockDim.x + threadIdx.x; u < n; u += (i64)gridDim.x * blockDim.x) {
        if (u == sink || u == blocked) continue;
        const i64 a0 = ptr[u], a1 = ptr[u + 1];
        if (a1 - a0 > heavy) continue;  // a warp's job
        for (int it = 0; it < iters; it++) {
            const C e = ((volatile C*)excess)[u];
            const int hu = label[u];
            if (!(e > tol) || hu >= nn) break;
            C left = e, sent = 0;
            int hmin = nn;
            for (i64 a = a0; a < a1; a++) {
                const C r = ((volatile C*)res)[a];
                if (!(r > tol)) continue;
                const int v = head[a];
                const int h = ((volatile int*)label)[v];
                if (h < hu) {
                    const C d = left < r ? left : r;
                    flow_atomic_add(&res[a], -d);
                    flow_atomic_add(&res[mate[a]], d);
                    flow_atomic_add(&excess[v], d);
                    sent += d;
                    left -= d;
                    if (!(left > tol)) break;
                } else if (h < hmin) {
                    hmin = h;
                }
            }
            if (sent != 0) flow_atomic_add(&excess[u], -sent);
            if (!(left > tol)) continue;
            label[u] = hmin + 1 < nn ? hmin + 1 : nn;
        }
    }
}

extern "C" __global__ void flow_discharge_i64(const i64* ptr, const int* head, const i64* mate, long long* res,
                                              long long* excess, int* label, long long n, int sink, int blocked,
                                              long long tol, int iters, long long heavy) {
    flow_discharge<long long>(ptr, head, mate, res, excess, label, n, sink, blocked, tol, iters, heavy);
}

// The discharge of a heavy vertex (listed in `list`) by a warp: 32 arcs at a time, each
// lane one arc; a warp prefix sum of what the lower arcs take splits the excess left
// over them in arc order (the same pushes as the thread's scan), lane 0 takes the
// pushed sum off the excess and relabels.
template <typename C>
__device__ void flow_discharge_heavy(const i64* __restrict__ ptr, const int* __restrict__ head,
                                     const i64* __restrict__ mate, C* res, C* excess, int* label, long long n,
                                     int sink, int blocked, C tol, int iters, const int* __restrict__ list,
                                     long long count) {
    const int nn = (int)n;
    const int lane = threadIdx.x & 31;
    for (i64 w = sp_warp_id(); w < count; w += sp_warp_count()) {
        const int u = list[w];
        if (u == sink || u == blocked) continue;
        const i64 a0 = ptr[u], a1 = ptr[u + 1];
        for (int it = 0; it < iters; it++) {
            C e = ((volatile C*)excess)[u];
            int hu = ((volatile int*)label)[u];
            e = __shfl_sync(SP_FULL, e, 0);
            hu = __shfl_sync(SP_FULL, hu, 0);
            if (!(e > tol) || hu >= nn) break;
            C left = e;
            int hmin = nn;
            for (i64 base = a0; base < a1; base += 32) {
                const i64 a = base + lane;
                C r = 0;
                int h = nn;
                if (a < a1) {
                    r = ((volatile C*)res)[a];
                    if (r > tol) h = ((volatile int*)label)[head[a]];
                }
                const C want = h < hu ? r : C(0);
                C incl = want;  // inclusive prefix sum over the lanes
                for (int off = 1; off < 32; off <<= 1) {
                    const C o = __shfl_up_sync(SP_FULL, incl, off);
                    if (lane >= off) incl += o;
                }
                const C before = incl - want;
                C d = 0;
                if (want > 0 && left > before) d = left - before < want ? left - before : want;
                if (d > 0) {
                    flow_atomic_add(&res[a], -d);
                    flow_atomic_add(&res[mate[a]], d);
                    flow_atomic_add(&excess[head[a]], d);
                }
                if (h < nn && (h >= hu || d < want) && h < hmin) hmin = h;
                C pushed = d;  // the chunk's pushes, summed over the warp (every lane gets it)
                for (int off = 16; off > 0; off >>= 1) pushed += __shfl_xor_sync(SP_FULL, pushed, off);
                left -= pushed;
                if (!(left > tol)) break;
            }
            for (int off = 16; off > 0; off >>= 1) {
                const int o = __shfl_xor_sync(SP_FULL, hmin, off);
                hmin = o < hmin ? o : hmin;
            }
            if (lane == 0) {
                if (left != e) flow_atomic_add(&excess[u], left - e);
                if (left > tol) label[u] = hmin + 1 < nn ? hmin + 1 : nn;
            }
            __syncwarp();
        }
    }
}

extern "C" __global__ void flow_discharge_heavy_i64(const i64* ptr, const int* head, const i64* mate,
                                                    long long* res, long long* excess, int* label, long long n,
                                                    int sink, int blocked, long long tol, int iters, const int* list,
                                                    long long count) {
    flow_discharge_heavy<long long>(ptr, head, mate, res, excess, label, n, sink, blocked, tol, iters, list, count);
}

// f(x, a) for every arc a of every vertex x of the frontier list, a warp per 32 entries
// (sp_sweep_arcs: a hub's arcs are swept by the whole warp, not by one thread).  Called by
// every lane of the grid.
template <typename F>
__device__ __forceinline__ void flow_for_frontier_arcs(const i64* __restrict__ ptr, const int* __restrict__ frontier,
                                                       int len, F&& f) {
    for (i64 base = sp_warp_id() * 32; base < len; base += sp_warp_count() * 32) {
        const i64 k = base + (threadIdx.x & 31);
        const int x = k < len ? frontier[k] : -1;
        const i64 a0 = x >= 0 ? ptr[x] : 0, a1 = x >= 0 ? ptr[x + 1] : 0;
        sp_sweep_arcs(x, 0, a0, a1, [&](int y, int, i64 a) { f(y, a); });
    }
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
    if (blockIdx.x == 0 && threadIdx.x == 0) counts[(i + 2) % 3] = 0;
    flow_for_frontier_arcs(ptr, frontier, len, [&](int x, i64 a) {
        const int y = head[a];
        if (y != blocked && label[y] == nn && res[mate[a]] > tol) {
            if (atomicCAS(&label[y], nn, label[x] + 1) == nn) next[sp_append(&counts[(i + 1) % 3])] = y;
        }
    });
}

extern "C" __global__ void flow_bfs_level_i64(const i64* ptr, const int* head, const i64* mate, const long long* res,
                                              int* label, long long n, int blocked, long long tol, const int* frontier,
                                              int* next, int* counts, int i) {
    flow_bfs_level<long long>(ptr, head, mate, res, label, n, blocked, tol, frontier, next, counts, i);
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

// ---------------------------------------------------------------------------------
// Residual reachability from s (the minimum cut's source side): one BFS level per launch
// over a frontier list, as flow_bfs_level but forwards (arcs x -> y with residual capacity).
// ---------------------------------------------------------------------------------
template <typename C>
__device__ void flow_reach_level(const i64* __restrict__ ptr, const int* __restrict__ head, const C* __restrict__ res,
                                 int* seen, C tol, const int* __restrict__ frontier, int* next, int* counts, int i) {
    const int len = counts[i % 3];
    if (blockIdx.x == 0 && threadIdx.x == 0) counts[(i + 2) % 3] = 0;
    flow_for_frontier_arcs(ptr, frontier, len, [&](int x, i64 a) {
        const int y = head[a];
        if (seen[y] == 0 && res[a] > tol) {
            if (atomicCAS(&seen[y], 0, 1) == 0) next[sp_append(&counts[(i + 1) % 3])] = y;
        }
    });
}

extern "C" __global__ void flow_reach_level_i64(const i64* ptr, const int* head, const long long* res, int* seen,
                                                long long tol, const int* frontier, int* next, int* counts, int i) {
    flow_reach_level<long long>(ptr, head, res, seen, tol, frontier, next, counts, i);
}
