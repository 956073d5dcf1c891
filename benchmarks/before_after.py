"""Two trees of this library, timed alternately in fresh processes: did a change of structure cost speed?

::

    python3 benchmarks/before_after.py OLD_TREE NEW_TREE [--rounds 4]

``OLD_TREE`` and ``NEW_TREE`` are checkouts of the repository (``git worktree add
/tmp/old <commit>``).  Each round runs one process per tree, old then new; each
process imports the library from its tree and times ``apsp.shortest_paths`` of a
2048-vertex matrix (float64, half the entries ``inf``), ``graphs.sssp`` on a
300 x 300 grid and the NetworkX backend's ``single_source_dijkstra_path_length``
on a weighted 20,000-node, 100,000-arc graph (conversion included), each the
median of 7 calls after a warm-up (3 for the closure).  The table gives the
median over the rounds and the ratio new / old.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CASES = """
import sys, json, time, statistics
root = sys.argv[1]
sys.path.insert(0, root)
import numpy as np
import apsp, graphs, networkx as nx
assert apsp.__file__.startswith(root), apsp.__file__
def med(f, r=7):
    f()
    ts = []
    for _ in range(r):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)
rng = np.random.default_rng(0)
W = rng.random((2048, 2048)); W[rng.random((2048, 2048)) < 0.5] = np.inf; np.fill_diagonal(W, 0)
G = graphs.generators.grid_2d(300, 300, seed=1)
nx.config.cache_converted_graphs = False
H = nx.gnm_random_graph(20000, 100000, seed=1, directed=True)
for k, (u, v) in enumerate(H.edges):
    H[u][v]["weight"] = 1 + k % 7
print(json.dumps({
    "apsp.shortest_paths n=2048 f64": med(lambda: apsp.shortest_paths(W), 3),
    "graphs.sssp grid 300x300": med(lambda: graphs.sssp(G, 0)),
    "nx dijkstra (backend, gnm 10^5 arcs)": med(lambda: nx.single_source_dijkstra_path_length(H, 0, backend="semiring_paths")),
}))
"""


def run(tree: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CASES, tree], capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args(argv)
    times: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for r in range(args.rounds):
        for tag, tree in (("old", args.old), ("new", args.new)):
            for k, v in run(tree).items():
                times[tag].setdefault(k, []).append(v)
        print(f"round {r + 1} of {args.rounds} done ({time.strftime('%H:%M:%S')})", file=sys.stderr)
    print("| case | old (ms) | new (ms) | new / old |\n| --- | --- | --- | --- |")
    for k in times["old"]:
        o, n = statistics.median(times["old"][k]), statistics.median(times["new"][k])
        print(f"| {k} | {o * 1e3:.2f} | {n * 1e3:.2f} | {n / o:.3f} |")


if __name__ == "__main__":
    main()
