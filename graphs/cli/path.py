"""``semiring-paths path``: one shortest route from ``--source`` to ``--target`` (:func:`graphs.shortest_path`).

Examples
--------
>>> from graphs.cli import main
>>> main(["path", "--n", "200", "--source", "0", "--target", "7"])  # doctest: +ELLIPSIS
graph      road_network(n=200, seed=0)
...
route      0 -> ... -> 7
0
"""

from __future__ import annotations

import argparse

from ._common import OK, SUMMARIES, add_subcommand, endpoints, number, start, timed

__all__ = ["add_parser", "run"]

HEURISTIC_HELP = """search: auto (default) = A* with a Euclidean lower bound when the graph has coordinates and
the bound is tight (road networks), else bidirectional Dijkstra;
euclidean = A* whenever the graph has coordinates; none = bidirectional Dijkstra.
Unweighted graphs use bidirectional BFS, negative weights Bellman-Ford."""


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``path`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "path", SUMMARIES["path"],
                       "One shortest route from --source to --target, its length and its vertices. "
                       "The search runs on the CPU.",
                       formatter_class=argparse.RawTextHelpFormatter, target=True, device=False)
    p.add_argument("--heuristic", default="auto", choices=["auto", "euclidean", "none"], help=HEURISTIC_HELP)
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``path``; return the exit status."""
    import graphs

    G, report, num = start(args, "path", out)
    s, t = endpoints(args, num, G.n)
    heuristic = None if args.heuristic == "none" else args.heuristic
    r, seconds = timed(graphs.shortest_path, G, s, t, heuristic=heuristic)
    report.field("source", num.out(s))
    report.field("target", num.out(t))
    report.field("method", r.method, f"{r.method} ({r.settled:,} vertices settled)")
    report.data["settled"] = r.settled
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    if r.path is None:
        report.field("distance", None, f"inf: vertex {num.out(t)} cannot be reached from vertex {num.out(s)}")
        report.field("route", None, "none")
    else:
        report.field("distance", number(r.distance), f"{r.distance} over {r.hops} arcs")
        route = [num.out(v) if isinstance(v, int) else v for v in r.path]
        report.field("route", route, " -> ".join(map(str, route)))
    report.emit()
    return OK
