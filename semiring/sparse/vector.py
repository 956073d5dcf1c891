"""The sparse vector operand of the sparse products: sorted unique indices and their values.

A :class:`SparseVector` is what a frontier is in a graph traversal: the
positions that hold something other than the semiring zero.  The sparse
products (:mod:`semiring.sparse`) take one as ``x`` (SpMSpV) or as a mask and
return one for a sparse ``x``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..algebra import Algebra
from ..backend import array_module
from ..errors import DeviceError, DTypeError, ShapeError

__all__ = ["SparseVector"]


@dataclass(frozen=True)
class SparseVector:
    """A sparse vector: sorted unique ``indices``, their ``values``, and the length ``n``.

    Positions not listed hold the semiring zero.  NumPy or CuPy arrays.

    Examples
    --------
    >>> from semiring import min_plus
    >>> v = SparseVector(np.array([2]), np.array([5.0]), 4)
    >>> v.to_dense(min_plus)
    array([inf, inf,  5., inf])
    >>> SparseVector.from_dense(np.array([np.inf, 1.0]), min_plus)
    SparseVector(indices=array([1]), values=array([1.]), n=2)
    """

    indices: Any
    values: Any
    n: int

    def __post_init__(self) -> None:
        xp = array_module(self.indices)
        idx = xp.asarray(self.indices)
        vals = xp.asarray(self.values) if array_module(self.values) is xp else None
        if vals is None:
            raise DeviceError("SparseVector indices and values must live on one device")
        if idx.ndim != 1 or vals.ndim != 1 or idx.shape[0] != vals.shape[0]:
            raise ShapeError(
                f"SparseVector needs 1-D indices and values of one length, got {tuple(idx.shape)} and "
                f"{tuple(vals.shape)}"
            )
        if idx.dtype.kind not in "iu":
            raise DTypeError(f"SparseVector indices must be integers, got {idx.dtype}")
        n = int(self.n)
        if n < 0:
            raise ShapeError(f"SparseVector length must be >= 0, got {n}")
        if idx.size:
            if int(idx.min()) < 0 or int(idx.max()) >= n:
                k = int(xp.argmax((idx < 0) | (idx >= n)))
                raise ShapeError(f"SparseVector indices[{k}] = {int(idx[k])} is outside [0, {n})")
            if idx.size > 1 and bool((idx[1:] <= idx[:-1]).any()):
                k = int(xp.argmax(idx[1:] <= idx[:-1])) + 1
                raise ShapeError(f"SparseVector indices must be sorted and unique; indices[{k}] = {int(idx[k])}")
        object.__setattr__(self, "indices", idx.astype(np.int64, copy=False))
        object.__setattr__(self, "values", vals)
        object.__setattr__(self, "n", n)

    @property
    def nnz(self) -> int:
        """Number of stored entries."""
        return int(self.indices.shape[0])

    @property
    def dtype(self) -> np.dtype:
        """The values' dtype."""
        return np.dtype(self.values.dtype)

    def to_dense(self, S: Algebra) -> Any:
        """Dense vector with the semiring zero off the pattern."""
        xp = array_module(self.values)
        x = xp.full(self.n, S.zero_value(self.dtype), dtype=self.dtype)
        x[self.indices] = self.values
        return x

    @classmethod
    def from_dense(cls, x: Any, S: Algebra) -> "SparseVector":
        """The entries of a dense vector that differ from the semiring zero."""
        xp = array_module(x)
        idx = xp.flatnonzero(x != S.zero_value(x.dtype))
        return cls(idx, x[idx], x.shape[0])
