"""Updating a closure against computing it again: :class:`apsp.Closure` on road-like and R-MAT graphs.

::

    PYTHONPATH=. python3 benchmarks/dynamic_closure.py [--n 4096] [--arcs 30] [--batches 1,8,64,512,4096]
                                                      [--device cpu|gpu] [--quick]

For each graph (``graphs.generators.road_network(n)`` and an R-MAT graph with
about the same number of vertices, float64 weights), it times computing the
closure from scratch with this library's fastest route
(:func:`apsp.shortest_paths`, ``method="auto"``), then, on one
:class:`apsp.Closure`: single arcs decreased (random existing arcs, new
weight a random fraction of the old), batches of decreased or inserted arcs
of each size, and single existing arcs removed, each the median over
``--arcs`` updates applied one after the other.  At the end the updated
closure is compared with a closure computed anew from its arcs.  Results:
``benchmarks/results/dynamic_closure-<cpu|gpu-h100|gpu-h200>.{json,md}``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import gpu_kind, machine, markdown_table, set_quick, write_results  # noqa: E402

import apsp  # noqa: E402
import graphs  # noqa: E402


def _sync(xp) -> None:
    if xp is not np:
        xp.cuda.Device().synchronize()


def _timed(fn, xp) -> float:
    _sync(xp)
    t = time.perf_counter()
    fn()
    _sync(xp)
    return time.perf_counter() - t


def bench_graph(name: str, G, arcs: int, batches: list[int], device: str, seed: int) -> list[list[object]]:
    W = G.to_dense()
    n = W.shape[0]
    if device == "gpu":
        import cupy as xp

        W = xp.asarray(W)
    else:
        xp = np
    apsp.shortest_paths(W)  # compiles / warms
    full = statistics.median(_timed(lambda: apsp.shortest_paths(W), xp) for _ in range(3))
    rows = [[name, n, "recompute (apsp.shortest_paths)", "-", f"{full * 1e3:.1f}", "1.0x"]]
    C = apsp.Closure(W)
    rng = np.random.default_rng(seed)
    src, dst = (np.asarray(a) for a in np.nonzero(np.asarray(G.to_dense()) < np.inf))
    off = src != dst
    src, dst = src[off], dst[off]

    def one_decrease():
        k = int(rng.integers(src.size))
        u, v = int(src[k]), int(dst[k])
        w = float(C.arcs[u, v]) * rng.uniform(0.3, 0.9)
        return _timed(lambda: C.update([u], [v], [w]), xp)

    t = statistics.median(one_decrease() for _ in range(arcs))
    rows.append([name, n, "one arc decreased", 1, f"{t * 1e3:.2f}", f"{full / t:.0f}x"])
    for b in batches:
        def batch(b=b):
            flat = rng.choice(n * n, size=b, replace=False)
            us, vs = flat // n, flat % n
            keep = us != vs
            us, vs = us[keep], vs[keep]
            cur = np.asarray(C.arcs[xp.asarray(us), xp.asarray(vs)]) if xp is np else C.arcs[us, vs].get()
            scale = np.median(np.asarray(G.weights)) if G.weights is not None else 1.0
            ws = np.minimum(cur, rng.uniform(0.5, 4.0, us.size) * scale)  # a decrease, or an insertion
            return _timed(lambda: C.update(us, vs, ws), xp)

        tb = statistics.median(batch() for _ in range(max(3, arcs // 4)))
        rows.append([name, n, "batch decreased or inserted", b, f"{tb * 1e3:.2f}", f"{full / tb:.0f}x"])

    def one_removal():
        k = int(rng.integers(src.size))
        u, v = int(src[k]), int(dst[k])
        return _timed(lambda: C.remove([u], [v]), xp)

    tr = statistics.median(one_removal() for _ in range(arcs))
    rows.append([name, n, "one arc removed", 1, f"{tr * 1e3:.2f}", f"{full / tr:.1f}x"])
    ref = apsp.shortest_paths(C.arcs.copy())
    got = C.distances
    if xp is not np:
        ref, got = ref.get(), got.get()
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--arcs", type=int, default=30)
    ap.add_argument("--batches", default="1,8,64,512,4096")
    ap.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--graphs", default="road,rmat", help="which closures: road, rmat or both")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        set_quick(True)
        args.n, args.arcs, args.batches = 1024, 10, "1,64"
    batches = [int(b) for b in args.batches.split(",")]
    scale = max(1, int(np.log2(args.n)))
    graphs_to_run = [
        ("road_network", graphs.generators.road_network(args.n, seed=args.seed)),
        (f"rmat(scale={scale})", graphs.generators.rmat(scale, edge_factor=4, seed=args.seed, directed=True, dtype=np.float64)),
    ]
    wanted = set(args.graphs.split(","))
    graphs_to_run = [(name, G) for name, G in graphs_to_run if name.split("(")[0].replace("_network", "") in wanted]
    rows = []
    for name, G in graphs_to_run:
        rows += bench_graph(name, G, args.arcs, batches, args.device, args.seed)
        print(markdown_table(["graph", "n", "operation", "arcs", "ms (median)", "vs recompute"], rows[-(len(batches) + 3):]),
              flush=True)
    header = ["graph", "n", "operation", "arcs", "ms (median)", "vs recompute"]
    info = machine()
    if args.device == "gpu":
        import cupy as cp

        info["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    table = markdown_table(header, rows)
    stem = "dynamic_closure-" + ("cpu" if args.device == "cpu" else "gpu-" + gpu_kind(info["gpu"]))
    write_results(stem, {"machine": info, "args": vars(args), "rows": rows},
                  f"# Closure updates against recomputing ({info.get('gpu', info.get('cpu', ''))})\n\n{table}\n")


if __name__ == "__main__":
    main()
