// Scalar add / mul of the built-in semiring families on the GPU.
//
// The CUDA twin of semiring/_cpu/scalar_ops.py, which holds the reference
// semantics: integer infinities are the saturating sentinels iinfo.min / iinfo.max, and
// in the sums of min_plus and max_plus both stick; where they meet, the semiring's zero
// ("no path") wins: +inf (hi) in min_plus, -inf (lo) in max_plus.  min_times treats
// +inf as absorbing in products (also against 0, floats too); every other integer sum
// or product that leaves the range saturates at the sentinel and never wraps.  Floats
// otherwise use IEEE arithmetic: where inf meets -inf the NaN is skipped by the add
// (sr_min / sr_max / fminf / fmaxf return the other operand then, and every kernel
// calls add(old, candidate)), which is the same rule.
//
// These are the CUDA implementations of the primitives of semiring/families.py; the
// host (semiring/cuda/ops.py) builds one expression per (family, dtype) from them and
// defines SR_ADD(a, b) / SR_MUL(a, b) with it before including the kernels.

#pragma once

#define SR_I32_LO (-2147483647 - 1)
#define SR_I32_HI 2147483647
#define SR_I64_LO (-9223372036854775807LL - 1LL)
#define SR_I64_HI 9223372036854775807LL

// ---- int32 ----------------------------------------------------------------------
__device__ __forceinline__ int sr_sat_add_i32(int a, int b) {
    // a + b clamped to [INT_MIN, INT_MAX]: exactly _sat_sum for int32.
    int r;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
// Both sentinels stick, hi wins: max(min(sat(a + b), a_lo, b_lo), a_hi, b_hi) with
// x_lo = lo if x == lo else hi and x_hi = hi if x == hi else lo.  Written without a
// per-pair branch: the compiler computes x_lo / x_hi once per loaded operand, and on
// sm_90 fuses each pair of min (of max) into one three-way VIMNMX3.
__device__ __forceinline__ int sr_minplus_mul_i32(int a, int b) {
    int ai = a == SR_I32_HI ? SR_I32_HI : SR_I32_LO, bi = b == SR_I32_HI ? SR_I32_HI : SR_I32_LO;
    int al = a == SR_I32_LO ? SR_I32_LO : SR_I32_HI, bl = b == SR_I32_LO ? SR_I32_LO : SR_I32_HI;
    return max(max(min(min(sr_sat_add_i32(a, b), al), bl), ai), bi);
}
// The mirror image, lo wins: min(max(sat(a + b), a_hi, b_hi), a_lo, b_lo).
__device__ __forceinline__ int sr_maxplus_mul_i32(int a, int b) {
    int ai = a == SR_I32_LO ? SR_I32_LO : SR_I32_HI, bi = b == SR_I32_LO ? SR_I32_LO : SR_I32_HI;
    int ah = a == SR_I32_HI ? SR_I32_HI : SR_I32_LO, bh = b == SR_I32_HI ? SR_I32_HI : SR_I32_LO;
    return min(min(max(max(sr_sat_add_i32(a, b), ah), bh), ai), bi);
}
__device__ __forceinline__ int sr_sat_mul_i32(int a, int b) {
    long long p = (long long)a * (long long)b;
    p = p > (long long)SR_I32_HI ? (long long)SR_I32_HI : p;
    p = p < (long long)SR_I32_LO ? (long long)SR_I32_LO : p;
    return (int)p;
}

// ---- int64 ----------------------------------------------------------------------
__device__ __forceinline__ long long sr_sat_add_i64(long long a, long long b) {
    long long s = (long long)((unsigned long long)a + (unsigned long long)b);
    if (a > 0 && b > 0 && s < a) return SR_I64_HI;
    if (a < 0 && b < 0 && s > a) return SR_I64_LO;
    return s;
}
__device__ __forceinline__ long long sr_minplus_mul_i64(long long a, long long b) {
    return (a == SR_I64_HI || b == SR_I64_HI) ? SR_I64_HI
         : (a == SR_I64_LO || b == SR_I64_LO) ? SR_I64_LO : sr_sat_add_i64(a, b);
}
__device__ __forceinline__ long long sr_maxplus_mul_i64(long long a, long long b) {
    return (a == SR_I64_LO || b == SR_I64_LO) ? SR_I64_LO
         : (a == SR_I64_HI || b == SR_I64_HI) ? SR_I64_HI : sr_sat_add_i64(a, b);
}
__device__ __forceinline__ long long sr_sat_mul_i64(long long a, long long b) {
    long long lo = (long long)((unsigned long long)a * (unsigned long long)b);
    long long hi = __mul64hi(a, b);
    if (hi != (lo >> 63)) return ((a > 0) == (b > 0)) ? SR_I64_HI : SR_I64_LO;
    return lo;
}

// ---- +inf absorbs in a product (times_inf_absorbs), also against 0 -----------------
// The mul of min_times, whose zero is +inf: inf * 0 must be inf (IEEE gives NaN; an
// integer sentinel times 0 would give 0).  Other integer products saturate.
__device__ __forceinline__ int sr_infabs_mul_i32(int a, int b) {
    // As sr_minplus_mul_i32: a_inf / b_inf once per loaded operand, no per-pair branch.
    int ai = a == SR_I32_HI ? SR_I32_HI : SR_I32_LO, bi = b == SR_I32_HI ? SR_I32_HI : SR_I32_LO;
    return max(max(sr_sat_mul_i32(a, b), ai), bi);
}
__device__ __forceinline__ long long sr_infabs_mul_i64(long long a, long long b) {
    return (a == SR_I64_HI || b == SR_I64_HI) ? SR_I64_HI : sr_sat_mul_i64(a, b);
}
__device__ __forceinline__ float sr_infabs_mul_f32(float a, float b) {
    // fmaxf(x, -inf) == x for every number x, and fmaxf returns the other operand when
    // one is NaN (0 * inf): two FMNMX per pair, a_inf / b_inf once per loaded operand.
    const float inf = __int_as_float(0x7f800000);
    return fmaxf(fmaxf(a * b, a == inf ? inf : -inf), b == inf ? inf : -inf);
}
__device__ __forceinline__ double sr_infabs_mul_f64(double a, double b) {
    const double inf = __longlong_as_double(0x7ff0000000000000LL);
    return (a == inf || b == inf) ? inf : a * b;
}

// ---- GraphBLAS's structural operators on dense operands ----------------------------
// An operand equal to the family's zero is a missing entry and gives the zero: 0 for pair
// (the zero of plus), +inf (integers: the max sentinel) for second / first (the zero of min).
// As _pair / _second / _first of semiring/_cpu/scalar_ops.py.
template <typename T> __device__ __forceinline__ T sr_posinf();
template <> __device__ __forceinline__ float sr_posinf<float>() { return __int_as_float(0x7f800000); }
template <> __device__ __forceinline__ double sr_posinf<double>() { return __longlong_as_double(0x7ff0000000000000LL); }
template <> __device__ __forceinline__ int sr_posinf<int>() { return SR_I32_HI; }
template <> __device__ __forceinline__ long long sr_posinf<long long>() { return SR_I64_HI; }
template <typename T> __device__ __forceinline__ T sr_pair(T a, T b) { return (a != (T)0 && b != (T)0) ? (T)1 : (T)0; }
template <typename T> __device__ __forceinline__ T sr_second(T a, T b) { return a == sr_posinf<T>() ? a : b; }
template <typename T> __device__ __forceinline__ T sr_first(T a, T b) { return b == sr_posinf<T>() ? b : a; }

// ---- generic min / max (integers and anything with <) -----------------------------
// a <= b ? a : b (and a >= b ? a : b) for every non-NaN input, ties returning a, written
// so that a NaN b (inf + -inf: a candidate that meets "no path") returns a: the same one
// compare-and-select.  As min_ / _max of semiring/_cpu/scalar_ops.py.
template <typename T> __device__ __forceinline__ T sr_min(T a, T b) { return b < a ? b : a; }
template <typename T> __device__ __forceinline__ T sr_max(T a, T b) { return b > a ? b : a; }
