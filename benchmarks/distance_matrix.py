"""Origin-destination distance matrices: graphs.distance_matrix against SciPy, igraph, NetworkX and the GPU routes.

::

    PYTHONPATH=. python3 benchmarks/distance_matrix.py cpu [--n 200000] [--k 1000] [--t 1000] [--repeats 3]
    PYTHONPATH=. python3 benchmarks/distance_matrix.py gpu [--n 1000000] [--k 10000] [--t 10000] [--disk DIR]

``cpu``: ``road_network(n)``, ``k`` random origins x ``t`` random destinations
(seeded), side by side in one run, alternated: this library's
``distance_matrix`` (every core), SciPy's ``dijkstra(indices=origins)`` (full
rows, then the destination columns), igraph's ``distances(source=, target=)``
and NetworkX's ``single_source_dijkstra_path_length`` looped over a sample of
origins (scaled to ``k``).  Every answer is checked equal to SciPy's.

``gpu``: ``road_network(n)`` with float32 lengths (whole metres, exact):
``k x t`` including the transfer of the result to the host; the same origins
with every vertex as a destination streamed to a ``.npy`` file under
``--disk`` (``k x n``); the per-origin rate against SciPy's ``dijkstra`` on the
GPU host's CPU (100 sampled origins); R-MAT 20 unweighted, 4,096 origins to
every vertex, against ``multi_source_sssp(method="spmm")`` (Bellman-Ford
SpMM, the previous GPU route, run on 512 origins at a time) and a CuPy user's
loop of ``graphs.sssp`` on the GPU (sampled).  Results go to
``benchmarks/results/distance_matrix-<device>.{json,md}``.
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


def _t(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def _scipy(G):
    import scipy.sparse as sp

    return sp.csr_matrix((G.weights.astype(np.float64), G.indices, G.indptr), shape=(G.n, G.n))


def cpu(args) -> None:
    import igraph as ig
    import networkx as nx
    from scipy.sparse.csgraph import dijkstra

    G = graphs.generators.road_network(args.n, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    src = rng.choice(G.n, args.k, replace=False)
    tgt = rng.choice(G.n, args.t, replace=False)
    A = _scipy(G)
    r, c, w = G.edges()
    gi = ig.Graph(n=G.n, edges=np.column_stack([r, c]).tolist(), directed=True)
    gi.es["weight"] = w.tolist()
    nsample = min(args.k, 20)
    H = nx.DiGraph()
    H.add_weighted_edges_from(zip(r.tolist(), c.tolist(), w.tolist()))
    graphs.distance_matrix(G, src[:4], tgt)  # compiles, renumbers once (kept on the graph)
    times: dict[str, list[float]] = {"semiring_paths": [], "scipy": [], "igraph": [], "networkx": []}
    ref = None
    for rep in range(args.repeats):
        D, t = _t(lambda: graphs.distance_matrix(G, src, tgt))
        times["semiring_paths"].append(t)
        S, t = _t(lambda: dijkstra(A, indices=src)[:, tgt])
        times["scipy"].append(t)
        ref = S
        assert np.array_equal(D, S), "distance_matrix differs from SciPy"
        Di, t = _t(lambda: np.array(gi.distances(source=src.tolist(), target=tgt.tolist(), weights="weight")))
        times["igraph"].append(t)
        assert np.array_equal(Di, S), "igraph differs from SciPy"
        if rep == 0:
            def loop():
                return [nx.single_source_dijkstra_path_length(H, int(s)) for s in src[:nsample]]

            rows, t = _t(loop)
            times["networkx"].append(t * args.k / nsample)
            for i, row in enumerate(rows):
                assert all(row.get(int(v), np.inf) == ref[i, j] for j, v in enumerate(tgt))
        print({k: [round(x, 2) for x in v] for k, v in times.items()}, flush=True)
    med = {k: statistics.median(v) for k, v in times.items() if v}
    ours = med["semiring_paths"]
    table = [[name, f"{sec:.2f}", f"{sec / args.k * 1e3:.2f}", f"{sec / ours:.2f}x"] for name, sec in med.items()]
    info = machine()
    md = (f"# Distance matrix, road_network({args.n:,}), {args.k:,} origins x {args.t:,} destinations (CPU)\n\n"
          f"{info['cpu']}; SIMD: {info['simd']}; {info['cores']} cores; {info['date']}\n\n"
          f"Medians of {args.repeats} alternated runs; every answer equal to SciPy's.  SciPy computes full rows "
          f"(its API has no destinations); NetworkX timed on {nsample} origins and scaled.\n\n"
          + markdown_table(["route", "seconds", "ms per origin", "time / semiring_paths"], table))
    write_results("distance_matrix-cpu", {"machine": info, "args": vars(args), "times": times}, md)
    print(md)


def gpu(args) -> None:
    import cupy as cp
    from _common import gpu_time
    from scipy.sparse.csgraph import dijkstra

    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    rows = []
    G = graphs.generators.road_network(args.n, seed=args.seed, dtype=np.float32)
    Gg = G.to("gpu")
    rng = np.random.default_rng(args.seed)
    src = rng.choice(G.n, args.k, replace=False)
    tgt = rng.choice(G.n, args.t, replace=False)
    # correctness on a sample first, against SciPy
    A = _scipy(G)
    sample = src[:100]
    ref, t_scipy = _t(lambda: dijkstra(A, indices=sample))
    got = graphs.distance_matrix(Gg, sample, None).get()
    assert np.array_equal(got, ref.astype(np.float32)), "GPU rows differ from SciPy"
    per_scipy = t_scipy / sample.shape[0]
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    Dh = cp.asnumpy(graphs.distance_matrix(Gg, src, tgt))
    t_od = time.perf_counter() - t0
    assert np.array_equal(Dh[:100], ref[:, tgt].astype(np.float32))
    rows.append([f"road_network({args.n:,}) float32", f"{args.k:,} x {args.t:,}", "distance_matrix on the GPU, "
                 "result on the host", f"{t_od:.2f}", f"{t_od / args.k * 1e3:.3f}",
                 f"{per_scipy / (t_od / args.k):.0f}x SciPy per origin"])
    rows.append([f"road_network({args.n:,}) float32", "100 origins, all", "SciPy dijkstra (host CPU)",
                 f"{t_scipy:.2f}", f"{per_scipy * 1e3:.1f}", "1x"])
    print(rows[-2:], flush=True)
    if args.disk:
        path = Path(args.disk) / "D_all.npy"
        t0 = time.perf_counter()
        D = graphs.distance_matrix(Gg, src, None, out=path)
        t_all = time.perf_counter() - t0
        ok = np.array_equal(np.asarray(D[:100]), ref.astype(np.float32))
        size = path.stat().st_size
        del D
        path.unlink()
        rows.append([f"road_network({args.n:,}) float32", f"{args.k:,} x {G.n:,}",
                     f"distance_matrix streamed to disk ({size / 2**30:.1f} GiB .npy)", f"{t_all:.2f}",
                     f"{t_all / args.k * 1e3:.3f}", f"equal to SciPy on 100 rows: {ok}"])
        print(rows[-1], flush=True)
    # R-MAT 20, unweighted, 4,096 origins to every vertex
    R = graphs.generators.rmat(args.rmat_scale, seed=args.seed, weights=None)
    Rg = R.to("gpu")
    rsrc = np.random.default_rng(1).choice(R.n, args.rmat_k, replace=False)
    chunk = 512
    host = np.empty((args.rmat_k, R.n), dtype=np.float64)

    def ours():
        graphs.distance_matrix(Rg, rsrc, weighted=False, out=host)

    def spmm():
        for r0 in range(0, args.rmat_k, chunk):
            D, _ = graphs.multi_source_sssp(Rg, rsrc[r0:r0 + chunk], method="spmm", predecessors=False)
            D.get(out=host[r0:r0 + chunk])

    ours()
    first = host[:8].copy()
    t_ours = gpu_time(ours, repeats=3, warmup=0)
    t_spmm = gpu_time(spmm, repeats=3, warmup=1)
    assert np.array_equal(host[:8], first), "SpMM rows differ from distance_matrix's"
    loop_n = 32

    def loop():
        for s in rsrc[:loop_n]:
            graphs.sssp(Rg, int(s))

    t_loop = gpu_time(loop, repeats=3, warmup=1) * args.rmat_k / loop_n
    name = f"R-MAT {args.rmat_scale} unweighted ({R.n:,} vertices, {R.nnz:,} arcs)"
    for label, sec in (("distance_matrix (bit-parallel BFS)", t_ours), ("multi_source_sssp method='spmm', 512 at a "
                       "time", t_spmm), (f"loop of graphs.sssp on the GPU ({loop_n} origins, scaled)", t_loop)):
        where = ", results left on the GPU (no transfer)" if label.startswith("loop") else ", result on the host"
        rows.append([name, f"{args.rmat_k:,} x all", label + where, f"{sec:.2f}",
                     f"{sec / args.rmat_k * 1e3:.3f}", f"{sec / t_ours:.1f}x distance_matrix's time"])
        print(rows[-1], flush=True)
    info = machine()
    md = (f"# Distance matrices on the GPU ({dev})\n\nHost: {info['cpu']}; {info['date']}\n\n"
          + markdown_table(["graph", "origins x destinations", "route", "seconds", "ms per origin", "ratio"], rows))
    write_results("distance_matrix-gpu", {"machine": info, "device": dev, "args": vars(args), "rows": rows}, md)
    print(md)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("device", choices=("cpu", "gpu"))
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--k", type=int, default=None)
    ap.add_argument("--t", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--disk", default=None)
    ap.add_argument("--rmat-scale", type=int, default=20)
    ap.add_argument("--rmat-k", type=int, default=4096)
    args = ap.parse_args()
    gpu_defaults = args.device == "gpu"
    args.n = args.n or (1_000_000 if gpu_defaults else 200_000)
    args.k = args.k or (10_000 if gpu_defaults else 1000)
    args.t = args.t or (10_000 if gpu_defaults else 1000)
    (gpu if gpu_defaults else cpu)(args)


if __name__ == "__main__":
    main()
