"""Operand checks of the sparse products (:mod:`semiring.sparse`).

Each check raises a :class:`~semiring.errors.SemiringError` subclass whose
message names the operand (``A``, ``x``, ``B``, ``out``, ``mask``).  Nothing
is cast: operands share one dtype the semiring supports and one device.
:func:`sparse_parts` also returns the raw compressed arrays the kernels read,
and :func:`mask_allow` turns a mask into the kernels' "may write" flags.
"""

from __future__ import annotations

import numpy as np

from ..algebra import Algebra
from ..backend import array_module
from ..errors import DeviceError, DTypeError, SemiringError, ShapeError
from ..validate import check_array, check_entries
from .vector import SparseVector

__all__ = ["is_sparse", "sparse_parts", "mask_allow", "check_dense_operand", "check_out_operand"]


def is_sparse(X) -> bool:
    """True for a ``scipy.sparse`` or ``cupyx.scipy.sparse`` matrix (CuPy is not imported for anything else).

    >>> import scipy.sparse as sp
    >>> is_sparse(sp.eye(2, format="csr")), is_sparse(np.eye(2))
    (True, False)
    """
    import scipy.sparse as sp

    if sp.issparse(X):
        return True
    if "cupyx" in type(X).__module__:
        import cupyx.scipy.sparse as csp

        return csp.issparse(X)
    return False


def sparse_parts(name: str, A, S: Algebra, check: bool = True):
    """``(ptr int64, idx int32, val, shape, fmt, xp)`` of a CSR/CSC matrix, after checks."""
    import scipy.sparse as sp

    gpu = False
    if not sp.issparse(A):
        if "cupyx" in type(A).__module__:
            import cupyx.scipy.sparse as csp

            gpu = csp.issparse(A)
        if not gpu:
            raise DTypeError(f"{name} must be a scipy.sparse or cupyx.scipy.sparse matrix, got {type(A).__name__}")
    fmt = A.format
    if fmt not in ("csr", "csc"):
        raise DTypeError(f"{name} is in {fmt} format; pass {name}.tocsr() (CSR or CSC are accepted)")
    if len(A.shape) != 2:
        raise ShapeError(f"{name} must be 2-D, got shape {A.shape}")
    S.check_dtype(f"{name}.data", A.data.dtype)
    if check:
        check_entries(f"{name}.data", A.data, S)
    xp = array_module(A.data)
    ptr = xp.ascontiguousarray(A.indptr, dtype=np.int64)
    idx = A.indices
    if idx.dtype != np.int32:
        idx = idx.astype(np.int32) if max(A.shape) <= np.iinfo(np.int32).max else idx
    return ptr, xp.ascontiguousarray(idx), xp.ascontiguousarray(A.data), tuple(A.shape), fmt, xp


def mask_allow(mask, complement: bool, shape: tuple, xp):
    """The mask as uint8 "may write" flags shaped like the result (None: everything)."""
    if mask is None:
        if complement:
            raise SemiringError("complement=True complements a mask: pass mask=")
        return None
    if isinstance(mask, SparseVector):
        if len(shape) != 1 or mask.n != shape[0]:
            raise ShapeError(f"mask has length {mask.n}, the result has shape {shape}")
        if array_module(mask.indices) is not xp:
            raise DeviceError("mask and the operands live on different devices")
        allow = xp.zeros(shape[0], dtype=np.uint8)
        allow[mask.indices] = 1
    else:
        check_array("mask", mask)
        if array_module(mask) is not xp:
            raise DeviceError("mask and the operands live on different devices")
        if mask.dtype != np.bool_:
            raise DTypeError(f"mask must be a bool array (structural mask) or a SparseVector, got dtype {mask.dtype}")
        if tuple(mask.shape) != tuple(shape):
            raise ShapeError(f"mask has shape {tuple(mask.shape)}, the result has shape {shape}")
        allow = xp.ascontiguousarray(mask).view(np.uint8)
    if complement:
        allow = (allow == 0).view(np.uint8)
    return allow


def check_dense_operand(name: str, X, S: Algebra, dtype, ndim: int, length: int | None, xp,
                        check: bool = True) -> None:
    """Check a dense operand: an ndarray on device ``xp`` with ``ndim`` dimensions and the matrix's ``dtype``.

    ``length`` (if not None) is the size its first axis must have; ``check``
    also checks its entries (:func:`semiring.validate.check_entries`).
    """
    check_array(name, X)
    if array_module(X) is not xp:
        raise DeviceError(f"{name} and the sparse matrix live on different devices")
    if X.ndim != ndim:
        raise ShapeError(f"{name} must be {ndim}-D, got shape {tuple(X.shape)}")
    if np.dtype(X.dtype) != dtype:
        raise DTypeError(f"{name} has dtype {X.dtype}, the matrix {dtype} (no silent casting)")
    if length is not None and X.shape[0] != length:
        raise ShapeError(f"{name} has length {X.shape[0]}, the product needs {length}")
    if check:
        check_entries(name, X, S)


def check_out_operand(out, shape: tuple, dtype, S: Algebra, accumulate: bool, xp, check: bool = True):
    """Check ``out`` (shape, dtype, device); ``accumulate`` needs one, and then its entries are checked too."""
    if out is None:
        if accumulate:
            raise SemiringError("accumulate=True adds into an existing result: pass out=")
        return
    check_array("out", out)
    if array_module(out) is not xp:
        raise DeviceError("out and the sparse matrix live on different devices")
    if tuple(out.shape) != tuple(shape):
        raise ShapeError(f"out has shape {tuple(out.shape)}, expected {tuple(shape)}")
    if np.dtype(out.dtype) != dtype:
        raise DTypeError(f"out has dtype {out.dtype}, expected {dtype}")
    if accumulate and check:
        check_entries("out", out, S)
