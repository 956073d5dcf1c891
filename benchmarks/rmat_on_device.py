"""R-MAT unweighted, many origins to every vertex, results kept on the GPU: the bit-parallel BFS against SpMM.

::

    PYTHONPATH=. python3 benchmarks/rmat_on_device.py [--scale 20] [--k 4096]

One device array receives the ``k x n`` hop counts of both routes in turn:
``graphs.distance_matrix(weighted=False)`` (the many-source engine's hop
counts: the bit-parallel BFS of :mod:`graphs.cuda.bit_bfs`) and ``graphs.multi_source_sssp(method="spmm")`` (Bellman-Ford SpMM,
the previous GPU route, 512 origins at a time).  Timed with CUDA events after
a warm-up; the rows of the two are checked equal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import gpu_time, machine, markdown_table, write_results  # noqa: E402

import graphs  # noqa: E402


def main() -> None:
    import cupy as cp

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--k", type=int, default=4096)
    ap.add_argument("--chunk", type=int, default=512)
    args = ap.parse_args()
    R = graphs.generators.rmat(args.scale, seed=0, weights=None)
    Rg = R.to("gpu")
    src = np.random.default_rng(1).choice(R.n, args.k, replace=False)
    out = cp.empty((args.k, R.n), dtype=cp.float64)

    def ours():
        graphs.distance_matrix(Rg, src, weighted=False, out=out)

    def spmm():
        for r0 in range(0, args.k, args.chunk):
            D, _ = graphs.multi_source_sssp(Rg, src[r0:r0 + args.chunk], method="spmm", predecessors=False)
            out[r0:r0 + args.chunk] = D
            del D

    t_ours = gpu_time(ours, repeats=2, warmup=1)
    check = out[:: max(1, args.k // 64)].get()
    t_spmm = gpu_time(spmm, repeats=1, warmup=0)
    assert np.array_equal(out[:: max(1, args.k // 64)].get(), check), "SpMM rows differ from distance_matrix's"
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    rows = [[f"R-MAT {args.scale} unweighted ({R.n:,} vertices, {R.nnz:,} arcs)", f"{args.k:,} x all",
             "distance_matrix (bit-parallel BFS)", f"{t_ours:.2f}", "1.0x"],
            ["", "", f"multi_source_sssp method='spmm', {args.chunk} at a time", f"{t_spmm:.2f}",
             f"{t_spmm / t_ours:.1f}x"]]
    md = (f"# Many origins to every vertex, results on the GPU ({dev})\n\n"
          + markdown_table(["graph", "origins x destinations", "route", "seconds", "time / distance_matrix"], rows))
    write_results("rmat_on_device-gpu", {"machine": machine(), "device": dev, "args": vars(args), "rows": rows}, md)
    print(md)


if __name__ == "__main__":
    main()
