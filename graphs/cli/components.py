"""``semiring-paths components``: weakly or strongly connected components, their count and sizes.

Examples
--------
>>> from graphs.cli import main
>>> main(["components", "--n", "100", "--device", "cpu", "--json"])  # doctest: +ELLIPSIS
{"command": "components", ..., "count": 1, "largest": 100, ...}
0
"""

from __future__ import annotations

import argparse

import numpy as np

from ._common import OK, SUMMARIES, add_subcommand, start, timed, to_host

__all__ = ["add_parser", "run"]


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``components`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "components", SUMMARIES["components"],
                       "Connected components: weak (arc directions ignored) or strong "
                       "(mutual reachability); the count and the sizes, largest first.")
    p.add_argument("--connection", default="weak", choices=["weak", "strong"],
                   help="weak: ignore arc directions (default); strong: mutual reachability")
    p.add_argument("--all", action="store_true", help="list every vertex's component")
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``components``; return the exit status."""
    import graphs

    G, report, num = start(args, "components", out)
    (count, labels), seconds = timed(graphs.connected_components, G, args.connection)
    labels = to_host(labels)
    sizes = np.bincount(labels, minlength=count)
    first = np.full(count, G.n, dtype=np.int64)
    np.minimum.at(first, labels, np.arange(G.n))
    order = np.lexsort((first, -sizes))  # largest first, ties by smallest vertex
    report.field("connection", args.connection)
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("count", int(count), f"{int(count):,} components")
    report.field("largest", int(sizes.max(initial=0)), f"{int(sizes.max(initial=0)):,} vertices")
    rows = [[int(c), int(sizes[c]), num.out(first[c])] for c in order]
    report.listing("components", ["component", "size", "smallest vertex"], rows,
                   json_rows=[{"component": c, "size": z, "smallest_vertex": v} for c, z, v in rows], everything=args.all)
    if args.all:
        report.data["labels"] = labels.tolist()
        report.lines.append("component of every vertex: " + " ".join(map(str, labels.tolist())))
    report.emit()
    return OK
