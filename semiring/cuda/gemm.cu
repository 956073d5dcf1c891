// Tiled semiring GEMM:  C = A (x) B  or  C = C (+) A (x) B,  optionally with the witness.
//
// Specialised at compile time (NVRTC, see semiring/cuda/compile.py) by macros the
// host defines before this text:
//   SR_T                 element type (float, double, int, long long)
//   SR_ADD(a, b)         semiring add, an expression in a and b
//   SR_MUL(a, b)         semiring mul
//   SR_ZERO              the semiring zero (identity of add, annihilator of mul)
//   SR_BM SR_BN SR_BK    block tile (rows of C, columns of C, depth per stage)
//   SR_TM SR_TN          register tile of one thread
//   SR_STAGES            depth of the cp.async shared-memory pipeline
// Without them (a standalone `nvcc` check) it builds min-plus float32.
//
// Structure (one thread block per BM x BN tile of C; Volkov & Demmel 2008 register
// blocking, CUTLASS-style multistage cp.async pipeline):
//   * A is read in its natural row-major layout (k contiguous) into As[m][k], padded so
//     that a row is an odd number of 16-byte chunks: the 4 rows a warp reads at once
//     fall into different banks.  B is read into Bs[k][n] (n contiguous).
//   * Each thread owns TM x TN outputs, rows ty + i*TY and columns in TN/V chunks of V
//     (V = 16 bytes / sizeof(T)); per V steps of k it loads TM 16-byte A vectors and
//     TN/V 16-byte B vectors per step and does TM*TN (mul, add) pairs from registers.
//   * Global -> shared copies are asynchronous (cp.async, 16 bytes where the operand
//     is aligned, one element otherwise), SR_STAGES deep, one barrier per k tile.
//   * Partial tiles (the edges) are padded with the semiring zero, which annihilates
//     in mul and is the identity of add, so padding never changes a result (or with
//     SR_PAD where the host gives one, see pad()).
//   * Epilogue fused: with accumulate, C_old (+) acc.
// The witness variant keeps, per output, the smallest k whose product strictly
// improved the running value (acc is seeded with C_old when accumulating), as the
// CPU kernel does.
//
// The "lazy" variant (Harish, Vineet & Narayanan, "Large graph algorithms for
// massively multithreaded architectures", 2009) skips the semiring zeros of sparse
// operands: bit k of nzA[mb] says some A[mb*BM : mb*BM+BM, k] is not zero, bit k of
// nzB[nb] that some B[k, nb*BN : nb*BN+BN] is not; a block visits only the k where
// both bits are set, gathering those columns of A and rows of B into the tiles.

#include "prelude.cuh"

namespace sr {

constexpr int BM = SR_BM, BN = SR_BN, BK = SR_BK, TM = SR_TM, TN = SR_TN, STAGES = SR_STAGES;
#ifndef SR_MINB
#define SR_MINB 2
#endif
constexpr int MINB = SR_MINB;  // blocks per SM the register allocation must allow
constexpr int V = 16 / (int)sizeof(T);  // elements in a 16-byte vector
constexpr int TX = BN / TN;             // threads along n
constexpr int TY = BM / TM;             // threads along m
constexpr int NT = TX * TY;             // threads per block
constexpr int LDA_S = BK + V;           // padded row of As (odd number of 16-byte chunks)
constexpr int A_STAGE = BM * LDA_S;
constexpr int B_STAGE = BK * BN;
constexpr int NCH = TN / V;             // 16-byte column chunks per thread

static_assert(TN % V == 0, "TN must be a multiple of the vector width");
static_assert(BK % V == 0 && ((BK / V) % 2 == 0), "BK / V must be even (odd padded row)");
static_assert(TX % 8 == 0 && TY % 4 == 0, "a warp covers 8 x 4 threads");
static_assert((BM * BK / V) % NT == 0 && (BK * BN / V) % NT == 0, "vector tile loads must divide evenly");
static_assert((BM * BK) % NT == 0 && (BK * BN) % NT == 0, "element tile loads must divide evenly");
static_assert(NT % (BK / V) == 0 && NT % (BN / V) == 0, "whole-tile loads: rows per pass");

struct alignas(16) Vec { T x[V]; };
// A fragments are read AV values of k at a time (a V-wide read holds TM * V values in
// registers; a narrower one frees registers at the price of more shared-memory loads).
#ifndef SR_AV
#define SR_AV 0
#endif
constexpr int AV = SR_AV > 0 ? SR_AV : V;
struct alignas(AV * sizeof(T)) AVec { T x[AV]; };
static_assert(V % AV == 0, "AV must divide V");

// Flags of the `flags` kernel argument.
constexpr int ACCUMULATE = 1;  // C = C (+) A (x) B
constexpr int LOAD_W = 2;      // witness: keep W where nothing improves (streamed k panels)
constexpr int C_VEC = 4;       // C (and W) rows are 16-byte aligned: vector epilogue

__device__ __forceinline__ T add(T a, T b) { return sr_add_op(a, b); }
__device__ __forceinline__ T mul(T a, T b) { return sr_mul_op(a, b); }
__device__ __forceinline__ T zero() { return sr_zero(); }
// acc (+) a (x) b: one fused instruction where the host gives SR_MULADD(c, a, b) (the packed
// 16-bit min-plus kernel: __viaddmin_u16x2), else add(acc, mul(a, b)).
__device__ __forceinline__ T muladd(T c, T a, T b) {
#ifdef SR_MULADD
    return SR_MULADD(c, a, b);
#else
    return add(c, mul(a, b));
#endif
}
// What the dense kernel pads partial tiles with: the semiring zero, unless the host gives
// SR_PAD (the plain-sum integer min-plus kernel, where zero + zero would wrap around).
#ifdef SR_PAD
__device__ __forceinline__ T pad() { return (T)(SR_PAD); }
#else
__device__ __forceinline__ T pad() { return zero(); }
#endif

// ---- asynchronous copies ------------------------------------------------------------
template <int BYTES>
__device__ __forceinline__ void cp_async(void* smem, const void* gmem) {
#if __CUDA_ARCH__ >= 800
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    if (BYTES == 16) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
    } else {
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(gmem), "n"(BYTES));
    }
#else
    if (BYTES == 16) {
        *reinterpret_cast<Vec*>(smem) = *reinterpret_cast<const Vec*>(gmem);
    } else {
        *reinterpret_cast<T*>(smem) = *reinterpret_cast<const T*>(gmem);
    }
#endif
}
__device__ __forceinline__ void cp_commit() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
__device__ __forceinline__ void cp_wait() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

// Thread coordinates: a warp is 8 threads along n by 4 along m.
__device__ __forceinline__ void thread_xy(int tid, int& tx, int& ty) {
    int warp = tid >> 5, lane = tid & 31;
    tx = (warp % (TX / 8)) * 8 + (lane & 7);
    ty = (warp / (TX / 8)) * 4 + (lane >> 3);
}

// ---- tile loads (dense) ----------------------------------------------------------------
// One ROWS x COLS tile of a row-major operand (row stride ld), rows r0.., columns c0.., into
// shared memory with row stride LDS; cp.async for whole in-range vectors, the semiring zero
// (which never changes a result) past the edges.
template <int ROWS, int COLS, int LDS, int VEC>
__device__ __forceinline__ void load_tile(T* dst0, const T* __restrict__ G, long long ld, int r0, int c0, int R,
                                          int C, int tid) {
    constexpr int CPR = COLS / VEC;
    constexpr int PER = ROWS * CPR / NT;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int q = tid + i * NT;
        int r = q / CPR, c = (q % CPR) * VEC;
        int gr = r0 + r, gc = c0 + c;
        T* dst = dst0 + r * LDS + c;
        const T* src = G + (long long)gr * ld + gc;
        if (gr < R && gc + VEC <= C) {
            cp_async<VEC * sizeof(T)>(dst, src);
        } else {
#pragma unroll
            for (int e = 0; e < VEC; e++) dst[e] = (gr < R && gc + e < C) ? src[e] : pad();
        }
    }
}

// A tile: rows m0..m0+BM, columns k0..k0+BK of A (row stride lda) -> As[m][k].
template <int VEC>
__device__ __forceinline__ void load_a(T* As, const T* __restrict__ A, long long lda, int m0, int k0, int M, int K,
                                       int tid) {
    load_tile<BM, BK, LDA_S, VEC>(As, A, lda, m0, k0, M, K, tid);
}

// B tile: rows k0..k0+BK, columns n0..n0+BN of B (row stride ldb) -> Bs[k][n].
template <int VEC>
__device__ __forceinline__ void load_b(T* Bs, const T* __restrict__ B, long long ldb, int k0, int n0, int K, int N,
                                       int tid) {
    load_tile<BK, BN, BN, VEC>(Bs, B, ldb, k0, n0, K, N, tid);
}

// Interior tiles (all of the BM x BK and BK x BN tiles in range, 16-byte aligned rows):
// unconditional 16-byte copies from a per-thread base pointer.  a_base points at
// A[m0 + tid / CPR_A, tid % CPR_A * V], b_base at B[tid / CPR_B, n0 + tid % CPR_B * V].
constexpr int CPR_A = BK / V, CPR_B = BN / V;
__device__ __forceinline__ void load_a_full(T* As, const T* a_base, long long lda, int k0, int tid) {
    constexpr int PER = BM * CPR_A / NT, ROWS = NT / CPR_A;
    T* dst = As + (tid / CPR_A) * LDA_S + (tid % CPR_A) * V;
    const T* src = a_base + k0;
#pragma unroll
    for (int i = 0; i < PER; i++) cp_async<16>(dst + i * ROWS * LDA_S, src + i * ROWS * lda);
}
__device__ __forceinline__ void load_b_full(T* Bs, const T* b_base, long long ldb, int k0, int tid) {
    constexpr int PER = BK * CPR_B / NT, ROWS = NT / CPR_B;
    T* dst = Bs + (tid / CPR_B) * BN + (tid % CPR_B) * V;
    const T* src = b_base + (long long)k0 * ldb;
#pragma unroll
    for (int i = 0; i < PER; i++) cp_async<16>(dst + i * ROWS * BN, src + i * ROWS * ldb);
}

// ---- the inner product of one k tile ---------------------------------------------------
// acc[i][j] (+)= As[ty + i*TY][k] (x) Bs[k][col(j)] for k in the tile.  With WIT, win[i][j]
// takes the global index of k whenever the product strictly improves acc[i][j]; the index
// of column kk of the tile is kbase + kk, or kbase + klist[kk] when the tile was gathered.
// SR_KUNROLL: how many V-steps of k the compiler unrolls (default: the whole tile).  A fully
// unrolled BK = 32 tile is ~70 KB of SASS; unrolling less keeps the loop in the
// instruction cache at the price of a counter per V-steps.
#ifndef SR_KUNROLL
#define SR_KUNROLL 64
#endif
#define SR_STR(x) #x
#define SR_UNROLL(n) _Pragma(SR_STR(unroll n))

template <bool WIT, bool GATHERED>
__device__ __forceinline__ void mma_tile(const T* As, const T* Bs, T (&acc)[TM][TN], int (&win)[TM][TN], int tx,
                                         int ty, int kbase, const int* klist) {
    SR_UNROLL(SR_KUNROLL)
    for (int kk = 0; kk < BK; kk += AV) {
        T a[TM][AV];
#pragma unroll
        for (int i = 0; i < TM; i++) {
            AVec va = *reinterpret_cast<const AVec*>(As + (ty + i * TY) * LDA_S + kk);
#pragma unroll
            for (int v = 0; v < AV; v++) a[i][v] = va.x[v];
        }
#pragma unroll
        for (int v = 0; v < AV; v++) {
            T b[TN];
#pragma unroll
            for (int c = 0; c < NCH; c++) {
                Vec vb = *reinterpret_cast<const Vec*>(Bs + (kk + v) * BN + c * (TX * V) + tx * V);
#pragma unroll
                for (int e = 0; e < V; e++) b[c * V + e] = vb.x[e];
            }
            if (WIT) {
                int kg = kbase + (GATHERED ? klist[kk + v] : kk + v);
#pragma unroll
                for (int i = 0; i < TM; i++) {
#pragma unroll
                    for (int j = 0; j < TN; j++) {
                        T nw = add(acc[i][j], mul(a[i][v], b[j]));
                        if (nw != acc[i][j]) {
                            acc[i][j] = nw;
                            win[i][j] = kg;
                        }
                    }
                }
            } else {
#pragma unroll
                for (int i = 0; i < TM; i++) {
#pragma unroll
                    for (int j = 0; j < TN; j++) acc[i][j] = muladd(acc[i][j], a[i][v], b[j]);
                }
            }
        }
    }
}

// Float32 min-plus, two k steps per ALU instruction: min(acc, a0 + b0, a1 + b1) as one
// three-way integer min or max (VIMNMX3) on the IEEE bit patterns instead of two FMNMX, which
// share the ALU pipe at half rate.  Exact in two cases:
//  * NEG = false, every sum >= +0.0 (and +inf): those bit patterns order like int32, and a
//    negative acc reads as a negative int32 and keeps.  (A sum of -0.0 = INT_MIN would read
//    as the least; the callers exclude it.)  The whole product when no entry of A or B is
//    negative (the host checks, nonzero_masks), or one k tile (PATH_SIGNED's block minima).
//  * NEG = true, every acc < 0: only a negative sum can still win, and negative floats order
//    like the reverse of their bits read as uint32 while a non-negative sum (+inf included)
//    reads below 0x80000000 and never wins: a three-way unsigned max.  -0.0 (0x80000000) is
//    the greatest negative and ties with +0.0.  Inputs are never NaN or -inf (min_plus
//    rejects them), so every sum is ordered.
template <bool NEG>
__device__ __forceinline__ void mma_tile_bits_minplus(const T* As, const T* Bs, T (&acc)[TM][TN], int tx, int ty) {
    static_assert(AV % 2 == 0, "the integer three-way min pairs k steps");
#pragma unroll
    for (int kk = 0; kk < BK; kk += AV) {
        T a[TM][AV];
#pragma unroll
        for (int i = 0; i < TM; i++) {
            AVec va = *reinterpret_cast<const AVec*>(As + (ty + i * TY) * LDA_S + kk);
#pragma unroll
            for (int v = 0; v < AV; v++) a[i][v] = va.x[v];
        }
#pragma unroll
        for (int v = 0; v < AV; v += 2) {
            T b0[TN], b1[TN];
#pragma unroll
            for (int c = 0; c < NCH; c++) {
                Vec v0 = *reinterpret_cast<const Vec*>(Bs + (kk + v) * BN + c * (TX * V) + tx * V);
                Vec v1 = *reinterpret_cast<const Vec*>(Bs + (kk + v + 1) * BN + c * (TX * V) + tx * V);
#pragma unroll
                for (int e = 0; e < V; e++) {
                    b0[c * V + e] = v0.x[e];
                    b1[c * V + e] = v1.x[e];
                }
            }
#pragma unroll
            for (int i = 0; i < TM; i++) {
#pragma unroll
                for (int j = 0; j < TN; j++) {
                    float s0 = (float)(a[i][v] + b0[j]), s1 = (float)(a[i][v + 1] + b1[j]);
                    if (NEG) {
                        unsigned m = max(max(__float_as_uint((float)acc[i][j]), __float_as_uint(s0)), __float_as_uint(s1));
                        acc[i][j] = (T)__uint_as_float(m);
                    } else {
                        int m = min(min(__float_as_int((float)acc[i][j]), __float_as_int(s0)), __float_as_int(s1));
                        acc[i][j] = (T)__int_as_float(m);
                    }
                }
            }
        }
    }
}

// Whether every running minimum of every lane of the warp is negative (sign bit set; all
// lanes of the warp call it, so the answer is warp-uniform and the branch on it diverges
// nowhere).
__device__ __forceinline__ bool warp_acc_negative(const T (&acc)[TM][TN]) {
    unsigned s = 0x80000000u;
#pragma unroll
    for (int i = 0; i < TM; i++) {
#pragma unroll
        for (int j = 0; j < TN; j++) s &= __float_as_uint((float)acc[i][j]);
    }
    return __all_sync(0xffffffffu, s != 0u);
}

// ---- prologue / epilogue -----------------------------------------------------------------
__device__ __forceinline__ int col_of(int tx, int j) { return (j / V) * (TX * V) + tx * V + (j % V); }

template <bool WIT>
__device__ __forceinline__ void init_acc(T (&acc)[TM][TN], int (&win)[TM][TN], const T* C, long long ldc,
                                         const int* W, long long ldw, int m0, int n0, int M, int N, int tx, int ty,
                                         int flags) {
#pragma unroll
    for (int i = 0; i < TM; i++) {
#pragma unroll
        for (int j = 0; j < TN; j++) {
            acc[i][j] = zero();
            win[i][j] = -1;
            if (WIT) {
                int r = m0 + ty + i * TY, c = n0 + col_of(tx, j);
                if (r < M && c < N) {
                    if (flags & ACCUMULATE) acc[i][j] = C[(long long)r * ldc + c];
                    if (flags & LOAD_W) win[i][j] = W[(long long)r * ldw + c];
                }
            }
        }
    }
}

template <bool WIT>
__device__ __forceinline__ void store_acc(T (&acc)[TM][TN], int (&win)[TM][TN], T* C, long long ldc, int* W,
                                          long long ldw, int m0, int n0, int M, int N, int tx, int ty, int flags) {
    const bool accumulate = (flags & ACCUMULATE) && !WIT;  // the witness variant seeded acc with C
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int r = m0 + ty + i * TY;
        if (r >= M) continue;
        T* crow = C + (long long)r * ldc;
#pragma unroll
        for (int ch = 0; ch < NCH; ch++) {
            int c0 = n0 + ch * (TX * V) + tx * V;
            if ((flags & C_VEC) && c0 + V <= N) {
                Vec out;
                if (accumulate) {
                    Vec old = *reinterpret_cast<const Vec*>(crow + c0);
#pragma unroll
                    for (int e = 0; e < V; e++) out.x[e] = add(old.x[e], acc[i][ch * V + e]);
                } else {
#pragma unroll
                    for (int e = 0; e < V; e++) out.x[e] = acc[i][ch * V + e];
                }
                *reinterpret_cast<Vec*>(crow + c0) = out;
            } else {
#pragma unroll
                for (int e = 0; e < V; e++) {
                    if (c0 + e < N) crow[c0 + e] = accumulate ? add(crow[c0 + e], acc[i][ch * V + e]) : acc[i][ch * V + e];
                }
            }
#ifdef SR_DUP_OUT
            // Packed 16-bit lanes: W (unsigned, row stride ldw) also receives every lane of the
            // stored C as a 32-bit word holding it twice, the layout the left operand is read in.
            if (!WIT && W != nullptr) {
                unsigned* drow = reinterpret_cast<unsigned*>(W) + (long long)r * ldw;
#pragma unroll
                for (int e = 0; e < V; e++) {
                    if (c0 + e < N) {
                        unsigned v = (unsigned)crow[c0 + e];
                        drow[2 * (c0 + e)] = (v & 0xFFFFu) * 0x10001u;
                        drow[2 * (c0 + e) + 1] = (v >> 16) * 0x10001u;
                    }
                }
            }
#endif
            if (WIT) {
                int* wrow = W + (long long)r * ldw;
#pragma unroll
                for (int e = 0; e < V; e++) {
                    if (c0 + e < N) wrow[c0 + e] = win[i][ch * V + e];
                }
            }
        }
    }
}

}  // namespace sr

using namespace sr;

// ---- dense kernel --------------------------------------------------------------------------
// Grid (ceil(N / BN), ceil(M / BM)), NT threads, dynamic shared memory
// STAGES * (A_STAGE + B_STAGE) * sizeof(T).  VEC is V when A and B rows are 16-byte
// aligned (pointer and leading dimension), else 1.  k_offset is added to witness indices.
// PATH (float32 min-plus without the witness only, chosen by the host): PATH_NONNEG when
// no entry of A or B is negative; PATH_SIGNED for any other input, tile by tile:
//   * once every running minimum of a warp is negative (checked every NEG_CHECK k tiles
//     of the general inner product), mma_tile_bits_minplus<true> for the rest of K;
//   * else, where the host gives tile_flags (sr_tile_flags, from the block minima that the
//     probe of a large product writes): a k tile flagged there has no sum below +0.0, so the
//     non-negative inner product is exact over it whatever acc holds (a negative acc reads
//     as a negative int32 and keeps).  A warp reads one word per 32 k tiles;
//   * else the general inner product.
constexpr int PATH_GENERAL = 0, PATH_NONNEG = 1, PATH_SIGNED = 2;
#ifndef SR_NEG_CHECK
#define SR_NEG_CHECK 4
#endif
constexpr int NEG_CHECK = SR_NEG_CHECK;
static_assert(32 % NEG_CHECK == 0, "a check point at every 32nd k tile (where the tile flags are read)");

template <int VEC, bool WIT, int PATH = PATH_GENERAL>
__global__ void __launch_bounds__(NT, MINB)
    sr_gemm(const T* __restrict__ A, const T* __restrict__ B, T* C, int* W, int M, int N, int K, long long lda,
            long long ldb, long long ldc, long long ldw, int flags, int k_offset,
            const unsigned* __restrict__ tile_flags) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* As = reinterpret_cast<T*>(smem_raw);
    T* Bs = As + STAGES * A_STAGE;
    const int tid = threadIdx.x;
    int tx, ty;
    thread_xy(tid, tx, ty);
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    T acc[TM][TN];
    int win[TM][TN];
    init_acc<WIT>(acc, win, C, ldc, W, ldw, m0, n0, M, N, tx, ty, flags);

    const int nt = (K + BK - 1) / BK;
    // Interior blocks copy whole tiles without bounds checks (all but the last k tile).
    const bool interior = VEC == V && m0 + BM <= M && n0 + BN <= N;
    const int nfull = interior ? K / BK : 0;
    const T* a_base = A + (long long)(m0 + tid / CPR_A) * lda + (tid % CPR_A) * V;
    const T* b_base = B + (long long)(tid / CPR_B) * ldb + n0 + (tid % CPR_B) * V;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nfull) {
            load_a_full(As + s * A_STAGE, a_base, lda, s * BK, tid);
            load_b_full(Bs + s * B_STAGE, b_base, ldb, s * BK, tid);
        } else if (s < nt) {
            load_a<VEC>(As + s * A_STAGE, A, lda, m0, s * BK, M, K, tid);
            load_b<VEC>(Bs + s * B_STAGE, B, ldb, s * BK, n0, K, N, tid);
        }
        cp_commit();
    }
    // Waits for k tile t, starts the copy of tile t + STAGES - 1 into the buffer computed in
    // iteration t - 1; returns the stage that holds tile t.
    auto next_stage = [&](int t) {
        cp_wait<STAGES - 2>();
        __syncthreads();
        int tp = t + STAGES - 1;
        int sp = tp % STAGES;
        if (tp < nfull) {
            load_a_full(As + sp * A_STAGE, a_base, lda, tp * BK, tid);
            load_b_full(Bs + sp * B_STAGE, b_base, ldb, tp * BK, tid);
        } else if (tp < nt) {
            load_a<VEC>(As + sp * A_STAGE, A, lda, m0, tp * BK, M, K, tid);
            load_b<VEC>(Bs + sp * B_STAGE, B, ldb, tp * BK, n0, K, N, tid);
        }
        cp_commit();
        return t % STAGES;
    };
    if (PATH == PATH_SIGNED) {
        // One loop per inner product, so that each keeps the registers of its own kernel.
        bool negative = false;     // every running minimum of this warp is < 0
        unsigned nonneg_bits = 0;  // bit j: k tile 32 * (t / 32) + j has no sum below +0.0
        const long long flag_row = ((long long)blockIdx.y * gridDim.x + blockIdx.x) * ((nt + 31) / 32);
        int t = 0;
        while (t < nt && !negative) {
            if (tile_flags != nullptr && t % 32 == 0) nonneg_bits = tile_flags[flag_row + t / 32];
            if ((nonneg_bits >> (t % 32)) & 1u) {
                do {
                    int s = next_stage(t);
                    mma_tile_bits_minplus<false>(As + s * A_STAGE, Bs + s * B_STAGE, acc, tx, ty);
                    t++;
                } while (t < nt && t % 32 != 0 && ((nonneg_bits >> (t % 32)) & 1u));
            } else {
                do {
                    int s = next_stage(t);
                    mma_tile<false, false>(As + s * A_STAGE, Bs + s * B_STAGE, acc, win, tx, ty, 0, nullptr);
                    t++;
                } while (t < nt && t % NEG_CHECK != 0 && !((nonneg_bits >> (t % 32)) & 1u));
                if (t % NEG_CHECK == 0) negative = warp_acc_negative(acc);
            }
        }
        for (; t < nt; t++) {
            int s = next_stage(t);
            mma_tile_bits_minplus<true>(As + s * A_STAGE, Bs + s * B_STAGE, acc, tx, ty);
        }
    } else {
        for (int t = 0; t < nt; t++) {
            int s = next_stage(t);
            if (PATH == PATH_NONNEG) {
                mma_tile_bits_minplus<false>(As + s * A_STAGE, Bs + s * B_STAGE, acc, tx, ty);
            } else {
                mma_tile<WIT, false>(As + s * A_STAGE, Bs + s * B_STAGE, acc, win, tx, ty, k_offset + t * BK,
                                     nullptr);
            }
        }
    }
    cp_wait<0>();
    store_acc<WIT>(acc, win, C, ldc, W, ldw, m0, n0, M, N, tx, ty, flags);
}

// ---- lazy (zero-skipping) kernel -------------------------------------------------------------
// nzA: ceil(M / BM) rows of Kw words; nzB: ceil(N / BN) rows of Kw words (Kw = ceil(K / 32)).
// Shared memory: one A and one B stage plus the k list (LIST + BK ints) and a counter.
constexpr int LIST = 1024;  // k indices gathered per chunk (32 words)

template <bool WIT>
__global__ void __launch_bounds__(NT, MINB)
    sr_gemm_lazy(const T* __restrict__ A, const T* __restrict__ B, T* C, int* W, int M, int N, int K, long long lda,
                 long long ldb, long long ldc, long long ldw, int flags, int k_offset,
                 const unsigned* __restrict__ nzA, const unsigned* __restrict__ nzB, int Kw) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* As = reinterpret_cast<T*>(smem_raw);
    T* Bs = As + A_STAGE;
    int* klist = reinterpret_cast<int*>(Bs + B_STAGE);
    int* count = klist + LIST + BK;
    const int tid = threadIdx.x;
    int tx, ty;
    thread_xy(tid, tx, ty);
    const int mb = blockIdx.y, nb = blockIdx.x;
    const int m0 = mb * BM, n0 = nb * BN;

    T acc[TM][TN];
    int win[TM][TN];
    init_acc<WIT>(acc, win, C, ldc, W, ldw, m0, n0, M, N, tx, ty, flags);

    const unsigned* za = nzA + (long long)mb * Kw;
    const unsigned* zb = nzB + (long long)nb * Kw;
    for (int w0 = 0; w0 < Kw; w0 += 32) {
        if (tid < 32) {
            int w = w0 + tid;
            unsigned bits = w < Kw ? (za[w] & zb[w]) : 0u;
            int cnt = __popc(bits), incl = cnt;
#pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                int o = __shfl_up_sync(0xffffffffu, incl, d);
                if (tid >= d) incl += o;
            }
            int pos = incl - cnt;
            while (bits) {
                int b = __ffs(bits) - 1;
                bits &= bits - 1;
                klist[pos++] = w * 32 + b;
            }
            if (tid == 31) *count = incl;
        }
        __syncthreads();
        const int total = *count;
        __syncthreads();  // everyone has read count before warp 0 rebuilds the list
        for (int s = 0; s < total; s += BK) {
            // Gather BK columns of A and rows of B (zero past the end of the list).
#pragma unroll 4
            for (int e = tid; e < BM * BK; e += NT) {
                int r = e / BK, kk = e % BK;
                int k = s + kk < total ? klist[s + kk] : -1;
                int gr = m0 + r;
                As[r * LDA_S + kk] = (k >= 0 && gr < M) ? A[(long long)gr * lda + k] : zero();
            }
#pragma unroll 4
            for (int e = tid; e < BK * BN; e += NT) {
                int kk = e / BN, c = e % BN;
                int k = s + kk < total ? klist[s + kk] : -1;
                int gc = n0 + c;
                Bs[kk * BN + c] = (k >= 0 && gc < N) ? B[(long long)k * ldb + gc] : zero();
            }
            __syncthreads();
            mma_tile<WIT, true>(As, Bs, acc, win, tx, ty, k_offset, klist + s);
            __syncthreads();
        }
    }
    store_acc<WIT>(acc, win, C, ldc, W, ldw, m0, n0, M, N, tx, ty, flags);
}

// ---- the non-zero masks for the lazy kernel ----------------------------------------------------
// x < lo in the order of the block minima: numeric, and -0.0 below +0.0 (floats).
__device__ __forceinline__ bool sign_set(float x) { return signbit(x); }
__device__ __forceinline__ bool sign_set(double x) { return signbit(x); }
template <class U>
__device__ __forceinline__ bool sign_set(U) { return false; }
__device__ __forceinline__ bool below(T x, T lo) { return x < lo || (x == lo && sign_set(x)); }

// nzA[mb][w] bit b: some A[mb*BM + r, 32 w + b] != zero (r < BM, in range).  count[0] += set
// bits, count[2] += words with a negative entry below them (the non-negative fast path).
// tminA (unless null): tminA[mb * K + k] = the least A[mb*BM + r, k] (see below()), for the
// tile flags of sr_gemm's signed path (sr_tile_flags); likewise tminB[nb * K + k] = the least B[k, nb*BN + c].
// Grid (ceil(K / 256), ceil(M / BM)), 256 threads: one thread per column k.
extern "C" __global__ void sr_nz_cols(const T* __restrict__ A, unsigned* nzA, int M, int K, long long lda, int Kw,
                                      unsigned long long* count, T* tminA) {
    int k = blockIdx.x * 256 + threadIdx.x;
    int m0 = blockIdx.y * BM;
    bool nz = false, neg = false;
    if (k < K) {
        int rows = min(BM, M - m0);
        const T* p = A + (long long)m0 * lda + k;
        T lo = zero();
        for (int r = 0; r < rows; r++) {
            T x = p[(long long)r * lda];
            nz |= x != zero();
            neg |= x < (T)0;
            if (below(x, lo)) lo = x;
        }
        if (tminA != nullptr) tminA[(long long)blockIdx.y * K + k] = lo;
    }
    unsigned word = __ballot_sync(0xffffffffu, nz);
    unsigned negs = __ballot_sync(0xffffffffu, neg);
    int w = k >> 5;
    if ((threadIdx.x & 31) == 0 && w < Kw) {
        nzA[(long long)blockIdx.y * Kw + w] = word;
        if (word) atomicAdd(count, (unsigned long long)__popc(word));
        if (negs) atomicAdd(count + 2, 1ull);
    }
}

// nzB[nb][w] bit b: some B[32 w + b, nb*BN + c] != zero (c < BN, in range).
// Grid (Kw, ceil(N / BN)), 32 threads: a warp scans 32 rows of the column panel.
extern "C" __global__ void sr_nz_rows(const T* __restrict__ B, unsigned* nzB, int K, int N, long long ldb, int Kw,
                                      unsigned long long* count, T* tminB) {
    int w = blockIdx.x, n0 = blockIdx.y * BN, lane = threadIdx.x;
    unsigned mine = 0;
    bool neg = false;
    for (int b = 0; b < 32; b++) {
        int k = w * 32 + b;
        bool nz = false;
        T lo = zero();
        if (k < K) {
            const T* row = B + (long long)k * ldb + n0;
            for (int c = lane; c < BN && n0 + c < N; c += 32) {
                T x = row[c];
                nz |= x != zero();
                neg |= x < (T)0;
                if (below(x, lo)) lo = x;
            }
        }
        unsigned any = __any_sync(0xffffffffu, nz);
        if (lane == b) mine = any;
        if (tminB != nullptr) {
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                T o = __shfl_xor_sync(0xffffffffu, lo, off);
                if (below(o, lo)) lo = o;
            }
            if (lane == 0 && k < K) tminB[(long long)blockIdx.y * K + k] = lo;
        }
    }
    unsigned word = __ballot_sync(0xffffffffu, mine != 0);
    unsigned negs = __ballot_sync(0xffffffffu, neg);
    if (lane == 0) {
        nzB[(long long)blockIdx.y * Kw + w] = word;
        if (word) atomicAdd(count, (unsigned long long)__popc(word));
        if (negs) atomicAdd(count + 2, 1ull);
    }
}

// tile_flags of sr_gemm's signed path: flags[(mb * gridDim.x + nb) * ntw + g] bit j says k tile
// 32 g + j of block (mb, nb) has no sum below +0.0, i.e. tminA[mb * K + k] + tminB[nb * K + k]
// has the sign bit clear for every k of the tile: a <= A[mb*BM + r, k] and b <= B[k, nb*BN + c]
// give a + b <= every sum, and rounding is monotone (-0.0 ranks below +0.0 in the minima, so a
// sum of -0.0 is never flagged).  Tiles past K are flagged.  Grid (column blocks, row blocks),
// 256 threads: a warp per 32 tiles, reading 32 consecutive k at a time (32 / BK tiles).
static_assert(32 % BK == 0, "a warp's 32 consecutive k hold whole k tiles");
extern "C" __global__ void sr_tile_flags(const T* __restrict__ tminA, const T* __restrict__ tminB, unsigned* flags,
                                         int K) {
    constexpr int PER = 32 / BK;  // tiles per 32 consecutive k
    constexpr unsigned TILE = BK == 32 ? 0xffffffffu : (1u << BK) - 1u;
    const int nt = (K + BK - 1) / BK, ntw = (nt + 31) / 32;
    const int lane = threadIdx.x & 31, warps = blockDim.x >> 5;
    const T* ta = tminA + (long long)blockIdx.y * K;
    const T* tb = tminB + (long long)blockIdx.x * K;
    unsigned* out = flags + ((long long)blockIdx.y * gridDim.x + blockIdx.x) * ntw;
    for (int g = threadIdx.x >> 5; g < ntw; g += warps) {
        unsigned word = 0;
        for (int i = 0; i < BK; i++) {  // 32 tiles = BK rounds of 32 k
            const int k = (g * BK + i) * 32 + lane;
            const bool ok = k >= K || __float_as_int((float)ta[k] + (float)tb[k]) >= 0;
            const unsigned ballot = __ballot_sync(0xffffffffu, ok);
#pragma unroll
            for (int u = 0; u < PER; u++) word |= (unsigned)(((ballot >> (u * BK)) & TILE) == TILE) << (i * PER + u);
        }
        if (lane == 0) out[g] = word;
    }
}

// ---- the row order of the signed path ------------------------------------------------------
__device__ __forceinline__ bool finite_entry(float x) { return isfinite(x); }
__device__ __forceinline__ bool finite_entry(double x) { return isfinite(x); }
template <class U>
__device__ __forceinline__ bool finite_entry(U) { return true; }
__device__ __forceinline__ float clip_finite(float x) { return fminf(fmaxf(x, -3.402823466e38f), 3.402823466e38f); }
__device__ __forceinline__ double clip_finite(double x) { return fmin(fmax(x, -1.7976931348623157e308), 1.7976931348623157e308); }
template <class U>
__device__ __forceinline__ U clip_finite(U x) { return x; }

// Whether A's rows sit at offsets (gemm.py's start_row_offsets / rows_at_offsets decide from what
// these two kernels write).  sr_row_offsets: rmin[r] = the least of A's row r over four runs of
// `width` (<= 128) consecutive columns starting at s0..s3 (+-inf clipped to +-the largest finite
// value, so that rows without arcs sort to the ends; a NaN is passed over); the last column of
// blocks writes part[3 y .. 3 y + 2] = count, sum and sum of squares of B's finite entries on its
// 8 rows of the grid of every bstep-th row and column (at most 128 x 128 entries in all).
// Grid (ceil(M / BM) + 1, 16), 256 threads: a warp per row (BM / 16 rows of a row block per
// block), every load of a lane issued at once.
extern "C" __global__ void sr_row_offsets(const T* __restrict__ A, const T* __restrict__ B, T* rmin, double* part,
                                          int M, int K, int N, long long lda, long long ldb, int s0, int s1, int s2,
                                          int s3, int width, int bstep) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if ((int)blockIdx.x < (int)gridDim.x - 1) {
        constexpr int ROWS = (BM + 15) / 16;  // rows of a row block per block of the grid
        const int starts[4] = {s0, s1, s2, s3};
        for (int w = warp; w < ROWS; w += 8) {
            const int r = blockIdx.x * BM + blockIdx.y * ROWS + w;
            if (r >= M || blockIdx.y * ROWS + w >= BM) return;
            const T* row = A + (long long)r * lda;
            T x[16];
#pragma unroll
            for (int s = 0; s < 4; s++) {
#pragma unroll
                for (int q = 0; q < 4; q++) {
                    const int c = q * 32 + lane;
                    x[s * 4 + q] = c < width ? row[starts[s] + c] : zero();
                }
            }
            T lo = zero();
#pragma unroll
            for (int i = 0; i < 16; i++) {
                if (x[i] < lo) lo = x[i];
            }
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                const T o = __shfl_xor_sync(0xffffffffu, lo, off);
                if (o < lo) lo = o;
            }
            if (lane == 0) rmin[r] = clip_finite(lo);
        }
        return;
    }
    __shared__ double red[3][8];
    double cnt = 0.0, sum = 0.0, sq = 0.0;
    const int rs = min(128, (K + bstep - 1) / bstep), cs = min(128, (N + bstep - 1) / bstep);
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int i = blockIdx.y * 8 + (q * 256 + threadIdx.x) / 128, j = threadIdx.x % 128;
        if (i < rs && j < cs) {
            const T v = B[(long long)i * bstep * ldb + (long long)j * bstep];
            if (finite_entry(v)) {
                cnt += 1.0;
                sum += (double)v;
                sq += (double)v * (double)v;
            }
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        cnt += __shfl_xor_sync(0xffffffffu, cnt, off);
        sum += __shfl_xor_sync(0xffffffffu, sum, off);
        sq += __shfl_xor_sync(0xffffffffu, sq, off);
    }
    if (lane == 0) {
        red[0][warp] = cnt;
        red[1][warp] = sum;
        red[2][warp] = sq;
    }
    __syncthreads();
    if (threadIdx.x < 3) {
        double t = 0.0;
        for (int w = 0; w < 8; w++) t += red[threadIdx.x][w];
        part[blockIdx.y * 3 + threadIdx.x] = t;
    }
}

// out[b] = the spread (largest - least) of rmin over row block b (BM rows); out[mb .. mb + 2] =
// the sums of sr_row_offsets' 16 parts.  Grid (mb + 1), BM threads.
extern "C" __global__ void sr_row_offsets_spread(const T* __restrict__ rmin, const double* __restrict__ part,
                                                 double* out, int M) {
    __shared__ double lo_s[BM / 32], hi_s[BM / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int mb = gridDim.x - 1;
    if ((int)blockIdx.x == mb) {
        if (threadIdx.x < 3) {
            double t = 0.0;
            for (int y = 0; y < 16; y++) t += part[y * 3 + threadIdx.x];
            out[mb + threadIdx.x] = t;
        }
        return;
    }
    const int r = blockIdx.x * BM + threadIdx.x;
    double lo = 1.7976931348623157e308, hi = -1.7976931348623157e308;
    if (r < M) lo = hi = (double)rmin[r];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        lo = fmin(lo, __shfl_xor_sync(0xffffffffu, lo, off));
        hi = fmax(hi, __shfl_xor_sync(0xffffffffu, hi, off));
    }
    if (lane == 0) {
        lo_s[warp] = lo;
        hi_s[warp] = hi;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < BM / 32; w++) {
            lo = fmin(lo, lo_s[w]);
            hi = fmax(hi, hi_s[w]);
        }
        out[blockIdx.x] = hi - lo;
    }
}
