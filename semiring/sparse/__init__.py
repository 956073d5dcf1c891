"""Sparse semiring products with masks, GraphBLAS style: ``mxv``, ``vxm``, SpMSpV and ``mxm``.

``A`` is a sparse matrix: ``scipy.sparse`` CSR or CSC (array or matrix) on the
CPU, ``cupyx.scipy.sparse`` CSR or CSC on the GPU.  Every stored entry takes
part, explicit zeros included (for ``min_plus`` a stored 0 is an arc of length
0, not a missing one), and duplicate entries of a non-canonical matrix are
combined with the semiring ``add``, like parallel arcs.  The other operand is

* a dense vector (NumPy/CuPy, the matrix's dtype): the result is dense;
* a :class:`SparseVector` (a frontier): the result is a :class:`SparseVector`
  holding the positions that received at least one product (SpMSpV), or, with
  ``out=``, is written into a dense ``out``;
* a dense matrix, for :func:`mxm` (many vectors at once, e.g. many sources).

Masks and accumulation follow the GraphBLAS C API (Sec. 2.3 and 3.5):

* ``mask`` (a bool array shaped like the result, or a :class:`SparseVector`,
  whose *pattern* is used) selects the result positions that may be written;
  ``complement=True`` selects the others (BFS's "not yet visited").
  Positions that are not selected keep ``out``'s value, or hold the semiring
  zero when there is no ``out``.
* ``accumulate=True`` computes ``out = out (+) result`` on the selected
  positions instead of overwriting them (it needs ``out``).

Which kernel runs is a matter of storage, not of the call: ``mxv`` on CSR
(and ``vxm`` on CSC) is a row-parallel *gather* (pull); ``vxm`` on CSR (and
``mxv`` on CSC) a *scatter* (push) whose cost is the nonzeros of ``x``'s rows
only, which is what makes a frontier expansion cheap.  Nothing is cast: the
operands must share a dtype the semiring supports.

References: Kepner & Gilbert (eds.), *Graph Algorithms in the Language of
Linear Algebra*, SIAM 2011; the GraphBLAS C API specification 2.0; Yang,
Buluc & Owens, "GraphBLAST", ACM TOMS 48 (2022), Sec. 4 (masks, push/pull).

This module holds the products.  Around it: :mod:`semiring.sparse.vector` (the
:class:`SparseVector` type), :mod:`semiring.sparse.validate` (operand checks),
:mod:`semiring.sparse.dispatch` (:func:`kernels_for`, the kernel set of a
semiring, dtype and device) and :mod:`semiring._cpu.sparse_kernels` (the CPU
kernel sets).  ``SparseVector`` and ``kernels_for`` are re-exported here.

Examples
--------
>>> import numpy as np, scipy.sparse as sp
>>> from semiring import min_plus
>>> A = sp.csr_array(np.array([[0.0, 2.0, 0.0], [0.0, 0.0, 1.0], [4.0, 0.0, 0.0]]))
>>> x = np.array([0.0, np.inf, np.inf])
>>> min_plus.vxm(x, A)          # one Bellman-Ford step from vertex 0
array([inf,  2., inf])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..algebra import Algebra
from ..backend import array_module
from ..errors import DeviceError, DTypeError, ShapeError, UnsupportedOperationError
from ..validate import check_entries, flag_bad_entries
from .dispatch import kernels_for
from .validate import check_dense_operand, check_out_operand, is_sparse, mask_allow, sparse_parts
from .vector import SparseVector

if TYPE_CHECKING:
    from ..array_types import Array

__all__ = ["SparseVector", "mxv", "vxm", "mxm", "kernels_for"]


def _vector_product(
    op: str, S: Algebra, A: Any, x: Any, out: Array | None, mask: Any, complement: bool,
    accumulate: bool, check: bool,
) -> Any:
    ptr, idx, val, shape, fmt, xp = sparse_parts("A", A, S, False)
    # On the GPU a full gather product into a fresh vector checks A's values as it reads
    # them (one pass instead of two); anything else checks them first.
    gather = (op == "mxv") == (fmt == "csr")
    dtype = np.dtype(val.dtype)
    fused = (check and xp is not np and gather and mask is None and out is None and not isinstance(x, SparseVector)
             and len(S.forbidden_values(dtype)) <= 2)  # the kernels take two forbidden values
    if check and not fused:
        check_entries("A.data", val, S)
    n_out, n_in = (shape[0], shape[1]) if op == "mxv" else (shape[1], shape[0])
    sparse_x = isinstance(x, SparseVector)
    if sparse_x:
        if x.n != n_in:
            raise ShapeError(f"x has length {x.n}, the product needs {n_in}")
        if array_module(x.values) is not xp:
            raise DeviceError("x and the sparse matrix live on different devices")
        if x.dtype != dtype:
            raise DTypeError(f"x has dtype {x.dtype}, the matrix {dtype} (no silent casting)")
        if check:
            check_entries("x.values", x.values, S)
    else:
        check_dense_operand("x", x, S, dtype, 1, n_in, xp, check and not fused)
    check_out_operand(out, (n_out,), dtype, S, accumulate, xp, check)
    allow = mask_allow(mask, complement, (n_out,), xp)
    K = kernels_for(S, dtype, "gpu" if xp is not np else "cpu")
    xfirst = op == "vxm"
    zero = S.zero_value(dtype)
    y = None
    if out is not None:
        y = out if out.flags.c_contiguous else xp.ascontiguousarray(out)
    if gather:
        if sparse_x:
            xd = xp.empty(n_in, dtype=dtype)
            xd[x.indices] = x.values
            xflag = xp.zeros(n_in, dtype=np.uint8)
            xflag[x.indices] = 1
        else:
            xd, xflag = xp.ascontiguousarray(x), None
        if y is None:
            y = xp.empty(n_out, dtype=dtype) if allow is None else xp.full(n_out, zero, dtype=dtype)
        hit = xp.zeros(n_out, dtype=np.uint8)
        if fused:  # x's check and A's travel with the product; one read-back at the end
            flag = xp.zeros(1, dtype=np.int32)
            flag_bad_entries(x, S, flag)
            K.gather(ptr, idx, val, xd, xflag, y, hit, allow, accumulate, xfirst, entry_check=(S, flag))
            if int(flag[0]):
                check_entries("x", x, S)  # these name the entry
                check_entries("A.data", val, S)
        else:
            K.gather(ptr, idx, val, xd, xflag, y, hit, allow, accumulate, xfirst)
        if sparse_x and out is None:
            rows = xp.flatnonzero(hit)
            return SparseVector(rows, y[rows], n_out)
    else:
        if sparse_x:
            rows, xv = x.indices, xp.ascontiguousarray(x.values)
        else:
            rows = xp.flatnonzero(x != zero)
            xv = xp.ascontiguousarray(x[rows])
        work = int((ptr[rows + 1] - ptr[rows]).sum()) if rows.size else 0
        t = xp.empty(n_out, dtype=dtype)
        hit = xp.zeros(n_out, dtype=np.uint8)
        order = xp.empty(max(1, min(n_out, work)), dtype=np.int64)
        count = K.scatter(ptr, idx, val, rows, xv, t, hit, order, allow, xfirst)
        if sparse_x and out is None:
            found = xp.sort(order[:count])
            return SparseVector(found, t[found], n_out)
        if y is None:
            y = xp.empty(n_out, dtype=dtype) if allow is None else xp.full(n_out, zero, dtype=dtype)
        K.merge(t, hit, y, allow, accumulate)
    if out is not None and y is not out:
        out[...] = y
        return out
    return y


def mxv(S: Algebra, A: Any, x: Array | SparseVector, out: Array | None = None, mask: Any = None,
        complement: bool = False, accumulate: bool = False, check: bool = True) -> Any:
    """Matrix times vector: ``y[i] = add_j A[i, j] (x) x[j]``.

    Parameters
    ----------
    S : Semiring
    A : sparse matrix (m, n)
        scipy.sparse or cupyx.scipy.sparse, CSR or CSC.
    x : dense vector (n,) or SparseVector
        Same dtype as ``A`` and on the same device.
    out : dense vector (m,), optional
        Written in place (see the module docstring for masks).
    mask : bool vector (m,) or SparseVector, optional
        Structural mask of the result; ``complement=True`` inverts it.
    accumulate : bool
        ``out = out (+) A (x) x`` on the masked positions (needs ``out``).
    check : bool
        Check the entries (NaN, values the semiring cannot combine): a pass
        over ``A.data`` per call.  Shapes, dtypes and devices are always
        checked; ``check=False`` is for loops that validated their operands once.

    Returns
    -------
    Dense vector (``out`` if given), or a SparseVector for a SparseVector ``x``
    without ``out``.

    Raises
    ------
    ShapeError, DTypeError, InvalidEntryError, DeviceError, SemiringError

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from semiring import max_min
    >>> A = sp.csr_array(np.array([[0.0, 3.0], [5.0, 0.0]]))
    >>> max_min.mxv(A, np.array([9.0, 2.0]))
    array([2., 5.])
    """
    return _vector_product("mxv", S, A, x, out, mask, complement, accumulate, check)


def vxm(S: Algebra, x: Array | SparseVector, A: Any, out: Array | None = None, mask: Any = None,
        complement: bool = False, accumulate: bool = False, check: bool = True) -> Any:
    """Vector times matrix: ``y[j] = add_i x[i] (x) A[i, j]`` (a push step on CSR).

    Parameters and returns as :func:`mxv`, with ``x`` of length ``A.shape[0]``.
    With a :class:`SparseVector` ``x`` on a CSR matrix this is SpMSpV: its cost
    is the number of stored entries in the rows of ``x``'s pattern.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from semiring import lor_land
    >>> A = sp.csr_array(np.array([[False, True, True], [False, False, True], [False, False, False]]))
    >>> frontier = SparseVector(np.array([0]), np.array([True]), 3)
    >>> visited = np.array([True, False, False])
    >>> lor_land.vxm(frontier, A, mask=visited, complement=True)
    SparseVector(indices=array([1, 2]), values=array([ True,  True]), n=3)
    """
    return _vector_product("vxm", S, A, x, out, mask, complement, accumulate, check)


def mxm(S: Algebra, A: Any, B: Any, out: Array | None = None, mask: Any = None, complement: bool = False,
        accumulate: bool = False, check: bool = True) -> Array:
    """Sparse times dense ``C = A (x) B`` (or dense times sparse): many vectors at once.

    Parameters
    ----------
    S : Semiring
    A, B : one sparse matrix (CSR or CSC) and one dense 2-D array
        ``A`` sparse: ``C[i, :] = add_k A[i, k] (x) B[k, :]`` (row-parallel).
        ``B`` sparse: ``C = A (x) B`` computed as ``(B^T (x) A^T)^T``.
    out : dense (m, s), optional
    mask : bool array shaped like ``C``, optional
        Structural mask; ``complement=True`` inverts it.
    accumulate : bool
        ``out = out (+) A (x) B`` on the masked positions.
    check : bool
        Check the entries (see :func:`mxv`).

    Returns
    -------
    Dense array (``out`` if given) on the operands' device.

    Raises
    ------
    UnsupportedOperationError
        Both operands sparse (densify one) or both dense (use ``S.matmul``).
    ShapeError, DTypeError, InvalidEntryError, DeviceError, SemiringError

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from semiring import min_plus
    >>> A = sp.csr_array(np.array([[0.0, 1.0], [0.0, 0.0]]))
    >>> D = np.array([[0.0, np.inf], [np.inf, 0.0]])   # two sources, one per column
    >>> min_plus.mxm(A, D)
    array([[inf,  1.],
           [inf, inf]])
    """
    sa, sb = is_sparse(A), is_sparse(B)
    if sa and sb:
        raise UnsupportedOperationError("mxm of two sparse matrices is not implemented; densify one operand")
    if not sa and not sb:
        raise UnsupportedOperationError("mxm needs one sparse operand; for two dense arrays use S.matmul")
    if sa:
        A = A if A.format == "csr" or not hasattr(A, "tocsr") else A.tocsr()
        ptr, idx, val, shape, _, xp = sparse_parts("A", A, S, check)
        dtype = np.dtype(val.dtype)
        check_dense_operand("B", B, S, dtype, 2, shape[1], xp, check)
        cshape = (shape[0], B.shape[1])
        dense, transpose, xfirst = xp.ascontiguousarray(B), False, False
    else:
        B = B if B.format == "csc" or not hasattr(B, "tocsc") else B.tocsc()
        ptr, idx, val, shape, _, xp = sparse_parts("B", B, S, check)
        dtype = np.dtype(val.dtype)
        check_dense_operand("A", A, S, dtype, 2, None, xp, check)
        if A.shape[1] != shape[0]:
            raise ShapeError(f"inner dimensions differ: A is {A.shape[0]}x{A.shape[1]}, B is {shape[0]}x{shape[1]}")
        cshape = (A.shape[0], shape[1])
        dense, transpose, xfirst = xp.ascontiguousarray(A.T), True, True
    check_out_operand(out, cshape, dtype, S, accumulate, xp, check)
    allow = mask_allow(mask, complement, cshape, xp)
    if transpose and allow is not None:
        allow = xp.ascontiguousarray(allow.T)
    K = kernels_for(S, dtype, "gpu" if xp is not np else "cpu")
    kshape = (cshape[1], cshape[0]) if transpose else cshape
    zero = S.zero_value(dtype)
    if out is not None:
        C = xp.ascontiguousarray(out.T) if transpose else (out if out.flags.c_contiguous else xp.ascontiguousarray(out))
    else:
        C = xp.empty(kshape, dtype=dtype) if allow is None else xp.full(kshape, zero, dtype=dtype)
    K.spmm(ptr, idx, val, dense, C, allow, accumulate, xfirst)
    result = C.T if transpose else C
    if out is not None and result is not out:
        out[...] = result
        return out
    return result
