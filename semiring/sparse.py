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

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .backend import array_module
from .dispatch import cpu_kernels, cpu_scalar_ops, sentinels
from .errors import DeviceError, DTypeError, SemiringError, ShapeError, UnsupportedOperationError
from .validate import check_array, check_entries, flag_bad_entries

if TYPE_CHECKING:
    from .core import Semiring

__all__ = ["SparseVector", "mxv", "vxm", "mxm", "kernels_for"]

TEMPLATE = "semiring._cpu.sparse_template"


# -- the sparse vector -----------------------------------------------------------------
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

    def to_dense(self, S: "Semiring"):
        """Dense vector with the semiring zero off the pattern."""
        xp = array_module(self.values)
        x = xp.full(self.n, S.zero_value(self.dtype), dtype=self.dtype)
        x[self.indices] = self.values
        return x

    @classmethod
    def from_dense(cls, x, S: "Semiring") -> "SparseVector":
        """The entries of a dense vector that differ from the semiring zero."""
        xp = array_module(x)
        idx = xp.flatnonzero(x != S.zero_value(x.dtype))
        return cls(idx, x[idx], x.shape[0])


# -- kernels: one object per (semiring, dtype, device) -----------------------------------
def _run_balanced(ptr, kernel, width: int = 1) -> None:
    """Run ``kernel(r0, r1)`` over row ranges of about equal nonzeros, one per pool thread."""
    from ._cpu.threads import SERIAL_WORK, num_threads, run_rows

    n = ptr.shape[0] - 1
    nnz = int(ptr[-1])
    t = num_threads()
    work = (nnz + n) * width
    if t == 1 or work < SERIAL_WORK or n < 2 * t:
        kernel(0, n)
        return
    bounds = np.searchsorted(ptr, np.linspace(0, nnz, t + 1)).astype(np.int64)
    bounds[0], bounds[-1] = 0, n
    bounds = np.maximum.accumulate(np.minimum(bounds, n))
    run_rows(lambda c0, c1: [kernel(int(bounds[c]), int(bounds[c + 1])) for c in range(c0, c1)], t, work, align=1)


class _CpuKernels:
    """The Numba sparse kernels of one semiring and dtype, with the constants bound."""

    def __init__(self, S: "Semiring", dtype: np.dtype) -> None:
        self.mod = cpu_kernels(S, dtype, template=TEMPLATE)
        self.zero = S.zero_value(dtype)
        self.lo, self.hi = sentinels(dtype)
        self.no_mask = np.empty(0, np.uint8)
        self.no_mask2 = np.empty((0, 0), np.uint8)

    def gather(self, ptr, idx, val, x, xflag, y, hit, allow, accumulate, xfirst):
        xf = self.no_mask if xflag is None else xflag
        al = self.no_mask if allow is None else allow
        fn = self.mod.gather
        _run_balanced(ptr, lambda r0, r1: fn(ptr, idx, val, x, xf, xflag is not None, y, hit, al, allow is not None,
                                             accumulate, xfirst, self.zero, self.lo, self.hi, r0, r1))

    def scatter(self, ptr, idx, val, rows, xv, t, hit, order, allow, xfirst) -> int:
        return int(self.mod.scatter(ptr, idx, val, rows, xv, t, hit, order, self.no_mask if allow is None else allow,
                                    allow is not None, xfirst, self.lo, self.hi))

    def merge(self, t, hit, y, allow, accumulate):
        self.mod.merge(t, hit, y, self.no_mask if allow is None else allow, allow is not None, accumulate,
                       self.zero, self.lo, self.hi)

    def spmm(self, ptr, idx, val, B, C, allow, accumulate, xfirst):
        al = self.no_mask2 if allow is None else allow
        fn = self.mod.spmm
        _run_balanced(ptr, lambda r0, r1: fn(ptr, idx, val, B, C, al, allow is not None, accumulate, xfirst,
                                             self.zero, self.lo, self.hi, r0, r1), B.shape[1])


class _GenericKernels:
    """NumPy versions of the kernels for custom semirings without Numba scalar ops."""

    def __init__(self, S: "Semiring", dtype: np.dtype) -> None:
        self.S, self.zero = S, S.zero_value(dtype)

    def _mul(self, a, x, xfirst):
        return self.S.mul_ufunc(x, a) if xfirst else self.S.mul_ufunc(a, x)

    def gather(self, ptr, idx, val, x, xflag, y, hit, allow, accumulate, xfirst):
        n = ptr.shape[0] - 1
        rows = np.repeat(np.arange(n), np.diff(ptr))
        sel = np.ones(idx.shape[0], bool) if xflag is None else xflag[idx].astype(bool)
        t = np.full(n, self.zero, dtype=y.dtype)
        self.S.add_ufunc.at(t, rows[sel], self._mul(val[sel], x[idx[sel]], xfirst).astype(y.dtype))
        hit[:] = np.bincount(rows[sel], minlength=n) > 0
        ok = np.ones(n, bool) if allow is None else allow.astype(bool)
        y[ok] = self.S.add_ufunc(y[ok], t[ok]) if accumulate else t[ok]

    def scatter(self, ptr, idx, val, rows, xv, t, hit, order, allow, xfirst) -> int:
        counts = ptr[rows + 1] - ptr[rows]
        ent = np.concatenate([np.arange(ptr[i], ptr[i + 1]) for i in rows.tolist()]) if rows.size else \
            np.zeros(0, np.int64)
        xe = np.repeat(xv, counts)
        cols = idx[ent]
        if allow is not None:
            keep = allow[cols].astype(bool)
            ent, xe, cols = ent[keep], xe[keep], cols[keep]
        uniq = np.unique(cols)
        t[uniq] = self.zero
        self.S.add_ufunc.at(t, cols, self._mul(val[ent], xe, xfirst).astype(t.dtype))
        hit[uniq] = 1
        order[:uniq.size] = uniq
        return int(uniq.size)

    def merge(self, t, hit, y, allow, accumulate):
        ok = np.ones(y.shape[0], bool) if allow is None else allow.astype(bool)
        v = np.where(hit.astype(bool), t, self.zero).astype(y.dtype)
        y[ok] = self.S.add_ufunc(y[ok], v[ok]) if accumulate else v[ok]

    def spmm(self, ptr, idx, val, B, C, allow, accumulate, xfirst):
        n = ptr.shape[0] - 1
        rows = np.repeat(np.arange(n), np.diff(ptr))
        T = np.full(C.shape, self.zero, dtype=C.dtype)
        self.S.add_ufunc.at(T, rows, self._mul(val[:, None], B[idx, :], xfirst).astype(C.dtype))
        ok = np.ones(C.shape, bool) if allow is None else allow.astype(bool)
        C[ok] = self.S.add_ufunc(C[ok], T[ok]) if accumulate else T[ok]


_KERNELS: dict[tuple, Any] = {}


def kernels_for(S: "Semiring", dtype, device: str = "cpu"):
    """The sparse kernel set of ``S`` for ``dtype`` on ``"cpu"`` or ``"gpu"`` (built once, kept).

    >>> from semiring import min_plus
    >>> type(kernels_for(min_plus, np.dtype(np.float64))).__name__
    '_CpuKernels'
    """
    dtype = np.dtype(dtype)
    key = (S, dtype, device)
    if key not in _KERNELS:
        if device == "gpu":
            gpu = importlib.import_module("semiring.cuda.sparse")
            _KERNELS[key] = gpu.kernels(S, dtype)
        elif cpu_scalar_ops(S, dtype) is not None:
            _KERNELS[key] = _CpuKernels(S, dtype)
        else:
            _KERNELS[key] = _GenericKernels(S, dtype)
    return _KERNELS[key]


# -- operand checks -------------------------------------------------------------------
def _sparse_parts(name: str, A, S: "Semiring", check: bool = True):
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


def _allow(mask, complement: bool, shape: tuple, xp):
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


def _check_dense(name: str, X, S: "Semiring", dtype, ndim: int, length: int | None, xp, check: bool = True) -> None:
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


def _check_out(out, shape: tuple, dtype, S: "Semiring", accumulate: bool, xp, check: bool = True):
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


# -- vector products -------------------------------------------------------------------
def _vector_product(op: str, S: "Semiring", A, x, out, mask, complement: bool, accumulate: bool, check: bool):
    ptr, idx, val, shape, fmt, xp = _sparse_parts("A", A, S, False)
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
        _check_dense("x", x, S, dtype, 1, n_in, xp, check and not fused)
    _check_out(out, (n_out,), dtype, S, accumulate, xp, check)
    allow = _allow(mask, complement, (n_out,), xp)
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


def mxv(S: "Semiring", A, x, out=None, mask=None, complement: bool = False, accumulate: bool = False,
        check: bool = True):
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


def vxm(S: "Semiring", x, A, out=None, mask=None, complement: bool = False, accumulate: bool = False,
        check: bool = True):
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


# -- matrix products -------------------------------------------------------------------
def _is_sparse(X) -> bool:
    import scipy.sparse as sp

    if sp.issparse(X):
        return True
    if "cupyx" in type(X).__module__:
        import cupyx.scipy.sparse as csp

        return csp.issparse(X)
    return False


def mxm(S: "Semiring", A, B, out=None, mask=None, complement: bool = False, accumulate: bool = False,
        check: bool = True):
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
    sa, sb = _is_sparse(A), _is_sparse(B)
    if sa and sb:
        raise UnsupportedOperationError("mxm of two sparse matrices is not implemented; densify one operand")
    if not sa and not sb:
        raise UnsupportedOperationError("mxm needs one sparse operand; for two dense arrays use S.matmul")
    if sa:
        A = A if A.format == "csr" or not hasattr(A, "tocsr") else A.tocsr()
        ptr, idx, val, shape, _, xp = _sparse_parts("A", A, S, check)
        dtype = np.dtype(val.dtype)
        _check_dense("B", B, S, dtype, 2, shape[1], xp, check)
        cshape = (shape[0], B.shape[1])
        dense, transpose, xfirst = xp.ascontiguousarray(B), False, False
    else:
        B = B if B.format == "csc" or not hasattr(B, "tocsc") else B.tocsc()
        ptr, idx, val, shape, _, xp = _sparse_parts("B", B, S, check)
        dtype = np.dtype(val.dtype)
        _check_dense("A", A, S, dtype, 2, None, xp, check)
        if A.shape[1] != shape[0]:
            raise ShapeError(f"inner dimensions differ: A is {A.shape[0]}x{A.shape[1]}, B is {shape[0]}x{shape[1]}")
        cshape = (A.shape[0], shape[1])
        dense, transpose, xfirst = xp.ascontiguousarray(A.T), True, True
    _check_out(out, cshape, dtype, S, accumulate, xp, check)
    allow = _allow(mask, complement, cshape, xp)
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
