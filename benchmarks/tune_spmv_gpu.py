"""Compile-time variants of the gather SpMV against cuSPARSE on R-MAT (one GPU run).

    PYTHONPATH=. python3 benchmarks/tune_spmv_gpu.py [--scale 22]

Rebuilds ``semiring/cuda/sparse_kernels.cu`` (the SpMV kernels) with each setting of
``SP_GATHER_MIN_BLOCKS`` (the ``__launch_bounds__`` minimum of blocks per SM of
the short-row pass; 1 leaves the register count to the compiler) and
``SP_SHORT_UNROLL``, checks the min_plus product against the library's current
build, and times the unchecked and checked calls interleaved with cuSPARSE's
plus-times SpMV on the same matrix (medians of 30 rounds).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> None:
    import cupy as cp
    from _common import interleaved_gpu_times

    import semiring as sr
    from graphs import generators as gen
    from semiring import sparse
    from semiring.cuda import sparse as cs
    from semiring.cuda.compile import arch_options, source_of, spec_defines
    from semiring.cuda.ops import spec_for

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=int, default=22)
    args = p.parse_args(argv)
    G = gen.rmat(args.scale, seed=0, device="gpu")
    A = G.to_scipy()
    x = cp.random.default_rng(1).random(G.n, dtype=cp.float32)
    want = sparse.mxv(sr.min_plus, A, x, check=False).get()
    K = sparse.kernels_for(sr.min_plus, np.float32, "gpu")
    built = K.mod
    base = spec_defines(spec_for(sr.min_plus, np.dtype(np.float32)))
    base["SP_FLOAT"] = 1
    try:
        for minb in (1, 6, 8):
            for unroll in (2, 4):
                defines = dict(base, SP_GATHER_MIN_BLOCKS=minb, SP_SHORT_UNROLL=unroll)
                K.mod = cp.RawModule(code=source_of(cs.FILE, defines), options=("-std=c++17",) + arch_options())
                ok = bool(np.array_equal(sparse.mxv(sr.min_plus, A, x, check=False).get(), want))
                t_cus, t_chk, t_raw = interleaved_gpu_times(
                    [lambda: A @ x, lambda: sr.min_plus.mxv(A, x), lambda: sparse.mxv(sr.min_plus, A, x, check=False)])
                print(f"min_blocks={minb} unroll={unroll} ok={ok}: cuSPARSE {t_cus * 1e3:.3f} ms; "
                      f"unchecked {t_raw * 1e3:.3f} ms ({t_cus / t_raw * 100:.1f}%); "
                      f"checked {t_chk * 1e3:.3f} ms ({t_cus / t_chk * 100:.1f}%)", flush=True)
    finally:
        K.mod = built


if __name__ == "__main__":
    main()
