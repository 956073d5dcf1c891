"""Which kernel set runs a sparse product: one per (semiring, dtype, device), built once and kept.

:func:`kernels_for` returns the Numba kernels (:class:`~semiring._cpu.sparse_kernels.NumbaSparseKernels`)
for a semiring with Numba scalar ops, the NumPy ones
(:class:`~semiring._cpu.sparse_kernels.GenericSparseKernels`) for other custom
semirings, or the CUDA ones (:mod:`semiring.cuda.sparse`, imported only when a
GPU operand arrives).  All have the same four methods; the products in
:mod:`semiring.sparse` and graph algorithms that call the kernels directly
never ask again where they run.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import numpy as np

from .._cpu.sparse_kernels import GenericSparseKernels, NumbaSparseKernels
from ..algebra import Algebra
from ..dense.dispatch import cpu_kernels, cpu_scalar_ops, sentinels

if TYPE_CHECKING:
    from ..array_types import DTypeLike, Where

__all__ = ["kernels_for"]

TEMPLATE = "semiring._cpu.sparse_template"

_KERNELS: dict[tuple[Any, ...], Any] = {}


def kernels_for(S: Algebra, dtype: DTypeLike, device: Where = "cpu") -> Any:
    """The sparse kernel set of ``S`` for ``dtype`` on ``"cpu"`` or ``"gpu"`` (built once, kept).

    Parameters
    ----------
    S : Semiring
    dtype : dtype
        The dtype of the matrix values and of the vectors.
    device : {"cpu", "gpu"}

    Returns
    -------
    object
        With methods ``gather``, ``scatter``, ``merge`` and ``spmm`` (see
        :mod:`semiring._cpu.sparse_kernels`).

    Examples
    --------
    >>> from semiring import min_plus
    >>> type(kernels_for(min_plus, np.dtype(np.float64))).__name__
    'NumbaSparseKernels'
    """
    dtype = np.dtype(dtype)
    key = (S, dtype, device)
    if key not in _KERNELS:
        if device == "gpu":
            gpu = importlib.import_module("semiring.cuda.sparse")
            _KERNELS[key] = gpu.kernels(S, dtype)
        elif cpu_scalar_ops(S, dtype) is not None:
            _KERNELS[key] = NumbaSparseKernels(cpu_kernels(S, dtype, template=TEMPLATE), S.zero_value(dtype),
                                              *sentinels(dtype))
        else:
            _KERNELS[key] = GenericSparseKernels(S, dtype)
    return _KERNELS[key]
