"""Maximum-flow half of ``benchmarks/mst_flow.py``: ours against SciPy's Dinic (and NetworkX), side by side.

``run_cpu(args)``: a 2-D grid (``--flow-grid``, 500 x 500 = 250k vertices) and
R-MAT (``--flow-scale``, 16; edge factor 16, Graph500 parameters), integer
capacities 1..100, against ``scipy.sparse.csgraph.maximum_flow(method="dinic")``
on the same machine, interleaved round by round (median of ``--repeats``), and
NetworkX's default (preflow-push) on a 100 x 100 grid and R-MAT scale 12.
``run_gpu(args)``: a 1000 x 1000 grid and R-MAT scale 20 on the GPU against
SciPy's Dinic on the same machine's CPU.  Every flow value is checked against
SciPy's before anything is timed.  Terminal pairs: on grids the middle row's
vertices at 1% and 99% of the width, and the two corners; on R-MAT the two
vertices of highest degree, and two random vertices of degree at least 2.

Standalone: ``PYTHONPATH=. python3 benchmarks/_flow_bench.py [--gpu]`` writes
``benchmarks/results/flow-{cpu,gpu}.{json,md,png}``.
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

from _common import machine, markdown_table, write_results  # noqa: E402

import graphs  # noqa: E402
from graphs import generators as gen  # noqa: E402

__all__ = ["run_cpu", "run_gpu", "add_arguments", "table"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of this half (all with defaults, so a merged script may skip them)."""
    p.add_argument("--flow-grid", type=int, default=None, help="grid side (500 on the CPU, 1000 on the GPU)")
    p.add_argument("--flow-scale", type=int, default=None, help="R-MAT scale (16 on the CPU, 20 on the GPU)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--no-networkx", action="store_true")
    p.add_argument("--flow-budget", type=float, default=None, help="seconds of timing rounds per s-t pair (60)")


def _opt(args, name, default):
    v = getattr(args, name, None)
    return default if v is None else v


def _scipy_matrix(G):
    import scipy.sparse as sp

    C = sp.csr_array((G.weights.astype(np.int32), G.indices.copy(), G.indptr.copy()), shape=(G.n, G.n))
    C.sum_duplicates()  # SciPy wants canonical CSR; the copy keeps G's arrays intact
    return C


def _pairs(G, kind: str, seed: int = 0):
    n = G.n
    if kind == "grid":
        side = int(round(n**0.5))
        mid = (side // 2) * side
        return [("mid-row 1%-99%", mid + side // 100, mid + side - 1 - side // 100), ("corners", 0, n - 1)]
    deg = np.diff(G.indptr if G.device == "cpu" else G.indptr.get())
    order = np.argsort(-deg, kind="stable")
    rng = np.random.default_rng(seed)
    cand = np.flatnonzero(deg >= 2)
    a, b = (int(x) for x in rng.choice(cand, 2, replace=False))
    return [("two top hubs", int(order[0]), int(order[1])), ("random", a, b)]




def _interleaved(fns, repeats: int, budget_s: float = 120.0, first: list[float] | None = None):
    """Median seconds of each of ``fns`` (wall clock), called in turn round after round.

    ``fns[0]`` (ours: compiled kernels, warm caches) is called once untimed first; the
    others need no warm-up, and ``first`` holds times of theirs already taken (the
    checking call).  Rounds stop after ``budget_s`` seconds.
    """
    fns[0]()
    times: list[list[float]] = [[]] + [[x] for x in (first or [])] + [[] for _ in fns[1 + len(first or []):]]
    start = time.perf_counter()
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
        if time.perf_counter() - start > budget_s:
            break
    return [statistics.median(t) for t in times], len(times[0])


def _networkx_time(G, s, t) -> float:
    import networkx as nx

    src, dst, w = G.edges()
    D = nx.DiGraph()
    for u, v, c in zip(src.tolist(), dst.tolist(), w.tolist()):
        if u != v:
            D.add_edge(u, v, capacity=D[u][v]["capacity"] + c if D.has_edge(u, v) else c)
    t0 = time.perf_counter()
    nx.maximum_flow_value(D, s, t)
    return time.perf_counter() - t0


def _graphs(side: int, scale: int, device: str):
    return [
        (f"grid {side}x{side}", "grid", gen.grid_2d(side, side, seed=1, dtype=np.int64, device=device)),
        (f"R-MAT {scale} ef16", "rmat", gen.rmat(scale, 16, seed=1, dtype=np.int64, device=device)),
    ]


def _bench(G, kind, name, device, repeats, budget, sync=lambda: None):
    import scipy.sparse.csgraph as csg

    Gc = G if G.device == "cpu" else G.to("cpu")
    C = _scipy_matrix(Gc)
    rows = []
    for what, s, t in _pairs(Gc, kind):
        ours = graphs.maximum_flow(G, s, t)
        t0 = time.perf_counter()
        ref = csg.maximum_flow(C, s, t, method="dinic")
        t_check = time.perf_counter() - t0
        if ours.flow_value != ref.flow_value:
            raise AssertionError(f"{name} {what}: flow {ours.flow_value} != SciPy's {ref.flow_value}")

        def run_ours(s=s, t=t):
            graphs.maximum_flow(G, s, t)
            sync()

        (t_ours, t_scipy), k = _interleaved(
            [run_ours, lambda s=s, t=t: csg.maximum_flow(C, s, t, method="dinic")], repeats, budget, first=[t_check])
        rows.append({"part": "max-flow", "device": device, "graph": name, "pair": what, "n": G.n, "arcs": G.nnz,
                     "s": s, "t": t, "flow_value": int(ours.flow_value), "ours_s": t_ours, "scipy_dinic_s": t_scipy,
                     "speedup_vs_scipy": t_scipy / t_ours, "repeats": k,
                     "edges_per_s": G.nnz / t_ours})
    return rows


def run_cpu(args) -> list[dict]:
    """Ours against SciPy's Dinic on this CPU (and NetworkX on small graphs); one dict per graph and pair."""
    rows = []
    repeats = _opt(args, "repeats", 5)
    for name, kind, G in _graphs(_opt(args, "flow_grid", 500), _opt(args, "flow_scale", 16), "cpu"):
        rows += _bench(G, kind, name, "cpu", repeats, _opt(args, "flow_budget", 60.0))
    if not getattr(args, "no_networkx", False):
        for name, kind, G in _graphs(*((30, 8) if getattr(args, "quick", False) else (100, 12)), "cpu"):
            for what, s, t in _pairs(G, kind):
                (t_ours,), _ = _interleaved([lambda s=s, t=t, G=G: graphs.maximum_flow(G, s, t)], repeats)
                t_nx = _networkx_time(G, s, t)
                rows.append({"part": "max-flow", "device": "cpu", "graph": name, "pair": what, "n": G.n,
                             "arcs": G.nnz, "s": s, "t": t,
                             "flow_value": int(graphs.maximum_flow(G, s, t).flow_value), "ours_s": t_ours,
                             "networkx_s": t_nx, "speedup_vs_networkx": t_nx / t_ours, "repeats": repeats})
    return rows


def run_gpu(args) -> list[dict]:
    """Ours on the GPU against SciPy's Dinic on the same machine's CPU; one dict per graph and pair."""
    import cupy as cp

    def sync():
        cp.cuda.Device().synchronize()

    rows = []
    repeats = _opt(args, "repeats", 5)
    for name, kind, G in _graphs(_opt(args, "flow_grid", 1000), _opt(args, "flow_scale", 20), "gpu"):
        rows += _bench(G, kind, name, "gpu", repeats, _opt(args, "flow_budget", 60.0), sync)
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a markdown table (ms and ratios)."""
    out = []
    for r in rows:
        other = "scipy_dinic_s" if "scipy_dinic_s" in r else "networkx_s"
        out.append([r["device"], r["graph"], r["pair"], r["flow_value"], f"{r['ours_s'] * 1e3:.1f}",
                    f"{r[other] * 1e3:.1f} ({'SciPy dinic' if other == 'scipy_dinic_s' else 'NetworkX'})",
                    f"{r[other] / r['ours_s']:.2f}x", r["repeats"]])
    return markdown_table(["device", "graph", "s-t pair", "flow", "ours ms", "reference ms", "speedup", "rounds"], out)


def _plot(rows: list[dict], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    labels = [f"{r['graph']}\n{r['pair']}" for r in rows]
    ratio = [r.get("speedup_vs_scipy", r.get("speedup_vs_networkx")) for r in rows]
    fig, ax = plt.subplots(figsize=(max(5, 1.5 * len(rows)), 3.8))
    ax.bar(range(len(rows)), ratio, color=["C0" if "speedup_vs_scipy" in r else "C2" for r in rows])
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(rows)), labels, fontsize=7)
    ax.set_ylabel("speedup (reference time / ours)")
    ax.set_title("maximum flow: ours vs SciPy dinic (blue), NetworkX (green)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gpu", action="store_true")
    add_arguments(p)
    args = p.parse_args(argv)
    rows = run_gpu(args) if args.gpu else run_cpu(args)
    stem = "flow-gpu" if args.gpu else "flow-cpu"
    md = table(rows)
    info = machine()
    j, _ = write_results(stem, {"machine": info, "rows": rows}, f"CPU: {info['cpu']} ({info['cores']} cores; {info['simd']})\n\n" + md)
    _plot(rows, j.with_suffix(".png"))
    print(md)


if __name__ == "__main__":
    main()
