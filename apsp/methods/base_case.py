"""The base case of the recursion: close one small diagonal block in place.

R-Kleene recurses until a diagonal block has at most ``base_size`` vertices and
blocked Floyd-Warshall closes its diagonal blocks; both call
:func:`close_block`.  It picks, once per call:

* CPU, semiring with Numba scalar ops: the Floyd-Warshall template
  :mod:`apsp._fw_template`, specialised to the semiring and dtype by
  :func:`semiring.kernels.cpu_kernels` and run on a contiguous copy of the
  block (the copy is ``b^2`` work against the kernel's ``b^3``);
* GPU (CuPy): the one-CTA CUDA kernel of :mod:`apsp.cuda.fw_kernels`;
* anything else (custom semirings without Numba ops): the vectorised reference
  :func:`apsp.fw.floyd_warshall_inplace`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semiring.kernels import cpu_kernels, cpu_scalar_ops, sentinels

from ..fw import floyd_warshall_inplace

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["close_block", "CPU_BASE", "GPU_BASE"]

#: Largest block the CPU base case closes (R-Kleene's default leaf size).
CPU_BASE = 96
#: Largest block the CUDA base kernel closes (its tile size).
GPU_BASE = 128


def close_block(S: "Semiring", D, P=None) -> None:
    """Replace the square block ``D`` (a view is fine) by its closure, updating ``P``.

    The diagonal must already hold ``d (+) one``.  Ties keep the older path
    (strict-improvement rule), as everywhere in the package.

    Examples
    --------
    >>> from semiring import min_plus
    >>> D = np.array([[0.0, 5.0, 1.0], [1.0, 0.0, np.inf], [np.inf, 1.0, 0.0]])
    >>> close_block(min_plus, D); D
    array([[0., 2., 1.],
           [1., 0., 2.],
           [2., 1., 0.]])
    """
    if D.shape[0] == 0:
        return
    if not isinstance(D, np.ndarray):
        from ..cuda.fw_kernels import close_block_gpu

        close_block_gpu(S, D, P)
        return
    key = (id(S), D.dtype)
    found = _LEAF_KERNELS.get(key)
    if found is None or found[0] is not S:
        found = _LEAF_KERNELS[key] = (S, *_leaf_kernel(S, D.dtype))
    _, mod, zero, lo, hi = found
    if mod is None:
        floyd_warshall_inplace(S, D, P)
        return
    block = np.ascontiguousarray(D)
    if P is None:
        mod.closure(block, zero, lo, hi)
    else:
        pblock = np.ascontiguousarray(P)
        mod.closure_pred(block, pblock, zero, lo, hi)
        if pblock is not P:
            P[...] = pblock
    if block is not D:
        D[...] = block


#: The CPU leaf kernel of each (semiring id, dtype), with its constants; the semiring is kept with them.
_LEAF_KERNELS: dict = {}


def _leaf_kernel(S: "Semiring", dtype: np.dtype):
    """``(module, zero, lo, hi)``: the Floyd-Warshall template specialised to ``S`` and ``dtype``
    (``module`` is ``None`` for a semiring without Numba scalar ops: the vectorised reference runs)."""
    lo, hi = sentinels(dtype)
    if cpu_scalar_ops(S, dtype) is None:
        return None, S.zero_value(dtype), lo, hi
    return cpu_kernels(S, dtype, template="apsp._fw_template"), S.zero_value(dtype), lo, hi
