"""Building the graph kernels of this folder and the launch helpers their drivers share.

:func:`module` compiles a kernel file of ``graphs/cuda`` with the ``#define`` lines
of :func:`semiring.cuda.sparse.module` (the semiring macros where the kernels read
weights, and ``SP_FLOAT``); the local headers, among them
``semiring/cuda/sparse_device.cuh``, are inlined by
:func:`semiring.cuda.compile.source_of`.  Compiled modules are cached in memory
here and on disk by CuPy.  :func:`chunk_lists` and :func:`chunk_grid` size the
lists and grids of the chunk kernels, which give each chunk of :data:`CHUNK` arcs
of a long vertex a warp.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cupy as cp

from semiring.cuda_kernels import BLOCK, KernelSpec, build_module, launch_grid, source_of, spec_defines

__all__ = ["module", "chunk_grid", "chunk_lists", "CHUNK"]

HERE = Path(__file__).resolve().parent
CHUNK = 256  # BFS_CHUNK in bfs.cu and SSSP_CHUNK in sssp.cu: arcs per warp for long vertices


@functools.cache
def module(file: str, kernel: str, spec: KernelSpec | None = None, float_kind: bool = True) -> cp.RawModule:
    """The compiled kernel file ``file`` of this folder for a semiring specialisation.

    Parameters
    ----------
    file : str
        ``"bfs.cu"``, ``"sssp.cu"`` or ``"components.cu"``.
    kernel : str
        A kernel of the file, loaded at once so that a rejected compiler option
        is caught while building.
    spec : KernelSpec, optional
        The semiring and dtype (``None``: the default of ``prelude.cuh``,
        min-plus float32, for kernels that read no weights).
    float_kind : bool
        ``SP_FLOAT``: whether the element type is a floating type.

    Returns
    -------
    cupy.RawModule
    """
    defines = spec_defines(spec) if spec is not None else {}
    defines["SP_FLOAT"] = 1 if float_kind else 0
    return build_module(source_of(HERE / file, defines), kernel)


def chunk_grid(arcs: int, chunk: int = CHUNK) -> int:
    """Blocks for a chunk kernel over at most ``arcs`` arcs (a warp per chunk, grid-stride beyond)."""
    return launch_grid(-(-max(int(arcs), 1) // chunk), block=BLOCK // 32)


def chunk_lists(nnz: int, chunk: int):
    """``(crow, cnum)``: room for every chunk of ``chunk`` arcs of a level's long vertices."""
    cap = max(1, 2 * (nnz // chunk) + 1)
    return cp.empty(cap, dtype=cp.int32), cp.empty(cap, dtype=cp.int32)
