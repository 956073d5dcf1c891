"""Centrality benchmarks: betweenness and closeness side by side with NetworkX, rustworkx and python-igraph.

CPU (default)::

    PYTHONPATH=. python3 benchmarks/centrality.py [--n 20000] [--nx-n 1000]

A Barabasi-Albert graph (``networkx.barabasi_albert_graph(n, 4, seed=1)``,
weights 1..100 drawn with ``numpy.random.default_rng(0)``), exact betweenness
unweighted and weighted: ``graphs.betweenness_centrality`` against
``rustworkx.betweenness_centrality`` (unweighted only: rustworkx has no weighted
vertex betweenness) and ``igraph.Graph.betweenness`` (both), each timed on the
library's own graph object (conversions excluded), every result checked against
ours first.  NetworkX (pure Python, slow) on a small BA graph (``--nx-n``), also
checked.  Closeness against igraph on the large graph.  One run each, in
interleaved order, on a shared machine: the ratios are what count.

GPU::

    PYTHONPATH=. python3 benchmarks/centrality.py --gpu

Exact weighted betweenness of ``graphs.generators.road_network(100000)`` (a sweep
of the bucket width on 4096 sources first; checked against the CPU on 256 sources
and on road_network(3000)) and the exact diameter (hops; the bounding search) of
the largest connected component of ``graphs.generators.rmat(20)``, the component
found on the GPU inside the timing (checked against the CPU's bounding search and
a BFS from a periphery vertex).  Median of ``--repeats`` runs.  ``--peers``: also
the CPU benchmark's BA graph (``--n``) on the GPU against rustworkx and igraph on
the host's CPU cores (the same checks as on the CPU).

Results go to ``benchmarks/results/centrality-cpu.{json,md}`` and
``centrality-gpu-<h100|h200>.{json,md}`` (and $OUT if
set), naming the CPU and its vector extensions.  ``--quick``: n = 3000 (GPU:
road network 20000, R-MAT scale 16), results under ``results/quick/``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import DebugLines, gpu_kind, machine, markdown_table, set_quick, write_results  # noqa: E402


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def _rel(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-12), initial=0.0))


def ba_graph(n: int, seed: int = 1):
    import networkx as nx

    G = nx.barabasi_albert_graph(n, 4, seed=seed)
    edges = np.array(G.edges, dtype=np.int64)
    w = np.random.default_rng(0).integers(1, 101, size=edges.shape[0])
    return G, edges, w


def _host(x) -> np.ndarray:
    return np.asarray(x.get() if hasattr(x, "get") else x)


def peer_rows(n: int, H, sync, payload: dict) -> list[list[str]]:
    """Betweenness (unweighted, weighted) and closeness of the BA graph ``n``: ours on ``H`` (a CPU or GPU graph;
    ``sync`` waits for its device) against rustworkx and igraph on this machine's CPU, interleaved, one run each.

    Every peer result is compared with ours; rows for the table, entries appended to ``payload["results"]``.
    """
    import igraph as ig
    import rustworkx as rx

    import graphs

    _, e, w = ba_graph(n)
    R = rx.PyGraph()
    R.add_nodes_from(range(n))
    R.add_edges_from([(int(a), int(b), float(x)) for (a, b), x in zip(e, w)])
    Ig = ig.Graph(n=n, edges=e.tolist())
    Ig.es["weight"] = w.astype(float).tolist()
    rows = []

    def ours(fn):
        out, t = _timed(lambda: (fn(), sync())[0])
        return _host(out), t

    # unweighted: ours, rustworkx, igraph
    mine, t_us = ours(lambda: graphs.betweenness_centrality(H, weighted=False))
    rxd, t_rx = _timed(lambda: rx.betweenness_centrality(R, normalized=True))
    igv, t_ig = _timed(lambda: Ig.betweenness(directed=False))
    raw = _host(graphs.betweenness_centrality(H, weighted=False, normalized=False))
    err_rx = _rel(mine, [rxd[i] for i in range(n)])
    err_ig = _rel(raw, igv)
    for peer, t, err in (("rustworkx", t_rx, err_rx), ("igraph", t_ig, err_ig)):
        rows.append([f"betweenness n={n}", "unweighted", peer, f"{t:.2f}", f"{t_us:.2f}", f"{t / t_us:.2f}x",
                     f"{err:.1e}"])
        payload["results"].append({"case": "betweenness", "n": n, "weighted": False, "peer": peer, "peer_s": t,
                                   "ours_s": t_us, "max_rel_err": err})
        print(rows[-1], flush=True)
    payload["results"].append({"case": "betweenness", "n": n, "weighted": False,
                               "speedup_over_fastest_peer": min(t_rx, t_ig) / t_us})

    # weighted: ours, igraph (rustworkx has no weighted vertex betweenness)
    mine_w, t_usw = ours(lambda: graphs.betweenness_centrality(H, normalized=False))
    igw, t_igw = _timed(lambda: Ig.betweenness(directed=False, weights="weight"))
    err = _rel(mine_w, igw)
    rows.append([f"betweenness n={n}", "weighted 1..100", "igraph", f"{t_igw:.2f}", f"{t_usw:.2f}",
                 f"{t_igw / t_usw:.2f}x", f"{err:.1e}"])
    rows.append([f"betweenness n={n}", "weighted 1..100", "rustworkx", "n/a (no weighted betweenness)", "", "", ""])
    payload["results"].append({"case": "betweenness", "n": n, "weighted": True, "peer": "igraph", "peer_s": t_igw,
                               "ours_s": t_usw, "max_rel_err": err, "speedup_over_fastest_peer": t_igw / t_usw})
    print(rows[-2], flush=True)

    # closeness (hops): ours against igraph and rustworkx
    cl, t_cl = ours(lambda: graphs.closeness_centrality(H, weighted=False))
    icl, t_icl = _timed(lambda: Ig.closeness())
    rcl, t_rcl = _timed(lambda: rx.closeness_centrality(R))
    for peer, t, ref in (("igraph", t_icl, icl), ("rustworkx", t_rcl, [rcl[i] for i in range(n)])):
        err = _rel(cl, ref)
        rows.append([f"closeness n={n}", "unweighted", peer, f"{t:.2f}", f"{t_cl:.2f}", f"{t / t_cl:.2f}x",
                     f"{err:.1e}"])
        payload["results"].append({"case": "closeness", "n": n, "weighted": False, "peer": peer, "peer_s": t,
                                   "ours_s": t_cl, "max_rel_err": err})
        print(rows[-1], flush=True)
    return rows


def cpu(args) -> None:
    import networkx as nx

    import graphs

    rows = []
    payload = {"machine": machine(), "graph": f"barabasi_albert_graph({args.n}, 4, seed=1), weights 1..100",
               "results": []}

    # -- warm-up (Numba compiles on first call) --------------------------------------------------
    _, e0, w0 = ba_graph(200)
    W0 = graphs.Graph.from_edges(e0[:, 0], e0[:, 1], w0.astype(np.float64), n=200, directed=False)
    graphs.betweenness_centrality(W0)
    graphs.betweenness_centrality(W0, weighted=False)
    graphs.closeness_centrality(W0, weighted=False)

    # -- NetworkX, small --------------------------------------------------------------------------
    Gs, es, ws = ba_graph(args.nx_n)
    for (u, v), x in zip(es, ws):
        Gs[u][v]["weight"] = int(x)
    S = graphs.Graph.from_edges(es[:, 0], es[:, 1], ws.astype(np.float64), n=args.nx_n, directed=False)
    for weighted in (False, True):
        ref, t_nx = _timed(lambda w=weighted: nx.betweenness_centrality(Gs, weight="weight" if w else None))
        ours, t_us = _timed(lambda w=weighted: graphs.betweenness_centrality(S, weighted=w))
        err = _rel(ours, [ref[v] for v in range(args.nx_n)])
        rows.append([f"betweenness n={args.nx_n}", "weighted" if weighted else "unweighted", "networkx",
                     f"{t_nx:.3f}", f"{t_us:.3f}", f"{t_nx / t_us:.1f}x", f"{err:.1e}"])
        payload["results"].append({"case": "betweenness", "n": args.nx_n, "weighted": weighted, "peer": "networkx",
                                   "peer_s": t_nx, "ours_s": t_us, "max_rel_err": err})
        print(rows[-1], flush=True)

    # -- the large graph: rustworkx, igraph, ours -------------------------------------------------
    _, e, w = ba_graph(args.n)
    H = graphs.Graph.from_edges(e[:, 0], e[:, 1], w.astype(np.float64), n=args.n, directed=False)
    rows += peer_rows(args.n, H, lambda: None, payload)

    m = payload["machine"]
    md = (f"# Centrality on the CPU\n\n{m['cpu']} ({m['cores']} cores; {m['simd']}), {m['date']}.\n\n"
          f"Graph: {payload['graph']}; NetworkX rows on n = {args.nx_n}. Times in seconds, one run each, "
          "conversions excluded; speedup = peer time / our time; error = largest relative difference from the "
          "peer's values.\n\n"
          + markdown_table(["job", "weights", "peer", "peer s", "ours s", "speedup", "max rel err"], rows))
    j, _ = write_results("centrality-cpu", payload, md)
    print(md)
    print(f"wrote {j}")


def _lcc_gpu(G):
    """The largest connected component of an undirected GPU graph, on the GPU (CSR rows kept, ids renumbered)."""
    import cupy as cp

    import graphs

    _, labels = graphs.connected_components(G)
    labels = cp.asarray(labels)
    keep = labels == cp.bincount(labels).argmax()
    new_id = (cp.cumsum(keep) - 1).astype(cp.int32)
    rows, _, _ = G.edges()
    arc_keep = keep[rows]
    deg = cp.diff(G.indptr)[keep]
    indptr = cp.concatenate((cp.zeros(1, dtype=cp.int64), cp.cumsum(deg)))
    return graphs.Graph(indptr, new_id[G.indices[arc_keep]], None, directed=False, check=False)


def gpu(args) -> None:
    import cupy as cp

    import graphs
    from graphs.cuda import batched_search as C  # the batched search's bucket width

    rows = []
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    payload = {"machine": machine(), "device": dev, "results": []}
    road_n = 20000 if args.quick else 100000
    scale = 16 if args.quick else 20
    reps = args.repeats

    def sync_timed(fn):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        out = fn()
        cp.cuda.Device().synchronize()
        return out, time.perf_counter() - t

    def median_timed(fn, limit):
        out, t = sync_timed(fn)
        times = [t]
        while len(times) < reps and sum(times) < limit:
            out, t = sync_timed(fn)
            times.append(t)
        return out, float(np.median(times)), times

    # -- (b) exact weighted betweenness of road_network(road_n) -----------------------------------------------
    G = graphs.generators.road_network(road_n, seed=0)
    Gg = G.to("gpu")
    small = graphs.generators.road_network(3000, seed=1)
    err_small = _rel(graphs.betweenness_centrality(small.to("gpu")).get(), graphs.betweenness_centrality(small))
    print(f"check road_network(3000) exact weighted betweenness GPU vs CPU: max rel err {err_small:.1e}", flush=True)
    srcs = np.random.default_rng(7).choice(road_n, 256, replace=False)
    ref, t_cpu = _timed(lambda: graphs.betweenness_centrality(G, sources=srcs, normalized=False))
    chk = graphs.betweenness_centrality(Gg, sources=srcs, normalized=False).get()
    err_big = _rel(chk, ref)
    print(f"check road_network({road_n}) 256 sources GPU vs CPU: max rel err {err_big:.1e} (CPU {t_cpu:.1f} s)",
          flush=True)
    sweep = {}
    part = np.arange(0, road_n, max(1, road_n // 4096))[:4096]
    for f in args.deltas:
        C.DELTA_ARCS = f
        _, t = sync_timed(lambda: graphs.betweenness_centrality(Gg, sources=part, normalized=False))
        sweep[str(f)] = t
        print(f"delta = {f} mean arc weights: {part.shape[0]} sources {t:.3f} s", flush=True)
    best = min(sweep, key=sweep.get)
    C.DELTA_ARCS = None if best == "None" else float(best)
    estimate = sweep[best] * road_n / part.shape[0]
    if estimate > args.max_seconds:
        print(f"all sources would take about {estimate:.0f} s (> --max-seconds): not run", flush=True)
        bc, t, times = cp.zeros(1), float("nan"), []
    else:
        batches = DebugLines("graphs.cuda.centrality")
        with batches:
            bc, t, times = median_timed(lambda: graphs.betweenness_centrality(Gg), 60.0)
        print("\n".join(batches.lines[-1:]), flush=True)
    ok = bool(np.all(np.isfinite(bc.get())))
    rows.append([f"exact weighted betweenness, road_network({road_n}) ({G.n} vertices, {G.nnz} arcs, weights 1.."
                 f"{int(G.weights.max())} m), bucket width {best} mean arc weights", f"{t:.2f}",
                 " / ".join(f"{x:.2f}" for x in times),
                 f"256 sources: {err_big:.1e}; road_network(3000) all sources: {err_small:.1e}"])
    payload["results"].append({"case": "betweenness", "graph": f"road_network({road_n})", "seconds": t,
                               "times": times, "delta_arcs": best, "delta_sweep_4096_sources": sweep,
                               "search": batches.lines[-1:] if estimate <= args.max_seconds else [],
                               "check_err_256_sources": err_big, "check_err_road3000": err_small, "finite": ok})
    print(rows[-1], flush=True)

    # -- (c) with --peers: the CPU's BA graph on the GPU, against rustworkx and igraph on this host's cores -------
    peers = []
    if args.peers:
        _, e, w = ba_graph(args.n)
        Hb = graphs.Graph.from_edges(e[:, 0], e[:, 1], w.astype(np.float64), n=args.n, directed=False).to("gpu")
        graphs.betweenness_centrality(Hb, sources=64, seed=0)  # kernels compiled
        graphs.closeness_centrality(Hb, weighted=False)
        peers = peer_rows(args.n, Hb, cp.cuda.Device().synchronize, payload)

    # -- (a) exact diameter (hops) of the LCC of rmat(scale), the LCC found on the GPU ---------------------------
    R = graphs.generators.rmat(scale, seed=0)
    Rg = R.to("gpu")
    small_r = graphs.generators.rmat(12, seed=0).to("gpu")
    L2 = _lcc_gpu(small_r)
    d_small = graphs.diameter(L2, weighted=False)
    d_small_cpu = graphs.diameter(L2.to("cpu"), weighted=False)
    all_small = int(graphs.centrality.distance_measures._all_eccentricities(
        graphs.centrality.distance_measures.prepare(L2.to("cpu"), False, "cpu"), None).max())
    print(f"check rmat(12) LCC diameter: GPU {d_small}, CPU bounds {d_small_cpu}, every source {all_small}",
          flush=True)

    def job():
        return graphs.diameter(_lcc_gpu(Rg), weighted=False)

    d, t, times = median_timed(job, 90.0)
    L = _lcc_gpu(Rg)
    lcc_t = sync_timed(lambda: _lcc_gpu(Rg))[1]
    from graphs.cuda import distance as DG

    searched = []
    orig = DG.hop_bounds_gpu

    def counting(G_, src, lo, hi):
        searched.append(int(src.shape[0]))
        return orig(G_, src, lo, hi)

    DG.hop_bounds_gpu = counting
    graphs.diameter(L, weighted=False)
    DG.hop_bounds_gpu = orig
    d_cpu, t_cpu = _timed(lambda: graphs.diameter(L.to("cpu"), weighted=False))
    per = graphs.periphery(L, weighted=False)
    per = per.get() if hasattr(per, "get") else per
    from graphs.traversal.search import bfs

    lv, _ = bfs(L, int(per[0]))
    attained = int(lv.get().max() if hasattr(lv, "get") else lv.max())
    rows.append([f"exact diameter (hops) of the LCC of rmat({scale}) ({L.n} of {R.n} vertices, {L.nnz} arcs) = {d}; "
                 f"LCC included ({lcc_t:.2f} s of it); {len(searched)} batches, {sum(searched)} sources",
                 f"{t:.2f}", " / ".join(f"{x:.2f}" for x in times),
                 f"CPU bounding search {d_cpu} ({t_cpu:.1f} s); BFS from periphery vertex {int(per[0])}: "
                 f"{attained}; rmat(12) LCC against every source: {'equal' if d_small == all_small else 'DIFFERENT'}"])
    payload["results"].append({"case": "diameter", "graph": f"rmat({scale}) LCC", "n": L.n, "arcs": L.nnz,
                               "diameter": int(d), "seconds": t, "times": times, "lcc_seconds": lcc_t,
                               "batches": len(searched), "sources": sum(searched), "cpu_diameter": int(d_cpu),
                               "cpu_seconds": t_cpu, "periphery_bfs_ecc": attained,
                               "small_equal": bool(d_small == all_small == d_small_cpu)})
    print(rows[-1], flush=True)
    md = (f"# Centrality on the GPU\n\n{dev}; host {payload['machine']['cpu']} ({payload['machine']['cores']} "
          f"cores), {payload['machine']['date']}.\n\nTimes in seconds after a warm-up (kernels compiled), the median "
          f"of up to {reps} runs, CuPy synchronised around each; graph generation and the move to the GPU excluded, "
          "the LCC's extraction included.\n\n"
          + markdown_table(["job", "median s", "runs s", "exactness checks"], rows))
    if peers:
        md += (f"\n\nThe CPU benchmark's graph (barabasi_albert_graph({args.n}, 4, seed=1), weights 1..100) on this "
               f"GPU against rustworkx (multithreaded) and igraph on the host's {payload['machine']['cores']} CPU "
               "cores, one run each, interleaved; ours synchronised, conversions excluded; speedup = peer time / our "
               "time.\n\n"
               + markdown_table(["job", "weights", "peer", "peer s", "ours s (GPU)", "speedup", "max rel err"], peers))
    stem = "centrality-gpu-" + gpu_kind(dev)
    j, _ = write_results(stem, payload, md)
    print(md)
    print(f"wrote {j}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gpu", action="store_true", help="the GPU cases")
    p.add_argument("--n", type=int, default=20000, help="vertices of the BA graph (default 20000)")
    p.add_argument("--nx-n", type=int, default=1000, help="vertices of the BA graph NetworkX runs on")
    p.add_argument("--quick", action="store_true", help="small sizes, results under results/quick/")
    p.add_argument("--repeats", type=int, default=3, help="GPU: runs per timing (median)")
    p.add_argument("--max-seconds", type=float, default=100.0, help="GPU: skip a full run estimated longer")
    p.add_argument("--peers", action="store_true",
                   help="GPU: also the BA graph of --n on the GPU against rustworkx and igraph on this host's CPU")
    p.add_argument("--deltas", type=lambda s: [None if x == "None" else float(x) for x in s.split(",")],
                   default=[2.0, 4.0, 8.0], help="GPU: bucket widths (mean arc weights) to sweep on 4096 sources")
    args = p.parse_args(argv)
    if args.quick:
        set_quick(True)
        args.n = min(args.n, 3000)
        args.nx_n = min(args.nx_n, 300)
    (gpu if args.gpu else cpu)(args)


if __name__ == "__main__":
    main()
