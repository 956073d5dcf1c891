"""The kernel surface of :mod:`semiring` for the layers above it (CPU and backend-neutral part).

:mod:`apsp` and :mod:`graphs` run their own kernels on the semiring's
arithmetic: a Floyd-Warshall base case specialised to a semiring, last-hop
scans, thread-parallel row loops, elementwise passes with saturating integers.
They reach everything of :mod:`semiring` they need for that through this
module (and :mod:`semiring.cpu_ops` for the marked lines of their Numba
templates, :mod:`semiring.cuda_kernels` for CUDA), never through the private modules
behind it (``semiring._cpu``, ``semiring.cuda``, ``semiring.dense.dispatch``...),
which may change shape at any time; ``tests/test_layering.py`` checks that.

Importing this module imports neither Numba nor CuPy; the functions that need
Numba import it when first called.

What is here
------------

Scalar ops and specialised kernels
    :func:`cpu_scalar_ops` (a semiring's Numba ``add`` / ``mul`` in a dtype, or
    ``None``), :func:`cpu_kernels` (a Numba template module specialised to
    them, e.g. ``"apsp._fw_template"``), :func:`numba_array_type`,
    :func:`elementwise_apply` (a scalar op over two broadcast arrays).
Sentinels and integer range checks
    :func:`sentinels`, :func:`posinf`, :func:`neginf`; the plain-sum range
    check of :mod:`semiring.int_range` (:func:`plain_sums_exact`,
    :func:`operand_extremes`, :func:`padding_value`, :func:`sums_in_range`,
    :func:`sums_known_in_range`, :data:`PLAIN_DTYPES`).
Products
    :func:`matmul_into` (dense, in place, any device), :data:`WITNESS_DTYPE`,
    :func:`scatter_add`, :func:`sparse_kernels` (the sparse kernel set of a
    semiring, dtype and device).
Array modules and threads
    :func:`array_module`, :func:`is_cupy_array`, :func:`to_device`;
    :func:`num_threads`, :func:`run_rows`, :func:`run_chunks` (the pool the
    CPU kernels share), :func:`run_parallel` (calls a Numba ``parallel=True``
    kernel so that threads may call it at once).

>>> from semiring import min_plus
>>> lo, hi = sentinels(np.dtype(np.int32))
>>> add, mul = (f for f, _ in cpu_scalar_ops(min_plus, np.dtype(np.int32)).values())
>>> elementwise_apply(mul, np.array([hi, 3], np.int32), np.array([-5, 4], np.int32), np.empty(2, np.int32), lo, hi)
array([2147483647,          7], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._cpu.threads import num_threads, run_chunks, run_parallel, run_rows
from .backend import array_module, is_cupy_array, to_device
from .dense import WITNESS_DTYPE, matmul_into, scatter_add
from .dense.dispatch import cpu_kernels, cpu_scalar_ops, numba_array_type, sentinels
from .dtypes import neginf, posinf
from .int_range import (
    PLAIN_DTYPES,
    operand_extremes,
    padding_value,
    plain_sums_exact,
    sums_in_range,
    sums_known_in_range,
)
from .sparse.dispatch import kernels_for as sparse_kernels

__all__ = [
    "cpu_scalar_ops", "cpu_kernels", "numba_array_type", "elementwise_apply",
    "sentinels", "posinf", "neginf",
    "PLAIN_DTYPES", "plain_sums_exact", "operand_extremes", "padding_value", "sums_in_range",
    "sums_known_in_range",
    "matmul_into", "WITNESS_DTYPE", "scatter_add", "sparse_kernels",
    "array_module", "is_cupy_array", "to_device",
    "num_threads", "run_rows", "run_chunks", "run_parallel",
]


def elementwise_apply(
    op: Any, X: np.ndarray, Y: np.ndarray, out: np.ndarray, lo: np.generic[Any], hi: np.generic[Any]
) -> np.ndarray:
    """``out[...] = op(X, Y, lo, hi)`` over the broadcast NumPy arrays ``X`` and ``Y``, in Numba.

    ``op`` is a scalar op of :func:`cpu_scalar_ops` (arity 4); ``lo`` / ``hi``
    are the dtype's :func:`sentinels`.  The same functions as the GEMM
    kernels, so elementwise and matrix results agree to the bit.

    >>> from semiring import plus_times
    >>> add = cpu_scalar_ops(plus_times, np.dtype(np.int64))["add"][0]
    >>> lo, hi = sentinels(np.dtype(np.int64))
    >>> elementwise_apply(add, np.array([hi - 1]), np.array([5]), np.empty(1, np.int64), lo, hi)
    array([9223372036854775807])
    """
    from ._cpu.elementwise import apply  # Numba, on first use

    return apply(op, X, Y, out, lo, hi)
