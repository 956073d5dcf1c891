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

Exact weighted betweenness of ``graphs.generators.road_network(100000)`` and the
exact diameter (all sources, hops) of the largest connected component of
``graphs.generators.rmat(20)``, on the device, against the CPU on a smaller case
for a check.

Results go to ``benchmarks/results/centrality-{cpu,gpu}.{json,md}`` (and $OUT if
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

from benchmarks._common import machine, markdown_table, set_quick, write_results  # noqa: E402


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


def cpu(args) -> None:
    import igraph as ig
    import networkx as nx
    import rustworkx as rx

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
    n = args.n
    _, e, w = ba_graph(n)
    H = graphs.Graph.from_edges(e[:, 0], e[:, 1], w.astype(np.float64), n=n, directed=False)
    R = rx.PyGraph()
    R.add_nodes_from(range(n))
    R.add_edges_from([(int(a), int(b), float(x)) for (a, b), x in zip(e, w)])
    Ig = ig.Graph(n=n, edges=e.tolist())
    Ig.es["weight"] = w.astype(float).tolist()

    # unweighted: ours, rustworkx, igraph (interleaved, one run each)
    ours, t_us = _timed(lambda: graphs.betweenness_centrality(H, weighted=False))
    rxd, t_rx = _timed(lambda: rx.betweenness_centrality(R, normalized=True))
    igv, t_ig = _timed(lambda: Ig.betweenness(directed=False))
    raw = graphs.betweenness_centrality(H, weighted=False, normalized=False)
    err_rx = _rel(ours, [rxd[i] for i in range(n)])
    err_ig = _rel(raw, igv)
    best = min(t_rx, t_ig)
    for peer, t, err in (("rustworkx", t_rx, err_rx), ("igraph", t_ig, err_ig)):
        rows.append([f"betweenness n={n}", "unweighted", peer, f"{t:.2f}", f"{t_us:.2f}", f"{t / t_us:.2f}x",
                     f"{err:.1e}"])
        payload["results"].append({"case": "betweenness", "n": n, "weighted": False, "peer": peer, "peer_s": t,
                                   "ours_s": t_us, "max_rel_err": err})
        print(rows[-1], flush=True)
    payload["results"].append({"case": "betweenness", "n": n, "weighted": False,
                               "speedup_over_fastest_peer": best / t_us})

    # weighted: ours, igraph
    ours_w, t_usw = _timed(lambda: graphs.betweenness_centrality(H, normalized=False))
    igw, t_igw = _timed(lambda: Ig.betweenness(directed=False, weights="weight"))
    err = _rel(ours_w, igw)
    rows.append([f"betweenness n={n}", "weighted 1..100", "igraph", f"{t_igw:.2f}", f"{t_usw:.2f}",
                 f"{t_igw / t_usw:.2f}x", f"{err:.1e}"])
    rows.append([f"betweenness n={n}", "weighted 1..100", "rustworkx", "n/a (no weighted betweenness)", "", "", ""])
    payload["results"].append({"case": "betweenness", "n": n, "weighted": True, "peer": "igraph", "peer_s": t_igw,
                               "ours_s": t_usw, "max_rel_err": err, "speedup_over_fastest_peer": t_igw / t_usw})
    print(rows[-2], flush=True)

    # closeness (hops): ours against igraph
    cl, t_cl = _timed(lambda: graphs.closeness_centrality(H, weighted=False))
    icl, t_icl = _timed(lambda: Ig.closeness())
    err = _rel(cl, icl)
    rows.append([f"closeness n={n}", "unweighted", "igraph", f"{t_icl:.2f}", f"{t_cl:.2f}", f"{t_icl / t_cl:.2f}x",
                 f"{err:.1e}"])
    payload["results"].append({"case": "closeness", "n": n, "weighted": False, "peer": "igraph", "peer_s": t_icl,
                               "ours_s": t_cl, "max_rel_err": err})
    print(rows[-1], flush=True)

    m = payload["machine"]
    md = (f"# Centrality on the CPU\n\n{m['cpu']} ({m['cores']} cores; {m['simd']}), {m['date']}.\n\n"
          f"Graph: {payload['graph']}; NetworkX rows on n = {args.nx_n}. Times in seconds, one run each, "
          "conversions excluded; speedup = peer time / our time; error = largest relative difference from the "
          "peer's values.\n\n"
          + markdown_table(["job", "weights", "peer", "peer s", "ours s", "speedup", "max rel err"], rows))
    j, _ = write_results("centrality-cpu", payload, md)
    print(md)
    print(f"wrote {j}")


def gpu(args) -> None:
    import cupy as cp

    import graphs

    rows = []
    payload = {"machine": machine(), "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
               "results": []}
    road_n = 20000 if args.quick else 100000
    scale = 16 if args.quick else 20

    def sync_timed(fn):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        out = fn()
        cp.cuda.Device().synchronize()
        return out, time.perf_counter() - t

    small = graphs.generators.road_network(2000, seed=1)
    ref = graphs.betweenness_centrality(small)
    chk = graphs.betweenness_centrality(small.to("gpu")).get()
    err = _rel(chk, ref)
    print(f"check road_network(2000) weighted betweenness GPU vs CPU: max rel err {err:.1e}", flush=True)

    G = graphs.generators.road_network(road_n, seed=0).to("gpu")
    graphs.betweenness_centrality(graphs.generators.road_network(500, seed=0).to("gpu"))  # compile
    bc, t = sync_timed(lambda: graphs.betweenness_centrality(G))
    rows.append([f"exact weighted betweenness, road_network({road_n})", f"{t:.2f}", f"{err:.1e}"])
    payload["results"].append({"case": "betweenness", "graph": f"road_network({road_n})", "seconds": t,
                               "check_err": err})
    print(rows[-1], flush=True)

    R = graphs.generators.rmat(scale, seed=0)
    k, labels = graphs.connected_components(R)
    big = np.flatnonzero(labels == np.bincount(labels).argmax())
    A = R.to_scipy()[big][:, big]
    L = graphs.as_graph(A, directed=False).to("gpu")
    small_r = graphs.as_graph(graphs.generators.rmat(12, seed=0).to_scipy(), directed=False)
    _, lab2 = graphs.connected_components(small_r)
    b2 = np.flatnonzero(lab2 == np.bincount(lab2).argmax())
    S2 = graphs.as_graph(small_r.to_scipy()[b2][:, b2], directed=False)
    d_ok = graphs.diameter(S2, weighted=False) == graphs.diameter(S2.to("gpu"), weighted=False)
    d, t = sync_timed(lambda: graphs.diameter(L, weighted=False))
    rows.append([f"exact diameter (hops, all sources), LCC of rmat({scale}) ({L.n} vertices, {L.nnz} arcs) = {d}",
                 f"{t:.2f}", "equal" if d_ok else "DIFFERENT"])
    payload["results"].append({"case": "diameter", "graph": f"rmat({scale}) LCC", "n": L.n, "arcs": L.nnz,
                               "diameter": int(d), "seconds": t, "check_equal": bool(d_ok)})
    print(rows[-1], flush=True)
    md = (f"# Centrality on the GPU\n\n{payload['device']}; host {payload['machine']['cpu']}, "
          f"{payload['machine']['date']}.\n\n" + markdown_table(["job", "seconds", "check against the CPU"], rows))
    j, _ = write_results("centrality-gpu", payload, md)
    print(md)
    print(f"wrote {j}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gpu", action="store_true", help="the GPU cases")
    p.add_argument("--n", type=int, default=20000, help="vertices of the BA graph (default 20000)")
    p.add_argument("--nx-n", type=int, default=1000, help="vertices of the BA graph NetworkX runs on")
    p.add_argument("--quick", action="store_true", help="small sizes, results under results/quick/")
    args = p.parse_args(argv)
    if args.quick:
        set_quick(True)
        args.n = min(args.n, 3000)
        args.nx_n = min(args.nx_n, 300)
    (gpu if args.gpu else cpu)(args)


if __name__ == "__main__":
    main()
