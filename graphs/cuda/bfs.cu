// BFS kernels: push / pull levels, chunks of long frontier vertices, small frontiers in
// one block, the start state, a queue's bitmap.
//
// Built by graphs/cuda/launch.py with the #define lines of semiring/cuda/sparse.py's
// module() (the semiring macros of prelude.cuh where a kernel reads weights, and SP_FLOAT);
// the warp-level helpers (shuffles, appends, chunk lists) come from semiring/cuda's
// sparse_device.cuh.  Graphs are CSR: `ptr` is int64 (n + 1), `idx` int32; the in-arcs of
// a pull are the CSR of the transpose (tptr / tind).
//
// References: Merrill, Garland & Grimshaw, "Scalable GPU graph traversal", PPoPP 2012
// (warp-cooperative neighbour gathering); Beamer et al., SC 2012 (direction-optimising BFS);
// Li & Becchi, IPDPS 2013 (adaptive working sets).
#include "sparse_device.cuh"

// ---------------------------------------------------------------------------------
// BFS.  level[] is -1 for unvisited vertices; `visited` is a bitmap of the same set
// (kept in L2), so most arcs to visited vertices cost no atomic.  A level writes the
// next frontier both as a queue (next_q, *count entries) and as a bitmap (next_bm),
// so either direction can follow.  stats[0] accumulates the out-arcs of the new
// frontier (m_f), stats[1] the arcs scanned.
// ---------------------------------------------------------------------------------
__device__ __forceinline__ bool bfs_is_set(const unsigned int* bm, int v) { return (bm[v >> 5] >> (v & 31)) & 1u; }

// Claim v for level d + 1 from u; returns v's out-degree if this thread won it, else 0.
__device__ __forceinline__ u64 bfs_claim(int u, int v, int d, const i64* ptr, int* level, int* parent,
                                         unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                         const int* other_level, u64* meet) {
    if (bfs_is_set(visited, v)) return 0;
    if (atomicCAS(&level[v], -1, d + 1) != -1) return 0;
    parent[v] = u;
    atomicOr(&visited[v >> 5], 1u << (v & 31));
    if (next_bm != nullptr) atomicOr(&next_bm[v >> 5], 1u << (v & 31));
    next_q[sp_append(count)] = v;
    if (other_level != nullptr) {
        const int o = other_level[v];
        if (o >= 0) atomicMin(meet, ((u64)(unsigned)(d + 1 + o) << 32) | (u64)(unsigned)v);
    }
    return (u64)(ptr[v + 1] - ptr[v]);
}

// Push (top-down) level: a lane owns a frontier vertex; vertices with 32 or more arcs are
// swept by the whole warp, and vertices with BFS_CHUNK or more arcs are cut into chunks of
// BFS_CHUNK arcs that bfs_push_chunks gives a warp each (thread, warp or many warps per
// vertex by degree: Li & Becchi's adaptive granularity, Merrill et al.'s gathering).
// crow == nullptr: no chunk list (the warp sweeps every long vertex).
#define BFS_CHUNK 256

extern "C" __global__ void bfs_push(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                    const int* __restrict__ queue, int nf, int d, int* level, int* parent,
                                    unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                    u64* stats, const int* other_level, u64* meet, int* crow, int* cnum,
                                    int* chunk_count) {
    const int lane = threadIdx.x & 31;
    const i64 warp = sp_warp_id(), warps = sp_warp_count();
    u64 mf = 0, scanned = 0;
    for (i64 base = warp * 32; base < nf; base += warps * 32) {
        const i64 k = base + lane;
        int u = -1, nch = 0;
        i64 a = 0, b = 0;
        if (k < nf) {
            u = queue[k];
            a = ptr[u];
            b = ptr[u + 1];
            scanned += (u64)(b - a);
            if (b - a >= BFS_CHUNK && crow != nullptr) {
                nch = (int)((b - a + BFS_CHUNK - 1) / BFS_CHUNK);
                b = a;
            }
        }
        if (crow != nullptr) sp_list_chunks(u, nch, crow, cnum, chunk_count);
        sp_sweep_arcs(u, 0, a, b, [&](int x, int, i64 e) {
            mf += bfs_claim(x, idx[e], d, ptr, level, parent, visited, next_q, next_bm, count, other_level, meet);
        });
    }
    mf = sp_warp_sum(mf);
    scanned = sp_warp_sum(scanned);
    if (lane == 0) {
        if (mf) atomicAdd(&stats[0], mf);
        if (scanned) atomicAdd(&stats[1], scanned);
    }
}

// The chunks of the long frontier vertices of a push level: a warp per chunk.
extern "C" __global__ void bfs_push_chunks(const i64* __restrict__ ptr, const int* __restrict__ idx,
                                           const int* __restrict__ crow, const int* __restrict__ cnum,
                                           const int* __restrict__ chunk_count, int d, int* level, int* parent,
                                           unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                           u64* stats, const int* other_level, u64* meet) {
    const int lane = threadIdx.x & 31;
    u64 mf = 0;
    sp_for_each_chunk(ptr, crow, cnum, chunk_count, BFS_CHUNK, [&](i64, int u, i64 e0, i64 e1) {
        for (i64 e = e0 + lane; e < e1; e += 32)
            mf += bfs_claim(u, idx[e], d, ptr, level, parent, visited, next_q, next_bm, count, other_level, meet);
    });
    mf = sp_warp_sum(mf);
    if (lane == 0 && mf) atomicAdd(&stats[0], mf);
}

// Pull (bottom-up) level: a thread per vertex; an unvisited v scans its in-arcs (tptr/tind)
// and stops at the first in-neighbour in the current frontier bitmap.  A warp owns 32
// consecutive vertices, i.e. one word of each bitmap, so it reads its visited word once
// and writes both words with plain stores (no other thread touches them in a pull level).
// A lane scans the first PULL_SOLO in-arcs of its vertex alone; the warp scans the rest.
#define PULL_SOLO 8

extern "C" __global__ void bfs_pull(const i64* __restrict__ tptr, const int* __restrict__ tind,
                                    const i64* __restrict__ ptr, long long n, int d,
                                    const unsigned int* __restrict__ cur_bm, int* level, int* parent,
                                    unsigned int* visited, int* next_q, unsigned int* next_bm, int* count,
                                    u64* stats) {
    const int lane = threadIdx.x & 31;
    const i64 stride = (i64)gridDim.x * blockDim.x;
    u64 mf = 0, scanned = 0;
    for (i64 base = ((i64)blockIdx.x * blockDim.x + threadIdx.x) & ~(i64)31; base < n; base += stride) {
        const i64 v = base + lane;
        const unsigned seen = visited[base >> 5];
        if (seen == SP_FULL) continue;  // the whole warp's word is visited (warp-uniform)
        bool found = false;
        int u = -1;
        i64 a = 0, b = 0, e = 0;
        if (v < n && !((seen >> lane) & 1u)) {
            a = tptr[v];
            b = tptr[v + 1];
            const i64 solo_end = a + PULL_SOLO < b ? a + PULL_SOLO : b;
            for (e = a; e < solo_end; e++) {
                u = tind[e];
                if (bfs_is_set(cur_bm, u)) {
                    found = true;
                    break;
                }
            }
        }
        // The rest of the longer in-lists: the whole warp scans each, 32 arcs a step, so one
        // long list without a frontier neighbour does not hold up its 31 neighbours.
        unsigned rest = __ballot_sync(SP_FULL, !found && e < b);
        while (rest) {
            const int src = __ffs(rest) - 1;
            rest &= rest - 1;
            i64 ee = __shfl_sync(SP_FULL, e, src);
            const i64 bb = __shfl_sync(SP_FULL, b, src);
            int uu = -1;
            for (; ee < bb; ee += 32) {
                const int cand = ee + lane < bb ? tind[ee + lane] : -1;
                const unsigned h = __ballot_sync(SP_FULL, cand >= 0 && bfs_is_set(cur_bm, cand));
                if (h) {
                    uu = __shfl_sync(SP_FULL, cand, __ffs(h) - 1);
                    ee += __ffs(h) - 1;
                    break;
                }
            }
            if (lane == src) {
                found = uu >= 0;
                u = uu;
                e = found ? ee : bb;
            }
        }
        if (found) {
            level[v] = d + 1;
            parent[v] = u;
            next_q[sp_append(count)] = (int)v;
            mf += (u64)(ptr[v + 1] - ptr[v]);
            scanned += (u64)(e - a + 1);
        } else {
            scanned += (u64)(b - a);
        }
        const unsigned got = __ballot_sync(SP_FULL, found);
        if (lane == 0 && got) {
            visited[base >> 5] = seen | got;
            next_bm[base >> 5] = got;
        }
    }
    mf = sp_warp_sum(mf);
    scanned = sp_warp_sum(scanned);
    if (lane == 0) {
        if (mf) atomicAdd(&stats[0], mf);
        if (scanned) atomicAdd(&stats[1], scanned);
    }
}

// Small frontiers: ONE block runs level after level (a __syncthreads between levels
// instead of a kernel launch and a read-back), while the frontier stays under max_nf
// vertices and max_mf arcs.  Within a level a lane owns a frontier vertex, a warp sweeps
// vertices of 32 or more arcs, and the whole block sweeps those of SMALL_HEAVY or more.
// out[0] = frontier size, out[1] = its level, out[2] = levels done, out[3] = 0 if the
// frontier ended in qa else 1; out64[0] = m_f of that frontier, out64[1] = out-degrees of
// all vertices visited here.  trace_nf / trace_mf get one entry per level.
#define SMALL_HEAVY 1024
#define SMALL_HEAVY_CAP 64

__device__ __forceinline__ void bfs_small_claim(int u, int v, int d, const i64* ptr, int* level, int* parent,
                                                unsigned int* visited, int* nxt, int* s_count, u64* s_mf) {
    if (bfs_is_set(visited, v)) return;
    if (atomicCAS(&level[v], -1, d + 1) != -1) return;
    parent[v] = u;
    atomicOr(&visited[v >> 5], 1u << (v & 31));
    nxt[atomicAdd(s_count, 1)] = v;
    atomicAdd(s_mf, (u64)(ptr[v + 1] - ptr[v]));
}

extern "C" __global__ void bfs_small(const i64* __restrict__ ptr, const int* __restrict__ idx, int* qa, int* qb,
                                     int nf, int d, u64 mf0, const u64* mf_dev, int* level, int* parent,
                                     unsigned int* visited, int max_nf, u64 max_mf, int max_levels, int* out,
                                     u64* out64, int* trace_nf, u64* trace_mf) {
    __shared__ int s_count;
    __shared__ u64 s_mf;
    __shared__ int s_nheavy;
    __shared__ int s_heavy[SMALL_HEAVY_CAP];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    int* cur = qa;
    int* nxt = qb;
    const u64 mf_start = mf_dev != nullptr ? *mf_dev : mf0;  // from bfs_start: no read-back before level 0
    u64 mf = mf_start, visited_deg = 0;
    int levels = 0;
    while (nf > 0 && levels < max_levels && nf <= max_nf && mf <= max_mf) {
        if (threadIdx.x == 0) {
            s_count = 0;
            s_mf = 0;
            s_nheavy = 0;
            trace_nf[levels] = nf;
            trace_mf[levels] = mf;
        }
        __syncthreads();
        for (int base = wid * 32; base < nf; base += nwarps * 32) {
            const int k = base + lane;
            int u = -1;
            i64 a = 0, b = 0;
            if (k < nf) {
                u = cur[k];
                a = ptr[u];
                b = ptr[u + 1];
                if (b - a >= SMALL_HEAVY) {
                    const int slot = atomicAdd(&s_nheavy, 1);
                    if (slot < SMALL_HEAVY_CAP) {
                        s_heavy[slot] = u;
                        b = a;
                    }
                }
            }
            sp_sweep_arcs(u, 0, a, b, [&](int x, int, i64 e) {
                bfs_small_claim(x, idx[e], d, ptr, level, parent, visited, nxt, &s_count, &s_mf);
            });
        }
        __syncthreads();
        const int nheavy = s_nheavy < SMALL_HEAVY_CAP ? s_nheavy : SMALL_HEAVY_CAP;
        for (int h = 0; h < nheavy; h++) {
            const int u = s_heavy[h];
            for (i64 e = ptr[u] + threadIdx.x; e < ptr[u + 1]; e += blockDim.x)
                bfs_small_claim(u, idx[e], d, ptr, level, parent, visited, nxt, &s_count, &s_mf);
        }
        __syncthreads();
        nf = s_count;
        mf = s_mf;
        visited_deg += mf;
        d += 1;
        levels += 1;
        int* tmp = cur;
        cur = nxt;
        nxt = tmp;
        __syncthreads();  // everyone has read s_count before it is reset
    }
    if (threadIdx.x == 0) {
        out[0] = nf;
        out[1] = d;
        out[2] = levels;
        out[3] = cur == qa ? 0 : 1;
        out64[0] = mf;
        out64[1] = visited_deg;
        out64[2] = mf_start;
    }
}

// The state of a BFS from s in one launch: level / parent -1 except level[s] = 0, the
// visited bitmap holding s only, queue = [s], and s's out-degree in *mf (for bfs_small).
extern "C" __global__ void bfs_start(const i64* __restrict__ ptr, long long n, int s, int* level, int* parent,
                                     unsigned int* visited, long long words, int* queue, u64* mf) {
    const i64 stride = (i64)gridDim.x * blockDim.x;
    for (i64 v = (i64)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        level[v] = v == s ? 0 : -1;
        parent[v] = -1;
    }
    for (i64 w = (i64)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride)
        visited[w] = w == (s >> 5) ? 1u << (s & 31) : 0u;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        queue[0] = s;
        *mf = (u64)(ptr[s + 1] - ptr[s]);
    }
}

// Set the bitmap bits of a queue (bm must be zero).
extern "C" __global__ void bfs_queue_to_bitmap(const int* __restrict__ queue, int nf, unsigned int* bm) {
    for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < nf; k += (i64)gridDim.x * blockDim.x) {
        const int v = queue[k];
        atomicOr(&bm[v >> 5], 1u << (v & 31));
    }
}
