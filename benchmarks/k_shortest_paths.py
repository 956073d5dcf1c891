"""k shortest loopless paths (Yen) on a road network: graphs.k_shortest_paths against SciPy, igraph and NetworkX.

::

    PYTHONPATH=. python3 benchmarks/k_shortest_paths.py [--n 20000] [--k 50] [--pairs 3] [--nx-k 3] [--quick]

On :func:`graphs.generators.road_network` of ``--n`` junctions (seed 0), for
``--pairs`` seeded random pairs far apart (the target among the vertices at
least 60 % of the largest straight-line distance away from the source), it
times in one run, alternating the order of the tools from pair to pair:

* ``graphs.k_shortest_paths(G, s, t, k)`` (CPU threads; the median of
  ``--repeats`` runs per pair; its first call on the graph, which builds the
  reversed and renumbered graph and is kept on it, is reported apart);
* ``scipy.sparse.csgraph.yen(A, s, t, k)`` (SciPy's Cython Yen, one full
  Dijkstra per spur vertex);
* igraph's ``Graph.get_k_shortest_paths(s, t, k, weights=...)`` (C Yen);
* NetworkX's ``shortest_simple_paths`` on ``--nx-k`` paths only (it takes
  tens of seconds per path here); its time for ``k`` paths is given as the
  linear estimate ``first + (k - 1) * per later path``, marked as such.

Conversions (SciPy CSR, igraph graph, NetworkX graph) are built once, outside
the clocks.  Every tool's lengths are checked against ours (igraph's and
NetworkX's paths summed along their arcs).  The figure of merit is the median
over the pairs of each tool's time, and the ratio of the fastest peer's median
to ours.  Results go to benchmarks/results/k_shortest_paths-cpu.{json,md}
(``--quick``: 3,000 junctions, k = 20, NetworkX on 2 paths, under
``benchmarks/results/quick/``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import gpu_kind, machine, markdown_table, set_quick, write_results  # noqa: E402

import graphs  # noqa: E402


def _clock(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t


def far_pairs(G, pairs: int, seed: int) -> list[tuple[int, int]]:
    """``pairs`` seeded (source, target) pairs at least 60 % of the largest straight-line distance apart."""
    xy = np.asarray(G.coords)
    rng = np.random.default_rng(seed)
    span = float(np.linalg.norm(xy.max(axis=0) - xy.min(axis=0)))
    out = []
    while len(out) < pairs:
        s = int(rng.integers(G.n))
        far = np.flatnonzero(np.linalg.norm(xy - xy[s], axis=1) >= 0.6 * span)
        if far.size:
            out.append((s, int(rng.choice(far))))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=5, help="runs of graphs.k_shortest_paths per pair (median)")
    ap.add_argument("--nx-k", type=int, default=3, help="paths NetworkX computes per pair (0: leave it out)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                    help="gpu: ours on the GPU against the peers run side by side on the host's cores (see gpu_main)")
    ap.add_argument("--k-long", type=int, default=1000, help="gpu: also time ours at this k on every pair")
    ap.add_argument("--igraph-k", type=int, default=10, help="gpu: paths igraph computes per pair (estimate for k)")
    ap.add_argument("--peer-seconds", type=float, default=420.0,
                    help="gpu: the peers' runs still going after this long are stopped and counted as longer")
    args = ap.parse_args(argv)
    if args.device == "gpu":
        return gpu_main(args)
    if args.quick:
        args.n, args.k, args.nx_k = 3_000, 20, 2
    set_quick(args.quick)

    import igraph as ig
    import networkx as nx
    from scipy.sparse.csgraph import yen

    G, t_gen = _clock(graphs.generators.road_network, args.n, seed=0)
    src, dst, w = G.edges()
    A = G.to_scipy()
    weight = {}
    for u, v, c in zip(src.tolist(), dst.tolist(), w.tolist()):
        weight[(u, v)] = min(weight.get((u, v), np.inf), c)
    Gi = ig.Graph(n=G.n, edges=list(zip(src.tolist(), dst.tolist())), directed=True)
    Gi.es["weight"] = w.tolist()
    Gn = nx.DiGraph()
    Gn.add_nodes_from(range(G.n))
    Gn.add_weighted_edges_from((u, v, c) for (u, v), c in weight.items())
    pairs = far_pairs(G, args.pairs, args.seed)
    graphs.k_shortest_paths(graphs.generators.road_network(300, seed=1), 0, 5, 3)  # compiles the kernels

    def lengths_of(paths) -> list[float]:
        return [sum(weight[(u, v)] for u, v in zip(p, p[1:])) for p in paths]

    tools = ["ours", "scipy", "igraph"] + (["networkx"] if args.nx_k else [])
    times: dict[str, list[float]] = {name: [] for name in tools}
    first_call: list[float] = []
    nx_first: list[float] = []
    nx_later: list[float] = []
    rows = []
    for p, (s, t) in enumerate(pairs):
        order = tools[p % len(tools):] + tools[:p % len(tools)]  # alternate who runs first
        got: dict[str, list[float]] = {}
        for name in order:
            if name == "ours":
                if p == 0:
                    H = graphs.Graph(G.indptr, G.indices, G.weights, coords=G.coords)  # a fresh graph: nothing kept
                    _, t_first = _clock(graphs.k_shortest_paths, H, s, t, args.k)
                    first_call.append(t_first)
                runs = []
                for _ in range(args.repeats):
                    res, dt = _clock(graphs.k_shortest_paths, G, s, t, args.k)
                    runs.append(dt)
                times[name].append(statistics.median(runs))
                got[name] = [float(r.distance) for r in res]
                hops = [r.hops for r in res]
            elif name == "scipy":
                res, dt = _clock(yen, A, s, t, args.k)
                times[name].append(dt)
                got[name] = res.tolist()
            elif name == "igraph":
                res, dt = _clock(Gi.get_k_shortest_paths, s, t, k=args.k, weights="weight", mode="out",
                                 output="vpath")
                times[name].append(dt)
                got[name] = sorted(lengths_of(res))
            else:
                t0 = time.perf_counter()
                gen = nx.shortest_simple_paths(Gn, s, t, weight="weight")
                paths, stamps = [], []
                for path in itertools.islice(gen, args.nx_k):
                    paths.append(path)
                    stamps.append(time.perf_counter() - t0)
                nx_first.append(stamps[0])
                later = (stamps[-1] - stamps[0]) / max(1, len(stamps) - 1)
                nx_later.append(later)
                times[name].append(stamps[0] + (args.k - 1) * later)
                got[name] = lengths_of(paths)
            print(f"pair {p} ({s} -> {t}) {name}: {times[name][-1]:.3f} s", flush=True)
        ref = got["ours"]
        for name in ("scipy", "igraph"):
            assert got[name] == ref, (name, s, t, got[name][:5], ref[:5])
        if args.nx_k:
            assert got["networkx"] == ref[:args.nx_k], (s, t, got["networkx"], ref[:args.nx_k])
        rows.append({"source": s, "target": t, "k_found": len(ref), "shortest": ref[0], "longest": ref[-1],
                     "hops_min": min(hops), "hops_max": max(hops),
                     **{f"{name}_s": round(times[name][-1], 4) for name in tools}})
    med = {name: statistics.median(v) for name, v in times.items()}
    peers = {name: med[name] for name in ("scipy", "igraph")}
    fastest = min(peers, key=peers.get)
    ratio = peers[fastest] / med["ours"]
    info = machine()
    payload = {
        "benchmark": "k_shortest_paths", "machine": info, "n": G.n, "arcs": G.nnz, "k": args.k,
        "pairs": rows, "median_s": {k: round(v, 4) for k, v in med.items()},
        "ours_first_call_s": round(first_call[0], 4), "fastest_peer": fastest, "speedup_vs_fastest_peer": round(ratio, 1),
        "speedup_of_first_call_vs_fastest_peer": round(peers[fastest] / first_call[0], 1),
        "networkx_k_measured": args.nx_k,
        "networkx_note": (f"NetworkX ran {args.nx_k} paths per pair; its k = {args.k} time is first + (k - 1) * "
                          "per later path, an estimate") if args.nx_k else None,
        "networkx_first_path_s": [round(x, 3) for x in nx_first], "networkx_per_later_path_s": [round(x, 3) for x in nx_later],
        "generate_s": round(t_gen, 3),
    }
    header = ["pair", "source -> target", "paths", "lengths", "hops", "ours (s)", "SciPy yen (s)", "igraph (s)"]
    if args.nx_k:
        header.append(f"NetworkX, est. from {args.nx_k} paths (s)")
    table_rows = []
    for p, r in enumerate(rows):
        row = [p, f"{r['source']} -> {r['target']}", r["k_found"], f"{r['shortest']:.0f} .. {r['longest']:.0f}",
               f"{r['hops_min']} .. {r['hops_max']}", f"{r['ours_s']:.4f}", f"{r['scipy_s']:.2f}", f"{r['igraph_s']:.2f}"]
        if args.nx_k:
            row.append(f"~{r['networkx_s']:.0f}")
        table_rows.append(row)
    med_row = ["median", "", "", "", "", f"{med['ours']:.4f}", f"{med['scipy']:.2f}", f"{med['igraph']:.2f}"]
    if args.nx_k:
        med_row.append(f"~{med['networkx']:.0f}")
    table_rows.append(med_row)
    md = (f"# k shortest paths (Yen), k = {args.k}, road_network({G.n}) ({G.nnz:,} arcs), CPU\n\n"
          f"{info['cpu']}, {info['cores']} cores, Python {info['python']}, {info['date']}.\n\n"
          + markdown_table(header, table_rows)
          + f"\nOurs against the fastest peer ({fastest}): **{ratio:.0f}x** (median over the pairs). "
          f"Our first call on a fresh graph (building the reversed, renumbered graph it keeps): {first_call[0]:.3f} s "
          f"({peers[fastest] / first_call[0]:.0f}x). "
          "Lengths checked equal across the tools.")
    if args.nx_k:
        md += (f" NetworkX computed {args.nx_k} paths per pair (first path {statistics.median(nx_first):.1f} s, then "
               f"{statistics.median(nx_later):.1f} s per path); its column is the linear estimate for k = {args.k}.")
    md += "\n\nCommand: `PYTHONPATH=. python3 benchmarks/k_shortest_paths.py" + (" --quick" if args.quick else "") + "`\n"
    j, m = write_results("k_shortest_paths-cpu", payload, md)
    print(md)
    print(f"wrote {j} and {m}")
    return 0


def _peer_run(job: tuple) -> tuple:
    """One peer's run on one pair in a worker process (one thread): ``(tool, pair, seconds, lengths)``."""
    tool, p, n, s, t, k = job
    G = graphs.generators.road_network(n, seed=0)
    if tool == "scipy":
        from scipy.sparse.csgraph import yen

        A = G.to_scipy()
        t0 = time.perf_counter()
        res = yen(A, s, t, k)
        return tool, p, time.perf_counter() - t0, [float(x) for x in res]
    import igraph as ig

    src, dst, w = G.edges()
    Gi = ig.Graph(n=G.n, edges=list(zip(src.tolist(), dst.tolist())), directed=True)
    Gi.es["weight"] = w.tolist()
    t0 = time.perf_counter()
    res = Gi.get_k_shortest_paths(s, t, k=k, weights="weight", mode="out", output="epath")
    dt = time.perf_counter() - t0
    return tool, p, dt, sorted(float(sum(w[e] for e in path)) for path in res)


def _peer_cell(seconds: float, limit: float, digits: int = 1) -> str:
    """A peer's time in a table cell, ``> limit`` for a run stopped at the deadline."""
    return f"> {limit:.0f}" if seconds == float("inf") else f"{seconds:.{digits}f}"


def gpu_main(args) -> int:
    """Ours on the GPU (and on the host's CPU threads) against SciPy ``yen`` and igraph on the host's cores.

    Ours runs first, alone: ``--repeats`` runs per pair on the GPU (median),
    one on the CPU threads, and one at ``--k-long`` paths on the GPU.  Then
    the peers, which are single-threaded, run side by side, one process per
    (tool, pair) on the host's cores (at most one process per core): SciPy's
    ``yen`` for the full ``k``, igraph for ``--igraph-k`` paths, its time for
    ``k`` the linear estimate ``k / igraph_k`` times that (marked as such: at
    ``k`` it takes far longer than SciPy here).  Every peer's lengths are
    checked against ours.
    """
    import multiprocessing as mp

    import cupy as cp

    G = graphs.generators.road_network(args.n, seed=0)
    Gd = G.to("gpu")
    pairs = far_pairs(G, args.pairs, args.seed)
    small = graphs.generators.road_network(300, seed=1)
    graphs.k_shortest_paths(small, 0, 5, 3, device="gpu")  # compiles the kernels
    graphs.k_shortest_paths(small, 0, 5, 3, device="cpu")
    rows = []
    for p, (s, t) in enumerate(pairs):
        graphs.k_shortest_paths(Gd, s, t, args.k)  # warm-up (the graph's reversed, renumbered copy is kept)
        runs = []
        for _ in range(args.repeats):
            cp.cuda.Device().synchronize()
            res, dt = _clock(graphs.k_shortest_paths, Gd, s, t, args.k)
            runs.append(dt)
        cpu_res, cpu_dt = _clock(graphs.k_shortest_paths, G, s, t, args.k, device="cpu")
        assert [(r.distance, r.path) for r in cpu_res] == [(r.distance, r.path) for r in res], (s, t)
        long_res, long_dt = _clock(graphs.k_shortest_paths, Gd, s, t, args.k_long)
        rows.append({"source": s, "target": t, "k_found": len(res), "ours_gpu_s": statistics.median(runs),
                     "ours_cpu_s": cpu_dt, "long_k_found": len(long_res), "ours_gpu_long_s": long_dt,
                     "lengths": [float(r.distance) for r in res], "hops_max": max(r.hops for r in res)})
        print(f"pair {p} ({s} -> {t}): ours GPU {rows[-1]['ours_gpu_s']:.3f} s, CPU {cpu_dt:.3f} s, "
              f"k = {args.k_long} on the GPU {long_dt:.2f} s", flush=True)
    jobs = ([("scipy", p, args.n, s, t, args.k) for p, (s, t) in enumerate(pairs)]
            + [("igraph", p, args.n, s, t, args.igraph_k) for p, (s, t) in enumerate(pairs)])
    procs = min(len(jobs), os.cpu_count() or 1)
    for r in rows:  # a run stopped at the deadline took longer than any that finished: +inf keeps the median exact
        r["scipy_s"] = r["igraph_s"] = float("inf")  # while fewer than half the pairs are stopped
    deadline = time.perf_counter() + args.peer_seconds
    with mp.get_context("spawn").Pool(procs, maxtasksperchild=1) as pool:
        results = pool.imap_unordered(_peer_run, jobs)
        for _ in jobs:
            try:
                tool, p, dt, lengths = results.next(timeout=max(0.0, deadline - time.perf_counter()))
            except mp.TimeoutError:
                pool.terminate()
                break
            ref = rows[p]["lengths"][:len(lengths)]
            assert lengths == ref, (tool, p, lengths[:5], ref[:5])
            rows[p][f"{tool}_s"] = dt if tool == "scipy" else dt * args.k / args.igraph_k
            print(f"pair {p} {tool}: {dt:.2f} s", flush=True)
    stopped = {tool: sum(r[f"{tool}_s"] == float("inf") for r in rows) for tool in ("scipy", "igraph")}
    med = {key: statistics.median(r[key] for r in rows) for key in ("ours_gpu_s", "ours_cpu_s", "scipy_s", "igraph_s",
                                                                      "ours_gpu_long_s")}
    fastest = "scipy" if med["scipy_s"] <= med["igraph_s"] else "igraph"
    ratio = med[f"{fastest}_s"] / med["ours_gpu_s"]
    info = machine()
    info["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    payload = {"benchmark": "k_shortest_paths", "device": "gpu", "machine": info, "n": G.n, "arcs": G.nnz,
               "k": args.k, "k_long": args.k_long, "igraph_k": args.igraph_k, "peer_processes": procs,
               "pairs": [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items() if k != "lengths"}
                         for r in rows],
               "median_s": {k: round(v, 4) for k, v in med.items()}, "fastest_peer": fastest,
               "speedup_vs_fastest_peer": round(ratio, 1), "peer_seconds": args.peer_seconds,
               "peer_runs_stopped": stopped,
               "longest_k_long_s": round(max(r["ours_gpu_long_s"] for r in rows), 3)}
    header = ["pair", "source -> target", "hops", "ours GPU (s)", "ours CPU threads (s)", "SciPy yen (s)",
              f"igraph, est. from {args.igraph_k} paths (s)", f"ours GPU, k = {args.k_long} (s)"]
    table = [[p, f"{r['source']} -> {r['target']}", r["hops_max"], f"{r['ours_gpu_s']:.3f}", f"{r['ours_cpu_s']:.3f}",
              _peer_cell(r["scipy_s"], args.peer_seconds), "~" + _peer_cell(r["igraph_s"], args.peer_seconds, 0),
              f"{r['ours_gpu_long_s']:.2f}"] for p, r in enumerate(rows)]
    table.append(["median", "", "", f"{med['ours_gpu_s']:.3f}", f"{med['ours_cpu_s']:.3f}",
                  _peer_cell(med["scipy_s"], args.peer_seconds), "~" + _peer_cell(med["igraph_s"], args.peer_seconds, 0),
                  f"{med['ours_gpu_long_s']:.2f}"])
    md = (f"# k shortest paths (Yen), k = {args.k}, road_network({G.n}) ({G.nnz:,} arcs), GPU\n\n"
          f"{info['gpu']}; host {info['cpu']}, {info['cores']} cores; Python {info['python']}, {info['date']}.\n\n"
          + markdown_table(header, table)
          + f"\nOurs on the GPU against the fastest peer ({fastest}): **{ratio:.0f}x** (median over "
          f"{len(rows)} pairs); ours on the host's CPU threads: {med[f'{fastest}_s'] / med['ours_cpu_s']:.0f}x. "
          f"k = {args.k_long}: {payload['longest_k_long_s']:.2f} s at most over the pairs (median "
          f"{med['ours_gpu_long_s']:.2f} s). The peers are single-threaded and ran side by side, one process per "
          f"(tool, pair), {procs} at once on the host's {info['cores']} cores; igraph computed {args.igraph_k} paths "
          f"per pair and its column is {args.k} / {args.igraph_k} times that. Runs still going after "
          f"{args.peer_seconds:.0f} s were stopped (SciPy {stopped['scipy']}, igraph {stopped['igraph']}; "
          "\"> limit\" in the table: longer than every finished run, so the median stands while fewer than half "
          "stopped). Lengths checked equal across the tools; our GPU and CPU paths are the same.\n\n"
          f"Command: `PYTHONPATH=. python3 benchmarks/k_shortest_paths.py --device gpu --n {args.n} --k {args.k} "
          f"--pairs {args.pairs}`\n")
    j, m = write_results("k_shortest_paths-gpu-" + gpu_kind(info["gpu"]), payload, md)
    print(md)
    print(f"wrote {j} and {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
