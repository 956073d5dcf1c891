// Bit-packed Boolean GEMM (lor_land):  C[i, j] = OR_k A[i, k] AND B[k, j].
//
// The inner dimension is packed 32 to a word, so one LOP3 (acc |= a & b) covers 32
// values of k.  Both operands are packed "k-major": word w of row i of A lives at
// Ap[w * Mp + i] and word w of column j of B at Bp[w * Np + j], with Mp, Np rounded
// up to the block tile and the word count Kwp to the k tile, all padding zero (the
// semiring zero, so it never changes a result).  The GEMM is then a plain tiled
// kernel with no bounds checks: 16-byte cp.async copies of both tiles into shared
// memory, double-buffered, and an 8 x 8 register tile per thread.

#define BW_BM 128
#define BW_BN 128
#define BW_BK 16  // words of k per tile (512 values of k)
#define BW_NT 256

// Ap[w * Mp + i], bit b = A[i, 32 w + b] != 0.  One warp per word: lane b reads one byte.
extern "C" __global__ void sr_pack_rows(const unsigned char* __restrict__ A, unsigned* Ap, int M, int K,
                                        long long lda, int Mp, int Kwp) {
    long long g = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (g >= (long long)Mp * Kwp) return;
    int w = (int)(g / Mp), i = (int)(g % Mp);
    int k = w * 32 + lane;
    bool v = i < M && k < K && A[(long long)i * lda + k] != 0;
    unsigned word = __ballot_sync(0xffffffffu, v);
    if (lane == 0) Ap[g] = word;
}

// Bp[w * Np + j], bit b = B[32 w + b, j] != 0.  One thread per word, reading down a column.
extern "C" __global__ void sr_pack_cols(const unsigned char* __restrict__ B, unsigned* Bp, int K, int N,
                                        long long ldb, int Np, int Kwp) {
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= (long long)Np * Kwp) return;
    int w = (int)(g / Np), j = (int)(g % Np);
    unsigned word = 0;
    if (j < N) {
        int kend = min(32, K - w * 32);
        const unsigned char* p = B + (long long)(w * 32) * ldb + j;
        for (int b = 0; b < kend; b++) word |= (p[(long long)b * ldb] != 0 ? 1u : 0u) << b;
    }
    Bp[g] = word;
}

__device__ __forceinline__ void bw_cp16(void* smem, const void* gmem) {
#if __CUDA_ARCH__ >= 800
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
#else
    *reinterpret_cast<uint4*>(smem) = *reinterpret_cast<const uint4*>(gmem);
#endif
}
__device__ __forceinline__ void bw_commit() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
__device__ __forceinline__ void bw_wait1() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 1;\n" ::);
#endif
}

// Grid (Np / BN, Mp / BM), 256 threads.  C is M x N bytes with row stride ldc.
extern "C" __global__ void __launch_bounds__(BW_NT, 2)
    sr_bool_gemm(const unsigned* __restrict__ Ap, const unsigned* __restrict__ Bp, unsigned char* C, int M, int N,
                 int Mp, int Np, int Kwp, long long ldc, int accumulate) {
    __shared__ __align__(16) unsigned As[2][BW_BK][BW_BM];
    __shared__ __align__(16) unsigned Bs[2][BW_BK][BW_BN];
    const int tid = threadIdx.x;
    const int warp = tid >> 5, lane = tid & 31;
    const int tx = (warp & 1) * 8 + (lane & 7);  // 16 x 16 threads, a warp is 8 x 4
    const int ty = (warp >> 1) * 4 + (lane >> 3);
    const int m0 = blockIdx.y * BW_BM, n0 = blockIdx.x * BW_BN;

    // Tile loads: BK x 128 words = 512 chunks of 16 bytes per operand, 2 per thread.
    auto load = [&](int buf, int w0) {
#pragma unroll
        for (int i = 0; i < 2; i++) {
            int q = tid + i * BW_NT;
            int r = q >> 5, c = (q & 31) * 4;
            bw_cp16(&As[buf][r][c], Ap + (long long)(w0 + r) * Mp + m0 + c);
            bw_cp16(&Bs[buf][r][c], Bp + (long long)(w0 + r) * Np + n0 + c);
        }
        bw_commit();
    };

    unsigned acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = 0u;

    const int nt = Kwp / BW_BK;
    load(0, 0);
    for (int t = 0; t < nt; t++) {
        if (t + 1 < nt) {
            load((t + 1) & 1, (t + 1) * BW_BK);
        } else {
            bw_commit();
        }
        bw_wait1();
        __syncthreads();
        const int buf = t & 1;
#pragma unroll
        for (int w = 0; w < BW_BK; w++) {
            uint4 a0 = *reinterpret_cast<const uint4*>(&As[buf][w][ty * 4]);
            uint4 a1 = *reinterpret_cast<const uint4*>(&As[buf][w][64 + ty * 4]);
            uint4 b0 = *reinterpret_cast<const uint4*>(&Bs[buf][w][tx * 4]);
            uint4 b1 = *reinterpret_cast<const uint4*>(&Bs[buf][w][64 + tx * 4]);
            unsigned a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            unsigned b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] |= a[i] & b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int r = m0 + (i >> 2) * 64 + ty * 4 + (i & 3);
        if (r >= M) continue;
        unsigned char* crow = C + (long long)r * ldc;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int c = n0 + (j >> 2) * 64 + tx * 4 + (j & 3);
            if (c < N) {
                unsigned char v = acc[i][j] != 0u;
                crow[c] = accumulate ? (unsigned char)(crow[c] | v) : v;
            }
        }
    }
}
