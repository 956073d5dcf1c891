// Common prelude of the semiring kernels: the element type and the semiring's scalar ops.
//
// The host (semiring/cuda/compile.py) defines, before this text:
//   SR_T          element type (float, double, int, long long, unsigned char)
//   SR_ADD(a, b)  semiring add, an expression in a and b
//   SR_MUL(a, b)  semiring mul
//   SR_ZERO       the semiring zero (identity of add, annihilator of mul)
// and, for the tiled GEMM, SR_BM SR_BN SR_BK SR_TM SR_TN SR_STAGES.
// Without them (a standalone `nvcc` check of a kernel file) it is min-plus float32.
#pragma once

#ifndef SR_T
#define SR_T float
#define SR_ADD(a, b) fminf(a, b)
#define SR_MUL(a, b) ((a) + (b))
#define SR_ZERO __int_as_float(0x7f800000)
#define SR_BM 128
#define SR_BN 128
#define SR_BK 32
#define SR_TM 8
#define SR_TN 8
#define SR_STAGES 3
#define SR_KUNROLL 64
#endif

#include "scalar_ops.cuh"

typedef SR_T T;

__device__ __forceinline__ T sr_add_op(T a, T b) { return SR_ADD(a, b); }
__device__ __forceinline__ T sr_mul_op(T a, T b) { return SR_MUL(a, b); }
__device__ __forceinline__ T sr_zero() { return (T)(SR_ZERO); }
