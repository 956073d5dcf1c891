"""``semiring-paths bfs``: breadth-first levels from one source (vertices per level, or every vertex with ``--all``).

Examples
--------
>>> from graphs.cli import main
>>> main(["bfs", "--n", "100", "--device", "cpu"])  # doctest: +ELLIPSIS
graph      road_network(n=100, seed=0)
...
reached    100 of 100 vertices (0 unreachable) in ... levels
...
0
"""

from __future__ import annotations

import argparse

import numpy as np

from ._common import OK, SUMMARIES, add_subcommand, start, timed, to_host

__all__ = ["add_parser", "run"]


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``bfs`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "bfs", SUMMARIES["bfs"],
                       "Breadth-first search from one source: hop levels and a BFS tree "
                       "(arcs followed in their direction, weights ignored).", source=True)
    p.add_argument("--all", action="store_true", help="list every vertex: level and parent")
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``bfs``; return the exit status."""
    import graphs

    G, report, num = start(args, "bfs", out)
    s = num.vertex_in(args.source, "--source", G.n)
    (levels, parents), seconds = timed(graphs.bfs, G, s)
    levels, parents = to_host(levels), to_host(parents)
    reached = levels >= 0
    depth = int(levels.max()) + 1
    report.field("source", num.out(s))
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("reached", int(reached.sum()), f"{int(reached.sum()):,} of {G.n:,} vertices "
                                                 f"({G.n - int(reached.sum()):,} unreachable) in {depth} levels")
    counts = np.bincount(levels[reached], minlength=depth)
    report.table("levels", ["level", "vertices"], [[k, int(c)] for k, c in enumerate(counts)],
                 json_rows=[int(c) for c in counts])
    if args.all:
        lev = [int(v) if v >= 0 else None for v in levels.tolist()]
        par = [num.out(p) if p >= 0 else None for p in parents.tolist()]
        report.table("all", ["vertex", "level", "parent"], [[num.out(v), lev[v], par[v]] for v in range(G.n)],
                     json_rows={"level": lev, "parent": par})
    report.emit()
    return OK
