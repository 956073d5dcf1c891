"""``semiring-paths paths``: the ``--k`` shortest loopless routes from ``--source`` to ``--target`` (:func:`graphs.k_shortest_paths`).

Examples
--------
>>> from graphs.cli import main
>>> main(["paths", "--n", "200", "--source", "0", "--target", "7", "--k", "3"])  # doctest: +ELLIPSIS
graph      road_network(n=200, seed=0)
...
found      3 of 3 routes
...
0
"""

from __future__ import annotations

import argparse

from ._common import OK, SUMMARIES, add_subcommand, endpoints, number, start, timed

__all__ = ["add_parser", "run"]

#: Vertices of a route shown on the terminal (without ``--all``): the first and last half of them.
SHOWN_VERTICES = 10


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``paths`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "paths", SUMMARIES["paths"],
                       "The --k shortest loopless routes from --source to --target (Yen's algorithm), shortest "
                       "first; routes of equal length in the order of their vertex ids. The searches run on "
                       "the CPU (a graph on the GPU: on its host copy).", target=True)
    p.add_argument("--k", type=int, default=5, help="how many routes (default 5)")
    p.add_argument("--hops", action="store_true", help="count arcs instead of summing the weights")
    p.add_argument("--all", action="store_true", help="print every vertex of each route (default: its ends)")
    return p


def _short(route: list, everything: bool) -> str:
    """``route`` as ``a -> b -> ...``, its middle left out beyond :data:`SHOWN_VERTICES` unless ``everything``."""
    if everything or len(route) <= SHOWN_VERTICES:
        return " -> ".join(map(str, route))
    half = SHOWN_VERTICES // 2
    return " -> ".join(map(str, route[:half])) + " -> ... -> " + " -> ".join(map(str, route[-half:]))


def _leaves(first: list, route: list):
    """The last vertex ``route`` shares with the start of ``first`` (where it takes another way)."""
    k = 0
    while k < min(len(first), len(route)) and first[k] == route[k]:
        k += 1
    return route[k - 1]


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``paths``; return the exit status."""
    import graphs

    G, report, num = start(args, "paths", out)
    s, t = endpoints(args, num, G.n)
    found, seconds = timed(graphs.k_shortest_paths, G, s, t, args.k, weighted=not args.hops)
    report.field("source", num.out(s))
    report.field("target", num.out(t))
    report.field("k", args.k)
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("found", len(found), f"{len(found)} of {args.k} routes"
                 + ("" if found else f": vertex {num.out(t)} cannot be reached from vertex {num.out(s)}"))
    routes = [[num.out(v) for v in r.path] for r in found]
    leaves = [None] + [_leaves(routes[0], route) for route in routes[1:]]
    rows = [[i + 1, r.distance, r.hops, leaves[i], _short(route, args.all)]
            for i, (r, route) in enumerate(zip(found, routes))]
    report.table("paths", ["#", "distance", "arcs", "leaves #1 at", "route"], rows,
                 json_rows=[{"distance": number(r.distance), "arcs": r.hops, "leaves_first_at": leaf, "route": route}
                            for r, route, leaf in zip(found, routes, leaves)])
    report.emit()
    return OK
