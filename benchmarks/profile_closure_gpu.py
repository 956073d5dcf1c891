"""Where the time of a :class:`apsp.Closure` update goes on the GPU: inclusive times of its steps.

::

    PYTHONPATH=. python3 benchmarks/profile_closure_gpu.py [--n 16384] [--arcs 30]

On the closure of ``graphs.generators.road_network(n)`` (float64, on the GPU),
``--arcs`` single arcs decreased and ``--arcs`` single arcs removed; each step of
the update (the methods of :class:`apsp.Closure`, the small closures and the
semiring products it calls) is wrapped by a timer that synchronises the device
before and after, so its inclusive time is what the step costs (the wrapping
itself adds a few microseconds per call).  Prints, per operation, the median
update time and the mean time per call of each step, with the sizes of the
changed row sets.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import apsp  # noqa: E402
import graphs  # noqa: E402
from apsp import dynamic_closure as DC  # noqa: E402


def main() -> None:
    import cupy as cp

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--arcs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=64, help="arcs of the batches decreased or inserted")
    ap.add_argument("--host-max", default=f"0,{DC.HOST_CLOSURE_MAX}",
                    help="values of apsp.dynamic_closure.HOST_CLOSURE_MAX to profile in turn")
    args = ap.parse_args()
    sync = cp.cuda.Device().synchronize
    spent: dict[str, list[float]] = collections.defaultdict(list)
    sizes: dict[str, list[int]] = collections.defaultdict(list)

    def wrap(owner, name: str, label: str) -> None:
        real = getattr(owner, name)

        def timed(*a, **kw):
            sync()
            t = time.perf_counter()
            out = real(*a, **kw)
            sync()
            spent[label].append(time.perf_counter() - t)
            return out

        setattr(owner, name, timed)

    for name in ("_apply", "_improve", "_worsen", "_settle_rows", "_leave", "_is_forest", "_product"):
        wrap(DC.Closure, name, "Closure." + name)
    wrap(DC, "shortest_paths", "apsp.shortest_paths (small closures)")
    wrap(DC, "matmul_into", "matmul_into")
    from apsp.cuda import closure_settle, closure_update

    wrap(closure_update, "improve_block_gpu", "fused endpoint-block update")
    wrap(closure_settle, "row_arcs_gpu", "arcs of the rows to settle")
    wrap(closure_settle, "settle_rows_gpu", "relaxation of the rows to settle")
    real_settle = DC.Closure._settle_rows

    def settle(self, W, D, P, Q, *rest):
        sizes["rows recomputed"].append(int(Q.size))
        if rest and rest[0] is not None:
            sizes["columns recomputed"].append(int(rest[0].size))
        return real_settle(self, W, D, P, Q, *rest)

    DC.Closure._settle_rows = settle
    G = graphs.generators.road_network(args.n, seed=0)
    W = cp.asarray(G.to_dense())
    C = apsp.Closure(W)
    rng = np.random.default_rng(0)
    src, dst = G.edges()[:2]
    report = []
    n = args.n
    for host_max, op in [(int(h), op) for h in args.host_max.split(",") for op in ("decrease", "remove", "batch")]:
        DC.HOST_CLOSURE_MAX = host_max
        spent.clear()
        totals = []
        for it in range(args.arcs + 2):  # the first two warm up (kernels compiled), not counted
            if op == "batch":  # --batch random arcs decreased or inserted, as benchmarks/dynamic_closure.py does
                flat = rng.choice(n * n, size=args.batch, replace=False)
                us, vs = flat // n, flat % n
                keep = us != vs
                us, vs = us[keep], vs[keep]
                cur = C.arcs[us, vs].get()
                ws = np.minimum(cur, rng.uniform(0.5, 4.0, us.size) * float(np.median(np.asarray(G.weights))))
            else:
                k = int(rng.integers(src.shape[0]))
                us, vs = np.array([src[k]]), np.array([dst[k]])
                ws = np.array([float(C.arcs[int(us[0]), int(vs[0])]) * rng.uniform(0.3, 0.9)])
            sync()
            t = time.perf_counter()
            if op == "remove":
                C.remove(us, vs)
            else:
                C.update(us, vs, ws)
            sync()
            if it < 2:
                spent.clear()
                continue
            totals.append(time.perf_counter() - t)
        what = f"batch of {args.batch} arcs decreased or inserted" if op == "batch" else f"one arc {op}d"
        report.append(f"HOST_CLOSURE_MAX = {host_max}, {what}: median {statistics.median(totals) * 1e3:.2f} ms over {args.arcs}")
        for label, ts in sorted(spent.items(), key=lambda kv: -sum(kv[1])):
            report.append(f"    {label:40s} {len(ts):4d} calls  {sum(ts) / args.arcs * 1e3:8.3f} ms per update")
    for label, s in sizes.items():
        report.append(f"{label}: median {statistics.median(s)}, max {max(s)} (of {args.n})")
    print("\n".join(report))


if __name__ == "__main__":
    main()
