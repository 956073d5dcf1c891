"""Build every CUDA source of the package with ``nvcc`` for ``sm_90``, without a GPU (run as a script).

The kernels are compiled at run time by NVRTC through CuPy; here each source is
put together by the functions its module uses (:func:`semiring.cuda.compile.source_of`
with no ``#define`` lines or with a semiring's, or a module's ``CUDA_SOURCE``
after :func:`apsp.cuda.fw_kernels.semiring_device_functions`) and compiled by
``nvcc -c``, so that a syntax or type error, or a kernel that spills registers,
shows on a machine with the CUDA compiler and no GPU.  CuPy is replaced by a
stand-in for the imports (nothing is launched).  Prints one JSON line per
source: its name, nvcc's exit status, its error lines and the kernels that
spill.

    python3 tests/cuda_sources.py [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class _Anything:
    """Stands in for any CuPy name at import time."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __getattr__(self, name: str) -> "_Anything":
        return _Anything()

    def __call__(self, *args, **kwargs) -> "_Anything":
        return _Anything()


def _stub_cupy() -> None:
    for name in ("cupy", "cupy.cuda", "cupy.cuda.compiler", "cupy.cuda.runtime", "cupyx", "cupyx.scipy",
                 "cupyx.scipy.sparse"):
        mod = types.ModuleType(name)
        mod.__getattr__ = lambda attr: _Anything  # type: ignore[method-assign]
        mod.__path__ = []  # type: ignore[attr-defined]
        sys.modules[name] = mod


def sources() -> list[tuple[str, str]]:
    """``(name, source text)`` of every CUDA module the package builds, for a few semirings and dtypes each."""
    import numpy as np

    import semiring as sr
    from semiring.cuda.compile import source_of, spec_defines
    from semiring.cuda.ops import spec_for

    out = []
    specs = [(sr.min_plus, np.float32), (sr.min_plus, np.float64), (sr.min_plus, np.int32), (sr.max_min, np.float64),
             (sr.lor_land, np.bool_), (sr.plus_times, np.float64)]

    def defines(S, dtype) -> dict:
        d = spec_defines(spec_for(S, np.dtype(dtype)))
        d["SP_FLOAT"] = 1 if np.dtype(dtype).kind == "f" else 0
        return d

    for S, dtype in specs:
        out.append((f"semiring/cuda/sparse_kernels.cu [{S.name}, {np.dtype(dtype)}]",
                    source_of("sparse_kernels.cu", defines(S, dtype))))
    graph_files = sorted((ROOT / "graphs" / "cuda").glob("*.cu"))
    for path in graph_files:  # with no #define lines (the kernels that read no weights), and for two weight types
        out.append((f"graphs/cuda/{path.name} [default]", source_of(path, {})))
        for S, dtype in [(sr.min_plus, np.float32), (sr.min_plus, np.int64)]:
            out.append((f"graphs/cuda/{path.name} [{S.name}, {np.dtype(dtype)}]", source_of(path, defines(S, dtype))))
    from apsp.cuda import closure_settle, closure_update, fw_kernels, last_hop
    from apsp.cuda.fw_kernels import semiring_device_functions

    for mod in (fw_kernels, closure_update, closure_settle, last_hop):
        for S, dtype in specs[:5]:
            head = semiring_device_functions(S, np.dtype(dtype))
            if head is not None:
                out.append((f"{mod.__name__} [{S.name}, {np.dtype(dtype)}]", head + mod.CUDA_SOURCE))
    return out


def build(name: str, code: str, folder: str) -> dict:
    """``nvcc -c`` of one source for ``sm_90``; its status, error lines and the kernels that spill."""
    path = Path(folder) / (re.sub(r"[^A-Za-z0-9]+", "_", name) + ".cu")
    path.write_text(code)
    done = subprocess.run(["nvcc", "-std=c++17", "-arch=sm_90", "-c", str(path), "-o", str(path.with_suffix(".o")),
                           "-Xptxas", "-v"], capture_output=True, text=True)
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    spills, kernel = [], None
    for line in done.stderr.splitlines():
        found = re.search(r"Compiling entry function '([^']+)'", line)
        if found:
            kernel = found.group(1)
        elif "spill stores" in line and not re.search(r"\b0 bytes spill stores, 0 bytes spill loads", line):
            spills.append(f"{kernel}: {line.strip()}")
    return {"name": name, "status": done.returncode, "errors": errors, "spills": spills}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args(argv)
    _stub_cupy()
    sys.path.insert(0, str(ROOT))
    todo = sources()
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.jobs) as pool:
        for result in pool.map(lambda item: build(item[0], item[1], folder), todo):
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
