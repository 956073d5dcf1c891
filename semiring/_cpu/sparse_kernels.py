"""The CPU kernel sets of the sparse products: Numba for built-in ops, NumPy for the rest.

A kernel set has four methods that work on the raw compressed arrays
``ptr, idx, val`` of a CSR matrix (a CSC matrix read as the CSR of its
transpose): ``gather`` (pull, row-parallel), ``scatter`` and ``merge`` (push,
SpMSpV) and ``spmm`` (sparse times dense).  :mod:`.sparse_template` says what
each computes.  :class:`NumbaSparseKernels` calls that template specialised to
one semiring and dtype, cutting rows into ranges of about equal nonzeros on the
thread pool of :mod:`.threads`; :class:`GenericSparseKernels` does the same
with NumPy ufuncs, for custom semirings without Numba scalar ops.  The GPU
counterpart is :mod:`semiring.cuda.sparse`; :func:`semiring.sparse.dispatch.kernels_for`
picks one and keeps it.
"""

from __future__ import annotations

import numpy as np

from ..algebra import Algebra
from .threads import SERIAL_WORK, num_threads, run_rows

__all__ = ["run_balanced", "NumbaSparseKernels", "GenericSparseKernels"]


def run_balanced(ptr, kernel, width: int = 1) -> None:
    """Run ``kernel(r0, r1)`` over row ranges of about equal nonzeros, one per pool thread."""
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


class NumbaSparseKernels:
    """The Numba sparse kernels of one semiring and dtype, with the constants bound.

    Parameters
    ----------
    mod : module
        :mod:`.sparse_template` specialised to the semiring and dtype
        (:func:`semiring.dense.dispatch.cpu_kernels`).
    zero : scalar
        The semiring zero in the dtype.
    lo, hi : scalar
        The dtype's stand-ins for -inf and +inf (:func:`semiring.dense.dispatch.sentinels`).
    """

    def __init__(self, mod, zero, lo, hi) -> None:
        self.mod = mod
        self.zero = zero
        self.lo, self.hi = lo, hi
        self.no_mask = np.empty(0, np.uint8)
        self.no_mask2 = np.empty((0, 0), np.uint8)

    def gather(self, ptr, idx, val, x, xflag, y, hit, allow, accumulate, xfirst):
        xf = self.no_mask if xflag is None else xflag
        al = self.no_mask if allow is None else allow
        fn = self.mod.gather
        run_balanced(ptr, lambda r0, r1: fn(ptr, idx, val, x, xf, xflag is not None, y, hit, al, allow is not None,
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
        run_balanced(ptr, lambda r0, r1: fn(ptr, idx, val, B, C, al, allow is not None, accumulate, xfirst,
                                             self.zero, self.lo, self.hi, r0, r1), B.shape[1])


class GenericSparseKernels:
    """NumPy versions of the kernels for custom semirings without Numba scalar ops."""

    def __init__(self, S: Algebra, dtype: np.dtype) -> None:
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
