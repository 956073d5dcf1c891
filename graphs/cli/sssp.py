"""``semiring-paths sssp``: shortest-path distances from one source (a summary, or every vertex with ``--all``).

Examples
--------
>>> from graphs.cli import main
>>> main(["sssp", "--n", "200", "--source", "5", "--device", "cpu", "--json"])  # doctest: +ELLIPSIS
{"command": "sssp", "graph": "road_network(n=200, seed=0)", ..., "reached": 200, ...}
0
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from ._common import OK, SUMMARIES, add_subcommand, number, start, timed, to_host

__all__ = ["add_parser", "run"]

METHOD_HELP = """single-source method: auto (default) = bellman-ford when a weight is negative, else delta-stepping on
the GPU; on the CPU label-correcting for low-diameter graphs (average degree >= 8) of integer weights and
fewer than 2**22 arcs, delta-stepping otherwise;
dijkstra = binary-heap Dijkstra, non-negative weights;
delta-stepping = buckets of width delta, non-negative weights (the GPU method);
label-correcting = Small Label First deque, fast on social networks, non-negative weights;
bellman-ford = frontier Bellman-Ford, allows negative weights and reports negative cycles"""


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``sssp`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "sssp", SUMMARIES["sssp"],
                       "Shortest-path distances and a shortest-path tree from one source "
                       "(an unweighted graph counts hops).",
                       formatter_class=argparse.RawTextHelpFormatter, source=True)
    p.add_argument("--method", default="auto",
                   choices=["auto", "dijkstra", "delta-stepping", "label-correcting", "bellman-ford"],
                   help=METHOD_HELP)
    p.add_argument("--all", action="store_true", help="list every vertex: distance and predecessor")
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``sssp``; return the exit status."""
    import graphs
    from semiring.dtypes import posinf

    G, report, num = start(args, "sssp", out)
    s = num.vertex_in(args.source, "--source", G.n)
    (dist, pred), seconds = timed(graphs.sssp, G, s, method=args.method)
    dist, pred = to_host(dist), to_host(pred)
    reached = dist != posinf(dist.dtype)
    finite = dist[reached]
    far = int(np.flatnonzero(reached)[np.argmax(finite)]) if finite.size else s
    report.field("source", num.out(s))
    report.field("method", args.method)
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("reached", int(reached.sum()), f"{int(reached.sum()):,} of {G.n:,} vertices "
                                                 f"({G.n - int(reached.sum()):,} unreachable)")
    report.field("farthest", {"vertex": num.out(far), "distance": number(dist[far])},
                 f"vertex {num.out(far)} at distance {dist[far]}")
    mean = float(finite.astype(np.float64).mean()) if finite.size else 0.0
    report.field("mean", mean, f"{mean:.6g} (mean distance over reached vertices)")
    if args.all:
        dist_out = [number(d) if r else None for d, r in zip(dist.tolist(), reached.tolist())]
        pred_out = [num.out(p) if p >= 0 else None for p in pred.tolist()]
        rows = [[num.out(v), math.inf if dist_out[v] is None else dist_out[v], pred_out[v]] for v in range(G.n)]
        report.table("all", ["vertex", "distance", "predecessor"], rows,
                     json_rows={"distance": dist_out, "predecessor": pred_out})
    report.emit()
    return OK
