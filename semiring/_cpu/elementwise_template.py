"""Elementwise semiring ``add`` / ``mul`` on the CPU (Numba): the kernel template.

``out = op(x, y)`` over two operands broadcast by index arithmetic: each is
read through per-axis element strides that are ``0`` along the axes it is
broadcast over, so no operand is copied out to the result's size and no
stride-0 view reaches Numba.  Like :mod:`.gemm_template`, this module is a
*template*: :mod:`.specialize` writes a copy per scalar operation with the
line marked ``# @OP`` replaced, so that Numba caches the compiled kernel on
disk (a kernel built by a factory closure is compiled again in every process).
:mod:`.elementwise` prepares the operands and calls it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .scalar_ops import min_ as op  # @OP


@njit(cache=True, nogil=True)
def kernel(x, xs, y, ys, shape, out, lo, hi):  # pragma: no cover - jitted
    """``out`` (flat, C order, of ``shape``) ``= op(x[.], y[.])``, the operands read through element strides.

    ``shape`` (int64) has at least one axis and none empty; ``x`` / ``y`` are
    flat and read at ``sum(i[d] * xs[d])`` / ``sum(i[d] * ys[d])`` for the
    result's index ``i``.  The last axis's strides are 0 or 1 (the caller
    merges axes; an operand's innermost axis is contiguous or broadcast), and
    each of those four cases is a loop over slices that LLVM can vectorise.
    """
    nd = shape.shape[0]
    inner = shape[nd - 1]
    sx = xs[nd - 1]
    sy = ys[nd - 1]
    idx = np.zeros(nd, np.int64)
    ox = 0
    oy = 0
    o = 0
    for _ in range(out.size // inner):
        ov = out[o:o + inner]
        if sx != 0 and sy != 0:
            xv = x[ox:ox + inner]
            yv = y[oy:oy + inner]
            for j in range(inner):
                ov[j] = op(xv[j], yv[j], lo, hi)
        elif sy != 0:
            a = x[ox]
            yv = y[oy:oy + inner]
            for j in range(inner):
                ov[j] = op(a, yv[j], lo, hi)
        elif sx != 0:
            b = y[oy]
            xv = x[ox:ox + inner]
            for j in range(inner):
                ov[j] = op(xv[j], b, lo, hi)
        else:
            c = op(x[ox], y[oy], lo, hi)
            for j in range(inner):
                ov[j] = c
        o += inner
        d = nd - 2  # the next index of the outer axes (an odometer), and the operands' offsets with it
        while d >= 0:
            idx[d] += 1
            ox += xs[d]
            oy += ys[d]
            if idx[d] < shape[d]:
                break
            ox -= xs[d] * shape[d]
            oy -= ys[d] * shape[d]
            idx[d] = 0
            d -= 1
