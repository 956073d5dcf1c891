"""Minimum spanning forest half of ``benchmarks/mst_flow.py``: ours against SciPy (and NetworkX) side by side.

:func:`run_cpu` times :func:`graphs.minimum_spanning_tree` on this machine's
CPU against ``scipy.sparse.csgraph.minimum_spanning_tree`` (a serial Kruskal)
on R-MAT (scale ``--scale``, default 18, edge factor 16, weights 1..100,
undirected), a 500 x 500 grid and email-Enron (seeded weights), and against
NetworkX on a small R-MAT.  Ours and SciPy's are timed in turn, round after
round (interleaved), and the medians compared; every result is checked
(the forest weights agree) before it is timed.  Each contender gets its own
native input, prepared outside the timing: ours a :class:`graphs.Graph`, SciPy
a ``csr_array``, NetworkX an ``nx.Graph``.  One extra row times ours from the
SciPy matrix (``Graph.from_scipy`` included).

:func:`run_gpu` times the GPU forest (CUDA events, host loop included) on
R-MAT scale ``--gpu-scale`` (default 22, edge factor 16) and R-MAT 18 and a
1000 x 1000 grid, against SciPy run on the same machine's CPU in the same run,
and reports milliseconds, input edges per second and the speed-up.

Standalone::

    PYTHONPATH=. python3 benchmarks/_mst_bench.py [--gpu] [--scale 18] [--repeats 7]

writes benchmarks/results/mst-{cpu,gpu}.{json,md}.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import gpu_time, machine, markdown_table, results_dir, write_results  # noqa: E402

import graphs  # noqa: E402
from graphs import Graph  # noqa: E402
from graphs import generators as gen  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _scipy_mst(A):
    from scipy.sparse.csgraph import minimum_spanning_tree

    return minimum_spanning_tree(A)


def _interleaved(fns, repeats: int) -> list[float]:
    """Median wall seconds of each of ``fns``, timed in turn round after round (one warm-up each)."""
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
    return [statistics.median(t) for t in times]


def _cpu_cases(args) -> list[tuple[str, Graph]]:
    scale = int(getattr(args, "scale", 18) or 18)
    side = 100 if getattr(args, "quick", False) else 500
    cases = [(f"R-MAT {scale}, ef 16", gen.rmat(scale, 16, seed=1)),
             (f"grid {side} x {side}", gen.grid_2d(side, side, seed=2))]
    path = DATA / "email-Enron.txt"
    if path.exists():
        G0 = graphs.read(path)
        w = np.random.default_rng(3).integers(1, 101, G0.nnz).astype(np.float32)
        cases.append(("email-Enron (seeded weights)", Graph(G0.indptr, G0.indices, w, directed=True)))
    return cases


def run_cpu(args) -> list[dict]:
    """Ours vs SciPy (and NetworkX on a small R-MAT) on this CPU; one dict per (graph, contender)."""
    repeats = int(getattr(args, "repeats", 7) or 7)
    rows: list[dict] = []
    for name, G in _cpu_cases(args):
        A = G.to_scipy()
        ours = graphs.minimum_spanning_tree(G)
        ref = float(_scipy_mst(A).sum())
        assert abs(ours.weight - ref) <= 1e-9 * abs(ref), (name, ours.weight, ref)
        t_ours, t_scipy, t_conv = _interleaved(
            [lambda G=G: graphs.minimum_spanning_tree(G), lambda A=A: _scipy_mst(A),
             lambda A=A: graphs.minimum_spanning_tree(Graph.from_scipy(A))], repeats)
        base = {"graph": name, "n": G.n, "edges": G.num_edges, "device": "cpu", "repeats": repeats}
        rows.append({**base, "impl": "ours", "seconds": t_ours, "speedup_vs_scipy": t_scipy / t_ours})
        rows.append({**base, "impl": "ours from SciPy csr (Graph.from_scipy included)", "seconds": t_conv,
                     "speedup_vs_scipy": t_scipy / t_conv})
        rows.append({**base, "impl": "scipy", "seconds": t_scipy, "speedup_vs_scipy": 1.0})
    try:
        import networkx as nx
    except ImportError:
        return rows
    nx_scale = 10 if getattr(args, "quick", False) else 14
    G = gen.rmat(nx_scale, 16, seed=4)
    A = G.to_scipy()
    H = nx.from_scipy_sparse_array(A)
    ref = float(_scipy_mst(A).sum())
    t_nx = _interleaved([lambda: nx.minimum_spanning_tree(H)], 3)[0]
    t_ours, t_scipy = _interleaved([lambda: graphs.minimum_spanning_tree(G), lambda: _scipy_mst(A)], repeats)
    assert abs(graphs.minimum_spanning_tree(G).weight - ref) <= 1e-9 * ref
    base = {"graph": f"R-MAT {nx_scale}, ef 16", "n": G.n, "edges": G.num_edges, "device": "cpu", "repeats": repeats}
    for impl, t in (("ours", t_ours), ("scipy", t_scipy), ("networkx", t_nx)):
        rows.append({**base, "impl": impl, "seconds": t, "speedup_vs_scipy": t_scipy / t})
    return rows


def run_gpu(args) -> list[dict]:
    """The GPU forest against SciPy on this machine's CPU, same run; ms, input edges/s, speed-up."""
    import cupy as cp

    scale = int(getattr(args, "gpu_scale", 22) or 22)
    repeats = int(getattr(args, "repeats", 7) or 7)
    rows: list[dict] = []
    small, side = (14, 300) if getattr(args, "quick", False) else (18, 1000)
    cases = [(f"R-MAT {scale}, ef 16", lambda: gen.rmat(scale, 16, seed=1, device="gpu")),
             (f"R-MAT {small}, ef 16", lambda: gen.rmat(small, 16, seed=1, device="gpu")),
             (f"grid {side} x {side}", lambda: gen.grid_2d(side, side, seed=2, device="gpu"))]
    for name, make in cases:
        Gg = make()
        Gc = Gg.to("cpu")
        A = Gc.to_scipy()
        ours = graphs.minimum_spanning_tree(Gg)
        t = time.perf_counter()
        ref = float(_scipy_mst(A).sum())
        first = time.perf_counter() - t
        assert abs(ours.weight - ref) <= 1e-9 * abs(ref), (name, ours.weight, ref)
        t_gpu = gpu_time(lambda Gg=Gg: graphs.minimum_spanning_tree(Gg), repeats=repeats, warmup=2)
        k = 3 if first > 5 else repeats
        t_scipy = statistics.median([first] + [_timed(lambda A=A: _scipy_mst(A)) for _ in range(k - 1)])
        t_cpu_ours = _interleaved([lambda Gc=Gc: graphs.minimum_spanning_tree(Gc)], 3)[0]
        cp.cuda.Device().synchronize()
        base = {"graph": name, "n": Gg.n, "edges": Gg.num_edges, "device": "gpu"}
        rows.append({**base, "impl": "ours (GPU)", "seconds": t_gpu, "ms": 1e3 * t_gpu,
                     "edges_per_s": Gg.num_edges / t_gpu, "speedup_vs_scipy": t_scipy / t_gpu, "repeats": repeats})
        rows.append({**base, "impl": "ours (this machine's CPU)", "seconds": t_cpu_ours, "ms": 1e3 * t_cpu_ours,
                     "edges_per_s": Gg.num_edges / t_cpu_ours, "speedup_vs_scipy": t_scipy / t_cpu_ours,
                     "repeats": 3})
        rows.append({**base, "impl": "scipy (this machine's CPU)", "seconds": t_scipy, "ms": 1e3 * t_scipy,
                     "edges_per_s": Gg.num_edges / t_scipy, "speedup_vs_scipy": 1.0, "repeats": k})
    return rows


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t




def table(rows: list[dict]) -> str:
    header = ["graph", "n", "edges", "impl", "median ms", "M edges/s", "speed-up vs SciPy"]
    body = [[r["graph"], r["n"], r["edges"], r["impl"], f"{1e3 * r['seconds']:.1f}",
             f"{r['edges'] / r['seconds'] / 1e6:.1f}", f"{r['speedup_vs_scipy']:.2f}x"] for r in rows]
    return markdown_table(header, body)


def plot(rows: list[dict], stem: str, title: str) -> None:
    """Bar chart of median milliseconds per graph, one bar per contender (log scale): ``<stem>.png``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    graphs_seen = list(dict.fromkeys(r["graph"] for r in rows))
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    fig, ax = plt.subplots(figsize=(max(6, 2.2 * len(graphs_seen)), 4))
    width = 0.8 / len(impls)
    for k, impl in enumerate(impls):
        xs, ys = [], []
        for g, name in enumerate(graphs_seen):
            for r in rows:
                if r["graph"] == name and r["impl"] == impl:
                    xs.append(g + (k - (len(impls) - 1) / 2) * width)
                    ys.append(1e3 * r["seconds"])
        ax.bar(xs, ys, width, label=impl)
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(graphs_seen)), graphs_seen, fontsize=7)
    ax.set_ylabel("median ms (lower is better)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    for folder in [results_dir()] + ([Path(os.environ["OUT"])] if os.environ.get("OUT") else []):
        folder.mkdir(parents=True, exist_ok=True)
        fig.savefig(folder / f"{stem}.png", dpi=120)
    plt.close(fig)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gpu", action="store_true")
    p.add_argument("--scale", type=int, default=18)
    p.add_argument("--gpu-scale", type=int, default=22)
    p.add_argument("--repeats", type=int, default=7)
    args = p.parse_args()
    rows = run_gpu(args) if args.gpu else run_cpu(args)
    md = table(rows)
    stem = "mst-gpu" if args.gpu else "mst-cpu"
    m = machine()
    write_results(stem, {"machine": m, "rows": rows}, md)
    plot(rows, stem, f"minimum spanning forest, {m['cpu']} ({m['cores']} cores)")
    print(md)


if __name__ == "__main__":
    main()
