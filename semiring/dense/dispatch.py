"""Which kernel runs a dense operation: one small function per decision.

In the manner of ``opt_einsum.backends.dispatch``: an algorithm asks once,
gets a callable ``kernel(S, A, B, C, W, accumulate)``, and never asks again
where it runs.  The GPU module is imported only when a CuPy array arrives.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from .._cpu.specialize import compile_once, specialize
from .._cpu.threads import run_rows
from ..algebra import Algebra
from ..backend import is_cupy_array
from ..dtypes import neginf, posinf
from ..families import bitpacked_boolean
from ..generic import generic_matmul
from ..int_range import PLAIN_DTYPES, plain_path_applies

__all__ = ["gemm_kernel_for", "cpu_scalar_ops", "cpu_kernels", "numba_array_type", "sentinels", "numba_plan"]

GemmKernel = Callable[..., None]


def sentinels(dtype: np.dtype[Any]) -> tuple[np.generic[Any], np.generic[Any]]:
    """``(lo, hi)``: the values standing for -inf and +inf in ``dtype``.

    >>> sentinels(np.dtype(np.int32))
    (np.int32(-2147483648), np.int32(2147483647))
    """
    return neginf(dtype), posinf(dtype)


def cpu_scalar_ops(S: Algebra, dtype: np.dtype[Any]) -> dict[str, tuple[Any, int]] | None:
    """The Numba scalar ops of ``S`` in ``dtype`` as ``{"add": (fn, arity), "mul": ...}``.

    ``None`` means there are none and the generic NumPy path runs.  Built-in
    families use the saturating ``f(a, b, lo, hi)`` functions of
    :mod:`semiring._cpu.scalar_ops` (arity 4); custom semirings their own
    ``f(a, b)`` (arity 2).  This is what :func:`cpu_kernels` specialises.

    >>> from semiring import min_plus
    >>> sorted(cpu_scalar_ops(min_plus, np.dtype(np.float32)))
    ['add', 'mul']
    """
    from .._cpu.scalar_ops import OPS

    if S.family is not None:
        pair = OPS.get((S.family, np.dtype(dtype).kind))
        return None if pair is None else {"add": (pair[0], 4), "mul": (pair[1], 4)}
    if S.numba_add is not None:
        return {"add": (S.numba_add, 2), "mul": (S.numba_mul, 2)}
    return None


def cpu_kernels(S: Algebra, dtype: np.dtype[Any], template: str = "semiring._cpu.gemm_template",
                plain: bool = False) -> ModuleType:
    """The module ``template`` specialised to ``S``'s scalar ops and ``dtype``'s register width.

    Built-in families with vector operations (:func:`semiring._cpu.scalar_ops.vector_ops_for`)
    also get them (``# @VADD`` / ``# @VMUL``) with ``VEC = 1``, ``VW`` (the
    lanes of one native vector register) and ``NV`` (vectors per tile row), so
    that the GEMM template uses its SIMD micro-kernel; every other semiring
    gets ``VEC = 0`` (scalar kernel).  With ``plain``, an integer family whose
    capabilities say ``plain_sums`` gets the plain-sum ops of
    :data:`semiring._cpu.scalar_ops.PLAIN_OPS` instead (exact only under the range check of :mod:`semiring.int_range`).
    Higher layers use this for their own templates (e.g. a Floyd-Warshall base
    case), which may use the same marks; it is compiled once and cached on disk.

    >>> from semiring import min_plus
    >>> cpu_kernels(min_plus, np.dtype(np.float64)).NR
    32
    >>> cpu_kernels(min_plus, np.dtype(np.float64)).VEC
    1
    >>> cpu_kernels(min_plus, np.dtype(np.int32), plain=True).vmul.__name__
    '_plus_plain_v'
    """
    from .._cpu.scalar_ops import PLAIN_OPS, vector_ops_for
    from .._cpu.simd import lanes, register_bytes

    ops = cpu_scalar_ops(S, dtype)
    if ops is None:
        raise TypeError(f"{S.name} has no Numba scalar operations")
    nr = max(16, 256 // np.dtype(dtype).itemsize)
    consts = {"NR": nr, "VEC": 0}
    vops = vector_ops_for(S.family, dtype) if S.family is not None else None
    if plain:
        if not S.capabilities.plain_sums or np.dtype(dtype) not in PLAIN_DTYPES:
            raise TypeError(f"{S.name} has no plain-sum kernel in {np.dtype(dtype)}")
        add, mul, vadd, vmul = PLAIN_OPS[S.family]  # type: ignore[index]  # plain sums: a built-in family
        ops, vops = {"add": (add, 4), "mul": (mul, 4)}, (vadd, vmul)
    if vops is not None:
        ops = {**ops, "vadd": (vops[0], 4), "vmul": (vops[1], 4)}
        # 4 x 4 register tile with 32 vector registers (AVX-512), 4 x 2 with 16 (AVX2).
        consts.update(VEC=1, VW=lanes(dtype), NV=4 if register_bytes() >= 64 else 2)
    return specialize(template, ops, consts)


def numba_array_type(dtype: np.dtype[Any], ndim: int = 2) -> Any:
    """The Numba type of an any-layout array of ``dtype`` (what the kernels are compiled for).

    >>> numba_array_type(np.dtype(np.float32))
    Array(float32, 2, 'A', False, aligned=True)
    """
    from numba import from_dtype, types

    return types.Array(from_dtype(np.dtype(dtype)), ndim, "A")


@functools.cache
def numba_plan(S: Algebra, dtype: np.dtype[Any], witness: bool, plain: bool = False) -> tuple[Any, Any, Any, Any]:
    """``(kernel, zero, lo, hi)`` for ``S`` in ``dtype``: compiled once, then a dictionary hit per call.

    Recursive algorithms call the GEMM thousands of times on small blocks, where
    rebuilding types and looking kernels up would cost more than the product.
    ``plain`` selects the plain-sum integer kernel (see :func:`cpu_kernels`).

    >>> from semiring import min_plus
    >>> numba_plan(min_plus, np.dtype(np.float64), False)[1:]
    (np.float64(inf), np.float64(-inf), np.float64(inf))
    """
    from numba import from_dtype, types

    mod = cpu_kernels(S, dtype, plain=plain)
    lo, hi = sentinels(dtype)
    arr, scalar, i64 = numba_array_type(dtype), from_dtype(dtype), types.int64
    if witness:
        warr = numba_array_type(np.dtype(np.int32))
        fn = compile_once(mod.gemm_witness, (arr, arr, arr, warr, i64, i64, types.boolean, scalar, scalar, scalar))
    else:
        fn = compile_once(mod.gemm, (arr, arr, arr, i64, i64, types.boolean, scalar, scalar, scalar))
    return fn, S.zero_value(dtype), lo, hi


#: Integer min-plus products of at least this many multiply-adds get the range check of
#: :mod:`semiring.int_range` (two min/max passes over the operands), and the plain-sum
#: kernel when it passes; smaller ones run the saturating kernel, for which the check
#: would cost about as much as it could save.
PLAIN_MIN_WORK = 1 << 21


def _numba_gemm(S: Algebra, A: Any, B: Any, C: Any, W: Any, accumulate: bool) -> None:
    work = A.shape[0] * A.shape[1] * B.shape[1]
    plain = W is None and work >= PLAIN_MIN_WORK and plain_path_applies(S.family, A, B)
    fn, zero, lo, hi = numba_plan(S, C.dtype, W is not None, plain)
    if W is None:
        run_rows(lambda r0, r1: fn(A, B, C, r0, r1, accumulate, zero, lo, hi), A.shape[0], work)
    else:
        run_rows(lambda r0, r1: fn(A, B, C, W, r0, r1, accumulate, zero, lo, hi), A.shape[0], work)


def _bool_gemm(S: Algebra, A: Any, B: Any, C: Any, W: Any, accumulate: bool) -> None:
    from .._cpu.boolean import bool_matmul

    bool_matmul(A, B, C, accumulate)


def _generic_gemm(S: Algebra, A: Any, B: Any, C: Any, W: Any, accumulate: bool) -> None:
    generic_matmul(S, A, B, C, W, accumulate)


def _cuda_gemm(S: Algebra, A: Any, B: Any, C: Any, W: Any, accumulate: bool) -> None:
    from ..cuda import matmul_into

    matmul_into(S, A, B, C, W, accumulate)


def gemm_kernel_for(S: Algebra, A: Any, witness: bool) -> GemmKernel:
    """Pick the GEMM implementation for semiring ``S`` on operand ``A``.

    >>> from semiring import lor_land, min_plus
    >>> gemm_kernel_for(lor_land, np.zeros((1, 1), bool), witness=False).__name__
    '_bool_gemm'
    >>> gemm_kernel_for(min_plus, np.zeros((1, 1)), witness=True).__name__
    '_numba_gemm'
    """
    if is_cupy_array(A):
        return _cuda_gemm
    if not witness and bitpacked_boolean(S):
        return _bool_gemm
    if cpu_scalar_ops(S, A.dtype) is not None:
        return _numba_gemm
    return _generic_gemm
