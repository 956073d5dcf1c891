"""Dense semiring operations: validated front ends over the kernels.

These are the functions behind :class:`semiring.Semiring`'s methods.  Each
checks its input once (shapes, dtypes, entries; nothing is cast), allocates the
result on the operands' device, and hands the work to the kernel picked by
:mod:`semiring.dense.dispatch`.  :func:`matmul_into` is the unchecked entry point for
algorithms (R-Kleene, Floyd-Warshall) that validate once and then call the GEMM
thousands of times on views of one buffer.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..algebra import Algebra
from ..backend import array_module, common_module, is_cupy_array, resolve_device
from ..errors import SemiringError, ShapeError, UnsupportedOperationError
from ..validate import as_integer, check_array, check_entries, check_matrix, check_out, check_same_dtype
from .dispatch import cpu_scalar_ops, gemm_kernel_for, sentinels

if TYPE_CHECKING:
    from types import ModuleType

    from ..array_types import Array, Device, DTypeLike

__all__ = ["matmul", "matmul_into", "elementwise", "elementwise_into", "identity", "zeros", "power", "scatter_add", "WITNESS_DTYPE"]

WITNESS_DTYPE = np.dtype(np.int32)


def _may_overlap(X: Array, Y: Array) -> bool:
    xp = array_module(X)
    return bool(xp.may_share_memory(X, Y))


def matmul_into(S: Algebra, A: Array, B: Array, C: Array, W: Array | None = None, accumulate: bool = False) -> None:
    """Unchecked ``C (+)= A (x) B`` (and the witness ``W``) on views; no allocation of C.

    The caller guarantees shapes, dtypes, valid entries, a common device, and
    that ``C`` does not overlap ``A`` or ``B``.

    >>> from semiring import min_plus
    >>> C = np.zeros((1, 1)); matmul_into(min_plus, np.ones((1, 2)), np.ones((2, 1)), C); C
    array([[2.]])
    """
    gemm_kernel_for(S, A, W is not None)(S, A, B, C, W, accumulate)


def matmul(
    S: Algebra,
    A: Array,
    B: Array,
    out: Array | None = None,
    accumulate: bool = False,
    witness: bool = False,
    device: Device = "auto",
    memory_budget: int | None = None,
) -> Array | tuple[Array, Array]:
    """Semiring matrix product ``C = A (x) B``, or ``out (+)= A (x) B`` with ``accumulate``.

    Parameters
    ----------
    S : Semiring
    A : array (m, k), B : array (k, n)
        NumPy or CuPy arrays of one dtype that ``S`` supports, any strides.
    out : array (m, n), optional
        Where to write the result; required with ``accumulate=True``.  It may
        overlap ``A`` or ``B``: the overlapping operand is copied first.
    accumulate : bool
        Compute ``out = out (+) A (x) B`` (fused; nothing is allocated but the witness).
    witness : bool
        Also return ``K`` (int32): ``K[i, j]`` is the smallest ``k`` with
        ``A[i, k] (x) B[k, j]`` equal to the result, or ``-1`` where the result
        is the semiring zero (or, with ``accumulate``, where ``out``'s old value
        won or tied).  Needs a selective ``add`` (min, max, or).
    device : {"auto", "cpu", "gpu"}
        ``"auto"`` runs where the operands live.  ``"gpu"`` with NumPy operands
        runs on the GPU and returns NumPy: panels are streamed through the
        device when the operands exceed ``memory_budget``.
    memory_budget : int, optional
        Device bytes the operation may use (streamed GEMM); default: most of
        the free device memory.

    Returns
    -------
    C, or (C, K) with ``witness=True``.  The same array kind as the inputs.

    Raises
    ------
    ShapeError, DTypeError, InvalidEntryError, UnsupportedOperationError, DeviceError

    Examples
    --------
    >>> from semiring import min_plus
    >>> A = np.array([[0.0, 1.0], [np.inf, 0.0]])
    >>> C, K = min_plus.matmul(A, A, witness=True)
    >>> C
    array([[ 0.,  1.],
           [inf,  0.]])
    >>> K
    array([[ 0,  0],
           [-1,  1]], dtype=int32)
    """
    xp = common_module(A=A, B=B, out=out)
    check_matrix("A", A, S)
    check_matrix("B", B, S)
    dtype = check_same_dtype(A=A, B=B)
    if A.shape[1] != B.shape[0]:
        raise ShapeError(
            f"inner dimensions differ: A is {A.shape[0]}x{A.shape[1]}, B is {B.shape[0]}x{B.shape[1]}"
        )
    shape = (A.shape[0], B.shape[1])
    if witness and not S.selective:
        raise UnsupportedOperationError(
            f"witness=True needs a selective add (min, max, or); {S.name} adds values together"
        )
    if accumulate and out is None:
        raise SemiringError("accumulate=True adds into an existing result: pass out=")
    if out is not None:
        check_out(out, shape, dtype)
        if accumulate:
            check_entries("out", out, S)
        if _may_overlap(out, A):
            A = A.copy()
        if _may_overlap(out, B):
            B = B.copy()
    C = out if out is not None else xp.empty(shape, dtype=dtype)
    W = xp.empty(shape, dtype=WITNESS_DTYPE) if witness else None
    if xp is np and resolve_device(device, A) == "gpu":
        from ..cuda import streamed_matmul

        streamed_matmul(S, A, B, C, W, accumulate, memory_budget=memory_budget)
    else:
        matmul_into(S, A, B, C, W, accumulate)
    return (C, W) if witness else C


def _as_operand(name: str, X: Any, S: Algebra, dtype: np.dtype[Any] | None = None) -> Any:
    """Scalars become 0-d arrays of the other operand's dtype only if exactly representable."""
    if isinstance(X, (int, float, bool, np.generic)) and dtype is not None:
        v = np.asarray(X)
        cast = v.astype(dtype)
        if cast.item() != v.item() and not (np.isinf(float(v)) and dtype.kind == "i"):
            raise SemiringError(f"{name}={X!r} cannot be represented exactly in {dtype}")
        if np.isinf(float(v)) and dtype.kind == "i":
            cast = np.asarray(sentinels(dtype)[1 if float(v) > 0 else 0])
        return cast
    return X


def elementwise(S: Algebra, which: Literal["add", "mul"], A: Array, B: Array, out: Array | None = None) -> Array:
    """Elementwise ``A (+) B`` (``which="add"``) or ``A (x) B`` (``"mul"``) with broadcasting.

    Integer results saturate at the dtype's sentinels as in the GEMM kernels.

    >>> from semiring import plus_times
    >>> elementwise(plus_times, "add", np.array([2**31 - 2], np.int32), np.array([5], np.int32))
    array([2147483647], dtype=int32)
    """
    if which not in ("add", "mul"):
        raise SemiringError(f"which must be 'add' or 'mul', got {which!r}")
    dA = getattr(A, "dtype", None)
    dB = getattr(B, "dtype", None)
    A = _as_operand("A", A, S, dB if isinstance(B, (np.ndarray,)) or is_cupy_array(B) else None)
    B = _as_operand("B", B, S, dA if isinstance(A, (np.ndarray,)) or is_cupy_array(A) else None)
    xp = common_module(A=A, B=B, out=out)
    for name, X in (("A", A), ("B", B)):
        check_array(name, X)
        S.check_dtype(name, X.dtype)
        check_entries(name, X, S)
    dtype = check_same_dtype(A=A, B=B)
    try:
        shape = np.broadcast_shapes(tuple(A.shape), tuple(B.shape))
    except ValueError:
        raise ShapeError(f"shapes {tuple(A.shape)} of A and {tuple(B.shape)} of B do not broadcast") from None
    if out is None:
        out = xp.empty(shape, dtype=dtype)
    else:
        check_out(out, shape, dtype)
    return elementwise_into(S, which, A, B, out)


def elementwise_into(S: Algebra, which: Literal["add", "mul"], A: Array, B: Array, out: Array) -> Array:
    """Unchecked ``out = A (+) B`` or ``A (x) B``, broadcast: :func:`elementwise` after its checks.

    The caller guarantees arrays of one dtype that ``S`` accepts, on one
    device, that broadcast to ``out``'s shape, and ``which`` in ``{"add",
    "mul"}``.  Entries are not checked: algorithms that validated their input
    once (the einsum engine) pass their intermediates, whose float overflow to
    an infinity is IEEE arithmetic's answer, not bad input.

    >>> from semiring import plus_times
    >>> big = np.full(2, 3e38, np.float32)
    >>> elementwise_into(plus_times, "add", big, big, np.empty(2, np.float32))
    array([inf, inf], dtype=float32)
    """
    if array_module(out) is np and S.family is not None:
        from .._cpu.elementwise import apply

        op = cpu_scalar_ops(S, out.dtype)[which][0]  # type: ignore[index]  # a built-in family has its Numba ops
        lo, hi = sentinels(out.dtype)
        return apply(op, A, B, out, lo, hi)
    if S.family is not None and not S.exact_ufuncs(out.dtype):
        from ..cuda import elementwise as cuda_elementwise

        return cuda_elementwise(S, which, A, B, out)
    ufunc = S.add_ufunc if which == "add" else S.mul_ufunc
    out[...] = ufunc(A, B)
    return out


def zeros(S: Algebra, shape: int | tuple[int, ...], dtype: DTypeLike = np.float64, like: Array | None = None) -> Array:
    """An array of ``shape`` filled with the semiring zero, on ``like``'s device.

    >>> from semiring import min_plus
    >>> zeros(min_plus, (2,), np.int32)
    array([2147483647, 2147483647], dtype=int32)
    """
    dtype = S.check_dtype("dtype", dtype)
    xp = array_module(like) if like is not None else np
    return xp.full(shape, S.zero_value(dtype), dtype=dtype)


def identity(S: Algebra, n: int, dtype: DTypeLike = np.float64, like: Array | None = None) -> Array:
    """The ``n x n`` semiring identity matrix.

    >>> from semiring import lor_land
    >>> identity(lor_land, 2, bool)
    array([[ True, False],
           [False,  True]])
    """
    n = operator.index(n)
    if n < 0:
        raise ShapeError(f"n must be non-negative, got {n}")
    M = zeros(S, (n, n), dtype, like=like)
    xp = array_module(M)
    idx = xp.arange(n)
    M[idx, idx] = S.one_value(M.dtype)
    return M


def power(S: Algebra, A: Array, k: int) -> Array:
    """``A`` to the ``k``-th semiring power by binary exponentiation.

    >>> from semiring import plus_times
    >>> power(plus_times, np.array([[1, 1], [1, 0]], np.int64), 10)
    array([[89, 55],
           [55, 34]])
    """
    k = as_integer("the exponent", k, error=SemiringError, message="{name} must be an integer, got {value!r}", bools=True)
    if k < 0:
        raise SemiringError(f"the exponent must be non-negative, got {k}")
    check_matrix("A", A, S)
    if A.shape[0] != A.shape[1]:
        raise ShapeError(f"power needs a square matrix, A is {A.shape[0]}x{A.shape[1]}")
    xp = array_module(A)
    result = None
    base = A.copy()
    while k:
        if k & 1:
            result = base.copy() if result is None else _product(S, result, base, xp)
        k >>= 1
        if k:
            base = _product(S, base, base, xp)
    return identity(S, A.shape[0], A.dtype, like=A) if result is None else result


def _product(S: Algebra, X: Array, Y: Array, xp: ModuleType) -> Array:
    C = xp.empty((X.shape[0], Y.shape[1]), dtype=X.dtype)
    matmul_into(S, X, Y, C)
    return C


def _scatter_extreme_gpu(ufunc: np.ufunc, D: Array, rows: Array, cols: Array, vals: Array) -> None:
    """``D[r, c] = ufunc(D[r, c], v)`` on CuPy arrays for ``ufunc`` minimum / maximum, exact in every dtype.

    ``cupyx.scatter_min`` rounds float64 values through float32 (seen with
    CuPy 14 on an H200), so repeated positions are resolved by two stable
    sorts instead: by value, then by position; the first (minimum) or last
    (maximum) entry of each position is written once, with no atomics.
    """
    import cupy as cp

    if vals.size == 0:
        return
    key = rows.astype(cp.int64) * D.shape[1] + cols.astype(cp.int64)
    by_value = cp.argsort(vals, kind="stable")
    key = key[by_value]
    by_key = cp.argsort(key, kind="stable")
    key = key[by_key]
    v = vals[by_value][by_key]
    edge = cp.ones(key.size, dtype=cp.bool_)
    if ufunc is np.minimum:
        edge[1:] = key[1:] != key[:-1]  # first of each run: the smallest value
    else:
        edge[:-1] = key[1:] != key[:-1]  # last of each run: the largest value
    key, v = key[edge], v[edge]
    r, c = key // D.shape[1], key % D.shape[1]
    D[r, c] = ufunc(D[r, c], v)


def scatter_add(S: Algebra, D: Any, rows: Any, cols: Any, vals: Any) -> None:
    """``D[r, c] = D[r, c] (+) v`` for every ``(r, c, v)``, repeated positions included, in place.

    How a matrix is built from arcs: parallel arcs meet in the semiring's
    ``add`` (the shortest for ``min_plus``).  NumPy arrays use ``S.add_ufunc.at``;
    CuPy arrays the matching ``cupyx`` scatter for min, max, + and or, else a
    round trip through the host.

    Parameters
    ----------
    S : Semiring
    D : ndarray (NumPy or CuPy), modified in place
    rows, cols : integer arrays of positions
    vals : array of values, ``D``'s dtype

    Examples
    --------
    >>> from semiring import min_plus
    >>> D = min_plus.zeros((2, 2))
    >>> scatter_add(min_plus, D, np.array([0, 0]), np.array([1, 1]), np.array([5.0, 3.0]))
    >>> D
    array([[inf,  3.],
           [inf, inf]])
    """
    xp = array_module(D)
    if xp is np:
        S.add_ufunc.at(D, (np.asarray(rows), np.asarray(cols)), vals)
        return
    import cupyx

    ufunc = S.add_ufunc
    if ufunc is np.minimum or ufunc is np.maximum:
        _scatter_extreme_gpu(ufunc, D, rows, cols, vals)
    elif ufunc is np.add:
        cupyx.scatter_add(D, (rows, cols), vals)
    elif ufunc is np.logical_or:
        D[rows, cols] = True
    else:
        host = D.get()
        ufunc.at(host, (rows.get(), cols.get()), vals.get())
        D[...] = xp.asarray(host)
