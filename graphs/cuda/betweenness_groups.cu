// Betweenness of a batch of sources, vertex-major: pair (v, s) at v * SP + s, sources in groups of 32
// (one warp: lane = source of its group).  graphs/cuda/centrality.py drives these kernels.
//
// A work item is (vertex v, group g), numbered v * G + g, with a 32-bit mask of the group's sources
// that have work at v.  A warp takes an item: every lane of the item reads the same arcs of v (one
// broadcast load each) and its own source's entries, which for the 32 lanes are 32 consecutive
// words (coalesced loads and atomics), where a source-major layout reads one scattered word per pair.
// The sources of a group are consecutive vertices of a bandwidth-reducing order (reverse
// Cuthill-McKee), so that their searches reach a vertex at nearby distances and share its items.
//
// Distances are the bits of non-negative doubles in u64 words (their order as integers is their
// numeric order, so atomicMin on the bits is a min on the values); +inf bits mean "not reached".
typedef unsigned long long u64;
typedef long long i64;

#define INF_BITS 0x7FF0000000000000ULL
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ double as_double(u64 b) { return __longlong_as_double((i64)b); }
__device__ __forceinline__ u64 as_bits(double d) { return (u64)__double_as_longlong(d); }

// Warp `w` of the grid and the lane; the whole warp leaves together when w >= count.
#define WARP_ITEM(count)                                                          \
    long long w = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;       \
    int lane = threadIdx.x & 31;                                                  \
    if (w >= (count)) return;

// Lane 0 sets `bits` in masks[item]; the first to make the mask non-zero lists the item.
__device__ __forceinline__ void mark(unsigned* masks, long long item, unsigned bits, int* list, int* len) {
    if (bits) {
        unsigned old = atomicOr(masks + item, bits);
        if (old == 0u) list[atomicAdd(len, 1)] = (int)item;
    }
}

// The batch's sources: source i (column i) at distance 0 with one path, its item listed.
extern "C" __global__ void bg_start(const int* __restrict__ src, int S, int G, long long SP, u64* dist,
                                    double* sigma, unsigned* act, int* list, int* len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= S) return;
    long long v = src[i];
    dist[v * SP + i] = 0ULL;  // the bits of 0.0
    sigma[v * SP + i] = 1.0;
    mark(act, v * G + i / 32, 1u << (i & 31), list, len);
}

// One near round: each item's marked sources relax v's out-arcs.  A pair improved below `thr` is
// marked in `act`; when the mask was empty its item is listed in `next`, unless it was listed there
// already this round (`stamp`): an item listed for the next round may still be processed again in
// this one and its mask emptied, and without the stamp a later mark would list it twice, and the
// lists would grow round after round.  A pair improved to `thr` or more is marked in `farm` (its
// item listed in `far` when that mask was empty; only a split empties it).
extern "C" __global__ void bg_relax(const int* __restrict__ items, int count, int G, long long SP,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ wt, u64* dist, double thr, unsigned* act,
                                    int* stamp, int round, int* next, int* next_len, unsigned* farm, int* far,
                                    int* far_len) {
    WARP_ITEM(count)
    long long it = items[w];
    unsigned m = 0u;
    if (lane == 0) {
        m = atomicExch(act + it, 0u);
        __threadfence();
    }
    m = __shfl_sync(FULL_MASK, m, 0);
    if (m == 0u) return;
    long long v = it / G;
    long long col = (it - v * G) * 32 + lane;
    bool on = (m >> lane) & 1u;
    // From L2 (__ldcg), not L1: a mark merged into this item's mask while it waited in the list was
    // made after an atomicMin (performed in L2) that this SM's L1 may hold an older line of; a stale
    // distance here would relax from the old value, and the improvement would be lost.
    double dv = on ? as_double((u64)__ldcg((const long long*)(dist + v * SP + col))) : 0.0;
    long long a0 = indptr[v], a1 = indptr[v + 1];
    for (long long a = a0; a < a1; ++a) {
        long long q = indices[a];
        bool near = false, farther = false;
        if (on) {
            double nd = dv + wt[a];
            u64 bits = as_bits(nd);
            u64* p = dist + q * SP + col;
            if (bits < *p) {
                u64 old = atomicMin(p, bits);
                if (bits < old) {
                    near = nd < thr;
                    farther = !near;
                }
            }
        }
        unsigned nb = __ballot_sync(FULL_MASK, near);
        unsigned fb = __ballot_sync(FULL_MASK, farther);
        if (lane == 0) {
            long long qi = q * G + (it - v * G);
            if (nb) __threadfence();  // the improvements before the marks that announce them
            if (nb && atomicOr(act + qi, nb) == 0u && atomicExch(stamp + qi, round) != round)
                next[atomicAdd(next_len, 1)] = (int)qi;
            mark(farm, qi, fb, far, far_len);
        }
    }
}

// The far items at a new threshold: pairs below `lo` were relaxed at their distance already
// (dropped), pairs in [lo, hi) are marked near, the rest stay far (their items kept in `keep`);
// `minfar` gets the least distance kept.
extern "C" __global__ void bg_split(const int* __restrict__ items, int count, int G, long long SP,
                                    const u64* __restrict__ dist, double lo, double hi, unsigned* farm,
                                    unsigned* act, int* near, int* near_len, int* keep, int* keep_len,
                                    u64* minfar) {
    WARP_ITEM(count)
    long long it = items[w];
    unsigned m = farm[it];
    long long v = it / G;
    long long col = (it - v * G) * 32 + lane;
    bool on = (m >> lane) & 1u;
    u64 b = on ? dist[v * SP + col] : ~0ULL;
    double d = as_double(b);
    bool go = on && d >= lo && d < hi;
    bool stay = on && d >= hi;
    unsigned gb = __ballot_sync(FULL_MASK, go);
    unsigned sb = __ballot_sync(FULL_MASK, stay);
    u64 mn = stay ? b : ~0ULL;
    for (int off = 16; off > 0; off >>= 1) {
        u64 o = __shfl_down_sync(FULL_MASK, mn, off);
        mn = o < mn ? o : mn;
    }
    if (lane == 0) {
        farm[it] = sb;
        mark(act, it, gb, near, near_len);
        if (sb) {
            keep[atomicAdd(keep_len, 1)] = (int)it;
            atomicMin(minfar, mn);
        }
    }
}

// Tight in-degree of every reached pair (an arc u -> v is tight for s when d[u] + w = d[v]).
extern "C" __global__ void bg_indegree(long long items, int G, long long SP, const long long* __restrict__ indptr,
                                       const int* __restrict__ indices, const double* __restrict__ wt,
                                       const u64* __restrict__ dist, int* indeg) {
    WARP_ITEM(items)
    long long v = w / G;
    long long col = (w - v * G) * 32 + lane;
    u64 db = dist[v * SP + col];
    bool on = db != INF_BITS;
    if (!__any_sync(FULL_MASK, on)) return;
    double dv = as_double(db);
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = indices[a];
        if (on && q != v && dv + wt[a] == as_double(dist[q * SP + col])) atomicAdd(indeg + q * SP + col, 1);
    }
}

// One wave of path counts: each item of the wave takes its mask from `cur` (recorded in `masks`),
// adds its counts along tight arcs, and a pair whose last tight in-arc arrived is marked in `nxt`
// (the other wave's masks: a pair never joins the wave of a predecessor).
extern "C" __global__ void bg_count(const int* __restrict__ items, unsigned* masks, int count, int G, long long SP,
                                    const long long* __restrict__ indptr, const int* __restrict__ indices,
                                    const double* __restrict__ wt, const u64* __restrict__ dist, double* sigma,
                                    int* indeg, unsigned* cur, unsigned* nxt, int* next, int* next_len) {
    WARP_ITEM(count)
    long long it = items[w];
    unsigned m = 0u;
    if (lane == 0) {
        m = atomicExch(cur + it, 0u);
        masks[w] = m;
    }
    m = __shfl_sync(FULL_MASK, m, 0);
    long long v = it / G;
    long long g = it - v * G;
    long long col = g * 32 + lane;
    bool on = (m >> lane) & 1u;
    double dv = on ? as_double(dist[v * SP + col]) : 0.0;
    double sv = on ? sigma[v * SP + col] : 0.0;
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = indices[a];
        bool ready = false;
        if (on && q != v && dv + wt[a] == as_double(dist[q * SP + col])) {
            atomicAdd(sigma + q * SP + col, sv);
            __threadfence();
            ready = atomicSub(indeg + q * SP + col, 1) == 1;
        }
        unsigned rb = __ballot_sync(FULL_MASK, ready);
        if (lane == 0) mark(nxt, q * G + g, rb, next, next_len);
    }
}

// Dependencies of one wave (waves from last to first): each marked pair pulls
// sigma[v] / sigma[q] (1 + delta[q]) along its tight out-arcs; with `edges`, each arc's sum over
// the group goes to eb[a] (one atomic per warp and arc).
extern "C" __global__ void bg_depend(const int* __restrict__ items, const unsigned* __restrict__ masks, int count,
                                     int G, long long SP, const long long* __restrict__ indptr,
                                     const int* __restrict__ indices, const double* __restrict__ wt,
                                     const u64* __restrict__ dist, const double* __restrict__ sigma, double* delta,
                                     int edges, double* eb) {
    WARP_ITEM(count)
    long long it = items[w];
    unsigned m = masks[w];
    long long v = it / G;
    long long col = (it - v * G) * 32 + lane;
    bool on = (m >> lane) & 1u;
    double dv = on ? as_double(dist[v * SP + col]) : 0.0;
    double sv = on ? sigma[v * SP + col] : 0.0;
    double acc = 0.0;
    for (long long a = indptr[v]; a < indptr[v + 1]; ++a) {
        long long q = indices[a];
        double c = 0.0;
        if (on && q != v && dv + wt[a] == as_double(dist[q * SP + col])) {
            long long p = q * SP + col;
            c = sv * (1.0 + delta[p]) / sigma[p];
            acc += c;
        }
        if (edges) {
            for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(FULL_MASK, c, off);
            if (lane == 0 && c != 0.0) atomicAdd(eb + a, c);
        }
    }
    if (on) delta[v * SP + col] = acc;
}

// bc[v] += the dependencies of v over the batch's sources other than v itself (+ 1 per source
// reaching v with `endpoints`).  One warp per vertex, lanes striding over the batch's columns.
extern "C" __global__ void bg_colsum(long long n, int S, long long SP, const double* __restrict__ delta,
                                     const u64* __restrict__ dist, const int* __restrict__ src, int endpoints,
                                     double* bc) {
    WARP_ITEM(n)
    long long v = w;
    double acc = 0.0;
    for (int s = lane; s < S; s += 32) {
        if (src[s] == v) continue;
        long long p = v * SP + s;
        if (endpoints) {
            if (dist[p] != INF_BITS) acc += delta[p] + 1.0;
        } else {
            acc += delta[p];
        }
    }
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(FULL_MASK, acc, off);
    if (lane == 0 && acc != 0.0) bc[v] += acc;
}
