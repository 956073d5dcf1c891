"""``semiring-paths mst``: the minimum spanning forest (:func:`graphs.minimum_spanning_tree`), its weight and edges.

Examples
--------
>>> from graphs.cli import main
>>> main(["mst", "--n", "100", "--device", "cpu", "--json"])  # doctest: +ELLIPSIS
{"command": "mst", ..., "components": 1, "edges_in_forest": 99, ...}
0
"""

from __future__ import annotations

import argparse

from ._common import OK, SUMMARIES, add_subcommand, number, start, timed, to_host

__all__ = ["add_parser", "run"]


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``mst`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "mst", SUMMARIES["mst"],
                       "Minimum spanning forest (a tree per connected component; arc directions "
                       "ignored, as SciPy does): its total weight, component count and edges. "
                       "Ties are broken by arc position, so the forest is unique.")
    p.add_argument("--all", action="store_true", help="list every forest edge")
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``mst``; return the exit status."""
    import graphs

    G, report, num = start(args, "mst", out)
    F, seconds = timed(graphs.minimum_spanning_tree, G)
    u, v, w = (to_host(x) for x in F.edges)
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("weight", number(F.weight), f"{F.weight}")
    report.field("components", int(F.n_components), f"{int(F.n_components):,} trees")
    report.field("edges_in_forest", int(u.shape[0]), f"{int(u.shape[0]):,} edges", label="edges")
    rows = [[num.out(a), num.out(b), number(x)] for a, b, x in zip(u.tolist(), v.tolist(), w.tolist())]
    report.listing("forest", ["u", "v", "weight"], rows,
                   json_rows=[{"u": a, "v": b, "weight": x} for a, b, x in rows], everything=args.all)
    report.emit()
    return OK
