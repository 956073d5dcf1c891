"""Where the GPU traversal time goes: per-kernel timelines of BFS and SSSP, SpMV variants.

    PYTHONPATH=. python3 benchmarks/profile_traversal_gpu.py [--scale 22] [--part spmv,bfs,sssp,once]

Every kernel launched by the graph drivers of :mod:`graphs.cuda` is bracketed by CUDA
events (through a thin proxy of the modules :func:`graphs.cuda.launch.module` compiles),
so each run prints the device time per kernel name, the number of launches, and the wall
time of the whole call: the difference is host time (launch overhead, read-backs,
allocation). The SpMV part times the gather kernels for several (group, long-row
threshold, chunk) plans against cuSPARSE on the same matrix, each checked against the
CPU kernel first. The SSSP part sweeps the bucket width. ``--part once`` runs one SpMV
and one BFS and nothing else, for a kernel profiler (``ncu --kernel-name ...``). Output:
stdout and, with --json, a JSON file.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import gpu_time  # noqa: E402

import graphs  # noqa: E402
from graphs import generators as gen  # noqa: E402


class _Timed:
    """A compiled-module proxy whose kernels record (name, start event, end event) into ``log``."""

    def __init__(self, mod, log: list) -> None:
        self._mod, self._log = mod, log

    def get_function(self, name: str):
        import cupy as cp

        k = self._mod.get_function(name)

        def call(grid, block, args, **kw):
            a, b = cp.cuda.Event(), cp.cuda.Event()
            a.record()
            k(grid, block, args, **kw)
            b.record()
            self._log.append((name, a, b))

        return call


def timeline(fn, repeats: int = 3) -> dict:
    """Median wall time of ``fn`` and the device time per kernel name of its last run."""
    import cupy as cp

    import graphs.cuda.launch as gl

    orig = gl.module
    log: list = []
    gl.module = lambda *a, **k: _Timed(orig(*a, **k), log)
    try:
        walls = []
        for _ in range(repeats):
            log.clear()
            cp.cuda.Device().synchronize()
            t = time.perf_counter()
            fn()
            cp.cuda.Device().synchronize()
            walls.append(time.perf_counter() - t)
    finally:
        gl.module = orig
    per = collections.defaultdict(lambda: [0, 0.0])
    for name, a, b in log:
        per[name][0] += 1
        per[name][1] += cp.cuda.get_elapsed_time(a, b) / 1e3
    span = cp.cuda.get_elapsed_time(log[0][1], log[-1][2]) / 1e3 if log else 0.0
    return {"wall_ms": statistics.median(walls) * 1e3, "span_ms": span * 1e3,
            "kernels": {k: {"launches": v[0], "ms": v[1] * 1e3} for k, v in sorted(per.items())}}


def spmv_part(G, out: dict) -> None:
    import cupy as cp

    import semiring as sr
    import semiring.cuda.sparse as cs
    from semiring import sparse

    A = G.to_scipy()
    x = cp.random.default_rng(1).random(G.n, dtype=cp.float32)
    want = sr.min_plus.mxv(A.get(), x.get())
    res = {"cusparse_ms": gpu_time(lambda: A @ x, 20) * 1e3, "validated_ms": gpu_time(lambda: sr.min_plus.mxv(A, x), 20) * 1e3}
    plans = {}
    orig_plan = cs.gather_plan
    try:
        for group in (4, 8):
            for heavy_min in (128, 256):
                for chunk in (512, 1024):
                    cs.gather_plan = lambda n, nnz, g=group, h=heavy_min, c=chunk: (g, h, c)
                    got = sparse.mxv(sr.min_plus, A, x, check=False)
                    ok = bool(np.array_equal(got.get(), want))
                    ms = gpu_time(lambda: sparse.mxv(sr.min_plus, A, x, check=False), 20) * 1e3
                    plans[f"g{group}-h{heavy_min}-c{chunk}"] = {"ms": ms, "ok": ok,
                                                                "vs_cusparse": res["cusparse_ms"] / ms}
    finally:
        cs.gather_plan = orig_plan
    res["default_ms"] = gpu_time(lambda: sparse.mxv(sr.min_plus, A, x, check=False), 20) * 1e3
    K = sparse.kernels_for(sr.min_plus, np.float32, "gpu")
    log: list = []
    mod, K.mod = K.mod, _Timed(K.mod, log)
    try:
        for _ in range(5):
            sparse.mxv(sr.min_plus, A, x, check=False)
        cp.cuda.Device().synchronize()
    finally:
        K.mod = mod
    per = collections.defaultdict(list)
    for name, a, b in log:
        per[name].append(cp.cuda.get_elapsed_time(a, b))
    res["kernels_ms"] = {k: statistics.median(v) for k, v in per.items()}
    print("SpMV kernels (median of 5 calls): " + ", ".join(f"{k} {v:.3f} ms" for k, v in res["kernels_ms"].items()))
    res["plans"] = plans
    best = min(plans, key=lambda k: plans[k]["ms"])
    print(f"SpMV nnz={A.nnz}: cuSPARSE {res['cusparse_ms']:.3f} ms; validated {res['validated_ms']:.3f}; "
          f"default {res['default_ms']:.3f}; best {best} {plans[best]['ms']:.3f} ms "
          f"({plans[best]['vs_cusparse'] * 100:.0f}%)")
    for k, v in sorted(plans.items(), key=lambda kv: kv[1]["ms"]):
        print(f"  {k:16s} {v['ms']:.3f} ms {v['vs_cusparse'] * 100:5.1f}% ok={v['ok']}")
    out["spmv"] = res


def print_timeline(label: str, t: dict) -> None:
    busy = sum(v["ms"] for v in t["kernels"].values())
    print(f"{label}: wall {t['wall_ms']:.3f} ms, first-to-last kernel {t['span_ms']:.3f} ms, kernels {busy:.3f} ms")
    for k, v in sorted(t["kernels"].items(), key=lambda kv: -kv[1]["ms"]):
        print(f"    {k:24s} x{v['launches']:5d} {v['ms']:8.3f} ms")


def bfs_part(G, srcs, out: dict) -> None:
    res = {}
    for s in srcs[:3]:
        graphs.bfs(G, s)
        t = timeline(lambda s=s: graphs.bfs(G, s))
        tr = graphs.bfs(G, s, return_trace=True)[2]
        t["levels"] = [(r["direction"], r["frontier"], r["edges"]) for r in tr]
        print_timeline(f"BFS source {s} ({len(tr)} levels)", t)
        res[str(s)] = t
    sweep = {}
    for alpha in (4.0, 8.0, 15.0, 30.0):
        for beta in (6.0, 18.0, 24.0):
            ts = [timeline(lambda s=s, a=alpha, b=beta: graphs.bfs(G, s, alpha=a, beta=b), 1)["wall_ms"] for s in srcs]
            sweep[f"a{alpha}-b{beta}"] = statistics.median(ts)
    for k, v in sorted(sweep.items(), key=lambda kv: kv[1]):
        print(f"  BFS {k}: {v:.3f} ms = {G.num_edges / v / 1e6:.1f} GTEPS")
    res["sweep"] = sweep
    out["bfs"] = res


def sssp_part(G, srcs, out: dict) -> None:
    from graphs.paths.sssp import default_delta

    s = srcs[0]
    ref = graphs.sssp(G.to("cpu"), s)[0]
    res = {"default_delta": default_delta(G)}
    for delta in (None, 8.0, 32.0, 64.0, 128.0, 1e9):
        graphs.sssp(G, s, delta=delta)
        ok = bool(np.array_equal(graphs.sssp(G, s, delta=delta)[0].get(), ref))
        t = timeline(lambda d=delta: graphs.sssp(G, s, delta=d))
        t["ok"] = ok
        print_timeline(f"SSSP delta={delta} ok={ok} ({G.num_edges / t['wall_ms'] / 1e6:.2f} GTEPS)", t)
        res[str(delta)] = t
    out["sssp"] = res


def main(argv=None) -> None:
    import cupy as cp

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--part", default="spmv,bfs,sssp")
    p.add_argument("--sources", type=int, default=8)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    G = gen.rmat(args.scale, seed=0, device="gpu")
    cp.cuda.Device().synchronize()
    deg = cp.diff(G.indptr)
    cand = cp.flatnonzero(deg > 0).get()
    srcs = np.random.default_rng(2).choice(cand, size=args.sources, replace=False).tolist()
    out: dict = {"scale": args.scale, "n": G.n, "arcs": G.nnz, "edges": G.num_edges}
    parts = args.part.split(",")
    if "once" in parts:  # one SpMV and one BFS, for a kernel profiler (ncu --kernel-name ...)
        import semiring as sr
        from semiring import sparse

        A = G.to_scipy()
        x = cp.random.default_rng(1).random(G.n, dtype=cp.float32)
        sparse.mxv(sr.min_plus, A, x, check=False)
        graphs.bfs(G, srcs[0])
        cp.cuda.Device().synchronize()
    for name, fn in (("spmv", lambda: spmv_part(G, out)), ("bfs", lambda: bfs_part(G, srcs, out)),
                     ("sssp", lambda: sssp_part(G, srcs, out))):
        if name in parts:
            fn()
            sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
