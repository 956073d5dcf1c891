"""Where the GPU maximum flow spends its time: device time per kernel, launches, wall time.

    PYTHONPATH=. python3 benchmarks/profile_flow_gpu.py [--grid 1000] [--scale 20] [--repeats 3] [--json out.json]

Runs :func:`graphs.maximum_flow` on the GPU for the terminal pairs of
``benchmarks/mst_flow.py --gpu`` (a grid's middle row at 1% and 99% of its width and
its corners; R-MAT's two largest hubs and two random vertices) and brackets every
kernel launch with CUDA events (the proxy of ``profile_traversal_gpu.py``): the sweeps
(``flow_discharge*``), the global relabels (``flow_bfs_level*``), the active-vertex
counts and the cut's reachability.  The number of ``flow_count_active`` launches is the
number of cycles plus one per phase.  The difference between the wall time and the
kernels' sum is host time (launches, read-backs, the residual network's set-up).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import _flow_bench as fb  # noqa: E402
from profile_traversal_gpu import print_timeline, timeline  # noqa: E402

import graphs  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--grid", type=int, default=1000, help="grid side (default 1000)")
    p.add_argument("--scale", type=int, default=20, help="R-MAT scale (default 20, edge factor 16)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", type=Path, help="also write the timelines here")
    args = p.parse_args(argv)
    out = {}
    for name, kind, G in fb._graphs(args.grid, args.scale, "gpu"):
        for what, s, t in fb._pairs(G.to("cpu"), kind):
            value = graphs.maximum_flow(G, s, t).flow_value  # compiles the kernels
            tl = timeline(lambda G=G, s=s, t=t: graphs.maximum_flow(G, s, t), args.repeats)
            tl["flow_value"] = int(value)
            out[f"{name} / {what}"] = tl
            print_timeline(f"{name} / {what} (flow {value})", tl)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return out


if __name__ == "__main__":
    main()
