"""Where the GPU betweenness time goes: device time per kernel of graphs.cuda.centrality, launches, host time.

    PYTHONPATH=. python3 benchmarks/profile_centrality_gpu.py [--n 100000] [--sources 4096] [--deltas 8 16]

Exact weighted betweenness of ``graphs.generators.road_network(n)`` from ``--sources``
evenly spread sources (a slice of the full job: its time grows with sources x
vertices), once per bucket width.  Every kernel the driver launches is bracketed by
CUDA events (the module proxy of ``profile_traversal_gpu.py``), so each run prints the
device time per kernel and per phase (distances: ``bc_step`` / ``bc_advance``; tight
in-degrees and out-arcs; path counts; dependencies; vertex sums), the number of launches, and the
wall time of the call: the difference is host time (launches, read-backs of the list
lengths, allocation).  The result is checked against the CPU on 64 of the sources.
With ``--json PATH`` the figures are written there too.
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from profile_traversal_gpu import _Timed  # noqa: E402

import graphs  # noqa: E402

PHASES = {"bc_start": "distances", "bc_step": "distances", "bc_advance": "distances",
          "bc_indegree": "tight in-degrees and out-arcs", "bc_count": "path counts",
          "bc_count_advance": "path counts", "bc_depend": "dependencies", "bc_colsum": "vertex sums"}


class _Captured(logging.Handler):
    """The driver's debug lines (rounds, waves, relaxations per pair)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def profile(Gg, sources: np.ndarray, delta: float | None) -> dict:
    """One betweenness call over ``sources`` with bucket width ``delta`` (mean arc weights), kernels timed."""
    import cupy as cp

    from graphs.cuda import centrality as C

    old_delta, old_fn = C.DELTA_ARCS, C._fn
    log: list = []
    stats = _Captured()
    C._log.addHandler(stats)
    C._log.setLevel(logging.DEBUG)
    C.DELTA_ARCS = delta
    C._fn = lambda name: _Timed(C._module(), log).get_function(name)
    try:
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        graphs.betweenness_centrality(Gg, sources=sources, normalized=False)
        cp.cuda.Device().synchronize()
        wall = time.perf_counter() - t
    finally:
        C.DELTA_ARCS, C._fn = old_delta, old_fn
        C._log.removeHandler(stats)
    kernels: dict = collections.defaultdict(lambda: [0, 0.0])
    for name, a, b in log:
        kernels[name][0] += 1
        kernels[name][1] += cp.cuda.get_elapsed_time(a, b) / 1e3
    phases: dict = collections.defaultdict(float)
    for name, (_, s) in kernels.items():
        phases[PHASES.get(name, name)] += s
    device = sum(s for _, s in kernels.values())
    pairs = int(sources.shape[0]) * Gg.n
    return {"delta_arcs": delta, "sources": int(sources.shape[0]), "wall_s": wall, "device_s": device,
            "host_s": wall - device, "ns_per_pair": wall / pairs * 1e9, "search": stats.messages,
            "kernels": {k: {"launches": c, "seconds": s} for k, (c, s) in sorted(kernels.items())},
            "phases": dict(phases)}


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
    runs = []
    for d in args.deltas:
        r = profile(Gg, src, d)
        runs.append(r)
        print(f"\nbucket width {d} mean arcs: wall {r['wall_s']:.3f} s, kernels {r['device_s']:.3f} s, host "
              f"{r['host_s']:.3f} s; {r['ns_per_pair']:.2f} ns per (source, vertex) pair")
        for m in r["search"]:
            print(f"  {m}")
        for ph, s in sorted(r["phases"].items(), key=lambda x: -x[1]):
            print(f"  {ph:18s} {s:8.3f} s  {s / r['wall_s']:6.1%}")
        for k, v in sorted(r["kernels"].items(), key=lambda x: -x[1]["seconds"]):
            print(f"    {k:12s} {v['launches']:7d} launches  {v['seconds']:8.3f} s")
    if args.json:
        args.json.write_text(json.dumps({"gpu": name, "n": args.n, "arcs": int(G.nnz), "check_err": err,
                                         "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
