// The batched many-source search (graphs/cuda/batched_search.py): near-far delta-stepping over all the pairs
// of a batch of sources at once, and what reads its distances out (distance rows, predecessors).
// Betweenness (centrality.cu) runs its path counts and dependencies on the same records afterwards.
#include "batched_search.cuh"

// ---------------------------------------------------------------------------------------------
// Distances by near-far delta-stepping over all the batch's pairs.
// ---------------------------------------------------------------------------------------------

// Every pair of the batch: not reached, no path, never queued.
extern "C" __global__ void bc_clear(Pair* R, long long count) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= count) return;
    Pair r;
    r.dist = INF_BITS;
    r.sigma = 0.0;
    r.delta = 0.0;
    r.stamp = -1;
    r.flags = 0u;
    R[i] = r;
}

// The batch's sources: distance 0, one path, listed in `queue` (the first near round, or the first wave).
extern "C" __global__ void bc_start(const int* __restrict__ src, int S, int n, Pair* R, int* queue) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= S) return;
    int p = i * n + src[i];
    R[p].dist = 0ULL;  // the bits of 0.0
    R[p].sigma = 1.0;
    queue[i] = p;
}

// One step of near-far delta-stepping over all the batch's pairs, as st[ST_MODE] says:
// MODE_RELAX: each pair of the current round relaxes its out-arcs.  A head improved below the threshold
//   joins the next round (once per round: the stamp), one improved to the threshold or more joins the far
//   list (once: the flag).
// MODE_SPLIT: the far list at a new bucket [lo, hi): pairs below `lo` were relaxed at their distance already
//   (dropped), pairs in [lo, hi) make the next round, the rest stay far; aux[0] gets the least distance kept.
// Grid-stride loops: the lengths are on the device.
extern "C" __global__ void bc_step(const int* st, const double* th, int n, const long long* __restrict__ indptr,
                                   const int* __restrict__ indices, const double* __restrict__ w, Pair* R, int* q0,
                                   int* q1, int* f0, int* f1, int* cnt, u64* aux, int single) {
    int mode = st[ST_MODE];
    int stride = gridDim.x * blockDim.x;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (mode == MODE_RELAX) {
        const int* queue = st[ST_PQ] ? q1 : q0;
        int* near = st[ST_PQ] ? q0 : q1;
        int* far = st[ST_PF] ? f1 : f0;
        int qlen = st[ST_QLEN], round = st[ST_ROUND];
        double thr = th[TH_THR];
        for (int e = tid; e < qlen; e += stride) {
            int p = queue[e];
            int s = p / n, v = p - s * n;
            int base = s * n;
            double dv = as_double(R[p].dist);
            long long a1 = indptr[v + 1];
            for (long long a = indptr[v]; a < a1; ++a) {
                int q = base + indices[a];
                double nd = path_sum(dv, w[a], single);
                u64 bits = as_bits(nd);
                if (bits < R[q].dist) {
                    u64 old = atomicMin(&R[q].dist, bits);
                    if (bits < old) {
                        if (nd < thr) {
                            if (atomicExch(&R[q].stamp, round) != round) near[append(cnt + ST_NLEN)] = q;
                        } else if (atomicExch(&R[q].flags, 1u) == 0u) {
                            far[append(cnt + ST_FLEN)] = q;
                        }
                    }
                }
            }
        }
    } else if (mode == MODE_SPLIT) {
        const int* far = st[ST_PF] ? f1 : f0;
        int* keep = st[ST_PF] ? f0 : f1;
        int* near = st[ST_PQ] ? q0 : q1;  // the next round's queue
        int flen = st[ST_FLEN];
        double lo = th[TH_LO], hi = th[TH_HI];
        u64 m = ~0ULL;
        for (int e = tid; e < flen; e += stride) {
            int p = far[e];
            u64 b = R[p].dist;
            double d = as_double(b);
            if (d < lo) {
                R[p].flags = 0u;
            } else if (d < hi) {
                R[p].flags = 0u;
                near[append(cnt + ST_NLEN)] = p;
            } else {
                keep[append(cnt + ST_KLEN)] = p;
                m = b < m ? b : m;
            }
        }
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            u64 o = __shfl_down_sync(FULL_MASK, m, off);
            m = o < m ? o : m;
        }
        if ((threadIdx.x & 31) == 0 && m != ~0ULL) atomicMin(aux, m);
    }
}

// After each bc_step (one thread): the counts of the step become the next state.  `st` is read by the
// steps, `cnt` written by them (the same layout; separate arrays, so no step reads what another writes).
extern "C" __global__ void bc_advance(int* st, int* cnt, double* th, u64* aux) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    int mode = st[ST_MODE];
    if (mode == MODE_DONE) return;
    int q = cnt[ST_NLEN];
    cnt[ST_NLEN] = 0;
    if (mode == MODE_RELAX) {
        aux[1] += (u64)st[ST_QLEN];
        st[ST_ROUND] += 1;
        st[ST_FLEN] = cnt[ST_FLEN];
    } else {  // MODE_SPLIT: the far list goes on from the kept pairs
        st[ST_FLEN] = cnt[ST_KLEN];
        cnt[ST_FLEN] = cnt[ST_KLEN];
        cnt[ST_KLEN] = 0;
        st[ST_PF] ^= 1;
        th[TH_THR] = th[TH_HI];
    }
    st[ST_QLEN] = q;
    st[ST_PQ] ^= 1;
    if (q > 0) {
        st[ST_MODE] = MODE_RELAX;
    } else if (st[ST_FLEN] == 0) {
        st[ST_MODE] = MODE_DONE;
    } else if (mode == MODE_RELAX) {  // the bucket is done: split the far list at the next one
        th[TH_LO] = th[TH_THR];
        th[TH_HI] = th[TH_THR] + th[TH_DELTA];
        st[ST_MODE] = MODE_SPLIT;
    } else {  // an empty bucket: skip to the one of the least distance kept
        th[TH_LO] = th[TH_HI];
        th[TH_HI] = as_double(aux[0]) + th[TH_DELTA];
    }
    if (mode == MODE_SPLIT) aux[0] = ~0ULL;
}

// ---------------------------------------------------------------------------------------------
// Reading the distances out.
// ---------------------------------------------------------------------------------------------

// Rows of a distance matrix: out[i * ncols + j] = the distance of pair (i, cols[j]) of the batch, +inf where it
// exceeds `limit` (a repeated column repeats its entry).
extern "C" __global__ void ms_gather(const Pair* __restrict__ R, int S, int n, const int* __restrict__ cols,
                                     int ncols, double limit, double* out) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= (long long)S * ncols) return;
    int s = (int)(i / ncols);
    int j = (int)(i - (long long)s * ncols);
    double d = as_double(R[s * n + cols[j]].dist);
    out[i] = d > limit ? as_double(INF_BITS) : d;
}

// Predecessors from the distances, for arcs of positive weight only (then a tight in-arc's tail is strictly
// nearer, and the tight arcs chosen form a tree): pred[s * n + v] = the tail of the first in-arc of v (in the
// transposed CSR tptr / tidx / tw) with d(s, u) + w == d(s, v); -1 for the sources, unreached pairs and pairs
// past `limit`.
extern "C" __global__ void ms_tight_preds(const Pair* __restrict__ R, int S, int n, const long long* __restrict__ tptr,
                                          const int* __restrict__ tidx, const double* __restrict__ tw,
                                          const int* __restrict__ src, double limit, int single, int* pred) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= (long long)S * n) return;
    int p = (int)i;
    int s = p / n, v = p - s * n;
    u64 db = R[p].dist;
    int found = -1;
    double dv = as_double(db);
    if (db != INF_BITS && v != src[s] && !(dv > limit)) {
        int base = s * n;
        for (long long a = tptr[v]; a < tptr[v + 1]; ++a) {
            int u = tidx[a];
            if (path_sum(as_double(R[base + u].dist), tw[a], single) == dv) {
                found = u;
                break;
            }
        }
    }
    pred[p] = found;
}
