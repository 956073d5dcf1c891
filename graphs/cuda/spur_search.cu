// Yen's spur searches on the GPU (graphs/cuda/spur_search.py): all the spur searches of a round at once, one warp
// per search, each an A* search on the device from its start to its end with no launch per step.
//
// Search `j` of a round (slot `slot = j - j0` of the launch) starts at x = path[i] (i = spur_at[j]) at the distance
// prefix[i], never enters a vertex of the root path[0..i] (0 <= rank[v] <= i) and never follows an arc x -> v to a
// vertex v of ban_next[ban_ptr[j] .. ban_ptr[j + 1]) (graphs/paths/_ksp_kernels.py: the same searches on the CPU).
// Keys are f = g + h[v] (h: the exact distance from v to the end in the whole graph, consistent, +inf where the
// end cannot be reached), ordered by near-far buckets of width `delta` (Davidson et al., IPDPS 2014) within the
// warp: the near rounds relax the queued vertices' arcs (a lane per vertex), improved vertices below the threshold
// join the next round once (the round stamp), the others the far list once (the flag); a drained bucket splits the
// far list at the next one.  The bound: keys above the end's distance (once it is reached) or above `limit` are of
// no use (within `slack`, relative, where the sums round); so each search expands what A* does, plus a bucket.
//
// Distances g are exact minima of path sums (in double, or rounded as float32 sums with `single`), so every vertex
// with f up to the end's distance holds its distance when the search ends.  The route is then read back from the
// end: at each vertex, of its in-arcs (tptr / tidx / tw, the transposed graph) whose tail holds a distance that
// the arc makes tight, the tail of least original id (order[u]), never a vertex already on the route; the CPU
// kernel's tie rule with positive weights.  A route that cannot be read (a tie over zero-weight arcs) is reported
// as failed (route_len = -1) and its search is run again on the CPU.
//
// Each slot owns n records and four lists of n entries (rec, qa, qb, far, touched at slot * n): the records of
// the vertices a search touched stay as they are until the slot's next search resets them (touched, tcount), so
// that the host can read the route's distances after the launch.
#include "batched_search.cuh"

// A (search, vertex) pair: the bits of its distance, the last near round that queued it, on the far list.
struct __align__(16) SpurRec {
    u64 dist;
    int stamp;
    unsigned far;
};

#define SPUR_WARPS 4  // warps (searches) per block: the host launches blocks of 32 * SPUR_WARPS threads
#define WALK_MARK (-7)

__device__ __forceinline__ bool banned_from_start(const int* __restrict__ ban_next, long long b0, long long b1, int v) {
    for (long long q = b0; q < b1; ++q)
        if (ban_next[q] == v) return true;
    return false;
}

__device__ __forceinline__ double warp_min(double v) {
    for (int off = 16; off > 0; off >>= 1) v = fmin(v, __shfl_xor_sync(FULL_MASK, v, off));
    return v;
}

__device__ __forceinline__ long long warp_min_ll(long long v) {
    for (int off = 16; off > 0; off >>= 1) {
        long long o = __shfl_xor_sync(FULL_MASK, v, off);
        v = o < v ? o : v;
    }
    return v;
}

extern "C" __global__ void __launch_bounds__(32 * SPUR_WARPS)
spur_batch(int S, int j0, int n, const long long* __restrict__ indptr, const int* __restrict__ indices,
           const double* __restrict__ w, const long long* __restrict__ tptr, const int* __restrict__ tidx,
           const double* __restrict__ tw, const double* __restrict__ h, const int* __restrict__ order,
           const int* __restrict__ rank, const int* __restrict__ path, const double* __restrict__ prefix,
           const int* __restrict__ spur_at, const long long* __restrict__ ban_ptr, const int* __restrict__ ban_next,
           int target, double limit, double hi, double delta, double slack, int single, SpurRec* rec, int* qa,
           int* qb, int* farl, int* touched, int* tcount, int* route_len, long long* expanded) {
    __shared__ int counters[SPUR_WARPS][3];  // the next round's queue, the far list, the touched list
    const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
    const int slot = blockIdx.x * SPUR_WARPS + wib;
    if (slot >= S) return;  // the whole warp
    const long long base = (long long)slot * n;
    SpurRec* R = rec + base;
    int* Q = qa + base;
    int* N = qb + base;
    int* F = farl + base;
    int* T = touched + base;
    int* ctr = counters[wib];

    const int told = tcount[slot];  // the slot's last search: reset what it touched
    for (int e = lane; e < told; e += 32) {
        int v = T[e];
        R[v].dist = INF_BITS;
        R[v].stamp = -1;
        R[v].far = 0u;
    }
    const int j = j0 + slot;
    const int i = spur_at[j], x = path[i];
    const double g0 = prefix[i];
    const long long b0 = ban_ptr[j], b1 = ban_ptr[j + 1];
    const double f0 = g0 + h[x];
    if (lane == 0) {
        ctr[0] = ctr[1] = ctr[2] = 0;
    }
    __syncwarp();
    int qlen = 0;
    if (f0 < hi && !(f0 > limit)) {
        if (lane == 0) {
            R[x].dist = as_bits(g0);
            Q[0] = x;
            T[0] = x;
            ctr[2] = 1;
        }
        qlen = 1;
    }
    __syncwarp();
    double bound = limit, thr = f0 + delta;
    int round = 0;
    long long done = 0;
    while (qlen > 0) {
        // Near rounds: relax the queued vertices' arcs until no vertex improves below the threshold.
        while (qlen > 0) {
            const double cut = bound + slack * fabs(bound);
            for (int e0 = 0; e0 < qlen; e0 += 32) {
                int e = e0 + lane;
                if (e >= qlen) continue;
                int u = Q[e];
                double gu = as_double(R[u].dist);
                if (gu + h[u] > cut) continue;
                ++done;
                bool at_start = u == x && b1 > b0;
                for (long long a = indptr[u], a1 = indptr[u + 1]; a < a1; ++a) {
                    int v = indices[a];
                    int r = rank[v];
                    if (r >= 0 && r <= i) continue;  // the root
                    if (at_start && banned_from_start(ban_next, b0, b1, v)) continue;
                    double nd = path_sum(gu, w[a], single) + 0.0;  // + 0.0: never the bits of -0.0
                    double f = nd + h[v];
                    if (!(f < hi) || f > cut) continue;  // cannot reach the end, or of no use
                    u64 bits = as_bits(nd);
                    if (bits >= R[v].dist) continue;
                    u64 old = atomicMin(&R[v].dist, bits);
                    if (bits >= old) continue;
                    if (old == INF_BITS) T[append(ctr + 2)] = v;
                    if (v == target) continue;  // the end: never expanded
                    if (f < thr) {
                        if (atomicExch(&R[v].stamp, round) != round) N[append(ctr + 0)] = v;
                    } else if (atomicExch(&R[v].far, 1u) == 0u) {
                        F[append(ctr + 1)] = v;
                    }
                }
            }
            __syncwarp();
            bound = fmin(bound, as_double(R[target].dist));
            qlen = ctr[0];
            __syncwarp();
            if (lane == 0) ctr[0] = 0;
            int* t = Q;
            Q = N;
            N = t;
            ++round;
            __syncwarp();
        }
        // The bucket is drained: move the far vertices of the next non-empty bucket into the queue, drop those
        // relaxed at their distance already (below the bucket) or of no use, keep the others (compacted in place).
        int flen = ctr[1];
        const double cut = bound + slack * fabs(bound);
        double lo = thr, top = thr + delta;
        while (flen > 0) {
            int kept = 0;
            double least = __longlong_as_double(INF_BITS);
            for (int e0 = 0; e0 < flen; e0 += 32) {
                int e = e0 + lane, v = -1, kind = 0;  // 1: into the queue, 2: kept
                if (e < flen) {
                    v = F[e];
                    double f = as_double(R[v].dist) + h[v];
                    if (f > cut || f < lo) {
                        R[v].far = 0u;
                    } else if (f < top) {
                        R[v].far = 0u;
                        kind = 1;
                    } else {
                        kind = 2;
                        least = fmin(least, f);
                    }
                }
                unsigned mv = __ballot_sync(FULL_MASK, kind == 1), kp = __ballot_sync(FULL_MASK, kind == 2);
                unsigned below = (1u << lane) - 1u;
                if (kind == 1) Q[qlen + __popc(mv & below)] = v;
                if (kind == 2) F[kept + __popc(kp & below)] = v;  // never past what the warp has read
                qlen += __popc(mv);
                kept += __popc(kp);
            }
            flen = kept;
            if (qlen > 0 || kept == 0) break;
            lo = warp_min(least);  // an empty bucket: on to the least key kept
            top = lo + delta;
        }
        thr = top;
        __syncwarp();
        if (lane == 0) ctr[1] = flen;
        __syncwarp();
    }

    // Read the route back from the end (see above).
    int len = 0;
    int* route = qa + base;  // the queues are free now
    const u64 end_bits = R[target].dist;
    if (end_bits != INF_BITS && !(as_double(end_bits) > limit)) {
        int v = target;
        if (lane == 0) R[v].stamp = WALK_MARK;
        __syncwarp();
        while (true) {
            if (lane == 0) route[len] = v;
            ++len;
            if (v == x) break;
            const double dv = as_double(R[v].dist);
            long long best = 0x7fffffffffffffffLL;
            for (long long a = tptr[v] + lane, a1 = tptr[v + 1]; a < a1; a += 32) {
                int u = tidx[a];
                SpurRec ru = R[u];
                if (ru.dist == INF_BITS || ru.stamp == WALK_MARK) continue;
                if (path_sum(as_double(ru.dist), tw[a], single) + 0.0 != dv) continue;
                if (u == x && banned_from_start(ban_next, b0, b1, v)) continue;
                long long key = ((long long)order[u] << 32) | (unsigned)u;
                best = key < best ? key : best;
            }
            best = warp_min_ll(best);
            if (best == 0x7fffffffffffffffLL || len >= n) {
                len = -1;
                break;
            }
            v = (int)(best & 0xffffffffLL);
            if (lane == 0) R[v].stamp = WALK_MARK;
            __syncwarp();
        }
    }
    for (int off = 16; off > 0; off >>= 1) done += __shfl_xor_sync(FULL_MASK, done, off);
    __syncwarp();
    if (lane == 0) {
        tcount[slot] = ctr[2];
        route_len[slot] = len;
        expanded[slot] = done;
    }
}
