// A plain shared-memory-tiled semiring GEMM: one output per thread, 16 x 16 tiles.
//
// The fallback for element types the register-blocked kernel (gemm.cu) does not
// tile (bool: the lor_land witness) and a second, independent implementation the
// tests compare against.  Semantics as in gemm.cu: edges padded with the semiring
// zero, C_old (+) acc with ACCUMULATE, witness = smallest k of a strict improvement
// (acc seeded with C_old when accumulating), LOAD_W keeps W where nothing improves.
#include "prelude.cuh"

#define SIMPLE_TILE 16

template <bool WIT>
__global__ void sr_simple(const T* __restrict__ A, const T* __restrict__ B, T* C, int* W, int M, int N, int K,
                          long long lda, long long ldb, long long ldc, long long ldw, int flags, int k_offset) {
    __shared__ T As[SIMPLE_TILE][SIMPLE_TILE + 1];
    __shared__ T Bs[SIMPLE_TILE][SIMPLE_TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * SIMPLE_TILE + ty, col = blockIdx.x * SIMPLE_TILE + tx;
    const bool inside = row < M && col < N;
    T acc = sr_zero();
    int win = -1;
    if (WIT && inside) {
        if (flags & 1) acc = C[(long long)row * ldc + col];
        if (flags & 2) win = W[(long long)row * ldw + col];
    }
    for (int k0 = 0; k0 < K; k0 += SIMPLE_TILE) {
        int ka = k0 + tx, kb = k0 + ty;
        As[ty][tx] = (row < M && ka < K) ? A[(long long)row * lda + ka] : sr_zero();
        Bs[ty][tx] = (kb < K && col < N) ? B[(long long)kb * ldb + col] : sr_zero();
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < SIMPLE_TILE; kk++) {
            T p = sr_mul_op(As[ty][kk], Bs[kk][tx]);
            if (WIT) {
                T nw = sr_add_op(acc, p);
                if (nw != acc) {
                    acc = nw;
                    win = k_offset + k0 + kk;
                }
            } else {
                acc = sr_add_op(acc, p);
            }
        }
        __syncthreads();
    }
    if (!inside) return;
    T* c = C + (long long)row * ldc + col;
    *c = ((flags & 1) && !WIT) ? sr_add_op(*c, acc) : acc;
    if (WIT) W[(long long)row * ldw + col] = win;
}
