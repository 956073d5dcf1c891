"""Where the GPU betweenness time goes: device time per kernel of graphs.cuda.centrality, launches, host time.

    PYTHONPATH=. python3 benchmarks/profile_centrality_gpu.py [--n 100000] [--sources 4096] [--deltas 8 16]

Exact weighted betweenness of ``graphs.generators.road_network(n)`` from ``--sources``
evenly spread sources (a slice of the full job: its time grows with sources x
vertices), twice per bucket width: once as the library runs it (chunks of steps
replayed as CUDA graphs; wall time), and once with every kernel launched directly and
bracketed by CUDA events (the module proxy of ``profile_traversal_gpu.py``), which gives
the device time per kernel and per phase (distances: ``bc_step`` / ``bc_advance``; tight
in-degrees and out-arcs; path counts; dependencies; vertex sums), the number of launches,
and the wall time of that call: the difference is host time (launches, read-backs of the
search's state, allocation).  The result is checked against the CPU on 64 of the sources.
The ceilings beside them, measured in the same run on records as many as the batch's:
random 32-byte record reads, fp64 ``atomicAdd``s and ``atomicSub``s with their result
per second.  With ``--json PATH`` the figures are written there too.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from profile_traversal_gpu import _Timed  # noqa: E402

import graphs  # noqa: E402
from benchmarks._common import DebugLines  # noqa: E402

PHASES = {"bc_clear": "distances", "bc_start": "distances", "bc_step": "distances", "bc_advance": "distances",
          "bc_indegree": "tight in-degrees and out-arcs", "bc_count": "path counts",
          "bc_count_advance": "path counts", "bc_depend": "dependencies", "bc_depend_advance": "dependencies",
          "bc_colsum": "vertex sums"}


def profile(Gg, sources: np.ndarray, delta: float | None) -> dict:
    """Two betweenness calls over ``sources`` with bucket width ``delta`` (mean arc weights): one as the
    library runs it (chunks of steps replayed as CUDA graphs), timed as a whole; one launching each kernel
    directly, timed kernel by kernel."""
    import cupy as cp

    from graphs.cuda import batched_search as BS
    from graphs.cuda import centrality as C

    old = BS.DELTA_ARCS, C.kernel_function, BS.kernel_function, BS.REPLAY_GRAPHS
    log: list = []
    BS.DELTA_ARCS = delta
    with DebugLines(C.__name__) as stats:
        try:
            cp.cuda.Device().synchronize()
            t = time.perf_counter()
            graphs.betweenness_centrality(Gg, sources=sources, normalized=False)
            cp.cuda.Device().synchronize()
            replayed = time.perf_counter() - t
            BS.REPLAY_GRAPHS = False
            C.kernel_function = lambda name: _Timed(C._module(), log).get_function(name)
            BS.kernel_function = lambda name: _Timed(BS._module(), log).get_function(name)
            cp.cuda.Device().synchronize()
            t = time.perf_counter()
            graphs.betweenness_centrality(Gg, sources=sources, normalized=False)
            cp.cuda.Device().synchronize()
            wall = time.perf_counter() - t
        finally:
            BS.DELTA_ARCS, C.kernel_function, BS.kernel_function, BS.REPLAY_GRAPHS = old
    kernels: dict = collections.defaultdict(lambda: [0, 0.0])
    for name, a, b in log:
        kernels[name][0] += 1
        kernels[name][1] += cp.cuda.get_elapsed_time(a, b) / 1e3
    phases: dict = collections.defaultdict(float)
    for name, (_, s) in kernels.items():
        phases[PHASES.get(name, name)] += s
    device = sum(s for _, s in kernels.values())
    pairs = int(sources.shape[0]) * Gg.n
    return {"delta_arcs": delta, "sources": int(sources.shape[0]), "replayed_wall_s": replayed,
            "replayed_ns_per_pair": replayed / pairs * 1e9, "wall_s": wall, "device_s": device,
            "host_s": wall - device, "ns_per_pair": wall / pairs * 1e9, "search": stats.lines[:1],
            "kernels": {k: {"launches": c, "seconds": s} for k, (c, s) in sorted(kernels.items())},
            "phases": dict(phases)}


_CEILING = r"""
struct __align__(32) Rec { unsigned long long a, b, c, d; };
// One random 32-byte record per thread: read it (gather), or add to its second word (fp64 atomicAdd), or take one
// off its third word and read the old value (the path counts' in-degree).
extern "C" __global__ void ceiling(Rec* R, const int* __restrict__ idx, long long m, int op,
                                   unsigned long long* out) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= m) return;
    Rec* r = R + idx[i];
    unsigned long long x;
    if (op == 0) {
        Rec v = *r;
        x = v.a ^ v.b ^ v.c ^ v.d;
    } else if (op == 1) {
        atomicAdd((double*)&r->b, 1.0);
        x = 0;
    } else {
        x = (unsigned long long)atomicSub((int*)&r->c, 1);
    }
    if (x == 0x0123456789abcdefULL) out[0] = x;  // (never) keeps the load
}
"""


def ceilings(records: int, m: int = 1 << 26, repeats: int = 5) -> dict:
    """Random 32-byte record accesses per second over ``records`` records (the size of a batch's records), with
    CUDA events, median of ``repeats`` after a warm-up: reads, fp64 atomicAdds, int atomicSubs with their result."""
    import cupy as cp

    fn = cp.RawModule(code=_CEILING, options=("-std=c++17",)).get_function("ceiling")
    R = cp.random.randint(0, 2**62, size=4 * records, dtype=cp.int64).view(cp.uint64)  # random bits, never zeros
    R.view(cp.float64)[1::4] = 1.0
    idx = cp.random.randint(0, records, size=m, dtype=cp.int32)
    out = cp.zeros(1, dtype=cp.uint64)
    grid = (-(-m // 256),)
    rates = {}
    for op, name in enumerate(("read", "fp64 atomicAdd", "int atomicSub with result")):
        times = []
        for rep in range(repeats + 1):
            a, b = cp.cuda.Event(), cp.cuda.Event()
            a.record()
            fn(grid, (256,), (R, idx, np.int64(m), np.int32(op), out))
            b.record()
            b.synchronize()
            if rep:
                times.append(cp.cuda.get_elapsed_time(a, b) / 1e3)
        rates[name] = m / float(np.median(times))
    del R, idx
    cp.get_default_memory_pool().free_all_blocks()
    return rates


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100000, help="vertices of the road network")
    ap.add_argument("--sources", type=int, default=4096)
    ap.add_argument("--deltas", nargs="+", type=lambda s: None if s == "None" else float(s), default=[8.0])
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    import cupy as cp

    G = graphs.generators.road_network(args.n, seed=0)
    Gg = G.to("gpu")
    src = np.arange(0, args.n, max(1, args.n // args.sources))[: args.sources].astype(np.int32)
    check = src[:: max(1, src.shape[0] // 64)][:64]
    ref = graphs.betweenness_centrality(G, sources=check, normalized=False)
    got = graphs.betweenness_centrality(Gg, sources=check, normalized=False).get()  # also compiles the kernels
    err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1e-12)))
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"{name}; road_network({args.n}): {G.nnz} arcs; {src.shape[0]} sources; 64-source check against the "
          f"CPU: max rel err {err:.1e}", flush=True)
    ceil = ceilings(src.shape[0] * args.n)
    print("random 32-byte records of a batch's size (" + ", ".join(f"{k}: {v / 1e9:.1f} G/s" for k, v in ceil.items())
          + ")", flush=True)
    runs = []
    for d in args.deltas:
        r = profile(Gg, src, d)
        runs.append(r)
        print(f"\nbucket width {d} mean arcs: {r['replayed_wall_s']:.3f} s as run ({r['replayed_ns_per_pair']:.2f} ns "
              f"per (source, vertex) pair); kernels launched one by one: wall {r['wall_s']:.3f} s, kernels "
              f"{r['device_s']:.3f} s, host {r['host_s']:.3f} s")
        for m in r["search"]:
            print(f"  {m}")
        for ph, s in sorted(r["phases"].items(), key=lambda x: -x[1]):
            print(f"  {ph:18s} {s:8.3f} s  {s / r['wall_s']:6.1%}")
        for k, v in sorted(r["kernels"].items(), key=lambda x: -x[1]["seconds"]):
            print(f"    {k:12s} {v['launches']:7d} launches  {v['seconds']:8.3f} s")
    if args.json:
        args.json.write_text(json.dumps({"gpu": name, "n": args.n, "arcs": int(G.nnz), "check_err": err,
                                         "random_record_ceilings_per_s": ceil, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
