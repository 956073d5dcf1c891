"""``semiring-paths flow``: a maximum flow and a minimum cut from ``--source`` to ``--target`` (:func:`graphs.maximum_flow`).

Examples
--------
>>> from graphs.cli import main
>>> main(["flow", "--n", "100", "--source", "0", "--target", "7", "--device", "cpu", "--json"])  # doctest: +ELLIPSIS
{"command": "flow", ..., "source": 0, "target": 7, ..., "flow_value": ..., "cut": [...]}
0
"""

from __future__ import annotations

import argparse

import numpy as np

from ._common import OK, SUMMARIES, add_subcommand, endpoints, number, start, timed, to_host

__all__ = ["add_parser", "run"]


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``flow`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "flow", SUMMARIES["flow"],
                       "Maximum flow from --source to --target (arc weights are capacities; "
                       "an unweighted graph has capacity 1 per arc) and a minimum cut: the "
                       "vertices on the source side and the saturated arcs that leave it.", target=True)
    p.add_argument("--all", action="store_true", help="list every cut arc and the source side")
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``flow``; return the exit status."""
    import graphs

    G, report, num = start(args, "flow", out)
    s, t = endpoints(args, num, G.n)
    r, seconds = timed(graphs.maximum_flow, G, s, t)
    side = to_host(r.source_side)
    cu, cv = (to_host(x) for x in r.cut_edges)
    report.field("source", num.out(s))
    report.field("target", num.out(t))
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("flow_value", number(r.flow_value), f"{r.flow_value}", label="flow")
    report.field("source_side", int(np.count_nonzero(side)), f"{int(np.count_nonzero(side)):,} vertices")
    rows = [[num.out(a), num.out(b)] for a, b in zip(cu.tolist(), cv.tolist())]
    report.listing("cut", ["u", "v"], rows, json_rows=[{"u": a, "v": b} for a, b in rows], everything=args.all)
    if args.all:
        report.data["source_side_vertices"] = [num.out(v) for v in np.flatnonzero(side).tolist()]
    report.emit()
    return OK
