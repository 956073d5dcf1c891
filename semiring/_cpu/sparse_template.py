"""Sparse semiring kernels on the CPU (Numba): the kernel template.

Specialised per semiring family and dtype by :mod:`.specialize` (the
``# @ADD`` / ``# @MUL`` lines are replaced), like the GEMM template.  The
kernels work on the raw compressed arrays ``ptr, idx, val`` of a CSR matrix
(or of a CSC matrix, read as the CSR of the transpose):

``gather``
    ``y[i] = add_e mul(val[e], x[idx[e]])`` over the entries of row ``i``
    (``mxv`` on CSR, ``vxm`` on CSC): one output per row, so row ranges run on
    separate threads without conflicts.  Rows outside the mask are skipped; entries
    whose ``x`` is absent (``xflag``) are skipped, which is the pull form of a
    sparse-vector product.
``scatter``
    ``t[idx[e]] = add(t[idx[e]], mul(x[i], val[e]))`` for the listed rows
    ``i`` (``vxm`` on CSR: the push form, SpMSpV when the list is a frontier).
    Serial: its cost is the frontier's edges, not ``n``.
``spmm``
    ``C[i, :] = add_e mul(val[e], B[idx[e], :])``: sparse times dense, row
    ranges on separate threads, the inner loop over the dense columns vectorised.

The row-range kernels are serial and release the GIL; :mod:`.sparse_kernels`
cuts the rows into ranges of equal nonzeros and runs them on the thread pool of
:mod:`.threads` (Numba's ``parallel=True`` would cost seconds of compilation per
semiring and dtype, and its OpenMP barriers stall on a busy machine).

``xfirst`` chooses the operand order of ``mul`` (``mul(x, a)`` for ``vxm``,
``mul(a, x)`` for ``mxv``), so non-commutative custom semirings are right.
Masks arrive as ``allow`` (uint8, 1 = may be written); ``accumulate`` adds
into the existing output instead of overwriting it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .scalar_ops import min_ as add  # @ADD
from .scalar_ops import plus_float as mul  # @MUL


@njit(cache=True, nogil=True)
def gather(ptr, idx, val, x, xflag, has_xflag, y, hit, allow, has_mask, accumulate, xfirst, zero, lo, hi, r0, r1):
    """Rows ``r0:r1`` of ``y[i] (+)= A[i, :] (x) x`` where allowed; ``hit[i] = 1`` if any entry contributed."""
    for i in range(r0, r1):
        if has_mask and allow[i] == 0:
            continue
        t = zero
        got = False
        for e in range(ptr[i], ptr[i + 1]):
            j = idx[e]
            if has_xflag and xflag[j] == 0:
                continue
            if xfirst:
                p = mul(x[j], val[e], lo, hi)
            else:
                p = mul(val[e], x[j], lo, hi)
            t = add(t, p, lo, hi)
            got = True
        if accumulate:
            y[i] = add(y[i], t, lo, hi)
        else:
            y[i] = t
        hit[i] = 1 if got else 0


@njit(cache=True, nogil=True)
def scatter(ptr, idx, val, rows, xv, t, hit, order, allow, has_mask, xfirst, lo, hi):
    """For each listed row ``i = rows[r]``: ``t[j] (+)= xv[r] (x) A[i, j]`` over its allowed columns ``j``.

    ``hit`` must be 0 everywhere; ``t`` need not be initialised: ``t[j]`` is
    written on the first arrival at ``j`` (then ``hit[j] = 1``) and combined
    with ``add`` after that.  Returns the number of distinct ``j`` hit and
    writes them, in order of first arrival, to the front of ``order``, so the
    cost is the listed rows' entries, never ``n``.
    """
    count = 0
    for r in range(rows.shape[0]):
        i = rows[r]
        xi = xv[r]
        for e in range(ptr[i], ptr[i + 1]):
            j = idx[e]
            if has_mask and allow[j] == 0:
                continue
            if xfirst:
                p = mul(xi, val[e], lo, hi)
            else:
                p = mul(val[e], xi, lo, hi)
            if hit[j] == 0:
                hit[j] = 1
                t[j] = p
                order[count] = j
                count += 1
            else:
                t[j] = add(t[j], p, lo, hi)
    return count


@njit(cache=True, nogil=True)
def spmm(ptr, idx, val, B, C, allow, has_mask, accumulate, xfirst, zero, lo, hi, r0, r1):
    """Rows ``r0:r1`` of ``C[i, :] (+)= A[i, :] (x) B`` (``B``, ``C`` C-contiguous, ``allow`` like ``C``)."""
    s = B.shape[1]
    acc = np.empty(s, dtype=C.dtype)
    for i in range(r0, r1):
        for j in range(s):
            acc[j] = zero
        for e in range(ptr[i], ptr[i + 1]):
            k = idx[e]
            a = val[e]
            if xfirst:
                for j in range(s):
                    acc[j] = add(acc[j], mul(B[k, j], a, lo, hi), lo, hi)
            else:
                for j in range(s):
                    acc[j] = add(acc[j], mul(a, B[k, j], lo, hi), lo, hi)
        for j in range(s):
            if has_mask and allow[i, j] == 0:
                continue
            if accumulate:
                C[i, j] = add(C[i, j], acc[j], lo, hi)
            else:
                C[i, j] = acc[j]


@njit(cache=True, nogil=True)
def merge(t, hit, y, allow, has_mask, accumulate, zero, lo, hi):
    """Write a scattered result into ``y``: ``y[j] (+)= (t[j] if hit[j] else zero)`` where allowed."""
    for j in range(y.shape[0]):
        if has_mask and allow[j] == 0:
            continue
        v = t[j] if hit[j] != 0 else zero
        if accumulate:
            y[j] = add(y[j], v, lo, hi)
        else:
            y[j] = v
