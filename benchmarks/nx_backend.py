"""NetworkX through the semiring_paths backend against NetworkX itself, side by side, conversion included.

::

    PYTHONPATH=. python3 benchmarks/nx_backend.py [--quick] [--crossover]

Each case calls the same NetworkX function twice per repeat, with
``backend="semiring_paths"`` and with ``backend="networkx"``, on the same
seeded graph, with NetworkX's conversion cache off (every backend call
converts the graph anew), checks the answers agree, and reports medians and
ratios.  ``--crossover`` times ``floyd_warshall_numpy`` and
``single_source_dijkstra_path_length`` on small graphs to place the
``should_run`` thresholds (:data:`graphs.nx_backend.interface.MIN_NODES`).
Results go to benchmarks/results/nx_backend-cpu.{json,md}.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402
from _common import machine, markdown_table, median_time, set_quick, write_results  # noqa: E402

B = "semiring_paths"




def weighted(G, seed, attr="weight", low=1, high=100):
    rng = np.random.default_rng(seed)
    for (_, _, d), w in zip(G.edges(data=True), rng.integers(low, high, G.number_of_edges()).tolist()):
        d[attr] = w
    return G


def cases(quick: bool):
    n_fw = 300 if quick else 1000
    G = weighted(nx.gnp_random_graph(n_fw, 0.1, seed=1, directed=True), 2)
    yield (
        f"floyd_warshall_numpy, gnp({n_fw}, 0.1) directed",
        lambda b: nx.floyd_warshall_numpy(G, backend=b),
        1 if quick else 3,
    )

    def kept(b):  # NetworkX's default: the converted graph is kept on G between calls
        nx.config.cache_converted_graphs = True
        try:
            return nx.floyd_warshall_numpy(G, backend=b)
        finally:
            nx.config.cache_converted_graphs = False

    yield (
        f"floyd_warshall_numpy, gnp({n_fw}, 0.1) directed, converted graph kept (NetworkX's default)",
        kept,
        1 if quick else 5,
    )
    H = weighted(nx.gnm_random_graph(10_000, 100_000, seed=3, directed=True), 4)
    yield (
        "single_source_dijkstra_path_length, gnm(10k, 100k) directed",
        lambda b: nx.single_source_dijkstra_path_length(H, 0, backend=b),
        5,
    )
    U = nx.gnm_random_graph(100_000, 100_000, seed=5)
    yield "connected_components, gnm(100k, 100k)", lambda b: [len(c) for c in nx.connected_components(U, backend=b)], 5
    M = weighted(nx.gnm_random_graph(20_000, 100_000, seed=6), 7)
    yield (
        "minimum_spanning_tree (kruskal), gnm(20k, 100k)",
        lambda b: sorted(nx.minimum_spanning_tree(M, backend=b).edges()),
        3,
    )
    F = weighted(nx.gnm_random_graph(5_000, 50_000, seed=8, directed=True), 9, "capacity")
    yield "maximum_flow_value, gnm(5k, 50k) directed", lambda b: nx.maximum_flow_value(F, 0, 1, backend=b), 3


def same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, b))
    return a == b


def crossover() -> list[dict]:
    rows = []
    for n in (4, 8, 16, 32, 64):
        G = weighted(nx.gnp_random_graph(n, 0.3, seed=n, directed=True), n)
        ours = median_time(lambda G=G: nx.floyd_warshall_numpy(G, backend=B), repeats=21)
        theirs = median_time(lambda G=G: nx.floyd_warshall_numpy(G, backend="networkx"), repeats=21)
        rows.append({"function": "floyd_warshall_numpy", "n": n, "backend_s": ours, "networkx_s": theirs})
    for n in (250, 1000, 2000, 4000, 16000):
        G = weighted(nx.gnm_random_graph(n, 5 * n, seed=n, directed=True), n)
        ours = median_time(lambda G=G: nx.single_source_dijkstra_path_length(G, 0, backend=B), repeats=7)
        theirs = median_time(lambda G=G: nx.single_source_dijkstra_path_length(G, 0, backend="networkx"), repeats=7)
        rows.append(
            {"function": "single_source_dijkstra_path_length (m = 5n)", "n": n, "backend_s": ours, "networkx_s": theirs}
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller floyd_warshall_numpy (n = 300)")
    ap.add_argument("--crossover", action="store_true", help="also time small graphs for the should_run thresholds")
    args = ap.parse_args(argv)
    set_quick(args.quick)
    nx.config.cache_converted_graphs = False  # conversion included in every backend call (but one case)
    nx.config.warnings_to_ignore.add("cache")  # that case keeps the converted graph on purpose
    info = {**machine(), "networkx": nx.__version__}
    print(
        f"# {info['cpu']} ({info['simd'] or 'no SIMD flags read'}), {info['cores']} cores, networkx {nx.__version__}"
    )
    rows, results = [], []
    for name, fn, repeats in cases(args.quick):
        assert same(fn(B), fn("networkx")), name  # also the warm-up (Numba compiled, caches filled)
        ours = median_time(lambda fn=fn: fn(B), repeats=repeats, warmup=0)
        theirs = median_time(lambda fn=fn: fn("networkx"), repeats=repeats, warmup=0, budget_s=120)
        results.append(
            {"case": name, "backend_s": ours, "networkx_s": theirs, "speedup": theirs / ours, "repeats": repeats}
        )
        rows.append([name, f"{ours * 1e3:.1f}", f"{theirs * 1e3:.1f}", f"{theirs / ours:.1f}x"])
        print(
            f"{name:60s} semiring_paths {ours * 1e3:9.1f} ms   networkx {theirs * 1e3:9.1f} ms   {theirs / ours:7.1f}x",
            flush=True,
        )
    md = f"# NetworkX through the semiring_paths backend (conversion included)\n\n{info['cpu']}; SIMD: {info['simd'] or 'none'}; {info['cores']} cores; networkx {nx.__version__}; {info['date']}\n\n"
    md += markdown_table(["case", "semiring_paths ms (median)", "networkx ms (median)", "speed-up"], rows)
    payload = {"machine": info, "results": results}
    if args.crossover:
        cross = crossover()
        payload["crossover"] = cross
        md += "\n\n## Small graphs (should_run crossover)\n\n" + markdown_table(
            ["function", "n", "semiring_paths ms", "networkx ms", "ratio"],
            [
                [
                    c["function"],
                    c["n"],
                    f"{c['backend_s'] * 1e3:.3f}",
                    f"{c['networkx_s'] * 1e3:.3f}",
                    f"{c['networkx_s'] / c['backend_s']:.2f}x",
                ]
                for c in cross
            ],
        )
        for c in cross:
            print(
                f"{c['function']:45s} n={c['n']:6d}  {c['backend_s'] * 1e3:9.3f} ms vs {c['networkx_s'] * 1e3:9.3f} ms  {c['networkx_s'] / c['backend_s']:.2f}x"
            )
    print(write_results("nx_backend-cpu", payload, md + "\n"))


if __name__ == "__main__":
    main()
