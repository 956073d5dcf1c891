// Microbenchmarks of the chip's ceiling for one semiring (mul, add) pair, with all operands
// in registers: each thread advances CH independent chains x = add(mul(x, y), z) (the mul is
// the semiring's "times", e.g. +, and the add its "plus", e.g. min), so every step is exactly
// the instruction pair of the GEMM's inner loop and nothing else but the loop counter.
#include "scalar_ops.cuh"

#define CH 16
#define UNROLL 8

#define CEILING_KERNEL(NAME, TYPE, STEP)                                                         \
    extern "C" __global__ void NAME(const TYPE* __restrict__ init, TYPE* out, TYPE y, int iters) { \
        TYPE x[CH], z[CH];                                                                       \
        int t = blockIdx.x * blockDim.x + threadIdx.x;                                           \
        _Pragma("unroll") for (int i = 0; i < CH; i++) {                                         \
            x[i] = init[(t + i) & 1023];                                                         \
            z[i] = init[(t + 7 * i + 1) & 1023];                                                 \
        }                                                                                        \
        for (int it = 0; it < iters; it++) {                                                     \
            _Pragma("unroll") for (int u = 0; u < UNROLL; u++) {                                 \
                _Pragma("unroll") for (int i = 0; i < CH; i++) { STEP; }                         \
            }                                                                                    \
        }                                                                                        \
        TYPE s = x[0];                                                                           \
        _Pragma("unroll") for (int i = 1; i < CH; i++) s = s + x[i];                             \
        out[t] = s;                                                                              \
    }

// fp32: FADD + FMNMX
CEILING_KERNEL(ceiling_f32_min_plus, float, x[i] = fminf(x[i] + y, z[i]))
// fp64: DADD + compare-and-select (the kernels' sr_min)
CEILING_KERNEL(ceiling_f64_min_plus, double, { double s_ = x[i] + y; x[i] = s_ <= z[i] ? s_ : z[i]; })
// int32, wrapping add + min (one VIADDMNMX on sm_90): the hardware's integer pair rate
CEILING_KERNEL(ceiling_i32_min_plus_wrap, int, x[i] = min(x[i] + y, z[i]))
// int32 with the library's exact saturating semantics (what the int32 GEMM executes)
CEILING_KERNEL(ceiling_i32_min_plus_sat, int, x[i] = sr_min(sr_minplus_mul_i32(x[i], y), z[i]))
// Two 16-bit lanes per instruction (DPX on sm_90, emulated elsewhere): each step is two pairs
CEILING_KERNEL(ceiling_u16x2_min_plus, unsigned, x[i] = __viaddmin_u16x2(x[i], y, z[i]))
CEILING_KERNEL(ceiling_s16x2_min_plus, unsigned, x[i] = __viaddmin_s16x2(x[i], y, z[i]))
