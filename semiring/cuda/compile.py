"""Build the CUDA kernels with NVRTC (``cupy.RawModule``), once per specialisation.

A kernel's source is the text of its ``.cu`` file with the local headers inlined
(so that CuPy's on-disk cache, keyed by the source text, sees every change),
preceded by ``#define`` lines for the semiring (:class:`~.ops.KernelSpec`) and the
tile shape (:class:`Tile`).  On compute capability 9.x (Hopper) the code is built
for ``sm_90`` explicitly; elsewhere CuPy picks the device's architecture.
Compiled kernels are cached in memory here and on disk by CuPy.  Builds run one
at a time (:func:`build_module` holds a lock), so threads that ask for a kernel
at once never compile side by side; one that waited finds CuPy's disk cache
filled.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import cupy as cp
import numpy as np

from .ops import KernelSpec

__all__ = ["Tile", "tile_for", "tile_of", "is_heavy", "kernel", "arch_options", "source_of",
           "build_module"]

HERE = Path(__file__).resolve().parent
_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*$', re.M)
_BUILD_LOCK = threading.RLock()


@dataclass(frozen=True)
class Tile:
    """A block tile ``bm x bn`` of C, ``bk`` deep, ``tm x tn`` outputs per thread, ``stages`` deep pipeline."""

    bm: int
    bn: int
    bk: int
    tm: int
    tn: int
    stages: int
    kunroll: int = 0  # V-steps of k unrolled in the inner loop; 0: the whole tile
    av: int = 0  # values of k per shared-memory read of A (0: a 16-byte vector)
    minb: int = 2  # blocks per SM the register allocation must allow (__launch_bounds__)

    @property
    def threads(self) -> int:
        """Threads per block."""
        return (self.bm // self.tm) * (self.bn // self.tn)

    def smem(self, itemsize: int, lazy: bool = False) -> int:
        """Dynamic shared memory in bytes of the dense (or lazy) kernel."""
        v = 16 // itemsize
        stage = (self.bm * (self.bk + v) + self.bk * self.bn) * itemsize
        if lazy:
            return stage + (1024 + self.bk + 1) * 4
        return self.stages * stage

    def defines(self) -> dict:
        """The ``SR_*`` macros of this tile."""
        return {
            "SR_BM": self.bm, "SR_BN": self.bn, "SR_BK": self.bk,
            "SR_TM": self.tm, "SR_TN": self.tn, "SR_STAGES": self.stages,
            "SR_KUNROLL": self.kunroll or 64,
            "SR_AV": self.av,
            "SR_MINB": self.minb,
        }


# Register tiles: 8 x 8 four-byte values per thread (64 accumulators) for the plain
# product; half as many outputs where each also carries a witness or is 8 bytes wide.
# "Heavy" semirings (saturating integer arithmetic: several instructions per pair)
# take the smaller tile, so that the register tile does not spill.
_TILES = {
    (4, False): Tile(128, 128, 16, 8, 8, 4, av=2),
    (4, True): Tile(128, 64, 32, 8, 4, 3),
    (8, False): Tile(64, 128, 16, 4, 8, 3),
    (8, True): Tile(64, 64, 16, 4, 4, 3),
}
_HEAVY = ("_mul_i", "sat_")


def is_heavy(spec: KernelSpec) -> bool:
    """True for specialisations whose add/mul are multi-instruction (saturating integer) functions."""
    return any(tok in spec.add or tok in spec.mul for tok in _HEAVY)


TILE_OVERRIDE: dict[tuple, Tile] = {}
"""Tuning hook: ``{(itemsize, witness, heavy): Tile}`` replaces the default tiles (benchmarks/gemm_gpu.py --tune)."""


#: Tiles for products too small to fill the GPU with the default tiles (fewer blocks
#: than multiprocessors): a quarter of the outputs per block, four times the blocks.
_SMALL_TILES = {4: Tile(64, 64, 16, 4, 4, 3), 8: Tile(64, 64, 16, 4, 4, 3)}


@functools.cache
def multiprocessors() -> int:
    """Streaming multiprocessors of the current device."""
    return int(cp.cuda.Device().attributes["MultiProcessorCount"])


def tile_for_shape(spec: KernelSpec, witness: bool, m: int, n: int) -> Tile:
    """The tile for an ``m x n`` output: the default one, or the small one when that fills the GPU better.

    Small products (the bottom of R-Kleene's recursion) would otherwise run on a
    few multiprocessors while the others idle.
    """
    tile = tile_of(spec, witness)
    if witness or is_heavy(spec):
        return tile
    blocks = -(-m // tile.bm) * -(-n // tile.bn)
    if blocks >= multiprocessors():
        return tile
    return TILE_OVERRIDE.get(("small", np.dtype(spec.dtype).itemsize), _SMALL_TILES[np.dtype(spec.dtype).itemsize])


def tile_for(itemsize: int, witness: bool, heavy: bool = False) -> Tile:
    """The tile shape of the register-blocked kernel for an element size.

    >>> tile_for(4, False).bm, tile_for(4, False).tn
    (128, 8)
    >>> tile_for(4, False, heavy=True).tn
    4
    """
    key = (itemsize, bool(witness), bool(heavy))
    if key in TILE_OVERRIDE:
        return TILE_OVERRIDE[key]
    if heavy and not witness:
        return _TILES[(itemsize, True)]
    if heavy:
        return _TILES[(8, True)] if itemsize == 8 else Tile(64, 64, 32, 4, 4, 3)
    return _TILES[(itemsize, bool(witness))]


def tile_of(spec: KernelSpec, witness: bool) -> Tile:
    """The tile of a specialisation (element size from its dtype, heavy or not)."""
    return tile_for(np.dtype(spec.dtype).itemsize, witness, is_heavy(spec))


@functools.cache
def _file_text(path: Path) -> str:
    return path.read_text()


def _find_header(inc: str, folder: Path) -> Path:
    """Header ``inc`` of an ``#include "inc"`` in a file of ``folder``: looked up there, then in this folder."""
    for d in (folder, HERE):
        if (d / inc).is_file():
            return (d / inc).resolve()
    raise FileNotFoundError(f"#include \"{inc}\": not in {folder} nor in {HERE}")


def source_of(name: str | Path, defines: dict) -> str:
    """The full source of kernel file ``name``: ``#define`` lines, then the file with its local headers inlined.

    ``name`` is a file of this folder or the path of a kernel file elsewhere (the
    graph kernels of ``graphs/cuda``).  A local header (``#include "x.cuh"``) is
    looked up in the folder of the file that includes it, then in this folder, so
    kernel files of other packages can include the headers here; each header is
    inlined once.

    >>> "#define SR_T float" in source_of("simple.cu", {"SR_T": "float"})
    True
    """
    seen: set[Path] = set()

    def inline(text: str, folder: Path) -> str:
        def repl(m: re.Match) -> str:
            path = _find_header(m.group(1), folder)
            if path in seen:
                return ""
            seen.add(path)
            return inline(_file_text(path).replace("#pragma once", ""), path.parent)

        return _INCLUDE.sub(repl, text)

    main = HERE / name  # an absolute path stays as it is
    head = "".join(f"#define {k} {v}\n" for k, v in defines.items())
    return head + inline(_file_text(main), main.parent)


@functools.cache
def arch_options() -> tuple:
    """``("--gpu-architecture=sm_90",)`` on Hopper, ``()`` elsewhere (CuPy then picks the arch)."""
    cc = cp.cuda.Device().compute_capability
    return ("--gpu-architecture=sm_90",) if cc.startswith("9") else ()


def build_module(code: str, name: str) -> cp.RawModule:
    """``code`` compiled (``sm_90`` on Hopper, else the device's architecture), checked by loading kernel ``name``.

    The kernel is loaded at once so that a rejected architecture option is caught
    here (the build is then retried without it).  One build at a time (see the module docstring).
    """
    with _BUILD_LOCK:
        return _build_module(code, name)


def _build_module(code: str, name: str) -> cp.RawModule:
    base = ("-std=c++17",)
    names = (name,) if "<" in name else None  # template instances need a name expression
    try:
        mod = cp.RawModule(code=code, options=base + arch_options(), name_expressions=names)
        mod.get_function(name)  # compiles now, so a rejected option is caught here
        return mod
    except cp.cuda.compiler.CompileException as e:
        if not arch_options() or "arch" not in str(e).lower():
            raise
    mod = cp.RawModule(code=code, options=base, name_expressions=names)
    mod.get_function(name)
    return mod


def spec_defines(spec: KernelSpec) -> dict:
    """The semiring macros of a kernel specialisation (``SR_PAD`` only where the spec sets a padding value)."""
    defines = {
        "SR_T": spec.ctype,
        "SR_ADD(a, b)": spec.add,
        "SR_MUL(a, b)": spec.mul,
        "SR_ZERO": spec.zero,
    }
    if spec.pad is not None:
        defines["SR_PAD"] = spec.pad
    if spec.muladd is not None:
        defines["SR_MULADD(c, a, b)"] = spec.muladd
    if spec.dup_out:
        defines["SR_DUP_OUT"] = 1
    return defines


def kernel(file: str, name: str, spec: KernelSpec | None = None, tile: Tile | None = None, smem: int = 0):
    """The compiled kernel ``name`` of ``file`` (a template instance such as ``"sr_gemm<4, false>"``), on the current GPU.

    ``smem`` above 48 KiB raises the kernel's dynamic shared-memory limit.  A
    loaded kernel belongs to one GPU, so the cache keys on the current device
    (several GPUs of one process each get their own).
    """
    return _kernel_on(cp.cuda.runtime.getDevice(), file, name, spec, tile, smem)


@functools.cache
def _kernel_on(device: int, file: str, name: str, spec: KernelSpec | None, tile: Tile | None, smem: int):
    defines = {}
    if spec is not None:
        defines.update(spec_defines(spec))
    if tile is not None:
        defines.update(tile.defines())
    mod = build_module(source_of(file, defines), name)
    fn = mod.get_function(name)
    if smem > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = smem
    return fn
