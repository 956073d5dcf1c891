"""Spanning forests and maximum flows, side by side with SciPy (and NetworkX) in one run.

The CPU run (default) times :func:`graphs.minimum_spanning_tree` against
``scipy.sparse.csgraph.minimum_spanning_tree`` and :func:`graphs.maximum_flow`
against ``scipy.sparse.csgraph.maximum_flow(method="dinic")`` on this machine
(NetworkX on the smaller graphs); ``--gpu`` times both on the GPU against SciPy
run on the same machine's CPU in the same run.  The halves live in
``_mst_bench.py`` and ``_flow_bench.py`` (each also runs alone); this script
runs both and writes ``benchmarks/results/mst_flow-{cpu,gpu-<device>}.{json,md}``
plus one plot per half.  ``--quick`` runs small graphs (R-MAT 12, a 100 x 100 grid;
R-MAT 16 and a 300 x 300 grid on the GPU), 3 rounds, and writes under ``results/quick/``.

    PYTHONPATH=. python3 benchmarks/mst_flow.py [--gpu] [--only mst|flow] [--repeats 7] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import _flow_bench as flow  # noqa: E402
import _mst_bench as mst  # noqa: E402
from _common import machine, results_dir, set_quick, write_results  # noqa: E402


def _device_slug() -> str:
    import cupy as cp

    return cp.cuda.runtime.getDeviceProperties(0)["name"].decode().lower().replace(" ", "-")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gpu", action="store_true", help="time the GPU (against SciPy on this machine's CPU)")
    p.add_argument("--only", choices=["mst", "flow"], help="run one half")
    p.add_argument("--scale", type=int, default=18, help="spanning forest: CPU R-MAT scale (default 18)")
    p.add_argument("--gpu-scale", type=int, default=22, help="spanning forest: GPU R-MAT scale (default 22)")
    flow.add_arguments(p)  # --flow-grid, --flow-scale, --repeats, --no-networkx, --flow-budget
    p.add_argument("--quick", action="store_true", help="small graphs, 3 rounds, results under results/quick/")
    args = p.parse_args(argv)
    if args.quick:
        args.scale, args.gpu_scale, args.repeats = 12, 16, 3
        args.flow_grid = args.flow_grid or (300 if args.gpu else 100)
        args.flow_scale = args.flow_scale or (14 if args.gpu else 10)
    set_quick(args.quick)
    info = machine()
    where = "gpu" if args.gpu else "cpu"
    stem = f"mst_flow-gpu-{_device_slug()}" if args.gpu else "mst_flow-cpu"
    if args.gpu:
        info["gpu"] = _device_slug()
    payload, md = {"machine": info}, f"# Spanning forests and maximum flows ({where}; CPU {info['cpu']}, " \
                                      f"{info['cores']} cores; {info['simd']})\n\n"
    if args.only in (None, "mst"):
        rows = mst.run_gpu(args) if args.gpu else mst.run_cpu(args)
        payload["mst"] = rows
        md += "## Minimum spanning forest\n\n" + mst.table(rows) + "\n"
        mst.plot(rows, f"{stem}-mst", f"minimum spanning forest ({where}), {info['cpu']}")
    if args.only in (None, "flow"):
        rows = flow.run_gpu(args) if args.gpu else flow.run_cpu(args)
        payload["flow"] = rows
        md += "## Maximum flow\n\n" + flow.table(rows) + "\n"
        for folder in [results_dir()] + ([Path(os.environ["OUT"])] if os.environ.get("OUT") else []):
            flow._plot(rows, folder / f"{stem}-flow.png")
    write_results(stem, payload, md)
    print(md)


if __name__ == "__main__":
    main()
