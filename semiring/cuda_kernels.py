"""The GPU kernel surface of :mod:`semiring` for the layers above it (imports CuPy).

The CUDA kernels of :mod:`apsp.cuda` and :mod:`graphs.cuda` are specialised
with a semiring's expressions and built like the library's own; they reach the
machinery for that through this module, never through ``semiring.cuda.*``
(private, free to change shape; ``tests/test_layering.py`` checks it).  Only
GPU code imports it: it imports CuPy.  The CPU and backend-neutral part of the
surface is :mod:`semiring.kernels`.

Specialisation and building
    :class:`KernelSpec` (a semiring in a dtype, as CUDA expressions: the
    compile-cache key), :func:`spec_for`, :func:`spec_defines` (its ``SR_*``
    macros), :func:`source_of` (a kernel file with its ``#define`` lines and the
    local headers of ``semiring/cuda``, e.g. ``sparse_device.cuh``, inlined),
    :func:`build_module` (NVRTC, ``sm_90`` on Hopper).
Launch conventions
    :data:`BLOCK` (threads per block), :data:`NULL` (the null pointer argument),
    :func:`launch_grid` (blocks for a number of work items).
Packed 16-bit min-plus lanes (DPX)
    :data:`PACKED_INF` (a lane's ``+inf``), :func:`dpx_native`,
    :func:`duplicated`, :func:`packed_matmul_into`.

>>> import numpy as np
>>> from semiring import min_plus
>>> spec_for(min_plus, np.float32).mul
'(a + b)'
"""

from __future__ import annotations

from .cuda.compile import build_module, source_of, spec_defines
from .cuda.ops import KernelSpec, spec_for
from .cuda.packed import INF as PACKED_INF
from .cuda.packed import dpx_native, duplicated, packed_matmul_into
from .cuda.sparse import BLOCK, NULL, launch_grid

__all__ = [
    "KernelSpec", "spec_for", "spec_defines", "source_of", "build_module",
    "BLOCK", "NULL", "launch_grid",
    "PACKED_INF", "dpx_native", "duplicated", "packed_matmul_into",
]
