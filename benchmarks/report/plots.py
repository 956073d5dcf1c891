"""The report's figures (matplotlib, Agg backend), one function per result layout.

Every figure's title names the machine (CPU model and SIMD flags, or the GPU) and the
date of the result file it draws.  Each function returns ``[(png path, caption), ...]``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from .results import Result
from .tables import GPU_METHODS, SWEEP, split_mst_flow

Figure = tuple[Path, str]


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _title(ax, what: str, r: Result) -> None:
    ax.set_title(textwrap.fill(what, 90) + "\n" + textwrap.fill(r.label(), 90), fontsize=8)


def _save(fig, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    _plt().close(fig)
    return path


def _columns(ax, labels: list[str], series: dict[str, list[float | None]], log: bool = True) -> None:
    """Grouped vertical columns, one group per label and one colour per series."""
    import numpy as np

    xs = np.arange(len(labels))
    # Where each label has one value at most (e.g. one reference per flow pair), centre it.
    single = all(sum(ys[i] is not None for ys in series.values()) <= 1 for i in range(len(labels)))
    width = 0.6 if single else 0.8 / max(1, len(series))
    for k, (name, ys) in enumerate(series.items()):
        at = [(x if single else x + (k - (len(series) - 1) / 2) * width, y) for x, y in zip(xs, ys) if y is not None]
        if at:
            ax.bar([a for a, _ in at], [y for _, y in at], width, label=name)
    if len(labels) > 5:
        ax.set_xticks(xs, labels, fontsize=6, rotation=35, ha="right")
    else:
        ax.set_xticks(xs, [textwrap.fill(s, 18) for s in labels], fontsize=6)
    if log:
        ax.set_yscale("log")
    if len(series) > 1:
        ax.legend(fontsize=7)


def _speedups(ax, labels: list[str], series: dict[str, list[float | None]]) -> None:
    _columns(ax, labels, series)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_ylabel("speed-up (reference time / ours), log scale", fontsize=8)


# -- one function per layout ---------------------------------------------------------------
def gemm_cpu(r: Result, folder: Path) -> list[Figure]:
    rows = r.data.get("rows", [])
    if not rows:
        return []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.6))
    labels = [textwrap.shorten(f"{x['impl']} {x['op']} {x['dtype']} n={x['n']} {x.get('note', '')}", 64)
              for x in rows]
    colours = ["tab:blue" if x["impl"].startswith("semiring-paths") else "tab:gray" for x in rows]
    ax.barh(range(len(rows)), [x["gops"] for x in rows], color=colours)
    ax.set_yticks(range(len(rows)), labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("G semiring multiply-adds per second (log scale); blue: semiring-paths", fontsize=8)
    _title(ax, "CPU semiring GEMM rates", r)
    return [(_save(fig, folder, f"{r.stem}-rates.png"), "GEMM rates, ours (blue) and the others (grey)")]


def gemm_gpu(r: Result, folder: Path) -> list[Figure]:
    rows = [x for x in r.data.get("rows", []) if x.get("variant") in SWEEP and x.get("dtype") == "float32"]
    if not rows:
        return []
    plt = _plt()
    figs = []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for v in SWEEP:
        pts = sorted((x["n"], x["seconds"]) for x in rows if x["variant"] == v)
        if pts:
            ax.loglog(*zip(*pts), marker="o", label=v.replace("_", " "))
    ax.set_xlabel("n")
    ax.set_ylabel("median seconds (CUDA events)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    _title(ax, "GPU float32 min-plus GEMM: time against n", r)
    figs.append((_save(fig, folder, f"{r.stem}-time.png"), "time against n, log-log"))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for v in SWEEP:
        pts = sorted((x["n"], x["fraction_of_ceiling"]) for x in rows if x["variant"] == v)
        if pts:
            ax.semilogx(*zip(*pts), marker="o", label=v.replace("_", " "))
    ax.axhline(1.0, color="k", lw=0.8, ls="--", label="measured fp32 ceiling")
    ax.set_xlabel("n")
    ax.set_ylabel("rate / measured fp32 add+min ceiling")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    _title(ax, "GPU float32 min-plus GEMM: rate as a fraction of the measured ceiling", r)
    figs.append((_save(fig, folder, f"{r.stem}-ceiling.png"), "rate as a fraction of the measured ceiling"))
    return figs


def apsp_cpu(r: Result, folder: Path) -> list[Figure]:
    d = r.data
    labels, ours = [], []
    for kind, ref_key, key in (("dense", "scipy.floyd_warshall", "speedup_vs_scipy"),
                               ("sparse", "scipy.dijkstra", "speedup_vs_dijkstra")):
        for m in ("rkleene", "blocked-fw", "squaring"):
            v = d.get(kind, {}).get(m)
            if isinstance(v, dict) and key in v:
                labels.append(f"{kind} n={d.get('n')} {m} (vs {ref_key})")
                ours.append(v[key])
    tc = d.get("transitive_closure")
    if tc:
        labels.append(f"transitive closure n={tc['n']} (vs SciPy reachability)")
        ours.append(tc["scipy_bfs_seconds"] / tc["seconds"])
    if not labels:
        return []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4))
    _speedups(ax, labels, {"semiring-paths": ours})
    _title(ax, "CPU all-pairs shortest paths: speed-up against SciPy", r)
    return [(_save(fig, folder, f"{r.stem}-speedup.png"), "speed-up against SciPy")]


def apsp_gpu(r: Result, folder: Path) -> list[Figure]:
    runs = r.data.get("runs", [])
    if not runs:
        return []
    plt = _plt()
    figs = []
    fig, ax = plt.subplots(figsize=(7, 5))
    fig2, ax2 = plt.subplots(figsize=(7, 5))
    for kind, style in (("dense", "-"), ("sparse-12", "--")):
        for m in (*GPU_METHODS, "cupy_rank1_fw"):
            pts = sorted((x["n"], x[m]["seconds"]) for x in runs if x["kind"] == kind and "seconds" in x.get(m, {}))
            if pts:
                ax.loglog(*zip(*pts), style, marker="o", label=f"{m} ({kind})")
            pts = sorted((x["n"], x[m]["fraction_of_ceiling"]) for x in runs
                         if x["kind"] == kind and "fraction_of_ceiling" in x.get(m, {}))
            if pts:
                ax2.semilogx(*zip(*pts), style, marker="o", label=f"{m} ({kind})")
    ax.set_xlabel("n (vertices)")
    ax.set_ylabel("seconds (device-resident float32)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)
    _title(ax, "GPU all-pairs shortest paths: time against n", r)
    figs.append((_save(fig, folder, f"{r.stem}-time.png"), "time against n, log-log"))
    ax2.axhline(1.0, color="k", lw=0.8, ls="--", label="measured fp32 ceiling")
    ax2.set_xlabel("n (vertices)")
    ax2.set_ylabel("n^3 / time over the measured fp32 ceiling")
    ax2.grid(True, which="both", alpha=0.3)
    ax2.legend(fontsize=6)
    _title(ax2, "GPU all-pairs shortest paths: rate as a fraction of the measured ceiling", r)
    figs.append((_save(fig2, folder, f"{r.stem}-ceiling.png"), "rate as a fraction of the measured ceiling"))
    return figs


def traversal_cpu(r: Result, folder: Path) -> list[Figure]:
    rows = [x for x in r.data.get("rows", []) if x.get("scipy_s") and x.get("ours_s")]
    if not rows:
        return []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(7, 0.7 * len(rows)), 4.5))
    _columns(ax, [f"{x['graph']}: {x['op']}" for x in rows],
             {"semiring-paths": [x["edges"] / x["ours_s"] / 1e9 for x in rows],
              "SciPy": [x["edges"] / x["scipy_s"] / 1e9 for x in rows]})
    ax.set_ylabel("GTEPS (input edges / s), log scale", fontsize=8)
    _title(ax, "CPU traversal rate per graph", r)
    return [(_save(fig, folder, f"{r.stem}-gteps.png"), "GTEPS per graph and operation, ours and SciPy")]


def traversal_gpu(r: Result, folder: Path) -> list[Figure]:
    rows = [x for x in r.data.get("rows", []) if x.get("unit") == "GTEPS"]
    if not rows:
        return []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    _columns(ax, [x["what"] for x in rows], {"semiring-paths": [x["rate"] for x in rows]})
    ax.set_ylabel("GTEPS (input edges / s), log scale", fontsize=8)
    _title(ax, "GPU traversal rate per graph", r)
    return [(_save(fig, folder, f"{r.stem}-gteps.png"), "GTEPS per graph")]


def mst_flow(r: Result, folder: Path) -> list[Figure]:
    mst, flow = split_mst_flow(r.data)
    plt = _plt()
    figs = []
    if mst:
        graphs_ = list(dict.fromkeys(x["graph"] for x in mst))
        impls = [i for i in dict.fromkeys(x["impl"] for x in mst) if not i.startswith("scipy")]
        series = {i: [next((x["speedup_vs_scipy"] for x in mst if x["graph"] == g and x["impl"] == i), None)
                      for g in graphs_] for i in impls}
        fig, ax = plt.subplots(figsize=(max(6, 1.8 * len(graphs_)), 4.2))
        _speedups(ax, graphs_, series)
        _title(ax, "minimum spanning forest: speed-up against SciPy minimum_spanning_tree", r)
        figs.append((_save(fig, folder, f"{r.stem}-mst.png"), "spanning forest, speed-up against SciPy"))
    if flow:
        labels = [f"{x['graph']} {x['pair']}" for x in flow]
        series = {"against SciPy dinic": [x.get("speedup_vs_scipy") for x in flow],
                  "against NetworkX": [x.get("speedup_vs_networkx") for x in flow]}
        series = {k: v for k, v in series.items() if any(v)}
        fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(flow)), 4.2))
        _speedups(ax, labels, series)
        _title(ax, "maximum flow: speed-up against SciPy (dinic) and NetworkX", r)
        figs.append((_save(fig, folder, f"{r.stem}-flow.png"), "maximum flow, speed-up against SciPy / NetworkX"))
    return figs


def single_pair(r: Result, folder: Path) -> list[Figure]:
    d = r.data
    header, rows = d.get("header", []), d.get("rows", [])
    try:
        i_ref = header.index("SciPy full Dijkstra ms")
        i_bi = header.index("bidirectional ms")
        i_as = header.index("A* ms")
    except ValueError:
        return []

    def num(s: str) -> float:
        return float(str(s).replace(",", ""))

    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    _speedups(ax, [x[0] for x in rows], {
        "bidirectional Dijkstra": [num(x[i_ref]) / num(x[i_bi]) for x in rows],
        "A*": [num(x[i_ref]) / num(x[i_as]) for x in rows]})
    _title(ax, "single-pair route: speed-up against SciPy Dijkstra from the source", r)
    return [(_save(fig, folder, f"{r.stem}-speedup.png"), "speed-up against SciPy")]


def csgraph(r: Result, folder: Path) -> list[Figure]:
    rows = r.data.get("rows", [])
    labels = [f"{x['what']} ({x['size']})" for x in rows if x.get("speedup")]
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(labels)), 4.6))
    _speedups(ax, labels, {"graphs.csgraph": [x["speedup"] for x in rows if x.get("speedup")]})
    _title(ax, "graphs.csgraph: speed-up against scipy.sparse.csgraph on the same input", r)
    return [(_save(fig, folder, f"{r.stem}-speedup.png"), "speed-up against scipy.sparse.csgraph")]


def nx_backend(r: Result, folder: Path) -> list[Figure]:
    """Every case's speed-up, sorted: conversion included (bars) and with the converted graph kept (dots)."""
    res = sorted(r.data.get("results", []), key=lambda x: x["speedup"])
    if not res:
        return []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 0.16 * len(res) + 1.8))
    y = range(len(res))
    colours = ["tab:blue" if x.get("served", True) else "tab:gray" for x in res]
    ax.barh(y, [x["speedup"] for x in res], color=colours, height=0.7)
    kept = [(i, x["speedup_kept"]) for i, x in enumerate(res) if x.get("speedup_kept")]
    ax.plot([k for _, k in kept], [i for i, _ in kept], "k.", ms=3, label="converted graph kept")
    ax.set_yticks(list(y), [textwrap.shorten(x["case"], 70) for x in res], fontsize=5)
    ax.set_xscale("log")
    ax.axvline(1.0, color="k", lw=0.8)
    med = r.data.get("median_speedup")
    if med:
        ax.axvline(med, color="tab:blue", lw=0.8, ls="--", label=f"median of the served cases, {med:.1f}x")
    ax.set_xlabel("speed-up against NetworkX (NetworkX time / backend time), log scale; "
                  "blue: served under automatic dispatch, grey: left on NetworkX", fontsize=7)
    ax.legend(fontsize=6, loc="lower right")
    _title(ax, "NetworkX backend: speed-up against NetworkX's own, conversion included", r)
    return [(_save(fig, folder, f"{r.stem}-speedup.png"), "speed-up against NetworkX, every case")]


def einsum(r: Result, folder: Path) -> list[Figure]:
    rows = r.data.get("rows", [])
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = [f"{x['case']}\n{x['shape']}" for x in rows]
    _columns(ax, labels, {"einsum": [x["einsum_s"] for x in rows], "reference": [x["reference_s"] for x in rows]})
    ax.set_ylabel("median seconds, log scale", fontsize=8)
    _title(ax, "semiring.einsum against the semiring products it reduces to (chain) or a Python loop (batches)", r)
    return [(_save(fig, folder, f"{r.stem}-times.png"), "einsum and its reference, seconds")]


def scaling_gpu(r: Result, folder: Path) -> list[Figure]:
    """Speed-up over one GPU against the number of GPUs, one line per way of running (``runs`` of a scaling run)."""
    runs = [x for x in r.data.get("runs", []) if x.get("devices")]
    lines: dict[str, list[tuple[int, float]]] = {}
    for x in runs:
        name = x["run"].split(",")[0] if x["run"].startswith("in-process") else x["run"]
        name = name.replace(f"{x['devices']} worker", "one worker").replace(" of one process", "")
        lines.setdefault(name, []).append((int(x["devices"]), float(x["speedup"])))
    lines = {k: sorted(v) for k, v in lines.items() if len(v) > 1}
    if not lines:
        return []
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    top = max(p for v in lines.values() for p, _ in v)
    ax.plot([1, top], [1, top], "k--", lw=0.8, label="linear")
    for name, pts in lines.items():
        ax.plot([p for p, _ in pts], [s for _, s in pts], "o-", label=textwrap.fill(name, 60))
    ax.set_xticks(sorted({p for v in lines.values() for p, _ in v}))
    ax.set_xlabel("GPUs", fontsize=8)
    ax.set_ylabel("speed-up over one GPU (same run)", fontsize=8)
    ax.legend(fontsize=6)
    _title(ax, f"APSP, n = {r.data.get('n')}: scaling over the GPUs of one host", r)
    return [(_save(fig, folder, f"{r.stem}-scaling.png"), "speed-up against the number of GPUs")]


PLOTTERS: dict[str, Callable[[Result, Path], list[Figure]]] = {
    "csgraph": csgraph, "nx_backend": nx_backend, "einsum": einsum,
    "gemm_cpu": gemm_cpu, "gemm_gpu": gemm_gpu, "apsp_cpu": apsp_cpu, "apsp_gpu": apsp_gpu,
    "traversal_cpu": traversal_cpu, "traversal_gpu": traversal_gpu, "mst_flow": mst_flow,
    "single_pair": single_pair, "scaling_gpu": scaling_gpu,
}


def plot(layout: str, r: Result, folder: Path) -> list[Figure]:
    """The figures of result file ``r`` (none for a layout without a plotter, or without matplotlib)."""
    fn = PLOTTERS.get(layout)
    if fn is None:
        return []
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return []
    return fn(r, folder)
