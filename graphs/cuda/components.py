"""GPU driver of weak components: hook and shortcut (CuPy; kernels in ``components.cu``).

Soman, Kishore & Narayanan ("A fast GPU algorithm for graph connectivity", IPDPS
workshops 2010): every arc hooks the larger of its endpoints' roots onto the
smaller, every vertex then jumps to its root, until no hook happens; labels are
renumbered by smallest vertex, as on the CPU.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, launch_grid

from ..graph import Graph
from . import launch

__all__ = ["weak_components_gpu"]

FILE = "components.cu"


def _module():
    """The compiled ``components.cu`` (looked up in :mod:`.launch` at each call)."""
    return launch.module(FILE, "cc_hook")


def weak_components_gpu(G: Graph):
    """Hook-and-shortcut components; labels numbered by smallest vertex."""
    mod = _module()
    n = G.n
    if n == 0:
        return 0, cp.zeros(0, dtype=cp.int32)
    label = cp.arange(n, dtype=cp.int32)
    changed = cp.zeros(1, dtype=cp.int32)
    hook = mod.get_function("cc_hook")
    shortcut = mod.get_function("cc_shortcut")
    grid = launch_grid(n)
    while True:
        changed.fill(0)
        hook((grid,), (BLOCK,), (G.indptr, G.indices, np.int64(n), label, changed))
        shortcut((grid,), (BLOCK,), (np.int64(n), label))
        if int(changed.get()[0]) == 0:
            break
    roots, inverse = cp.unique(label, return_inverse=True)
    return int(roots.size), inverse.astype(cp.int32)
