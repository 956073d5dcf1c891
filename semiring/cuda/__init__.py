"""GPU semiring kernels: CuPy + CUDA C compiled at run time (NVRTC).

The entry points the rest of the library calls:

* :func:`matmul_into` -- ``C (+)= A (x) B`` (and the witness) on CuPy arrays, views
  of any strides; the register-blocked tiled kernel, lazy zero-skipping for sparse
  operands, the bit-packed Boolean kernel for ``lor_land``.
* :func:`streamed_matmul` -- the same on NumPy operands, streamed through the
  device in panels when they exceed a memory budget.
* :func:`elementwise` -- saturating elementwise ``add`` / ``mul`` for integer dtypes.

:data:`config` holds the run-time switches (``config.lazy``).  Kernels are
specialised per semiring and dtype, compiled once (``sm_90`` on Hopper) and cached.

>>> import cupy as cp
>>> from semiring import min_plus
>>> A = cp.array([[0.0, 2.0], [1.0, 0.0]]); C = cp.empty_like(A)
>>> matmul_into(min_plus, A, A, C); C
array([[0., 2.],
       [1., 0.]])
"""

from __future__ import annotations

from .elementwise import elementwise
from .gemm import config, matmul_into
from .streamed import streamed_matmul

__all__ = ["matmul_into", "streamed_matmul", "elementwise", "config"]
