// What the batched searches (batched_search.cu) and the betweenness passes after them (centrality.cu) share:
// the pair record of a batch of S sources on S x n pairs, the search's state layout on the device, and the
// helpers.  Included by both kernel files.
//
// A batch of S sources on S x n records, pair (s, v) at s * n + v (int32: the driver keeps S * n below 2**31).
// A pair's record holds all it has (32 bytes: one memory sector, so a visit to a pair costs one sector whichever
// fields it reads).  Distances are the bits of non-negative doubles in u64 words (their order as integers is
// their numeric order, so atomicMin on the bits is a min on the values); +inf (0x7FF0000000000000) is "not
// reached".
#pragma once
typedef unsigned long long u64;
typedef long long i64;

#define INF_BITS 0x7FF0000000000000ULL
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ double as_double(u64 b) { return __longlong_as_double((i64)b); }
__device__ __forceinline__ u64 as_bits(double d) { return (u64)__double_as_longlong(d); }

// A path's length one arc on: in double, or with `single` rounded as float32 sums round (the weights and distances
// of a float32 graph are floats, held exactly in doubles), so that the distances are the float32 ones a CPU
// search of the same graph finds.
__device__ __forceinline__ double path_sum(double d, double w, int single) {
    return single ? (double)((float)d + (float)w) : d + w;
}

// Ask L2 for the sector at `p` now (no register waits for it): the atomics that follow find it there, so a
// thread's arcs go to memory together rather than one after another.  Measured on an H200: the path counts 1.8x
// faster (their atomics are the first touch of a record); the search, the dependencies and the in-degrees slower
// (they read the records first anyway), so only the counts prefetch.
__device__ __forceinline__ void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

// Slot for one item in a list whose length is *counter: one atomic per converged group of lanes.
__device__ __forceinline__ int append(int* counter) {
    unsigned mask = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    int rank = __popc(mask & ((1u << lane) - 1u));
    int base = 0;
    if (lane == leader) base = atomicAdd(counter, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + rank;
}

// One (source, vertex) pair of a batch.
struct __align__(32) Pair {
    u64 dist;      // the bits of its distance
    double sigma;  // shortest paths to it
    union {
        int indeg;     // while the path counts run: tight in-arcs whose tail is not counted yet (0 at the end:
        double delta;  // delta +0.0); then its dependency
    };
    union {
        int stamp;          // during the search: the last near round that queued it
        unsigned in_tight;  // then its tight in-arcs (for_tight_arcs over the transposed arcs)
    };
    unsigned flags;  // during the search: on the far list (1); then its tight out-arcs (for_tight_arcs)
};

// The search runs on the device from one launch to the next: the host launches bc_step and bc_advance in
// chunks and reads `st` only between chunks.  st: the state of the batch's search (ints), th: thresholds,
// aux: the least distance kept on the far list, and the number of pair relaxations (statistics).
#define ST_MODE 0    // MODE_RELAX, MODE_SPLIT or MODE_DONE
#define ST_PQ 1      // parity of the queues: the current round reads q1 if set, else q0
#define ST_PF 2      // parity of the far lists: the current far list is f1 if set, else f0
#define ST_QLEN 3    // pairs in the current round's queue
#define ST_NLEN 4    // pairs appended to the next round's queue
#define ST_FLEN 5    // pairs on the current far list
#define ST_KLEN 6    // pairs kept on the other far list by a split
#define ST_ROUND 7   // near rounds so far (the stamps)
#define ST_WNUM 8    // path counts: waves so far (bounds[0..WNUM] hold their ends)
#define ST_WC 9      // pairs appended to the next wave
#define ST_WDONE 10  // path counts: no pair left
#define ST_DK 11     // dependencies: the wave to pull next (k: [bounds[k - 1], bounds[k])), 0 when done
#define ST_SIZE 16
#define TH_THR 0
#define TH_LO 1
#define TH_HI 2
#define TH_DELTA 3
#define MODE_RELAX 0
#define MODE_SPLIT 1
#define MODE_DONE 2

